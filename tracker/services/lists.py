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
from collections.abc import Collection, Container, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.db.driver import Db, chunks, day
from tracker.months import month_of, next_month, previous_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame

if TYPE_CHECKING:
    from tracker.db.driver import Source
    from tracker.db.models import PlayerSeed


def hundredths(value: Decimal) -> int:
    if not value:
        return 0
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not exact in hundredths")
    return int(scaled)


def from_hundredths(value: int) -> Decimal:
    return Decimal(value) / 100


def closed_months(source: Source, tc: str) -> list[tuple[dt.date, int, bool]]:
    """(month, period id, stale) of every closed period of ``tc``, oldest first."""
    rows = Db.of(source).all(
        "SELECT month, id, stale FROM rating_periods WHERE tc = :tc ORDER BY month", {"tc": tc}
    )
    return [(day(m), pid, bool(stale)) for m, pid, stale in rows]


def first_game_month(source: Source, tc: str) -> dt.date | None:
    first = Db.of(source).scalar("SELECT min(played_on) FROM games WHERE tc = :tc", {"tc": tc})
    return month_of(day(first)) if first is not None else None


def period_id(source: Source, tc: str, month: dt.date) -> int | None:
    pid: int | None = Db.of(source).scalar(
        "SELECT id FROM rating_periods WHERE tc = :tc AND month = :month",
        {"tc": tc, "month": month},
    )
    return pid


class SeedRow(NamedTuple):
    """A tracked player's seed (his FIDE state before tracking starts) and his birth year."""

    player_id: int
    rating: int
    games: int
    ever_2400: bool
    ever_2300: bool
    birth_year: int | None


_SEEDS = """
    SELECT s.player_id, s.rating, s.games, s.ever_2400, s.ever_2300, p.birth_year
    FROM player_seeds s JOIN players p ON p.id = s.player_id
    WHERE s.tc = :tc AND NOT p.external"""


def _seed_rows(rows: Iterable[tuple[Any, ...]]) -> Iterator[tuple[int, SeedRow]]:
    for pid, rating, games, e2400, e2300, born in rows:
        yield pid, SeedRow(pid, rating, games, bool(e2400), bool(e2300), born)


def seeds(source: Source, tc: str, *, only: Collection[int] | None = None) -> dict[int, SeedRow]:
    """Tracked players' seeds (of the ``only`` players, if given)."""
    db = Db.of(source)
    if only is None:
        return dict(_seed_rows(db.all(_SEEDS, {"tc": tc})))
    out: dict[int, SeedRow] = {}
    for chunk in chunks(sorted(only), _IN_LIMIT):
        rows = db.all(_SEEDS + " AND s.player_id IN (:ids)", {"tc": tc, "ids": chunk})
        out.update(_seed_rows(rows))
    return out


def _unlisted_seeds(db: Db, tc: str, listed: Container[int]) -> dict[int, SeedRow]:
    """The seeds of the players not in ``listed`` (without a stored line yet)."""
    ids = db.scalars("SELECT player_id FROM player_seeds WHERE tc = :tc", {"tc": tc})
    return seeds(db, tc, only=[pid for pid in ids if pid not in listed])


# ---------------------------------------------------------------------------------------
# The lines of a published list. A closed period stores the lines that changed: every player
# who played, every unrated player with something pending, every first rating and every
# drop. A rated player without games carries his line over: his rating, flags and game count
# stay, only K is that of the new list (FIDE Rating Regulations 2024 §8.3.3). Such a line is
# derived when read, from his latest stored line (or his seed), exactly as closing the
# period would have made it (tracker.ratings.fide.close_idle).


class Line(NamedTuple):
    """A player's line on one list (stored, or derived: ``stored`` False)."""

    player_id: int
    rating_before: int | None
    rating: int | None
    k: int | None
    next_k: int | None
    games: int
    score_c: int
    expected_c: int
    change_exact_c: int
    change: int
    rated_games: int
    ever_2400: bool
    ever_2300: bool
    pool: str | None
    note: str | None
    birth_year: int | None
    external: bool
    stored: bool = True

    def state(self) -> fide.PlayerState:
        return line_state(
            self.rating,
            self.next_k,
            self.rated_games,
            self.ever_2400,
            self.ever_2300,
            self.pool,
            self.birth_year,
        )


