"""Reads of the published lists, and stale marks: what closing, history, the live view
and the shadow share.

A closed period's list is its ``elo_history`` rows: every tracked player with a FIDE state
has one row per closed period, so the state at the start of a month is exactly the previous
period's rows (plus the seeds of players not listed yet). Exact decimals are stored as
integer hundredths; an unrated player's pending results as JSON.

Corrections (a game added, edited or removed in a closed month; a seed or birth year
changed) mark that period and every later one stale. Reads warn about stale periods;
``rerate`` (and the next ``period close``) recomputes them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from tracker.db.models import EloHistory, Event, Game, Player, PlayerSeed, RatingPeriod
from tracker.months import month_of, next_month, previous_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import FORFEITS, SCORES


def hundredths(value: Decimal) -> int:
    if not value:
        return 0
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not exact in hundredths")
    return int(scaled)


def from_hundredths(value: int) -> Decimal:
    return Decimal(value) / 100


def closed_months(session: Session, tc: str) -> list[tuple[dt.date, int, bool]]:
    """(month, period id, stale) of every closed period of ``tc``, oldest first."""
    rows = session.execute(
        select(RatingPeriod.month, RatingPeriod.id, RatingPeriod.stale)
        .where(RatingPeriod.tc == tc)
        .order_by(RatingPeriod.month)
    )
    return [(m, pid, stale) for m, pid, stale in rows]


def first_game_month(session: Session, tc: str) -> dt.date | None:
    first = session.scalar(select(func.min(Game.played_on)).where(Game.tc == tc))
    return month_of(first) if first is not None else None


def period_id(session: Session, tc: str, month: dt.date) -> int | None:
    return session.scalar(
        select(RatingPeriod.id).where(RatingPeriod.tc == tc, RatingPeriod.month == month)
    )


class SeedRow(NamedTuple):
    """A tracked player's seed (his FIDE state before tracking starts) and his birth year."""

    player_id: int
    rating: int
    games: int
    ever_2400: bool
    ever_2300: bool
    birth_year: int | None


def seeds(session: Session, tc: str, *, unlisted_in: int | None = None) -> dict[int, SeedRow]:
    """Tracked players' seeds (with ``unlisted_in``: of those without a line in that period)."""
    query = (
        select(
            PlayerSeed.player_id,
            PlayerSeed.rating,
            PlayerSeed.games,
            PlayerSeed.ever_2400,
            PlayerSeed.ever_2300,
            Player.birth_year,
        )
        .join(Player, Player.id == PlayerSeed.player_id)
        .where(PlayerSeed.tc == tc, Player.external.is_(False))
    )
    if unlisted_in is not None:
        listed = select(EloHistory.id).where(
            EloHistory.period_id == unlisted_in, EloHistory.player_id == PlayerSeed.player_id
        )
        query = query.where(~listed.exists())
    return {row[0]: SeedRow(*row) for row in session.execute(query)}


class ListRatings:
    """Published ratings by list, for Ro and the opponents' ratings (§8.3.2: the list in force
    when the event started). Before the first closed period the seeds stand in."""

    def __init__(self, session: Session, tc: str, *, fallback_to_latest: bool = False) -> None:
        self.session = session
        self.tc = tc
        # Rapid & Blitz Rating Regulations §7.2.1: a player unrated in rapid (blitz) who has a
        # standard rating at the start of the tournament is rated with that rating.
        self.standard = (
            ListRatings(session, "standard", fallback_to_latest=fallback_to_latest)
            if tc != "standard"
            else None
        )
        self.cache: dict[dt.date, dict[int, int | None]] = {}
        self.closed = {m: pid for m, pid, _ in closed_months(session, tc)}
        self.fallback_to_latest = fallback_to_latest
        self._seeds: dict[int, int | None] | None = None
        self._given: dict[dt.date, dict[int, int | None]] = {}

    def give(self, period: dt.date, ratings: dict[int, int | None]) -> None:
        """The published ratings of the closed ``period`` (every line of it), when the caller
        has read them already."""
        self._given[period] = ratings

    def on_list_of(self, day: dt.date) -> dict[int, int | None]:
        """Ratings on the list in force on ``day`` (the list dated the 1st of its month)."""
        period = previous_month(month_of(day))
        if period not in self.cache:
            ratings = self._load(period)
            if self.standard is not None:
                standard = self.standard.on_list_of(day)
                ratings = {**standard, **{p: r for p, r in ratings.items() if r is not None}}
            self.cache[period] = ratings
        return self.cache[period]

    def lists_for(self, games: Iterable[MonthGame]) -> dict[dt.date, dict[int, int | None]]:
        """The list in force at each event start among ``games``, by that start."""
        return {start: self.on_list_of(start) for start in {g.event_start for g in games}}

    def _load(self, period: dt.date) -> dict[int, int | None]:
        if period in self._given and period in self.closed:
            return self._given[period]
        pid = self.closed.get(period) or period_id(self.session, self.tc, period)
        if pid is None and self.fallback_to_latest:
            # The live view: a list not published yet is stood in for by the latest one.
            earlier = [m for m in self.closed if m <= period]
            pid = self.closed[max(earlier)] if earlier else None
        if pid is None:
            return self._seed_ratings()
        rows = self.session.execute(
            select(EloHistory.player_id, EloHistory.rating).where(EloHistory.period_id == pid)
        )
        return dict(rows.all())

    def _seed_ratings(self) -> dict[int, int | None]:
        if self._seeds is None:
            self._seeds = {pid: s.rating for pid, s in seeds(self.session, self.tc).items()}
        return self._seeds


