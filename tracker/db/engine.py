"""SQLAlchemy engines for SQLite and PostgreSQL: what creates, checks and migrates a
database, and makes a connection for a URL the driver does not open itself (every query at
run time goes through :mod:`tracker.db.driver`).

SQLite connections get WAL (on a file of tracker's or a new one: another's file is refused
as it is), ``foreign_keys=ON`` and a busy timeout, and (on Python 3.11,
whose sqlite3 module manages transactions itself) SQLAlchemy's documented "BEGIN" hooks so
that a migration's transaction is real. A migration writes under ``BEGIN IMMEDIATE`` on
SQLite and the writers' advisory lock on PostgreSQL, as every write does
(:func:`tracker.db.driver.begin`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError

from tracker.db import driver
from tracker.errors import DatabaseError

WRITE_OPTION = "tracker_write"


def sqlite_file(url: str) -> Path | None:
    """The file behind a SQLite URL (None for other databases or in-memory SQLite)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database))


def is_in_memory(url: str) -> bool:
    """Whether ``url`` names SQLite's in-memory database (``sqlite://``, ``:memory:``)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return False
    memory = parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"
    return parsed.get_backend_name() == "sqlite" and memory


def make_engine(url: str) -> Engine:
    """Create an engine with the connection settings this project relies on."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if path is not None and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        timeout = driver.BUSY_TIMEOUT_MS / 1000
        if path is not None and driver.read_only_file_system(path):
            # read it as it is (immutable): nothing can be written there, not even WAL's files
            uri = driver.sqlite_uri(path, write=False)
            engine = create_engine(
                parsed, creator=lambda: sqlite3.connect(uri, uri=True, timeout=timeout)
            )
            _install_sqlite_hooks(engine, wal=False)
            return engine
        engine = create_engine(parsed, connect_args={"timeout": timeout})
        _install_sqlite_hooks(engine)
        return engine
    if parsed.get_backend_name() != "postgresql":
        return create_engine(parsed, pool_pre_ping=False)
    # A writer waits for the writer lock (and any lock) as long as SQLite's busy timeout, then
    # fails with "lock not available", which driver.run retries and then explains.
    options = " ".join(
        [str(parsed.query.get("options", "")), f"-c lock_timeout={driver.BUSY_TIMEOUT_MS}"]
    )
    engine = create_engine(parsed, pool_pre_ping=False, connect_args={"options": options.strip()})
    _install_postgresql_hooks(engine)
    return engine


def _install_postgresql_hooks(engine: Engine) -> None:
    """One writer at a time, as on SQLite: a write transaction first takes a transaction-level
    advisory lock, so a period being closed never misses a game committed meanwhile (under
    READ COMMITTED it could) and stale marks are never lost. Readers do not wait."""

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        if conn.get_execution_options().get(WRITE_OPTION, False):
            conn.exec_driver_sql(driver.TAKE_WRITER_LOCK)


def _install_sqlite_hooks(engine: Engine, *, wal: bool = True) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # Let SQLAlchemy emit BEGIN itself (pysqlite's own handling is broken for
        # SAVEPOINT and DDL on Python 3.11).
        dbapi_connection.isolation_level = None
        dbapi_connection.execute(f"PRAGMA busy_timeout = {driver.BUSY_TIMEOUT_MS}")
        if wal and _ours_or_empty(dbapi_connection):  # another's file is refused, unchanged
            dbapi_connection.execute("PRAGMA journal_mode = WAL")
        driver.configure_sqlite(dbapi_connection, write=True)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _ours_or_empty(conn: sqlite3.Connection) -> bool:
    """Whether a SQLite file is tracker's (it has the schema's version table) or has no table
    yet: the only files tracker switches to WAL, a change written into the file's header."""
    names = {
        name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    return not names or "alembic_version" in names


def describe(exc: SQLAlchemyError) -> str:
    """One line for a database failure, without SQL or parameters."""
    orig = getattr(exc, "orig", None)
    return driver.first_line(orig if orig is not None else exc)


def is_locked(exc: BaseException) -> bool:
    """SQLite's "database is locked" or PostgreSQL's lock timeout: another writer held on."""
    return isinstance(exc, OperationalError) and exc.orig is not None and driver.is_locked(exc.orig)


def is_out_of_range(exc: BaseException) -> bool:
    """A number beyond what the database stores (see :func:`driver.is_out_of_range`)."""
    return driver.is_out_of_range(getattr(exc, "orig", None) or exc)


@contextmanager
def schema_change(engine: Engine) -> Iterator[Connection]:
    """One write transaction for a migration. On SQLite, foreign keys are off while the schema
    changes and checked before the commit: SQLite's documented way to rebuild a table that
    others reference (with them on, dropping the old table would delete every row that
    references it, and cascade)."""
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # outside any transaction, where the pragma takes effect
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            conn = conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_keys").scalar():
                    # a rebuild would delete (and cascade) every referencing row
                    raise DatabaseError("cannot change the schema: foreign keys stay on")
                yield conn
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise DatabaseError(
                            f"the schema change would break a reference of table {broken[0]}"
                        )
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys = ON")
