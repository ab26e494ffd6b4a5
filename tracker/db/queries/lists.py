"""The published lists as stored: closed periods, seeds, and the lines of ``elo_history``.

A closed period stores the lines that changed (see :mod:`tracker.services.lists`, which
derives the others) and the whole list it publishes; these queries read them: a player's
lines, a period's, a whole list's entries or the few columns a printed list shows.
"""

import datetime as dt
from collections.abc import Collection, Iterable, Iterator
from typing import Any, NamedTuple

from tracker.db.driver import Db, Row, Same, chunks, day, maybe_day
from tracker.db.rows import EloRow
from tracker.vocabulary import TimeControl


class ClosedMonth(NamedTuple):
    """A closed period of one time control."""

    month: dt.date
    period_id: int
    stale: bool


def closed_months(db: Db, tc: TimeControl) -> list[ClosedMonth]:
    """Every closed period of ``tc``, oldest first."""
    sql = "SELECT month, id, stale FROM rating_periods WHERE tc = :tc ORDER BY month"
    return db.rows(ClosedMonth, sql, {"tc": tc})


def first_game_day(db: Db, tc: TimeControl | None = None) -> dt.date | None:
    """The day of the first game of ``tc`` (None: of any time control)."""
    if tc is None:
        return maybe_day(db.scalar("SELECT min(played_on) FROM games"))
    return maybe_day(db.scalar("SELECT min(played_on) FROM games WHERE tc = :tc", {"tc": tc}))


def period_id(db: Db, tc: TimeControl, month: dt.date) -> int | None:
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


def seeds(db: Db, tc: TimeControl, *, only: Collection[int] | None = None) -> dict[int, ListSeed]:
    """Tracked players' seeds of ``tc`` (of the ``only`` players, if given), by player."""
    if only is None:  # streamed: a federation's list seeds 600,000 players
        rows: Iterable[Row] = db.stream(_SEEDS, {"tc": tc})
    else:
        rows = db.all_in(_SEEDS + " AND s.player_id IN (:ids)", only, {"tc": tc})
    same = Same()  # a rating, a count of games, a birth year: each held once
    return {
        pid: ListSeed(pid, same[rating], same[games], bool(e2400), bool(e2300), same[born])
        for pid, rating, games, e2400, e2300, born in rows
    }


def official_ratings(db: Db, tc: TimeControl, list_date: dt.date) -> dict[int, int]:
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
    sql = "SELECT event_id, player_id, rating FROM event_ratings WHERE event_id IN (:ids)"
    return {(int(e), int(p)): int(r) for e, p, r in db.all_in(sql, event_ids)}


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


def _rows(
    db: Db, sql: str, params: dict[str, Any], players: Collection[int] | None
) -> Iterator[Any]:
    """The rows of ``sql`` (whose ``{players}`` ends its condition on ``player_id``): for
    every player, streamed (a federation's list is never all in memory), or for ``players``
    only, a few hundred ids a query."""
    if players is None:
        yield from db.stream(sql.format(players=""), params)
        return
    for chunk in chunks(sorted(players)):
        yield from db.all(sql.format(players=" AND player_id IN (:ids)"), {**params, "ids": chunk})


def unrated_lines(db: Db, period_id: int, players: Collection[int] | None = None) -> list[int]:
    """The players with an unrated line stored on the list of the period ``period_id`` (of
    ``players`` only, if given)."""
    sql = "SELECT player_id FROM elo_history WHERE period_id = :pid AND rating IS NULL{players}"
    return [r[0] for r in _rows(db, sql, {"pid": period_id}, players)]


def period_games(db: Db, period_id: int) -> list[tuple[int, int]]:
    """``(player, games)`` of each line of the period ``period_id`` that rated games."""
    return db.all(
        "SELECT player_id, games FROM elo_history WHERE period_id = :pid AND games > 0",
        {"pid": period_id},
    )


def player_lines(db: Db, tc: TimeControl, player_id: int) -> dict[dt.date, Line]:
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


# ---------------------------------------------------------------------------------------
# A whole printed list, in its order, streamed (a federation's list has hundreds of thousands
# of lines: they are read in batches as they are printed, in the order of the stored ranks).