# The pool column: ``{"counted": first event settled (§8.2.1), "games": [[month, opponent,
# score, event key, event start, held], ...]}``; what is written for every rated player
# (nothing pending), precomputed. Rows of revision 0004 and before have no "held" element.
_COUNTED_EMPTY_POOL = json.dumps({"counted": True, "games": []})


def pool_to_json(state: fide.PlayerState) -> str | None:
    if not state.pool:
        return _COUNTED_EMPTY_POOL if state.first_event_settled else None
    return json.dumps(
        {
            "counted": state.first_event_settled,
            "games": [
                [
                    g.month.isoformat(),
                    g.opponent,
                    str(g.score),
                    g.event_key,
                    g.event_start.isoformat(),
                    int(g.held),
                ]
                for g in state.pool
            ],
        }
    )


def pool_from_json(text: str | None) -> tuple[tuple[fide.PoolGame, ...], bool]:
    if not text:
        return (), False
    if text == _COUNTED_EMPTY_POOL:
        return (), True
    data = json.loads(text)
    games = tuple(
        fide.PoolGame(
            month=dt.date.fromisoformat(m),
            opponent=int(opp),
            score=Decimal(score),
            event_key=key,
            event_start=dt.date.fromisoformat(start),
            held=bool(held[0]) if held else False,
        )
        for m, opp, score, key, start, *held in data["games"]
    )
    return games, bool(data["counted"])


def states_after(
    session: Session, period: int, player_id: int | None = None
) -> dict[int, fide.PlayerState]:
    """Every player's state as published on the list that closed ``period`` (or one
    player's)."""
    return list_lines(session, period, player_id)[0]


def list_lines(
    session: Session, period: int, player_id: int | None = None
) -> tuple[dict[int, fide.PlayerState], dict[int, int | None]]:
    """The tracked players' states on the list that closed ``period``, and the rating of
    every line of it."""
    query = (
        select(
            EloHistory.player_id,
            EloHistory.rating,
            EloHistory.next_k,
            EloHistory.rated_games,
            EloHistory.ever_2400,
            EloHistory.ever_2300,
            EloHistory.pool,
            Player.birth_year,
            Player.external,
        )
        .join(Player, Player.id == EloHistory.player_id)
        .where(EloHistory.period_id == period)
    )
    if player_id is not None:
        query = query.where(EloHistory.player_id == player_id)
    states = {}
    ratings: dict[int, int | None] = {}
    for pid, rating, next_k, rated, e24, e23, pool, born, external in session.execute(query):
        ratings[pid] = rating
        if not external:
            states[pid] = line_state(rating, next_k, rated, e24, e23, pool, born)
    return states, ratings


def line_state(
    rating: int | None,
    next_k: int | None,
    rated: int,
    ever_2400: bool,
    ever_2300: bool,
    pool: str | None,
    birth_year: int | None,
) -> fide.PlayerState:
    """A player's state from his line on a list (``elo_history``) and his birth year."""
    games, counted = pool_from_json(pool)
    return fide.PlayerState(
        rating=rating,
        rated_games=rated,
        ever_2400=bool(ever_2400),
        ever_2300=bool(ever_2300),
        birth_year=birth_year,
        pool=games,
        k=next_k,
        first_event_settled=counted or rated > 0 or rating is not None,
    )


