"""The change log (``tracker log``) and the removed games kept for ``tracker game restore``
(:mod:`tracker.services.log`)."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, insert_sql


class LogRow(NamedTuple):
    id: int
    at: dt.datetime
    command: str
    entries: str  # JSON


def insert_log(db: Db, at: dt.datetime, command: str, entries: str) -> int:
    values = {"at": at, "command": command, "entries": entries}
    return db.insert(insert_sql("change_log", values), values)


def log_rows(db: Db, since: int = 0) -> list[LogRow]:
    """Every entry after number ``since``, oldest first."""
    sql = "SELECT id, at, command, entries FROM change_log WHERE id > :since ORDER BY id"
    return db.rows(LogRow, sql, {"since": since})


class RemovedGameRow(NamedTuple):
    id: int
    log_id: int
    game: str  # JSON
    month: dt.date


def insert_removed_game(db: Db, removed: RemovedGameRow) -> None:
    db.run(insert_sql("removed_games", RemovedGameRow._fields), removed._asdict())


def removed_game(db: Db, game_id: int) -> RemovedGameRow | None:
    sql = "SELECT id, log_id, game, month FROM removed_games WHERE id = :id"
    return db.row(RemovedGameRow, sql, {"id": game_id})


def delete_removed_game(db: Db, game_id: int) -> None:
    db.run("DELETE FROM removed_games WHERE id = :id", {"id": game_id})


def insert_game_with_id(db: Db, game_id: int, columns: dict[str, object]) -> None:
    """Put a removed game back with its own id."""
    db.run(insert_sql("games", ["id", *columns]), {"id": game_id, **columns})
