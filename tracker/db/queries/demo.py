"""What ``tracker demo`` asks of a file before it rebuilds it."""

import sqlite3
from pathlib import Path

from tracker.db.driver import Db


def player_names_in_file(path: Path) -> set[str] | None:
    """The player names of the SQLite file at ``path``, read through a read-only connection
    (a file that is not a database is left exactly as it was); None if it is not a tracker
    database."""
    try:
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        return {name for (name,) in Db(conn, "sqlite").all("SELECT name FROM players")}
    except sqlite3.Error:  # not a database, or not a tracker database
        return None
    finally:
        conn.close()
