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
import gc
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, NamedTuple, cast

from sqlalchemy import Date, Table, delete, func, select, update
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
from tracker.months import month_label, month_of, months_between, next_month, previous_month
from tracker.ratings import fide
from tracker.user_input import check_tc
from tracker.vocabulary import FORFEITS, TIME_CONTROLS

_SCORES = {"1-0": (Decimal(1), Decimal(0)), "0-1": (Decimal(0), Decimal(1))}
_SCORES["1/2-1/2"] = (Decimal("0.5"), Decimal("0.5"))
_DEFAULT_STATE = fide.PlayerState()


def hundredths(value: Decimal) -> int:
    if not value:
        return 0
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


# ---------------------------------------------------------------------------------------
# Player states


# What ``pool_to_json`` writes for every rated player (no pending results), precomputed.
_COUNTED_EMPTY_POOL = json.dumps({"counted": True, "games": []})


def pool_to_json(state: fide.PlayerState) -> str | None:
    if not state.pool:
        return _COUNTED_EMPTY_POOL if state.has_counted_results else None
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
        )
        for m, opp, score, key, start in data["games"]
    )
    return games, bool(data["counted"])


def states_after(
    session: Session, period: int, player_id: int | None = None
) -> dict[int, fide.PlayerState]:
    """Every player's state as published on the list that closed ``period`` (or one
    player's)."""
    return _lines(session, period, player_id)[0]