class ListedLine(NamedTuple):
    """A stored entry of a printed list with what the list prints of its player."""

    rank: int
    player_id: int
    name: str
    rating: int
    games: int
    k: int | None
    birth_year: int | None
    extra: tuple[Any, ...]  # the columns of ``players`` asked for


def listed_lines(db: Db, period_id: int, extra: Collection[str] = ()) -> Iterator[ListedLine]:
    """Each entry of the list of the period ``period_id``, by rank, then by name (code point
    order, as Python compares strings) and id: read in batches as the caller goes."""
    collate = "" if db.sqlite else ' COLLATE "C"'  # SQLite compares text bytewise already
    more = "".join(f", p.{name}" for name in extra)
    sql = f"""
        SELECT e.rank, e.player_id, p.name, e.rating, e.games, e.k, p.birth_year{more}
        FROM list_entries e JOIN players p ON p.id = e.player_id
        WHERE e.period_id = :pid
        ORDER BY e.rank, p.name{collate}, e.player_id"""
    for rank, pid, name, rating, games, k, born, *rest in db.stream(sql, {"pid": period_id}):
        yield ListedLine(rank, pid, name, rating, games, k, born, tuple(rest))


class Shape(NamedTuple):
    """What printing a list must know before its first line."""

    last_rank: int  # 0: nobody is on the list
    longest_name: int
    fide_id_digits: int  # the widest FIDE id on the list (0: none has one)


#: From this many ranks on, :func:`list_shape` walks the players' indexes instead of joining
#: the list's lines to their players (5 ms against 0.14 s to 1 s on a federation's list).
WALK_FROM = 10_000


def list_shape(db: Db, period_id: int) -> Shape:
    """The last rank of the list of the period ``period_id``, its longest name (characters)
    and its widest FIDE id (digits).

    A long list takes the players by the length of their name (``ix_players_name_length``),
    longest first, down to the first on the list; and by FIDE id from the smallest with as
    many digits as the highest in the database (fewer, if no one with as many is on it) up
    to the first on the list: on a list of most of the players, a few seeks either way. (The
    highest ids are the newest players, unrated often: the walk down from the highest id
    passed 448,000 of them on a federation's list.) A short list (the club's, in a
    federation's database, would walk most players) joins its lines to their players."""
    pid = {"pid": period_id}
    # the last rank read from the end of the list's index: a max() is planned from the
    # statistics, and PostgreSQL's know nothing yet of a list just closed (it read all
    # 623,000 ranks of a federation's)
    last = (
        db.scalar(
            "SELECT rank FROM list_entries WHERE period_id = :pid ORDER BY rank DESC LIMIT 1",
            pid,
        )
        or 0
    )
    if last < WALK_FROM:
        row = db.first(
            """
            SELECT max(length(p.name)), max(p.fide_id)
            FROM list_entries e JOIN players p ON p.id = e.player_id
            WHERE e.period_id = :pid""",
            pid,
        )
        longest, top = row if row is not None else (None, None)
        return Shape(last, longest or 0, len(str(top)) if top is not None else 0)
    listed = "EXISTS (SELECT 1 FROM list_entries e WHERE e.period_id = :pid AND e.player_id = p.id)"
    longest = db.scalar(
        f"SELECT length(p.name) FROM players p WHERE {listed} ORDER BY length(p.name) DESC LIMIT 1",
        pid,
    )
    top = db.scalar("SELECT max(fide_id) FROM players")
    digits = len(str(top)) if top is not None else 0
    while digits and not db.scalar(
        f"SELECT 1 FROM players p WHERE p.fide_id >= :low AND p.fide_id < :high AND {listed}"
        " ORDER BY p.fide_id LIMIT 1",
        {**pid, "low": 10 ** (digits - 1) if digits > 1 else 0, "high": 10**digits},
    ):
        digits -= 1
    return Shape(last, longest or 0, digits)


# ---------------------------------------------------------------------------------------
# The published lists as stored once (``list_entries``): every rated line of each list, with
# its rank, written when its period is closed or rerated.


class Entry(NamedTuple):
    """A rated line of a published list as stored in ``list_entries``."""

    player_id: int
    rank: int
    rating: int
    change: int
    games: int
    k: int | None
    rated_games: int
    ever_2400: bool
    ever_2300: bool


