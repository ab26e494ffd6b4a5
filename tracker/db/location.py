"""Where the database lives: ``--db`` > ``TRACKER_DB`` > the platform's user data folder.

Kept free of SQLAlchemy so that ``--help`` and the calculators start fast.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "TRACKER_DB"
DEFAULT_FILE = "tracker.db"


def default_path() -> Path:
    """The file used when neither ``--db`` nor ``TRACKER_DB`` is given."""
    from platformdirs import user_data_path

    return user_data_path("tracker", appauthor=False) / DEFAULT_FILE


def resolve(option: str | None) -> str:
    """The database URL to use, from the option, the environment or the default file."""
    raw = option or os.environ.get(ENV_VAR) or ""
    if not raw:
        return sqlite_url(default_path())
    return to_url(raw)


def to_url(raw: str) -> str:
    """Accept a SQLAlchemy URL or a plain file path (a SQLite database)."""
    if "://" in raw:
        if raw.startswith(("postgresql://", "postgres://")):
            return "postgresql+psycopg://" + raw.split("://", 1)[1]
        return raw
    return sqlite_url(Path(raw))


#: Characters of a file's path that a URL reads as its own: escaped, so that a path such as
#: ``club@2026#1%.db`` names that file (SQLAlchemy and the driver unquote the path).
_URL_ESCAPES = str.maketrans({"%": "%25", "?": "%3F", "#": "%23", "@": "%40"})


def sqlite_url(path: Path) -> str:
    return "sqlite:///" + str(path.expanduser().absolute()).translate(_URL_ESCAPES)