def _lines(
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
            states[pid] = _line_state(rating, next_k, rated, e24, e23, pool, born)
    return states, ratings


def _line_state(
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
        has_counted_results=counted or rated > 0 or rating is not None,
    )


def seeded_state(
    seed: PlayerSeed | SeedRow, birth_year: int | None, first_month: dt.date
) -> fide.PlayerState:
    return fide.seed_state(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, birth_year, first_month
    )


def _states_at_start(
    session: Session,
    tc: str,
    month: dt.date,
    first_month: dt.date,
    carry: _Carry | None = None,
) -> tuple[dict[int, fide.PlayerState], dict[int, int | None] | None]:
    """Tracked players' states on the list in force during ``month``, and the ratings of every
    line of that list (None before the first closed period). ``carry``: that list, just
    published in this session."""
    ratings: dict[int, int | None] | None
    if carry is not None:
        prev: int | None = carry.period
        states, ratings = dict(carry.states), carry.lines
    else:
        prev = period_id(session, tc, previous_month(month))
        states, ratings = _lines(session, prev) if prev is not None else ({}, None)
    for pid, seed in seeds(session, tc, unlisted_in=prev).items():
        if pid not in states:
            states[pid] = seeded_state(seed, seed.birth_year, first_month)
    return states, ratings


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
    lists: dict[dt.date, dict[int, int | None]] = {}  # by event start
    for g in games:
        on_list = lists.get(g.event_start)
        if on_list is None:
            on_list = lists[g.event_start] = ratings.on_list_of(g.event_start)
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


@dataclass(frozen=True)
class _Carry:
    """What closing a month hands to closing the next one in the same transaction: the list
    it published, exactly as reading it back would give it (closing months one after another,
    as ``rerate`` does, then reads nothing back)."""

    period: int
    states: dict[int, fide.PlayerState]  # tracked players' states (``_lines``)
    lines: dict[int, int | None]  # every line's rating
    shadow: dict[int, Any] | None  # every shadow at the month's end (None: read it back)


def _close_month(
    session: Session,
    tc: str,
    month: dt.date,
    first_month: dt.date,
    carry: _Carry | None = None,
    *,
    keep: bool = False,
) -> tuple[ClosedPeriod, _Carry | None]:
    """Close one month; with ``keep``, also return what closing the next month needs."""
    states, lines = _states_at_start(session, tc, month, first_month, carry)
    ratings = ListRatings(session, tc)
    if lines is not None:
        ratings.give(previous_month(month), lines)
    games = month_games(session, tc, month)
    per_player = period_games(games, ratings)
    newcomers = [pid for pid in per_player if pid not in states]
    births = _column_of(session, Player.birth_year, newcomers)

    period = RatingPeriod(tc=tc, month=month, stale=False)
    session.add(period)
    session.flush()
    rows: list[tuple[Any, ...]] = []
    next_states: dict[int, fide.PlayerState] = {}
    new_players: list[int] = []
    dropped: list[int] = []
    rated = 0
    no_games: list[fide.PeriodGame] = []
    pool_json = pool_to_json
    for pid in sorted(set(states) | set(per_player)):
        state = states.get(pid)
        player_games = per_player.get(pid, no_games)
        if not player_games and state is not None:
            idle = fide.close_idle(state, month=month)
            if idle is not None:  # close_period's outcome would be empty
                rows.append(
                    (period.id, pid, state.rating, idle.rating, None, idle.k, 0, 0, 0, 0, 0,
                     idle.rated_games, idle.ever_2400, idle.ever_2300, pool_json(idle), None)
                )  # fmt: skip
                if keep:
                    next_states[pid] = idle  # as _line_state would read it back
                continue
        if state is None:
            state = fide.PlayerState(birth_year=births.get(pid))
        if player_games:
            state = rated_from_standard(state, player_games, tc)
        new_state, outcome = fide.close_period(
            state,
            player_games,
            month=month,
            tc=tc,  # type: ignore[arg-type]
            details=False,  # the rows need only the period's figures
        )
        if (
            not player_games
            and new_state.rating is None
            and replace(new_state, birth_year=None) == _DEFAULT_STATE
        ):
            continue
        if outcome.games and outcome.rating_before is not None:
            rated += 1
        if outcome.became_rated:
            new_players.append(pid)
        if outcome.dropped_to_unrated:
            dropped.append(pid)
        row = history_row(period.id, pid, new_state, outcome)
        rows.append(row)
        if keep:
            next_states[pid] = _line_state(
                row[3], row[5], row[11], row[12], row[13], row[14], new_state.birth_year
            )
    bulk_insert(session, _ELO_HISTORY, _ELO_COLUMNS, rows)
    names = _column_of(session, Player.name, new_players + dropped)
    from tracker.services import shadow  # the shadow builds on this module

    players = shadow.close_month(
        session,
        tc,
        month,
        period.id,
        games=games,
        ratings=ratings,
        players=carry.shadow if carry is not None else None,
        keep=keep,
    )
    closed = ClosedPeriod(
        tc=tc,
        month=month,
        list_date=next_month(month),
        games=len(games),
        players_rated=rated,
        new_players=tuple(names[pid] for pid in new_players),
        dropped_players=tuple(names[pid] for pid in dropped),
    )
    if not keep:
        return closed, None
    lines_after = {row[1]: row[3] for row in rows}
    return closed, _Carry(period.id, next_states, lines_after, players)


def _close_months(
    session: Session, tc: str, months: list[dt.date], first_month: dt.date
) -> tuple[ClosedPeriod, ...]:
    """Close ``months`` in order, each handing its list to the next."""
    done = []
    carry = None
    with without_gc():
        for i, month in enumerate(months):
            closed, carry = _close_month(
                session, tc, month, first_month, carry, keep=i < len(months) - 1
            )
            done.append(closed)
    return tuple(done)


@contextmanager
def without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a batch.

    Closing a month makes hundreds of thousands of small objects and keeps tens of thousands
    alive (every listed player's state): the collector would walk that heap over and over
    looking for reference cycles these folds do not make. Reference counting still frees
    everything; the collector is back (and runs) when the batch ends."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_ELO_HISTORY = cast(Table, EloHistory.__table__)
GLICKO_HISTORY = cast(Table, GlickoHistory.__table__)
_ELO_COLUMNS = (
    "period_id",
    "player_id",
    "rating_before",
    "rating",
    "k",
    "next_k",
    "games",
    "score_c",
    "expected_c",
    "change_exact_c",
    "change",
    "rated_games",
    "ever_2400",
    "ever_2300",
    "pool",
    "note",
)


def bulk_insert(
    session: Session,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    dates_stored: bool = False,
) -> None:
    """Insert many rows (tuples in the order of ``columns``) with one ``executemany`` of the
    driver, in the session's transaction.

    Tens of thousands of history rows a month, a million games in an import: SQLAlchemy's
    per-row parameter processing (and the ORM's bulk insert, which splits the rows into a
    statement per pattern of NULLs) would cost more than the database. Values are stored as
    given, except dates, written as SQLAlchemy writes them (:func:`stored_date`) unless
    ``dates_stored`` says the caller did that already. On PostgreSQL (psycopg) the rows go
    in with ``COPY``."""
    if not rows:
        return
    conn = session.connection()
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        # COPY: several times faster than INSERTs; the same constraints and triggers apply.
        raw: Any = conn.connection.dbapi_connection
        copy_sql = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        with raw.cursor() as cursor, cursor.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row)
        return
    if not dates_stored and conn.dialect.name == "sqlite":
        dates = [i for i, c in enumerate(columns) if isinstance(table.c[c].type, Date)]
        if dates:
            stored = stored_date(session)
            rows = [_stored_dates(row, dates, stored) for row in rows]
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join(mark for _ in columns)})"
    )
    conn.exec_driver_sql(sql, [row if type(row) is tuple else tuple(row) for row in rows])