_ENTRY_COLUMNS = Entry._fields


def write_entries(db: Db, period_id: int, entries: Iterable[Entry]) -> None:
    """Store ``entries`` (their ranks are not read) as the list of the period ``period_id``,
    replacing what it held, and rank it (:func:`rank_entries`)."""
    db.run("DELETE FROM list_entries WHERE period_id = :pid", {"pid": period_id})
    db.insert_many(
        "list_entries", ("period_id", *_ENTRY_COLUMNS), ((period_id, *e) for e in entries)
    )
    rank_entries(db, period_id)


def rank_entries(db: Db, period_id: int) -> None:
    """Rank the list of the period ``period_id`` as FIDE prints it: highest first, a rank
    1 + those rated higher, so equal ratings share it. The one place a rank is given.

    PostgreSQL plans the join by the statistics it has, which know nothing yet of a list
    just written (one row, it guesses): a nested loop then ranks the whole list again for
    each of its lines. A hash join is the right plan at any size, so it is the one allowed
    here."""
    if not db.sqlite:
        db.run("SET LOCAL enable_nestloop = off")
    db.run(
        """
        UPDATE list_entries SET rank = ranked.rank
        FROM (
            SELECT player_id, RANK() OVER (ORDER BY rating DESC) AS rank
            FROM list_entries WHERE period_id = :pid
        ) AS ranked
        WHERE list_entries.period_id = :pid AND list_entries.player_id = ranked.player_id
            AND list_entries.rank <> ranked.rank""",
        {"pid": period_id},
    )
    if not db.sqlite:
        db.run("RESET enable_nestloop")


def replace_entries(
    db: Db, period_id: int, players: Collection[int], entries: Iterable[Entry]
) -> None:
    """The entries of ``players`` on the list of the period ``period_id`` replaced by
    ``entries`` (theirs that are rated; ranks not read), and the list ranked again."""
    for chunk in chunks(sorted(players)):
        db.run(
            "DELETE FROM list_entries WHERE period_id = :pid AND player_id IN (:ids)",
            {"pid": period_id, "ids": chunk},
        )
    db.insert_many(
        "list_entries", ("period_id", *_ENTRY_COLUMNS), ((period_id, *e) for e in entries)
    )
    rank_entries(db, period_id)


class EntryFlags(NamedTuple):
    """What a list publishes of a line besides its rating: K and the sticky flags."""

    player_id: int
    k: int | None
    ever_2400: bool
    ever_2300: bool


def republish(db: Db, period_id: int, changed: Iterable[EntryFlags]) -> None:
    """Store the K and flags of ``changed`` entries of the list of the period ``period_id``."""
    sql = (
        "UPDATE list_entries SET k = :k, ever_2400 = :ever_2400, ever_2300 = :ever_2300"
        " WHERE period_id = :pid AND player_id = :player_id"
    )
    for p in changed:
        db.run(sql, {"pid": period_id, **p._asdict()})


def any_listed(db: Db, period_id: int, players: Collection[int]) -> bool:
    """Whether any of ``players`` has an entry on the list of the period ``period_id``."""
    sql = "SELECT 1 FROM list_entries WHERE period_id = :pid AND player_id IN (:ids) LIMIT 1"
    return any(
        db.all(sql, {"pid": period_id, "ids": list(chunk)}) for chunk in chunks(sorted(players))
    )


def copy_entries(db: Db, source: int, target: int) -> None:
    """Store the list of the period ``source`` again as that of ``target`` (replacing what
    it held), every line carried over (no games, no change)."""
    db.run("DELETE FROM list_entries WHERE period_id = :pid", {"pid": target})
    columns = ", ".join(c for c in _ENTRY_COLUMNS if c not in ("change", "games"))
    db.run(
        f"INSERT INTO list_entries (period_id, change, games, {columns})"
        f" SELECT :target, 0, 0, {columns} FROM list_entries WHERE period_id = :source",
        {"source": source, "target": target},
    )