#: A :class:`Line`'s columns, from ``elo_history h`` and ``players p``.
_LINE_COLUMNS = (
    "h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games, h.score_c, h.expected_c, "
    "h.change_exact_c, h.change, h.rated_games, h.ever_2400, h.ever_2300, h.pool, h.note, "
    "p.birth_year, p.external"
)


def _line(fields: Iterable[Any]) -> Line:
    """A stored line from the row of :data:`_LINE_COLUMNS` (flags as booleans)."""
    pid, before, rating, k, next_k, games, s, e, c, ch, rated, e24, e23, pool, note, born, ext = (
        fields
    )
    return Line(
        pid, before, rating, k, next_k, games, s, e, c, ch, rated, bool(e24), bool(e23), pool,
        note, born, bool(ext),
    )  # fmt: skip


def carried(line: Line, month: dt.date, list_year: int | None = None) -> Line | None:
    """``line`` (stored for an earlier period) carried over to the list closing ``month``:
    for a rated player, his line with no games and the K of that list; None for an unrated
    one (he is not listed: an unrated player with anything pending has a stored line)."""
    if line.rating is None:
        return None
    flags = fide.publication(  # as fide.close_idle publishes it again
        line.rating,
        line.rated_games,
        line.ever_2400,
        line.ever_2300,
        line.birth_year,
        list_year or next_month(month).year,
    )
    return Line(
        line.player_id, line.rating, line.rating, None, flags.k, 0, 0, 0, 0, 0,
        line.rated_games, flags.ever_2400, flags.ever_2300, _COUNTED_EMPTY_POOL, None,
        line.birth_year, line.external, stored=False,
    )  # fmt: skip


def seed_line(seed: SeedRow, first_month: dt.date, month: dt.date) -> Line:
    """A seeded player's line on the list closing ``month``, before he has stored one."""
    state = seeded_state(seed, seed.birth_year, first_month)
    assert state.rating is not None
    return carried(
        Line(
            seed.player_id, state.rating, state.rating, None, state.k, 0, 0, 0, 0, 0,
            state.rated_games, state.ever_2400, state.ever_2300, None, None, seed.birth_year,
            False,
        ),
        month,
    ) or _never()  # fmt: skip


def _never() -> Line:
    raise AssertionError("a seed always has a rating")


def _latest(
    db: Db, tc: str, month: dt.date, columns: str, wanted: set[int] | None
) -> Iterator[tuple[Any, ...]]:
    """``(current, *columns)`` (SQL columns of ``elo_history h`` and ``players p``, the
    player's id first) of each player's latest stored line on a list closing ``month`` or
    earlier (``current``: on that very list), of the ``wanted`` players only if given."""
    params: dict[str, Any] = {"tc": tc, "month": month}
    only = ""
    if wanted is not None and len(wanted) <= _IN_LIMIT:
        only = "AND h.player_id IN (:ids)"
        params["ids"] = sorted(wanted)
    current = "CASE WHEN r.month = :month THEN 1 ELSE 0 END"
    if db.sqlite:
        sql = f"""
            SELECT {current}, {columns}
            FROM elo_history h
            JOIN rating_periods r ON r.id = h.period_id
            JOIN (
                SELECT h.player_id AS pid, max(r.month) AS m
                FROM elo_history h JOIN rating_periods r ON r.id = h.period_id
                WHERE r.tc = :tc AND r.month <= :month {only}
                GROUP BY h.player_id
            ) last ON last.pid = h.player_id AND last.m = r.month
            JOIN players p ON p.id = h.player_id
            WHERE r.tc = :tc"""
    else:  # PostgreSQL plans the join above as 44,000 index probes (2 s): one sorted scan
        sql = f"""
            SELECT DISTINCT ON (h.player_id) {current}, {columns}
            FROM elo_history h
            JOIN rating_periods r ON r.id = h.period_id
            JOIN players p ON p.id = h.player_id
            WHERE r.tc = :tc AND r.month <= :month {only}
            ORDER BY h.player_id, r.month DESC"""
    rows = db.all(sql, params)  # one fetch: faster than row by row
    if wanted is None:
        return iter(rows)
    return (row for row in rows if row[1] in wanted)


