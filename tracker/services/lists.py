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
from sqlalchemy.orm import Session

from tracker.db.models import EloHistory, Game, Player, PlayerSeed, RatingPeriod
from tracker.months import month_of, previous_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame


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


def mark_all_stale(session: Session) -> None:
    """A change that touches every list (a seed, a birth year, tracked/external)."""
    session.execute(update(RatingPeriod).values(stale=True))


def stale_months(session: Session, tc: str) -> list[dt.date]:
    return [m for m, _, s in closed_months(session, tc) if s]