def seeded_state(
    seed: PlayerSeed | SeedRow, birth_year: int | None, first_month: dt.date
) -> fide.PlayerState:
    return fide.seed_state(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, birth_year, first_month
    )


@dataclass(frozen=True)
class PublishedList:
    """A list just published in this transaction, exactly as reading it back would give it
    (closing months one after another, as ``rerate`` does, then reads nothing back)."""

    period: int
    states: dict[int, fide.PlayerState]  # tracked players' states (:func:`list_lines`)
    lines: dict[int, int | None]  # every line's rating


def states_at_start(
    session: Session,
    tc: str,
    month: dt.date,
    first_month: dt.date,
    published: PublishedList | None = None,
) -> tuple[dict[int, fide.PlayerState], dict[int, int | None] | None]:
    """Tracked players' states on the list in force during ``month``, and the ratings of every
    line of that list (None before the first closed period). ``published``: that list, just
    published in this session."""
    ratings: dict[int, int | None] | None
    if published is not None:
        prev: int | None = published.period
        states, ratings = dict(published.states), published.lines
    else:
        prev = period_id(session, tc, previous_month(month))
        states, ratings = list_lines(session, prev) if prev is not None else ({}, None)
    for pid, seed in seeds(session, tc, unlisted_in=prev).items():
        if pid not in states:
            states[pid] = seeded_state(seed, seed.birth_year, first_month)
    return states, ratings


def month_games(
    session: Session,
    tc: str,
    month: dt.date,
    player_id: int | None = None,
    *,
    events: Iterable[int] | None = None,
) -> list[MonthGame]:
    """The month's played games in date order (ties in the order they were entered); with
    ``events``, instead the games of those events played before the month."""
    white, black = aliased(Player), aliased(Player)
    query = (
        select(
            Game.id,
            Game.white_id,
            Game.black_id,
            Game.result,
            Game.played_on,
            Game.event_id,
            func.coalesce(Event.start_date, Game.played_on),
            Game.white_rating,
            Game.black_rating,
            white.external,
            black.external,
        )
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .outerjoin(Event, Event.id == Game.event_id)
        .where(Game.tc == tc, Game.result.not_in(FORFEITS))
        .order_by(Game.played_on, Game.id)
    )
    if events is None:
        query = query.where(Game.played_on >= month, Game.played_on < next_month(month))
    else:
        query = query.where(Game.played_on < month, Game.event_id.in_(sorted(set(events))))
    if player_id is not None:
        query = query.where((Game.white_id == player_id) | (Game.black_id == player_id))
    return [MonthGame(*row) for row in session.execute(query)]


# ---------------------------------------------------------------------------------------
# Which games a period rates (tracker.ratings.fide.events): the events that ended in it, the
# month's part of every league, the month's games without an event.


class EventSpan(NamedTuple):
    """An event's start (its recorded start date) and its last played game, in one time
    control."""

    start: dt.date
    end: dt.date

    def rated_in(self, played_on: dt.date) -> dt.date:
        return fide.rated_in(self.start, self.end, played_on)


def event_spans(session: Session, tc: str, event_ids: Iterable[int]) -> dict[int, EventSpan]:
    """The spans of ``event_ids`` (those with played games in ``tc``: a forfeit is no game,
    §5.1, and does not make an event last longer)."""
    wanted = sorted(set(event_ids))
    out: dict[int, EventSpan] = {}
    for chunk in _chunks(wanted):
        rows = session.execute(
            select(
                Game.event_id, Event.start_date, func.min(Game.played_on), func.max(Game.played_on)
            )
            .join(Event, Event.id == Game.event_id)
            .where(Game.tc == tc, Game.event_id.in_(chunk), Game.result.not_in(FORFEITS))
            .group_by(Game.event_id, Event.start_date)
        )
        for event_id, start, first, last in rows:
            assert event_id is not None
            out[event_id] = EventSpan(min(start, first), last)
    return out