def lines_at(
    source: Source, tc: str, month: dt.date, players: Iterable[int] | None = None
) -> dict[int, Line]:
    """Every line of the list that closed ``month`` (or of ``players`` only), stored or
    derived (see above)."""
    db = Db.of(source)
    closed = closed_months(db, tc)
    if not closed or month < closed[0][0]:
        return {}
    wanted = set(players) if players is not None else None
    out: dict[int, Line] = {}
    seen: set[int] = set()  # players with a stored line by then
    year = next_month(month).year
    for current, *fields in _latest(db, tc, month, _LINE_COLUMNS, wanted):
        line = _line(fields)
        seen.add(line.player_id)
        derived = line if current else carried(line, month, year)
        if derived is not None:
            out[line.player_id] = derived
    if wanted is None:
        unlisted = _unlisted_seeds(db, tc, seen)
    else:
        unlisted = seeds(db, tc, only=wanted - seen)
    for pid, seed in unlisted.items():
        out[pid] = seed_line(seed, closed[0][0], month)
    return out


class Brief(NamedTuple):
    """What a printed list shows of a line: the rating, the games of the period, K, and the
    ``extra`` player columns asked for."""

    rating: int | None
    games: int
    k: int | None
    extra: tuple[Any, ...] = ()


_BRIEF_COLUMNS = (
    "h.player_id, h.rating, h.games, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, "
    "p.birth_year"
)


def briefs_at(
    source: Source, tc: str, month: dt.date, extra: Collection[str] = ()
) -> dict[int, Brief]:
    """:func:`lines_at` cut to what a printed list shows, for readers of a whole list (a
    federation's list: reading a few columns is several times faster than whole lines), with
    the ``extra`` columns (of ``players``, by name) of each line's player."""
    db = Db.of(source)
    closed = closed_months(db, tc)
    if not closed or month < closed[0][0]:
        return {}
    out: dict[int, Brief] = {}
    seen: set[int] = set()
    year = next_month(month).year
    publication = fide.publication
    columns = ", ".join((_BRIEF_COLUMNS, *(f"p.{name}" for name in extra)))
    for current, pid, rating, games, next_k, rated, e2400, e2300, born, *more in _latest(
        db, tc, month, columns, None
    ):
        seen.add(pid)
        if current:
            out[pid] = Brief(rating, games, next_k, tuple(more))
        elif rating is not None:  # carried over (see :func:`carried`)
            k = publication(rating, rated, bool(e2400), bool(e2300), born, year).k
            out[pid] = Brief(rating, 0, k, tuple(more))
    unlisted = _unlisted_seeds(db, tc, seen)
    extras = _player_columns(db, unlisted, extra) if extra and unlisted else {}
    for pid, seed in unlisted.items():
        line = seed_line(seed, closed[0][0], month)
        out[pid] = Brief(line.rating, 0, line.next_k, extras.get(pid, ()))
    return out


def _player_columns(
    db: Db, players: Collection[int], columns: Collection[str]
) -> dict[int, tuple[Any, ...]]:
    sql = f"SELECT id, {', '.join(columns)} FROM players"
    if len(players) > _IN_LIMIT:
        rows = db.all(sql)
    else:
        rows = db.all(sql + " WHERE id IN (:ids)", {"ids": sorted(players)})
    return {pid: tuple(more) for pid, *more in rows if pid in players}


_IN_LIMIT = 500  # more players than this are filtered after reading, not in an IN (...) list


