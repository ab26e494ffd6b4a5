"""Monthly rating periods: close them, rerate them, list them, and mark them stale.

A period is one month of one time control; closing it rates every game played in it and
publishes the list dated the first of the next month (FIDE Rating Regulations 2024 §7.1).
Closed periods are contiguous from the first month with games. Every tracked player with a
FIDE state gets one ``elo_history`` row per closed period, so the state at the start of a
month is exactly the previous period's rows (cost follows the month, not the history).

Corrections (a game added, edited or removed in a closed month; a seed or birth year
changed) mark that period and every later one stale. Reads warn about stale periods;
``rerate`` (and the next ``period close``) recomputes them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from tracker.db.models import (
    EloHistory,
    Event,
    Game,
    GlickoHistory,
    Player,
    PlayerSeed,
    RatingPeriod,
)
from tracker.errors import InvalidInputError
from tracker.parsing import FORFEITS, check_tc, month_label, month_of, next_month
from tracker.ratings import fide

_SCORES = {"1-0": (Decimal(1), Decimal(0)), "0-1": (Decimal(0), Decimal(1))}
_SCORES["1/2-1/2"] = (Decimal("0.5"), Decimal("0.5"))
_DEFAULT_STATE = fide.PlayerState()


def previous_month(month: dt.date) -> dt.date:
    return dt.date(month.year - (month.month == 1), (month.month - 2) % 12 + 1, 1)


def months_between(first: dt.date, last: dt.date) -> list[dt.date]:
    """Every month from ``first`` to ``last`` inclusive."""
    months = []
    current = first
    while current <= last:
        months.append(current)
        current = next_month(current)
    return months


def hundredths(value: Decimal) -> int:
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not exact in hundredths")
    return int(scaled)


def from_hundredths(value: int) -> Decimal:
    return Decimal(value) / 100


# ---------------------------------------------------------------------------------------
# Reports


@dataclass(frozen=True)
class ClosedPeriod:
    tc: str
    month: dt.date
    list_date: dt.date
    games: int
    players_rated: int
    new_players: tuple[str, ...]
    dropped_players: tuple[str, ...]


@dataclass(frozen=True)
class CloseReport:
    tc: str
    closed: tuple[ClosedPeriod, ...]
    already_closed: tuple[dt.date, ...]
    rerated: tuple[dt.date, ...]
    nothing_to_close: bool = False


@dataclass(frozen=True)
class PeriodRow:
    tc: str
    month: dt.date
    list_date: dt.date
    status: str  # closed | stale | open
    games: int
    players: int


# ---------------------------------------------------------------------------------------
# Queries shared with history and the live view


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


def seeds(session: Session, tc: str) -> dict[int, PlayerSeed]:
    rows = session.scalars(
        select(PlayerSeed)
        .join(Player, Player.id == PlayerSeed.player_id)
        .where(PlayerSeed.tc == tc, Player.external.is_(False))
    )
    return {s.player_id: s for s in rows}


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

    def _load(self, period: dt.date) -> dict[int, int | None]:
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


# ---------------------------------------------------------------------------------------
# Player states


def pool_to_json(state: fide.PlayerState) -> str | None:
    if not state.pool and not state.has_counted_results:
        return None
    return json.dumps(
        {
            "counted": state.has_counted_results,
            "games": [
                [
                    g.month.isoformat(),
                    g.opponent,
                    str(g.score),
                    str(g.event_key),
                    g.event_start.isoformat(),
                ]
                for g in state.pool
            ],
        }
    )


def pool_from_json(text: str | None) -> tuple[tuple[fide.PoolGame, ...], bool]:
    if not text:
        return (), False
    data = json.loads(text)
    games = tuple(
        fide.PoolGame(
            month=dt.date.fromisoformat(m),
            opponent=int(opp),
            score=Decimal(score),
            event_key=key,
            event_start=dt.date.fromisoformat(start),
        )
        for m, opp, score, key, start in data["games"]
    )
    return games, bool(data["counted"])


def states_after(session: Session, period: int) -> dict[int, fide.PlayerState]:
    """Every player's state as published on the list that closed ``period``."""
    rows = session.execute(
        select(
            EloHistory.player_id,
            EloHistory.rating,
            EloHistory.next_k,
            EloHistory.rated_games,
            EloHistory.ever_2400,
            EloHistory.ever_2300,
            EloHistory.pool,
            Player.birth_year,
        )
        .join(Player, Player.id == EloHistory.player_id)
        .where(EloHistory.period_id == period, Player.external.is_(False))
    )
    states = {}
    for pid, rating, next_k, rated, e24, e23, pool, born in rows:
        games, counted = pool_from_json(pool)
        states[pid] = fide.PlayerState(
            rating=rating,
            rated_games=rated,
            ever_2400=e24,
            ever_2300=e23,
            birth_year=born,
            pool=games,
            k=next_k,
            has_counted_results=counted or rated > 0 or rating is not None,
        )
    return states