def period_games(
    session: Session,
    tc: str,
    month: dt.date,
    played: list[MonthGame] | None = None,
    player_id: int | None = None,
) -> list[MonthGame]:
    """The games rated in the period ``month`` (see :mod:`tracker.ratings.fide.events`), in
    date order, each with ``event_start`` set to the day whose list rates it. ``played``:
    the month's played games (:func:`month_games`), if the caller has them."""
    if played is None:
        played = month_games(session, tc, month, player_id)
    spans = event_spans(session, tc, {g.event_id for g in played if g.event_id is not None})
    out: list[MonthGame] = []
    earlier: set[int] = set()  # events ending this month that began before it
    for g in played:
        if g.event_id is None:
            out.append(g)
            continue
        span = spans[g.event_id]
        if span.rated_in(g.played_on) != month:
            continue  # the event goes on: rated when it ends
        out.append(g._replace(event_start=fide.rating_from(span.start, span.end, month)))
        if span.start < month and not fide.is_league(span.start, span.end):
            earlier.add(g.event_id)
    if earlier:
        before = month_games(session, tc, month, player_id, events=earlier)
        out.extend(g._replace(event_start=spans[int(g.event_id or 0)].start) for g in before)
        out.sort(key=lambda g: (g.played_on, g.id))
    return out


def event_rated_from(session: Session, tc: str, event_id: int) -> dt.date | None:
    """The first period in which a game of the event is rated (None: no game in ``tc``)."""
    span = event_spans(session, tc, [event_id]).get(event_id)
    if span is None:
        return None
    return month_of(span.start) if fide.is_league(span.start, span.end) else month_of(span.end)


def first_events(
    session: Session, tc: str, month: dt.date, players: Iterable[int]
) -> dict[int, fide.FirstEvent]:
    """Each player's first event (§8.2.1) as the close of ``month`` sees it: the event of his
    first played game, his score in its games rated up to ``month``, and whether its last
    game is rated by then (see :class:`tracker.ratings.fide.FirstEvent`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    end = next_month(month)
    mine: dict[int, list[tuple[dt.date, int, int | None, Decimal]]] = {p: [] for p in wanted}
    for chunk in _chunks(wanted):
        rows = session.execute(
            select(
                Game.id, Game.white_id, Game.black_id, Game.result, Game.played_on, Game.event_id
            ).where(
                Game.tc == tc,
                Game.played_on < end,
                Game.result.not_in(FORFEITS),
                (Game.white_id.in_(chunk)) | (Game.black_id.in_(chunk)),
            )
        )
        for gid, white, black, result, played_on, event_id in rows:
            white_score, black_score = SCORES[result]
            for pid, score in ((white, white_score), (black, black_score)):
                if pid in mine:
                    mine[pid].append((played_on, gid, event_id, score))
    firsts = {pid: min(games) for pid, games in mine.items() if games}
    spans = event_spans(session, tc, {e for _, _, e, _ in firsts.values() if e is not None})
    out: dict[int, fide.FirstEvent] = {}
    for pid, (day, _, event_id, _) in firsts.items():
        if event_id is None:  # unnamed games: one event per day
            score = sum((s for d, _, e, s in mine[pid] if e is None and d == day), Decimal(0))
            out[pid] = fide.FirstEvent(f"day:{day.isoformat()}", score, True)
            continue
        span = spans[event_id]
        score = sum(
            (s for d, _, e, s in mine[pid] if e == event_id and span.rated_in(d) <= month),
            Decimal(0),
        )
        out[pid] = fide.FirstEvent(event_id, score, span.rated_in(span.end) <= month)
    return out


def _chunks(ids: list[int], size: int = 500) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def mark_stale(session: Session, tc: str, day: dt.date) -> tuple[dt.date, ...]:
    """A change to the period of ``day`` invalidates it and every later closed period (and,
    if it falls before the first closed period, all of them: tracking starts earlier). The
    closed months now stale, oldest first."""
    month = month_of(day)
    first = session.scalar(select(func.min(RatingPeriod.month)).where(RatingPeriod.tc == tc))
    if first is None:
        return ()
    start = max(month, first)
    session.execute(
        update(RatingPeriod)
        .where(RatingPeriod.tc == tc, RatingPeriod.month >= start)
        .values(stale=True)
    )
    return tuple(
        session.scalars(
            select(RatingPeriod.month)
            .where(RatingPeriod.tc == tc, RatingPeriod.month >= start)
            .order_by(RatingPeriod.month)
        )
    )


def span_of(session: Session, tc: str, event_id: int | None) -> EventSpan | None:
    """The span of one event in ``tc`` (None: no event, or no game of it in ``tc``)."""
    if event_id is None:
        return None
    return event_spans(session, tc, [event_id]).get(event_id)


def mark_all_stale(session: Session) -> None:
    """A change that touches every list (a seed, a birth year, tracked/external)."""
    session.execute(update(RatingPeriod).values(stale=True))


def stale_months(session: Session, tc: str) -> list[dt.date]:
    return [m for m, _, s in closed_months(session, tc) if s]
