"""The queries of an import (:mod:`tracker.services.imports`): looking a file's events and
games up among the stored ones (its players: :func:`tracker.db.queries.players.players_in`),
and writing what an accepted file brings (its players, events, ``imports`` row and games).

The lookups take any number of values and ask for them :data:`~tracker.db.driver.IN_CHUNK`
at a time (one ``IN (...)`` list each); the games go in with :meth:`Db.insert_many` (COPY on
PostgreSQL, one ``executemany`` on SQLite).
"""

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, insert_sql, reader
from tracker.db.queries.games import EVENT_COLUMNS, EventRow, GameFields
from tracker.db.queries.players import PlayerRow
from tracker.vocabulary import TimeControl


def _stored_moment(db: Db, value: dt.datetime) -> Any:
    """A timestamp as SQLAlchemy's ``DateTime`` stores it: on SQLite, text with the
    microseconds always written (``2026-01-10 18:30:00.000000``)."""
    return value.isoformat(" ", "microseconds") if db.sqlite else value


# -- players ------------------------------------------------------------------------------


def insert_players(db: Db, players: Sequence[PlayerRow]) -> list[int]:
    """Insert ``players`` (their ``id`` not used) in one driver call; their ids, in their
    order.

    The ids are the ones the database would give them one by one (SQLite's AUTOINCREMENT:
    one past the largest ever given; PostgreSQL: the sequence's next values), taken first
    and written with the rows, so that a federation's thousands of new players go in with
    one bulk insert and still come back with their ids."""
    if not players:
        return []
    if db.sqlite:
        last = db.scalar(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'players'), 0), "
            "coalesce((SELECT max(id) FROM players), 0))"
        )
        ids = list(range(int(last) + 1, int(last) + 1 + len(players)))
    else:
        ids = sorted(
            db.scalars(
                "SELECT nextval(pg_get_serial_sequence('players', 'id')) "
                "FROM generate_series(1, :count)",
                {"count": len(players)},
            )
        )
    db.insert_many(
        "players",
        PlayerRow._fields,
        [player._replace(id=pid) for pid, player in zip(ids, players, strict=True)],
    )
    return ids


# -- events -------------------------------------------------------------------------------


def events_by_key(db: Db, keys: Sequence[str]) -> list[tuple[str, EventRow]]:
    """The events whose ``name_key`` (:func:`tracker.vocabulary.event_key`) is one of
    ``keys``, each with its key."""
    sql = f"SELECT name_key, {EVENT_COLUMNS} FROM events WHERE name_key IN (:keys)"
    rows = db.all_in(sql, keys, name="keys")
    return [(str(row[0]), reader(EventRow)(row[1:])) for row in rows]


class EventTc(NamedTuple):
    """A time control an event has stored games of."""

    event_id: int
    tc: TimeControl


def event_time_controls(db: Db, event_ids: Sequence[int]) -> list[EventTc]:
    sql = "SELECT DISTINCT event_id, tc FROM games WHERE event_id IN (:ids)"
    return db.rows_in(EventTc, sql, event_ids)


# -- games --------------------------------------------------------------------------------


class StoredGame(NamedTuple):
    """A stored game as finding a file's games among them needs it."""

    natural_key: str
    id: int
    result: str
    tc: TimeControl


def games_by_natural_key(db: Db, keys: Sequence[str]) -> Iterator[StoredGame]:
    """The stored games of these natural keys, a slice of keys at a time (a re-imported
    federation's file asks for a million of them). On SQLite each slice goes as one JSON
    parameter: binding hundreds of named parameters would cost more than the lookup (the
    rows and their order are the IN list's)."""
    listed = "(SELECT value FROM json_each(:keys))" if db.sqlite else "(:keys)"
    sql = f"SELECT natural_key, id, result, tc FROM games WHERE natural_key IN {listed}"
    for chunk in chunks(keys):
        keys_in = json.dumps(chunk) if db.sqlite else chunk
        yield from map(StoredGame._make, db.all(sql, {"keys": keys_in}))


def insert_games(db: Db, games: Sequence[GameFields]) -> None:
    """Insert ``games`` in one driver call."""
    db.insert_many("games", GameFields._fields, games)


# -- imports and rating periods -----------------------------------------------------------


class NewImport(NamedTuple):
    """An ``imports`` row: one imported file and what it brought."""

    file_name: str
    sha256: str
    format: str
    imported_at: dt.datetime
    games_added: int
    games_present: int
    games_skipped: int
    games_invalid: int
    byes: int
    players_created: int


def insert_import(db: Db, row: NewImport) -> int:
    """Insert one ``imports`` row; its id."""
    values = row._replace(imported_at=_stored_moment(db, row.imported_at))._asdict()
    return db.insert(insert_sql("imports", NewImport._fields), values)


class EarlierImport(NamedTuple):
    id: int
    imported_at: dt.datetime


def first_import_of(db: Db, sha256: str) -> EarlierImport | None:
    """The first import of a file with this SHA-256, if there was one."""
    return db.row(
        EarlierImport,
        "SELECT id, imported_at FROM imports WHERE sha256 = :sha256 ORDER BY id LIMIT 1",
        {"sha256": sha256},
    )


class ImportRow(NamedTuple):
    """An ``imports`` row as ``tracker import list`` shows it (the counts of
    :class:`NewImport`), and how many games are still linked to it."""

    id: int
    file: str
    sha256: str
    format: str
    imported_at: dt.datetime
    added: int
    already_present: int
    skipped: int
    invalid: int
    byes: int
    players_created: int
    games_now: int


def imports_with_games(db: Db) -> list[ImportRow]:
    """Every import, oldest first."""
    return db.rows(
        ImportRow,
        """
        SELECT i.id, i.file_name, i.sha256, i.format, i.imported_at, i.games_added,
            i.games_present, i.games_skipped, i.games_invalid, i.byes, i.players_created,
            coalesce(linked.n, 0)
        FROM imports i
        LEFT OUTER JOIN (
            SELECT import_id AS iid, count(*) AS n FROM games
            WHERE import_id IS NOT NULL GROUP BY import_id
        ) linked ON linked.iid = i.id
        ORDER BY i.id""",
    )


class TcMonth(NamedTuple):
    """A time control's rating period, by its month (the first closed one, the first marked
    stale)."""

    tc: TimeControl
    month: dt.date


def first_periods(db: Db) -> list[TcMonth]:
    """The first closed period of each time control that has some."""
    return db.rows(TcMonth, "SELECT tc, min(month) FROM rating_periods GROUP BY tc")