def stored_date(session: Session) -> Callable[[dt.date | None], Any]:
    """How a date goes to the driver: as SQLAlchemy's ``Date`` sends it (ISO text on SQLite,
    which has no date type; the date itself elsewhere)."""
    if session.connection().dialect.name != "sqlite":
        return _same
    iso: dict[dt.date, str] = {}  # rows hold few distinct days

    def to_text(day: dt.date | None) -> str | None:
        if day is None:
            return None
        text = iso.get(day)
        if text is None:
            text = iso[day] = day.isoformat()
        return text

    return to_text


def _same(day: dt.date | None) -> dt.date | None:
    return day


def _stored_dates(
    row: Sequence[Any], dates: list[int], stored: Callable[[dt.date | None], Any]
) -> tuple[Any, ...]:
    out = list(row)
    for i in dates:
        out[i] = stored(out[i])
    return tuple(out)


#: Ids per ``IN (...)`` list.
_IN_CHUNK = 500


def _column_of(session: Session, column: Any, ids: Iterable[int]) -> dict[int, Any]:
    """``column`` of the players ``ids`` (a few: the month's newcomers, say)."""
    wanted = sorted(set(ids))
    out: dict[int, Any] = {}
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        out.update(session.execute(select(Player.id, column).where(Player.id.in_(chunk))).all())
    return out


def history_row(
    period: int, player: int, state: fide.PlayerState, outcome: fide.PeriodOutcome
) -> tuple[Any, ...]:
    """An ``elo_history`` row, in the order of ``_ELO_COLUMNS``."""
    return (
        period,
        player,
        outcome.rating_before,
        outcome.rating_after,
        outcome.k,
        outcome.next_k,
        outcome.games,
        hundredths(outcome.score),
        hundredths(outcome.expected),
        hundredths(outcome.change_exact),
        outcome.change,
        state.rated_games,
        state.ever_2400,
        state.ever_2300,
        pool_to_json(state),
        "; ".join(outcome.notes) or None,
    )


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
    done = _close_months(session, tc, months_between(start, target), first_month)
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
    # Core deletes: the ORM's would first fetch every deleted id to update the session.
    for table in (_ELO_HISTORY, GLICKO_HISTORY):
        session.execute(delete(table).where(table.c.period_id.in_(doomed)))
    session.execute(delete(RatingPeriod).where(RatingPeriod.tc == tc, RatingPeriod.month >= begin))
    session.flush()
    months = months_between(begin, last)
    _close_months(session, tc, months, first_month)
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
    tcs = [check_tc(tc)] if tc is not None else list(TIME_CONTROLS)
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
