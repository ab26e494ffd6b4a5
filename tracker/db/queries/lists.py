"""The published lists as stored: closed periods, seeds, and the lines of ``elo_history``.

A closed period stores the lines that changed (see :mod:`tracker.services.lists`, which
derives the others); these queries read the stored ones: a player's latest line on a list
closing a month or earlier, a whole list's lines or the few columns a printed list shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterator
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day
from tracker.db.rows import EloRow

#: More players than this are filtered after reading, not in an ``IN (...)`` list.
IN_LIMIT = 500


class ClosedMonth(NamedTuple):
    """A closed period of one time control."""

    month: dt.date
    period_id: int
    stale: bool


def closed_months(db: Db, tc: str) -> list[ClosedMonth]:
    """Every closed period of ``tc``, oldest first."""
    rows = db.all(
        "SELECT month, id, stale FROM rating_periods WHERE tc = :tc ORDER BY month", {"tc": tc}
    )
    return [ClosedMonth(day(m), pid, bool(stale)) for m, pid, stale in rows]


def first_game_day(db: Db, tc: str) -> dt.date | None:
    """The day of the first game of ``tc``."""
    first = db.scalar("SELECT min(played_on) FROM games WHERE tc = :tc", {"tc": tc})
    return None if first is None else day(first)


def period_id(db: Db, tc: str, month: dt.date) -> int | None:
    """The closed period of ``tc`` for ``month``, if it is closed."""
    pid: int | None = db.scalar(
        "SELECT id FROM rating_periods WHERE tc = :tc AND month = :month",
        {"tc": tc, "month": month},
    )
    return pid


class ListSeed(NamedTuple):
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


def seeds(db: Db, tc: str, *, only: Collection[int] | None = None) -> dict[int, ListSeed]:
    """Tracked players' seeds of ``tc`` (of the ``only`` players, if given), by player."""
    if only is None:
        rows = db.all(_SEEDS, {"tc": tc})
    else:
        rows = []
        for chunk in chunks(sorted(only), IN_LIMIT):
            rows += db.all(_SEEDS + " AND s.player_id IN (:ids)", {"tc": tc, "ids": chunk})
    return {
        pid: ListSeed(pid, rating, games, bool(e2400), bool(e2300), born)
        for pid, rating, games, e2400, e2300, born in rows
    }


def official_ratings(db: Db, tc: str, list_date: dt.date) -> dict[int, int]:
    """The tracked players' ratings given for FIDE's list of ``list_date`` (an earlier list:
    see :class:`tracker.db.models.OfficialRating`), by player."""
    rows = db.all(
        "SELECT o.player_id, o.rating FROM official_ratings o JOIN players p ON p.id = o.player_id"
        " WHERE o.tc = :tc AND o.list_date = :day AND NOT p.external",
        {"tc": tc, "day": list_date},
    )
    return {int(pid): int(rating) for pid, rating in rows}


def event_ratings(db: Db, event_ids: Collection[int]) -> dict[tuple[int, int], int]:
    """The ratings FIDE rated tracked players with in ``event_ids`` where given (a corrected
    Ro: ``event_ratings``), by (event, player)."""
    out: dict[tuple[int, int], int] = {}
    for chunk in chunks(sorted(event_ids), IN_LIMIT):
        rows = db.all(
            "SELECT event_id, player_id, rating FROM event_ratings WHERE event_id IN (:ids)",
            {"ids": chunk},
        )
        out.update({(int(e), int(p)): int(r) for e, p, r in rows})
    return out


class Line(NamedTuple):
    """A player's line on one list: stored (``elo_history``: the fields of
    :class:`tracker.db.rows.EloRow` but its period, with the player's birth year and kind),
    or derived when read (``stored`` False, see :mod:`tracker.services.lists`)."""

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


#: A stored :class:`Line`'s columns, from ``elo_history h`` and ``players p``.
_LINE_COLUMNS = ", ".join(
    [*(f"h.{name}" for name in EloRow._fields if name != "period_id"), "p.birth_year", "p.external"]
)
_FLAGS = [Line._fields.index(name) for name in ("ever_2400", "ever_2300", "external")]


def _line(fields: list[Any]) -> Line:
    """A stored line from the values of :data:`_LINE_COLUMNS` (flags as booleans)."""
    for i in _FLAGS:
        fields[i] = bool(fields[i])
    return Line(*fields)


