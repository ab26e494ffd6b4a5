"""The driver layer of the raw floors: one connection to the same database tracker uses,
through the bare driver (``sqlite3``, or ``psycopg`` for PostgreSQL), with tracker's
connection settings, and the few helpers the floors share.

A target is ``sqlite:PATH`` or a libpq URL (``postgresql://user@host:port/name``). Only the
driver the target needs is imported. SQL is written with ``?`` marks; on PostgreSQL they
become ``%s``. Dates are ISO text on SQLite (as SQLAlchemy stores them there) and ``date``
values on PostgreSQL: :meth:`Raw.day` reads either, :meth:`Raw.store` writes what the
database holds.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from typing import Any

CHUNK = 500  # ids per IN (...) list, as tracker uses
# Any constant: the advisory lock every tracker write transaction takes on PostgreSQL.
WRITER_LOCK = 0x7472_6B72


class Raw:
    """One connection; ``begin``/``commit`` one transaction at a time."""

    def __init__(self, target: str) -> None:
        self.pg = not target.startswith("sqlite:")
        self._days: dict[Any, dt.date] = {}
        if self.pg:
            import psycopg

            self.conn: Any = psycopg.connect(target, options="-c lock_timeout=30000")
        else:
            import sqlite3

            self.conn = sqlite3.connect(target[len("sqlite:") :], isolation_level=None)
            for pragma in (
                "busy_timeout = 30000",
                "foreign_keys = ON",
                "journal_mode = WAL",
                "synchronous = NORMAL",
                "cache_size = -32768",
            ):
                self.conn.execute(f"PRAGMA {pragma}")
        self.cur = self.conn.cursor()

    # statements
    def sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.pg else text

    def rows(self, text: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.cur.execute(self.sql(text), params)
        return self.cur.fetchall()

    def one(self, text: str, params: Sequence[Any] = ()) -> Any:
        """The first row (None if there is none)."""
        self.cur.execute(self.sql(text), params)
        return self.cur.fetchone()

    def run(self, text: str, params: Sequence[Any] = ()) -> None:
        self.cur.execute(self.sql(text), params)

    def chunked(self, text: str, ids: Sequence[Any], extra: Sequence[Any] = ()) -> list[Any]:
        """``text`` with ``{ids}`` standing for ``?, ?, ...``, run a chunk of ``ids`` at a
        time (``extra`` parameters first); every row."""
        out: list[Any] = []
        for start in range(0, len(ids), CHUNK):
            chunk = list(ids[start : start + CHUNK])
            query = text.replace("{ids}", ", ".join("?" for _ in chunk))
            out.extend(self.rows(query, [*extra, *chunk]))
        return out

    def insert(self, table: str, cols: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """Many rows in one driver call: ``executemany`` on SQLite, ``COPY`` on PostgreSQL
        (as tracker's bulk inserts)."""
        names = ", ".join(cols)
        if self.pg:
            with self.cur.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join("?" for _ in cols)
        self.cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)

    def log(self, command: str, entries: list[dict[str, Any]]) -> None:
        """The change log's row of a command that wrote (``tracker log``), as every tracker
        command that writes adds one."""
        at = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
        self.run(
            "INSERT INTO change_log (at, command, entries) VALUES (?, ?, ?)",
            (at if self.pg else at.isoformat(" "), command, json.dumps(entries)),
        )

    # transactions
    def begin(self, write: bool = True) -> None:
        if self.pg:
            if write:
                self.run(f"SELECT pg_advisory_xact_lock({WRITER_LOCK})")
        else:
            self.run("BEGIN IMMEDIATE" if write else "BEGIN")

    def commit(self) -> None:
        if self.pg:
            self.conn.commit()
        else:
            self.run("COMMIT")

    def rollback(self) -> None:
        if self.pg:
            self.conn.rollback()
        else:
            self.run("ROLLBACK")

    def close(self) -> None:
        self.cur.close()
        self.conn.close()  # on SQLite the last connection checkpoints the WAL, as tracker's

    # values
    def day(self, value: Any) -> dt.date:
        """A stored date as a ``date`` (cached: rows hold few distinct days)."""
        got = self._days.get(value)
        if got is None:
            got = value if isinstance(value, dt.date) else dt.date.fromisoformat(value)
            self._days[value] = got
        return got

    def store(self, day: dt.date | None) -> Any:
        """A date as the database stores it."""
        if day is None or self.pg:
            return day
        return day.isoformat()

    @property
    def true(self) -> Any:
        return True if self.pg else 1

    @property
    def false(self) -> Any:
        return False if self.pg else 0


def target_of(url: str) -> str:
    """A floor target from a SQLAlchemy URL (``sqlite:///PATH``, ``postgresql+psycopg://``)."""
    if url.startswith("sqlite:///"):
        return "sqlite:" + url[len("sqlite:///") :]
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgresql") else url
