"""What ``tracker status`` counts: players, games, the last import, a list's movers."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db


def player_counts(db: Db) -> tuple[int, int]:
    """How many players are tracked, and how many external."""
    counts = {bool(external): n for external, n in db.all(
        "SELECT external, count(*) FROM players GROUP BY external"
    )}  # fmt: skip
    return counts.get(False, 0), counts.get(True, 0)


def game_count(db: Db) -> int:
    return int(db.scalar("SELECT count(*) FROM games") or 0)


class LastImport(NamedTuple):
    """The latest import: its id, its file's name, when, and the games it added."""

    id: int
    file: str
    imported_at: dt.datetime
    added: int


def last_import(db: Db) -> LastImport | None:
    return db.row(
        LastImport,
        "SELECT id, file_name, imported_at, games_added FROM imports ORDER BY id DESC LIMIT 1",
    )


class MoveRow(NamedTuple):
    player_id: int
    name: str
    rating_before: int
    rating: int | None
    change: int


def moves(db: Db, period_id: int) -> list[MoveRow]:
    """The rating changes on the list ``period_id`` published, of the players rated before
    it who played in its period."""
    return db.rows(
        MoveRow,
        "SELECT p.id, p.name, h.rating_before, h.rating, h.change"
        " FROM elo_history h JOIN players p ON p.id = h.player_id"
        " WHERE h.period_id = :period AND h.rating_before IS NOT NULL AND h.games > 0",
        {"period": period_id},
    )