def _latest_sql(db: Db, columns: str, only: str = "") -> str:
    """The query of :func:`_latest` (``:tc``, ``:month``; ``only``: a further condition on
    ``h``)."""
    current = "CASE WHEN r.month = :month THEN 1 ELSE 0 END"
    if db.sqlite:
        return f"""
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
    # PostgreSQL plans the join above as 44,000 index probes (2 s): one sorted scan
    return f"""
        SELECT DISTINCT ON (h.player_id) {current}, {columns}
        FROM elo_history h
        JOIN rating_periods r ON r.id = h.period_id
        JOIN players p ON p.id = h.player_id
        WHERE r.tc = :tc AND r.month <= :month {only}
        ORDER BY h.player_id, r.month DESC"""


def _latest(
    db: Db, tc: str, month: dt.date, columns: str, wanted: set[int] | None
) -> list[tuple[Any, ...]]:
    """``(current, *columns)`` (SQL columns of ``elo_history h`` and ``players p``, the
    player's id first) of each player's latest stored line on a list closing ``month`` or
    earlier (``current``: on that very list), of the ``wanted`` players only if given (more
    than :data:`IN_LIMIT` are read whole and filtered by the caller)."""
    params: dict[str, Any] = {"tc": tc, "month": month}
    only = ""
    if wanted is not None and len(wanted) <= IN_LIMIT:
        only = "AND h.player_id IN (:ids)"
        params["ids"] = sorted(wanted)
    return db.all(_latest_sql(db, columns, only), params)  # one fetch: faster than row by row


def latest_lines(
    db: Db, tc: str, month: dt.date, wanted: set[int] | None = None
) -> Iterator[tuple[bool, Line]]:
    """Each player's latest stored line on a list closing ``month`` or earlier (of the
    ``wanted`` players only, if given), with whether it is on that very list."""
    for current, pid, *fields in _latest(db, tc, month, _LINE_COLUMNS, wanted):
        if wanted is None or pid in wanted:
            yield bool(current), _line([pid, *fields])


def latest_ratings(db: Db, tc: str, month: dt.date) -> list[tuple[int, int | None, bool]]:
    """``(player, rating, current)`` of each player's latest stored line on a list closing
    ``month`` or earlier (``current``: on that very list): :func:`latest_lines` cut to the
    rating, for readers of a whole list's ratings."""
    params = {"tc": tc, "month": month}
    if db.sqlite:
        # SQLite takes the bare columns of a max() query from the row holding the max (its
        # documented rule): one grouped scan, no join back to each player's latest line.
        rows = db.all(
            """
            SELECT h.player_id, h.rating, max(r.month) = :month
            FROM elo_history h JOIN rating_periods r ON r.id = h.period_id
            WHERE r.tc = :tc AND r.month <= :month
            GROUP BY h.player_id""",
            params,
        )
    else:
        rows = db.all(_latest_sql(db, "h.player_id, h.rating"), params)
        rows = [(pid, rating, current) for current, pid, rating in rows]
    return [(pid, rating, bool(current)) for pid, rating, current in rows]


class BriefLine(NamedTuple):
    """What a printed list reads of a stored line: enough to carry it over."""

    player_id: int
    rating: int | None
    games: int
    next_k: int | None
    rated_games: int
    ever_2400: bool
    ever_2300: bool
    birth_year: int | None
    extra: tuple[Any, ...]  # the columns of ``players`` asked for


_BRIEF_COLUMNS = (
    "h.player_id, h.rating, h.games, h.next_k, h.rated_games, h.ever_2400, h.ever_2300, "
    "p.birth_year"
)


def latest_briefs(
    db: Db, tc: str, month: dt.date, extra: Collection[str] = ()
) -> Iterator[tuple[bool, BriefLine]]:
    """:func:`latest_lines` cut to what a printed list shows, for a whole list (a
    federation's list: reading a few columns is several times faster than whole lines), with
    the ``extra`` columns (of ``players``, by name) of each line's player."""
    columns = ", ".join((_BRIEF_COLUMNS, *(f"p.{name}" for name in extra)))
    for current, pid, rating, games, next_k, rated, e2400, e2300, born, *more in _latest(
        db, tc, month, columns, None
    ):
        yield (
            bool(current),
            BriefLine(
                pid, rating, games, next_k, rated, bool(e2400), bool(e2300), born, tuple(more)
            ),
        )


def player_columns(
    db: Db, players: Collection[int], columns: Collection[str]
) -> dict[int, tuple[Any, ...]]:
    """The ``columns`` of ``players`` (by name), by player."""
    sql = f"SELECT id, {', '.join(columns)} FROM players"
    if len(players) > IN_LIMIT:
        rows = db.all(sql)
    else:
        rows = db.all(sql + " WHERE id IN (:ids)", {"ids": sorted(players)})
    return {pid: tuple(more) for pid, *more in rows if pid in players}