def entries(db: Db, period_id: int) -> list[Entry]:
    """Every stored entry of the list of the period ``period_id``, by rank then player."""
    rows = db.all(
        f"SELECT {', '.join(_ENTRY_COLUMNS)} FROM list_entries WHERE period_id = :pid"
        " ORDER BY rank, player_id",
        {"pid": period_id},
    )
    return [
        Entry(p, rank, r, c, g, k, n, bool(e24), bool(e23))
        for p, rank, r, c, g, k, n, e24, e23 in rows
    ]


def entries_with_players(
    db: Db, period_id: int, players: Collection[int] | None = None
) -> Iterator[tuple[Entry, int | None, bool]]:
    """Every stored entry of the list of the period ``period_id`` (of ``players`` only, if
    given) with its player's birth year and whether he is external, as the caller goes (a
    whole list is streamed)."""
    columns = ", ".join(f"e.{c}" for c in _ENTRY_COLUMNS)
    sql = (
        f"SELECT {columns}, p.birth_year, p.external FROM list_entries e"
        " JOIN players p ON p.id = e.player_id WHERE e.period_id = :pid{players}"
    )
    rows = _rows(db, sql, {"pid": period_id}, players)
    for pid, rank, r, c, g, k, n, e24, e23, born, external in rows:
        yield Entry(pid, rank, r, c, g, k, n, bool(e24), bool(e23)), born, bool(external)


def period_lines(
    db: Db, period_id: int, *, unrated: bool = False, players: Collection[int] | None = None
) -> list[Line]:
    """The lines stored on the list of the period ``period_id`` (``unrated``: the unrated
    ones only, pending results; of ``players`` only, if given)."""
    sql = (
        f"SELECT {_LINE_COLUMNS} FROM elo_history h JOIN players p ON p.id = h.player_id"
        f" WHERE h.period_id = :pid{' AND h.rating IS NULL' if unrated else ''}"
    ) + "{players}"
    rows = _rows(db, sql, {"pid": period_id}, players)
    return [_line(list(fields)) for fields in rows]


def players_entries(db: Db, players: Collection[int]) -> dict[int, set[Entry]]:
    """The stored entries of ``players`` (at most :data:`IN_CHUNK`) on every list, unranked
    (rank 0), by period."""
    rows = db.all(
        f"SELECT e.period_id, {', '.join(f'e.{c}' for c in _ENTRY_COLUMNS)}"
        " FROM list_entries e WHERE e.player_id IN (:ids)",
        {"ids": sorted(players)},
    )
    out: dict[int, set[Entry]] = {}
    for period, pid, _rank, r, c, g, k, n, e24, e23 in rows:
        out.setdefault(period, set()).add(Entry(pid, 0, r, c, g, k, n, bool(e24), bool(e23)))
    return out


def entry_ratings(
    db: Db, period_id: int, players: Collection[int] | None = None
) -> Iterator[tuple[int, int]]:
    """``(player, rating)`` of every entry of the list of the period ``period_id`` (of
    ``players`` only, if given)."""
    sql = "SELECT player_id, rating FROM list_entries WHERE period_id = :pid{players}"
    return _rows(db, sql, {"pid": period_id}, players)


class Placed(NamedTuple):
    """A player's place on one stored list: his rank, how many share it, and the list's size
    (the last rank and how many share that)."""

    month: dt.date
    rank: int
    tied: int
    last_rank: int
    last_tied: int


def player_places(db: Db, tc: TimeControl, player_id: int) -> list[Placed]:
    """The player's place on each stored list of ``tc`` he is on: index probes of the lists'
    ranks around his own, whatever the size of the lists."""
    rows = db.all(
        """
        SELECT x.month, x.rank, x.tied, x.last,
               (SELECT count(*) FROM list_entries t
                WHERE t.period_id = x.period_id AND t.rank = x.last)
        FROM (
            SELECT r.month, e.period_id, e.rank,
                   (SELECT count(*) FROM list_entries t
                    WHERE t.period_id = e.period_id AND t.rank = e.rank) AS tied,
                   (SELECT max(t.rank) FROM list_entries t
                    WHERE t.period_id = e.period_id) AS last
            FROM list_entries e JOIN rating_periods r ON r.id = e.period_id
            WHERE r.tc = :tc AND e.player_id = :pid
        ) x""",
        {"tc": tc, "pid": player_id},
    )
    return [Placed(day(m), *rest) for m, *rest in rows]