def seeded_state(
    seed: PlayerSeed, birth_year: int | None, first_month: dt.date
) -> fide.PlayerState:
    return fide.seed_state(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, birth_year, first_month
    )


def states_at_start(
    session: Session, tc: str, month: dt.date, first_month: dt.date
) -> dict[int, fide.PlayerState]:
    """Tracked players' states on the list in force during ``month``."""
    prev = period_id(session, tc, previous_month(month))
    states = states_after(session, prev) if prev is not None else {}
    births = dict(
        session.execute(
            select(Player.id, Player.birth_year).where(Player.external.is_(False))
        ).all()
    )
    for pid, seed in seeds(session, tc).items():
        if pid not in states:
            states[pid] = seeded_state(seed, births.get(pid), first_month)
    return states


@dataclass(frozen=True)
class MonthGame:
    id: int
    white_id: int
    black_id: int
    result: str
    played_on: dt.date
    event_id: int | None
    event_start: dt.date
    white_rating: int | None
    black_rating: int | None
    white_external: bool
    black_external: bool


def month_games(
    session: Session, tc: str, month: dt.date, player_id: int | None = None
) -> list[MonthGame]:
    """The month's played games in date order (ties in the order they were entered)."""
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
        .where(
            Game.tc == tc,
            Game.played_on >= month,
            Game.played_on < next_month(month),
            Game.result.not_in(FORFEITS),
        )
        .order_by(Game.played_on, Game.id)
    )
    if player_id is not None:
        query = query.where((Game.white_id == player_id) | (Game.black_id == player_id))
    return [MonthGame(*row) for row in session.execute(query)]


def rated_from_standard(
    state: fide.PlayerState, games: list[fide.PeriodGame], tc: str
) -> fide.PlayerState:
    """Rapid & Blitz §7.2.1: an unrated player with a standard rating at the start of his
    first event of the period counts as rated, starting from that rating."""
    if tc == "standard" or state.rating is not None or not games:
        return state
    first = min(games, key=lambda g: g.event_start)
    if first.own_rating is None:
        return state
    return replace(state, rating=first.own_rating, pool=(), k=None, has_counted_results=True)


def period_games(
    games: Iterable[MonthGame], ratings: ListRatings, only: int | None = None
) -> dict[int, list[fide.PeriodGame]]:
    """Each tracked player's games of the month as the FIDE fold takes them."""
    by_player: dict[int, list[fide.PeriodGame]] = defaultdict(list)
    for g in games:
        on_list = ratings.on_list_of(g.event_start)
        white_score, black_score = _SCORES[g.result]
        key = g.event_id if g.event_id is not None else f"day:{g.played_on.isoformat()}"
        sides = (
            (
                g.white_id,
                g.white_external,
                white_score,
                g.black_id,
                g.black_external,
                g.black_rating,
            ),
            (
                g.black_id,
                g.black_external,
                black_score,
                g.white_id,
                g.white_external,
                g.white_rating,
            ),
        )
        for pid, external, score, opp, opp_external, opp_recorded in sides:
            if external or (only is not None and pid != only):
                continue
            opponent = opp_recorded if opp_external else on_list.get(opp)
            by_player[pid].append(
                fide.PeriodGame(
                    opponent=opponent,
                    score=score,
                    event_start=g.event_start,
                    event_key=key,
                    own_rating=on_list.get(pid),
                )
            )
    return by_player


# ---------------------------------------------------------------------------------------
# Closing