def player_lines(
    source: Source,
    tc: str,
    player_id: int,
    closed: list[tuple[dt.date, int, bool]] | None = None,
) -> list[tuple[dt.date, bool, Line]]:
    """The player's line on every closed list he is on, oldest first: (month, stale, line).
    ``closed``: :func:`closed_months`, if the caller has read them."""
    db = Db.of(source)
    closed = closed_months(db, tc) if closed is None else closed
    rows = db.all(
        f"""
        SELECT r.month, {_LINE_COLUMNS}
        FROM elo_history h
        JOIN rating_periods r ON r.id = h.period_id
        JOIN players p ON p.id = h.player_id
        WHERE r.tc = :tc AND h.player_id = :pid""",
        {"tc": tc, "pid": player_id},
    )
    stored = {day(month): _line(fields) for month, *fields in rows}
    seed = seeds(db, tc, only=[player_id]).get(player_id)
    out: list[tuple[dt.date, bool, Line]] = []
    previous: Line | None = None
    started = False  # a stored line or the seed has put him on a list
    for month, _, stale in closed:
        line = stored.get(month)
        if line is None and previous is not None:
            line = carried(previous, month)
        elif line is None and not started and seed is not None:
            line = seed_line(seed, closed[0][0], month)
        if line is not None:
            out.append((month, stale, line))
        previous = line
        started = started or line is not None
    return out


class ListRatings:
    """Published ratings by list, for Ro and the opponents' ratings (§8.3.2: the list in force
    when the event started). Before the first closed period the seeds stand in."""

    def __init__(self, source: Source, tc: str, *, fallback_to_latest: bool = False) -> None:
        self.db = db = Db.of(source)
        self.tc = tc
        # Rapid & Blitz Rating Regulations §7.2.1: a player unrated in rapid (blitz) who has a
        # standard rating at the start of the tournament is rated with that rating.
        self.standard = (
            ListRatings(db, "standard", fallback_to_latest=fallback_to_latest)
            if tc != "standard"
            else None
        )
        self.cache: dict[dt.date, dict[int, int | None]] = {}
        self.closed = {m: pid for m, pid, _ in closed_months(db, tc)}
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
        month: dt.date | None = period if period in self.closed else None
        if month is None and self.fallback_to_latest:
            # The live view: a list not published yet is stood in for by the latest one.
            earlier = [m for m in self.closed if m <= period]
            month = max(earlier) if earlier else None
        if month is None:
            return self._seed_ratings()
        briefs = briefs_at(self.db, self.tc, month)
        return {pid: line.rating for pid, line in briefs.items()}

    def _seed_ratings(self) -> dict[int, int | None]:
        if self._seeds is None:
            self._seeds = {pid: s.rating for pid, s in seeds(self.db, self.tc).items()}
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
    source: Source, tc: str, month: dt.date, player_id: int | None = None
) -> dict[int, fide.PlayerState]:
    """Every tracked player's state as published on the list that closed ``month`` (or one
    player's)."""
    return list_lines(source, tc, month, player_id)[0]


def list_lines(
    source: Source, tc: str, month: dt.date, player_id: int | None = None
) -> tuple[dict[int, fide.PlayerState], dict[int, int | None]]:
    """The tracked players' states on the list that closed ``month``, and the rating of
    every line of it."""
    lines = lines_at(source, tc, month, None if player_id is None else [player_id])
    states = {pid: line.state() for pid, line in lines.items() if not line.external}
    return states, {pid: line.rating for pid, line in lines.items()}


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
    source: Source,
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
        return dict(published.states), published.lines
    db = Db.of(source)
    prev = previous_month(month)
    if period_id(db, tc, prev) is not None:
        return list_lines(db, tc, prev)  # seeded players not listed yet included
    states = {
        pid: seeded_state(seed, seed.birth_year, first_month) for pid, seed in seeds(db, tc).items()
    }
    ratings = None
    return states, ratings


def stale_months(source: Source, tc: str) -> list[dt.date]:
    return [m for m, _, s in closed_months(source, tc) if s]
