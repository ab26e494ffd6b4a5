"""The change log (``tracker log``) and the removed games kept for ``tracker game restore``
(:mod:`tracker.services.log`)."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, moment


class LogRow(NamedTuple):
    id: int
    at: dt.datetime
    command: str
    entries: str  # JSON


def insert_log(db: Db, at: dt.datetime, command: str, entries: str) -> int:
    return db.insert(
        "INSERT INTO change_log (at, command, entries) VALUES (:at, :command, :entries)",
        {"at": at, "command": command, "entries": entries},
    )


def log_rows(db: Db, since: int = 0) -> list[LogRow]:
    """Every entry after number ``since``, oldest first."""
    rows = db.all(
        "SELECT id, at, command, entries FROM change_log WHERE id > :since ORDER BY id",
        {"since": since},
    )
    return [LogRow(int(i), moment(at), str(c), str(e)) for i, at, c, e in rows]


class RemovedGameRow(NamedTuple):
    id: int
    log_id: int
    game: str  # JSON
    month: dt.date


def insert_removed_game(db: Db, removed: RemovedGameRow) -> None:
    db.run(
        "INSERT INTO removed_games (id, log_id, game, month) VALUES (:id, :log_id, :game, :month)",
        removed._asdict(),
    )


def removed_game(db: Db, game_id: int) -> RemovedGameRow | None:
    row = db.first(
        "SELECT id, log_id, game, month FROM removed_games WHERE id = :id", {"id": game_id}
    )
    return (
        None if row is None else RemovedGameRow(int(row[0]), int(row[1]), str(row[2]), day(row[3]))
    )


def delete_removed_game(db: Db, game_id: int) -> None:
    db.run("DELETE FROM removed_games WHERE id = :id", {"id": game_id})


def insert_game_with_id(db: Db, game_id: int, columns: dict[str, object]) -> None:
    """Put a removed game back with its own id."""
    names = ", ".join(["id", *columns])
    values = ", ".join([":id", *(f":{name}" for name in columns)])
    db.run(f"INSERT INTO games ({names}) VALUES ({values})", {"id": game_id, **columns})