def _close_month(session: Session, tc: str, month: dt.date, first_month: dt.date) -> ClosedPeriod:
    states = states_at_start(session, tc, month, first_month)
    ratings = ListRatings(session, tc)
    games = month_games(session, tc, month)
    per_player = period_games(games, ratings)
    names = dict(session.execute(select(Player.id, Player.name)).all())
    births = dict(session.execute(select(Player.id, Player.birth_year)).all())

    period = RatingPeriod(tc=tc, month=month, stale=False)
    session.add(period)
    session.flush()
    rows: list[dict[str, Any]] = []
    new_players: list[str] = []
    dropped: list[str] = []
    rated = 0
    for pid in sorted(set(states) | set(per_player)):
        state = states.get(pid) or fide.PlayerState(birth_year=births.get(pid))
        player_games = per_player.get(pid, [])
        state = rated_from_standard(state, player_games, tc)
        new_state, outcome = fide.close_period(state, player_games, month=month, tc=tc)  # type: ignore[arg-type]
        if not player_games and replace(new_state, birth_year=None) == _DEFAULT_STATE:
            continue
        if outcome.games and outcome.rating_before is not None:
            rated += 1
        if outcome.became_rated:
            new_players.append(names[pid])
        if outcome.dropped_to_unrated:
            dropped.append(names[pid])
        rows.append(history_row(period.id, pid, new_state, outcome))
    if rows:
        session.execute(insert(EloHistory), rows)
    from tracker.services import shadow  # the shadow builds on this module

    shadow.close_month(session, tc, month, period.id)
    return ClosedPeriod(
        tc=tc,
        month=month,
        list_date=next_month(month),
        games=len(games),
        players_rated=rated,
        new_players=tuple(new_players),
        dropped_players=tuple(dropped),
    )


def history_row(
    period: int, player: int, state: fide.PlayerState, outcome: fide.PeriodOutcome
) -> dict[str, Any]:
    return {
        "period_id": period,
        "player_id": player,
        "rating_before": outcome.rating_before,
        "rating": outcome.rating_after,
        "k": outcome.k,
        "next_k": outcome.next_k,
        "games": outcome.games,
        "score_c": hundredths(outcome.score),
        "expected_c": hundredths(outcome.expected),
        "change_exact_c": hundredths(outcome.change_exact),
        "change": outcome.change,
        "rated_games": state.rated_games,
        "ever_2400": state.ever_2400,
        "ever_2300": state.ever_2300,
        "pool": pool_to_json(state),
        "note": "; ".join(outcome.notes) or None,
    }


def close(session: Session, *, tc: str, month: dt.date | None, today: dt.date) -> CloseReport:
    """Close ``month`` (default: every month before the current one) and any earlier open
    months, in order; stale periods are rerated first."""
    tc = check_tc(tc)
    current = month_of(today)
    target = month if month is not None else previous_month(current)
    if target >= current:
        raise InvalidInputError(
            f"{month_label(target)} is not over yet: only months before {month_label(current)} "
            "can be closed"
        )
    rerated = _rerate_stale(session, tc)
    closed = closed_months(session, tc)
    first = first_game_month(session, tc)
    if first is None:
        return CloseReport(tc, (), (), rerated, nothing_to_close=True)
    start = next_month(closed[-1][0]) if closed else first
    if target < start:
        if closed and target >= closed[0][0]:
            return CloseReport(tc, (), (target,), rerated)
        return CloseReport(tc, (), (), rerated, nothing_to_close=True)
    first_month = closed[0][0] if closed else first
    done = tuple(_close_month(session, tc, m, first_month) for m in months_between(start, target))
    return CloseReport(tc, done, (), rerated)


def _rerate_stale(session: Session, tc: str) -> tuple[dt.date, ...]:
    stale = [m for m, _, is_stale in closed_months(session, tc) if is_stale]
    if not stale:
        return ()
    return rerate_from(session, tc, stale[0])


