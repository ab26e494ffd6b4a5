"""The queries of an import (:mod:`tracker.services.imports`): looking a file's players,
events and games up among the stored ones, and writing what an accepted file brings (its
players, events, ``imports`` row and games).

The lookups take any number of values and ask for them :data:`LOOKUP_CHUNK` at a time (one
``IN (...)`` list each); the games go in with :meth:`Db.insert_many` (COPY on PostgreSQL,
one ``executemany`` on SQLite).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple

from tracker.db.driver import Db, chunks, day, moment
from tracker.db.queries.games import EVENT_COLUMNS, EventRow, GameFields, event_row
from tracker.vocabulary import TimeControl

#: Values per ``IN (...)`` list when looking rows up.
LOOKUP_CHUNK: Final = 500


def _stored_moment(db: Db, value: dt.datetime) -> Any:
    """A timestamp as SQLAlchemy's ``DateTime`` stores it: on SQLite, text with the
    microseconds always written (``2026-01-10 18:30:00.000000``)."""
    return value.isoformat(" ", "microseconds") if db.sqlite else value


# -- players ------------------------------------------------------------------------------


class KnownPlayer(NamedTuple):
    """A stored player, as matching a file's people needs him."""

    id: int
    name: str
    fide_id: int | None
    external: bool
    birth_year: int | None


def _known_players(db: Db, where: str, values: Sequence[Any]) -> list[KnownPlayer]:
    sql = f"SELECT id, name, fide_id, external, birth_year FROM players WHERE {where} IN (:values)"
    out: list[KnownPlayer] = []
    for chunk in chunks(values, LOOKUP_CHUNK):
        out.extend(
            KnownPlayer(player_id, name, fide_id, bool(external), birth_year)
            for player_id, name, fide_id, external, birth_year in db.all(sql, {"values": chunk})
        )
    return out


def players_by_fide_id(db: Db, fide_ids: Sequence[int]) -> list[KnownPlayer]:
    return _known_players(db, "fide_id", fide_ids)


def players_by_name(db: Db, names: Sequence[str]) -> list[KnownPlayer]:
    """The players of exactly these names."""
    return _known_players(db, "name", names)


def players_by_lower_name(db: Db, lowered: Sequence[str]) -> list[KnownPlayer]:
    """The players whose name in lower case (SQL's ``lower``) is one of ``lowered``."""
    return _known_players(db, "lower(name)", lowered)


class NewPlayer(NamedTuple):
    """A player an import creates (the columns it gives; ``created_at`` is the database's)."""

    name: str
    fide_id: int | None
    federation: str | None
    birth_year: int | None
    sex: str | None
    title: str | None
    external: bool


def insert_players(db: Db, players: Sequence[NewPlayer]) -> list[int]:
    """Insert ``players`` in one driver call; their ids, in their order.

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
        ("id", *NewPlayer._fields),
        [(player_id, *player) for player_id, player in zip(ids, players, strict=True)],
    )
    return ids


# -- events -------------------------------------------------------------------------------


def events_by_key(db: Db, keys: Sequence[str]) -> list[tuple[str, EventRow]]:
    """The events whose ``name_key`` (:func:`tracker.services.intake.event_key`) is one of
    ``keys``, each with its key."""
    out: list[tuple[str, EventRow]] = []
    sql = f"SELECT name_key, {EVENT_COLUMNS} FROM events WHERE name_key IN (:keys)"
    for chunk in chunks(keys, LOOKUP_CHUNK):
        out.extend((str(row[0]), event_row(row[1:])) for row in db.all(sql, {"keys": chunk}))
    return out


class EventTc(NamedTuple):
    """A time control an event has stored games of."""

    event_id: int
    tc: TimeControl


def event_time_controls(db: Db, event_ids: Sequence[int]) -> list[EventTc]:
    out: list[EventTc] = []
    sql = "SELECT DISTINCT event_id, tc FROM games WHERE event_id IN (:ids)"
    for chunk in chunks(event_ids, LOOKUP_CHUNK):
        out.extend(EventTc(event_id, tc) for event_id, tc in db.all(sql, {"ids": chunk}))
    return out


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
    columns = "SELECT natural_key, id, result, tc FROM games"
    if db.sqlite:
        sql = f"{columns} WHERE natural_key IN (SELECT value FROM json_each(:keys))"
        for chunk in chunks(keys, LOOKUP_CHUNK):
            yield from map(StoredGame._make, db.all(sql, {"keys": json.dumps(chunk)}))
        return
    sql = f"{columns} WHERE natural_key IN (:keys)"
    for chunk in chunks(keys, LOOKUP_CHUNK):
        yield from map(StoredGame._make, db.all(sql, {"keys": chunk}))


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
    values = row._asdict()
    values["imported_at"] = _stored_moment(db, row.imported_at)
    names = NewImport._fields
    return db.insert(
        f"INSERT INTO imports ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})",
        values,
    )


class EarlierImport(NamedTuple):
    id: int
    imported_at: dt.datetime


def first_import_of(db: Db, sha256: str) -> EarlierImport | None:
    """The first import of a file with this SHA-256, if there was one."""
    row = db.first(
        "SELECT id, imported_at FROM imports WHERE sha256 = :sha256 ORDER BY id LIMIT 1",
        {"sha256": sha256},
    )
    if row is None:
        return None
    import_id, imported_at = row
    return EarlierImport(import_id, moment(imported_at))


class ImportWithGames(NamedTuple):
    """An ``imports`` row, and how many games are still linked to it."""

    id: int
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
    games_now: int


def imports_with_games(db: Db) -> list[ImportWithGames]:
    """Every import, oldest first."""
    rows = db.all(
        """
        SELECT i.id, i.file_name, i.sha256, i.format, i.imported_at, i.games_added,
            i.games_present, i.games_skipped, i.games_invalid, i.byes, i.players_created,
            coalesce(linked.n, 0)
        FROM imports i
        LEFT OUTER JOIN (
            SELECT import_id AS iid, count(*) AS n FROM games
            WHERE import_id IS NOT NULL GROUP BY import_id
        ) linked ON linked.iid = i.id
        ORDER BY i.id"""
    )
    return [
        row._replace(imported_at=moment(row.imported_at), games_now=int(row.games_now))
        for row in map(ImportWithGames._make, rows)
    ]


def closed_time_controls(db: Db) -> set[str]:
    """The time controls with closed rating periods."""
    return set(db.scalars("SELECT DISTINCT tc FROM rating_periods"))


class TcMonth(NamedTuple):
    """A time control's rating period, by its month (the first closed one, the first marked
    stale)."""

    tc: TimeControl
    month: dt.date


def first_periods(db: Db) -> list[TcMonth]:
    """The first closed period of each time control that has some."""
    rows = db.all("SELECT tc, min(month) FROM rating_periods GROUP BY tc")
    return [TcMonth(tc, day(month)) for tc, month in rows]