def player_lines(db: Db, tc: str, player_id: int) -> dict[dt.date, Line]:
    """The player's stored line on each closed list of ``tc``, by the month it closed."""
    rows = db.all(
        f"""
        SELECT r.month, {_LINE_COLUMNS}
        FROM elo_history h
        JOIN rating_periods r ON r.id = h.period_id
        JOIN players p ON p.id = h.player_id
        WHERE r.tc = :tc AND h.player_id = :pid""",
        {"tc": tc, "pid": player_id},
    )
    return {day(month): _line(fields) for month, *fields in rows}


def list_moves(db: Db, tc: str, until: dt.date) -> list[tuple[int, int, int | None]]:
    """Every stored line's (period id, player, rating) on the lists of ``tc`` closing
    ``until`` or earlier, oldest list first: the ratings on each list follow from them and the
    seeds (a player without a line on a list carries his latest over)."""
    return db.all(  # the driver's rows are tuples: not copied (a list has 50,000 lines)
        """
        SELECT h.period_id, h.player_id, h.rating
        FROM elo_history h
        JOIN rating_periods r ON r.id = h.period_id
        WHERE r.tc = :tc AND r.month <= :until
        ORDER BY r.month""",
        {"tc": tc, "until": until},
    )


# ---------------------------------------------------------------------------------------
# A whole printed list, in its order, streamed (a federation's list has hundreds of thousands
# of lines: the database sorts them, and they are read in batches as they are printed).

#: Where a listed line comes from: stored on that very list, carried over from an earlier
#: one (a rated player without games), or a seed (a player without any stored line yet).
CURRENT, CARRIED, SEEDED = 1, 0, 2


def _listed_sql(db: Db, extra: Collection[str]) -> str:
    """Every rated line of the list closing ``:month`` of ``:tc``, stored, carried or seeded,
    unordered: source, rating, name, then :class:`BriefLine`'s columns but the rating."""
    more = "".join(f", p.{name}" for name in extra)
    stored = _latest_sql(
        db,
        "h.rating, p.name, h.player_id, h.games, h.next_k, h.rated_games, h.ever_2400, "
        f"h.ever_2300, p.birth_year{more}",
    )
    return f"""
        SELECT * FROM ({stored}) stored WHERE rating IS NOT NULL
        UNION ALL
        SELECT {SEEDED}, s.rating, p.name, s.player_id, s.games, NULL, s.games, s.ever_2400,
               s.ever_2300, p.birth_year{more}
        FROM player_seeds s JOIN players p ON p.id = s.player_id
        WHERE s.tc = :tc AND NOT p.external AND NOT EXISTS (
            SELECT 1 FROM elo_history h JOIN rating_periods r ON r.id = h.period_id
            WHERE h.player_id = s.player_id AND r.tc = :tc AND r.month <= :month)"""


def listed_lines(
    db: Db, tc: str, month: dt.date, extra: Collection[str] = ()
) -> Iterator[tuple[int, str, BriefLine]]:
    """``(source, name, line)`` of each rated line of the list closing ``month`` (source:
    :data:`CURRENT`, :data:`CARRIED` or :data:`SEEDED`; a seed's line holds its rated games
    as ``games`` too), highest rating first, then by name (code point order, as Python
    compares strings) and id: sorted by the database, read in batches as the caller goes."""
    collate = "" if db.sqlite else ' COLLATE "C"'  # SQLite compares text bytewise already
    sql = f"""
        SELECT * FROM ({_listed_sql(db, extra)}) listed
        ORDER BY listed.rating DESC, listed.name{collate}, listed.player_id"""
    for source, rating, name, pid, games, next_k, rated, e2400, e2300, born, *more in db.stream(
        sql, {"tc": tc, "month": month}
    ):
        line = BriefLine(
            pid, rating, games, next_k, rated, bool(e2400), bool(e2300), born, tuple(more)
        )
        yield source, name, line


class RatingCount(NamedTuple):
    """The rated lines of a list at one rating: how many, their longest name (characters)
    and their highest FIDE id."""

    rating: int
    players: int
    longest_name: int
    top_fide_id: int | None


def rating_counts(db: Db, tc: str, month: dt.date) -> list[RatingCount]:
    """The rated lines of the list closing ``month`` counted by rating, highest first: what
    printing the list must know before its first line (ranks and column widths)."""
    rows = db.all(
        f"""
        SELECT rating, count(*), max(length(name)), max(fide_id)
        FROM ({_listed_sql(db, ("fide_id",))}) listed
        GROUP BY rating ORDER BY rating DESC""",
        {"tc": tc, "month": month},
    )
    return [RatingCount(*row) for row in rows]
