"""What ``tracker demo`` asks of a file before it rebuilds it."""

from __future__ import annotations

from tracker.db.driver import Db


def player_names(db: Db) -> set[str]:
    """The names of every player in the database."""
    return {name for (name,) in db.all("SELECT name FROM players")}