def rerate_from(session: Session, tc: str, start: dt.date) -> tuple[dt.date, ...]:
    """Recompute every closed period of ``tc`` from ``start`` (or the first month with games,
    if earlier) to the last closed one."""
    closed = closed_months(session, tc)
    if not closed:
        return ()
    first_closed, last = closed[0][0], closed[-1][0]
    first_games = first_game_month(session, tc) or first_closed
    # A game dated before the first closed period moves the start of tracking back.
    begin = first_games if first_games < first_closed else max(start, first_closed)
    first_month = min(begin, first_closed)
    doomed = select(RatingPeriod.id).where(RatingPeriod.tc == tc, RatingPeriod.month >= begin)
    session.execute(delete(EloHistory).where(EloHistory.period_id.in_(doomed)))
    session.execute(delete(GlickoHistory).where(GlickoHistory.period_id.in_(doomed)))
    session.execute(delete(RatingPeriod).where(RatingPeriod.tc == tc, RatingPeriod.month >= begin))
    session.flush()
    months = months_between(begin, last)
    for m in months:
        _close_month(session, tc, m, first_month)
    return tuple(months)


@dataclass(frozen=True)
class RerateReport:
    tc: str
    months: tuple[dt.date, ...]
    nothing_stale: bool


def rerate(
    session: Session, *, tc: str | None, from_month: dt.date | None
) -> tuple[RerateReport, ...]:
    """``tracker rerate``: recompute from ``from_month`` (default: the earliest stale period)."""
    tcs = [check_tc(tc)] if tc is not None else _tcs_with_periods(session)
    reports = []
    for one in tcs:
        if from_month is None:
            stale = [m for m, _, s in closed_months(session, one) if s]
            if not stale:
                reports.append(RerateReport(one, (), True))
                continue
            months = rerate_from(session, one, stale[0])
        else:
            months = rerate_from(session, one, from_month)
        reports.append(RerateReport(one, months, False))
    return tuple(reports)


def _tcs_with_periods(session: Session) -> list[str]:
    return list(session.scalars(select(RatingPeriod.tc).distinct().order_by(RatingPeriod.tc)))


def mark_stale(session: Session, tc: str, day: dt.date) -> None:
    """A change dated ``day`` invalidates its period and every later one (and, if it falls
    before the first closed period, all of them)."""
    month = month_of(day)
    first = session.scalar(select(func.min(RatingPeriod.month)).where(RatingPeriod.tc == tc))
    if first is None:
        return
    session.execute(
        update(RatingPeriod)
        .where(RatingPeriod.tc == tc, RatingPeriod.month >= max(month, first))
        .values(stale=True)
    )


def mark_all_stale(session: Session) -> None:
    """A change that touches every list (a seed, a birth year, tracked/external)."""
    session.execute(update(RatingPeriod).values(stale=True))


def stale_months(session: Session, tc: str) -> list[dt.date]:
    return [m for m, _, s in closed_months(session, tc) if s]


# ---------------------------------------------------------------------------------------
# Listing


def list_periods(session: Session, tc: str | None) -> tuple[PeriodRow, ...]:
    """Every month from the first with games to the last with games or closed."""
    tcs = [check_tc(tc)] if tc is not None else ["standard", "rapid", "blitz"]
    out: list[PeriodRow] = []
    for one in tcs:
        closed = {m: (pid, stale) for m, pid, stale in closed_months(session, one)}
        game_counts = dict(
            session.execute(
                select(Game.played_on, func.count())
                .where(Game.tc == one, Game.result.not_in(FORFEITS))
                .group_by(Game.played_on)
            ).all()
        )
        by_month: dict[dt.date, int] = defaultdict(int)
        for day, n in game_counts.items():
            by_month[month_of(day)] += n
        months = set(by_month) | set(closed)
        if not months:
            continue
        last = max(months)
        rated = dict(
            session.execute(
                select(EloHistory.period_id, func.count())
                .where(EloHistory.games > 0)
                .group_by(EloHistory.period_id)
            ).all()
        )
        for m in months_between(min(months), last):
            if m in closed:
                pid, stale = closed[m]
                status, players = ("stale" if stale else "closed"), rated.get(pid, 0)
            else:
                status, players = "open", _players_in_month(session, one, m)
            out.append(PeriodRow(one, m, next_month(m), status, by_month.get(m, 0), players))
    return tuple(out)


def _players_in_month(session: Session, tc: str, month: dt.date) -> int:
    ids: set[int] = set()
    for g in month_games(session, tc, month):
        if not g.white_external:
            ids.add(g.white_id)
        if not g.black_external:
            ids.add(g.black_id)
    return len(ids)
