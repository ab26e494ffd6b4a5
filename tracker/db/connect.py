"""The database a command names, through SQLAlchemy: parse its URL, make its engine
(creating a new database at head, refusing an old one), and open a transaction of the driver
(:mod:`tracker.db.driver`) on a connection of the engine's, for a URL the driver does not
open by itself. Every failure is one line (:class:`tracker.errors.DatabaseError`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from tracker.db import driver
from tracker.db.engine import describe, is_in_memory, is_locked, make_engine, sqlite_file
from tracker.db.schema import ensure_current
from tracker.errors import DatabaseError

__all__ = ["Engine", "engine_for", "file_of", "opening", "transaction_on"]


def file_of(url: str) -> Path | None:
    """The SQLite file a URL names (None: another database, or a URL that does not parse,
    which :func:`engine_for` reports)."""
    try:
        return sqlite_file(url)
    except (ArgumentError, ValueError):
        return None


#: Why a URL does not parse (SQLAlchemy's ValueError quotes a piece of it: a password's).
MALFORMED_URL = (
    "malformed URL (a port that is not a number, an unclosed '[', or a password whose "
    "'@', ':' or '/' is not %-encoded, as %40, %3A, %2F)"
)


def engine_for(url: str, *, check_schema: bool, create: bool, where: str) -> Engine:
    """An engine on ``url``: with ``check_schema``, a new database is created at head (with
    ``create``; else an empty one is refused) and one at another revision refused. ``where``
    names the database in messages, without its password."""
    if is_in_memory(url):
        raise DatabaseError(
            f"cannot use database {where!r}: an in-memory database keeps nothing once the "
            "command ends; give a file"
        )
    try:
        engine = make_engine(url)
    except ValueError:
        raise DatabaseError(f"cannot use database {where!r}: {MALFORMED_URL}") from None
    except ArgumentError as exc:
        raise DatabaseError(f"cannot use database {where!r}: {exc}") from None
    except ImportError as exc:
        raise DatabaseError(f"cannot use this database: missing driver ({exc})") from None
    if check_schema:
        try:
            ensure_current(engine, create=create, where=where)
        except SQLAlchemyError as exc:
            engine.dispose()
            if is_locked(exc):  # creating a new database while another command does
                raise DatabaseError(driver.BUSY_MESSAGE) from None
            raise DatabaseError(f"cannot open the database: {describe(exc)}") from None
        except BaseException:
            engine.dispose()
            raise
    return engine


def transaction_on(engine: Engine, *, write: bool) -> driver.Transaction:
    """A transaction of the driver on a connection of ``engine``'s."""
    try:
        raw = engine.raw_connection()
    except Exception as exc:
        raise DatabaseError(f"cannot open the database: {driver.first_line(exc)}") from None
    db = driver.Db(raw.driver_connection, engine.dialect.name)
    try:
        driver.begin(db, write=write)
    except BaseException:
        raw.close()
        raise
    return driver.Transaction(db, write=write, release=raw.close)


@contextmanager
def opening() -> Iterator[None]:
    """A database that cannot be opened (a folder, a file without permission): one line."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise DatabaseError(f"cannot open the database: {describe(exc)}") from None
