"""What every command shares: the database option and one transaction per command.

Nothing here imports SQLAlchemy at module level, so ``--help`` and the calculators
never load it and never touch a database.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from tracker.errors import ConflictError, DatabaseError, InvalidInputError, TrackerError
from tracker.user_input import exists

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

    from tracker.db.driver import Db

T = TypeVar("T")

#: A number beyond what the database stores: an id, a count or a FIDE id typed by hand.
TOO_LARGE = "a number in the command is too large for the database"

#: Why a read found no database, and how one comes to be.
NO_DATABASE_HINT = (
    "check --db or $TRACKER_DB; a command that writes, such as `tracker player add`, creates one"
)

_OPEN: list[AppState] = []


@dataclass
class AppState:
    db_option: str | None = None
    _engine: Any = field(default=None, repr=False)
    # A SQLite file this command creates, and the first of its folders it creates: removed
    # again at the end if the command committed nothing to it (see close_all).
    _created: tuple[Path, Path] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        from tracker.db.location import resolve

        return resolve(self.db_option)

    def engine(self, *, check_schema: bool = True, create: bool = True) -> Engine:
        """The engine, creating a new database at head (or refusing an old one) first.

        With ``create`` False (a command that only reads) a database that does not exist, or
        has no tables yet, is refused instead: a typo in --db must not leave a new file."""
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        from tracker.db.driver import BUSY_MESSAGE
        from tracker.db.engine import describe, is_locked, make_engine
        from tracker.db.schema import ensure_current

        if self._engine is None:
            if not create:
                self.check_exists()
            else:
                self._note_new_file()
            try:
                self._engine = make_engine(self.url)
                _OPEN.append(self)
            except (ArgumentError, ValueError) as exc:
                raise DatabaseError(f"cannot use database {self.db_option!r}: {exc}") from None
            except ImportError as exc:
                raise DatabaseError(f"cannot use this database: missing driver ({exc})") from None
            if check_schema:
                try:
                    ensure_current(self._engine, create=create, where=self.where())
                except SQLAlchemyError as exc:
                    if is_locked(exc):  # creating a new database while another command does
                        raise DatabaseError(BUSY_MESSAGE) from None
                    raise DatabaseError(f"cannot open the database: {describe(exc)}") from None
        return self._engine  # type: ignore[no-any-return]

    def where(self) -> str:
        """The database as a message names it: a SQLite file's path, else the URL without
        its password."""
        from sqlalchemy.engine import make_url

        from tracker.db.engine import sqlite_file

        try:
            path = sqlite_file(self.url)
            return str(path) if path is not None else make_url(self.url).render_as_string()
        except Exception:  # an unparsable URL: make_engine reports it
            return self.url

    def _note_new_file(self) -> None:
        """Remember the SQLite file (and folders) that opening the database will create."""
        from sqlalchemy.exc import ArgumentError

        from tracker.db.engine import sqlite_file

        try:
            path = sqlite_file(self.url)
        except ArgumentError:
            return
        if path is None or exists(path):
            return
        top = path
        while not exists(top.parent) and top.parent != top:
            top = top.parent
        self._created = (path, top)

    def forget_if_empty(self) -> None:
        """Remove the database this command created if it holds nothing: a write that
        commits nothing (a failure, a dry run, nothing to do) leaves no file behind."""
        from tracker.db.driver import holds_no_data

        if self._created is None:
            return
        path, top = self._created
        self._created = None
        if not path.is_file() or not holds_no_data(path):
            return
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        folder = path.parent
        while top != path and folder.is_relative_to(top):
            try:
                folder.rmdir()  # only if empty
            except OSError:
                break
            folder = folder.parent

    def check_exists(self) -> None:
        """Refuse a SQLite file that does not exist (reads never create one)."""
        from sqlalchemy.exc import ArgumentError

        from tracker.db.engine import sqlite_file
        from tracker.db.schema import EMPTY_DATABASE

        try:
            path = sqlite_file(self.url)
        except ArgumentError:
            return  # make_engine says what is wrong with the URL
        if path is not None and not exists(path):
            raise DatabaseError(f"no database at {path} ({NO_DATABASE_HINT})")
        if path is not None and path.is_file() and path.stat().st_size == 0:
            # Opening it would write SQLite's header (the WAL setting): a read writes nothing.
            raise DatabaseError(EMPTY_DATABASE.format(where=path))

    def read(self, work: Callable[[Db], T]) -> T:
        """A command that only reads, on the bare driver (:mod:`tracker.db.driver`: no
        SQLAlchemy to import) when the database allows it, else through SQLAlchemy, whose
        checks explain what is wrong (no file, an empty database, another schema)."""
        return self._on_driver(work, write=False)

    def write(self, work: Callable[[Db], T]) -> T:
        """A command that writes plain SQL (:mod:`tracker.db.driver`), in one transaction:
        all of it is committed or none of it. Through SQLAlchemy when the database is not
        at this tracker's schema yet (it creates a new one, refuses an old one)."""
        return self._on_driver(work, write=True)

    def _on_driver(self, work: Callable[[Db], T], *, write: bool, attempts: int = 3) -> T:
        from tracker.db import driver

        for attempt in range(1, attempts + 1):
            try:
                opened = None
                if self._engine is None:
                    opened = (driver.open_for_writing if write else driver.open_for_reading)(
                        self.url
                    )
                if opened is None:
                    return self.run(lambda session: work(driver.Db.of(session)), write=write)
                with opened as db:
                    return work(db)
            except Exception as exc:
                failure = _database_failure(exc)
                if failure is None:
                    raise  # not the database's: a bug keeps its traceback
                if str(failure) == driver.BUSY_MESSAGE and attempt < attempts:
                    time.sleep(0.2 * attempt)  # another writer held on: try again
                    continue
                raise failure from None
        raise AssertionError("unreachable")

    def run(self, work: Callable[[Session], T], *, write: bool) -> T:
        """One command, one transaction: all of it is committed or none of it. A command that
        only reads never creates the database."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        from tracker.db.engine import describe, is_out_of_range, run_in_transaction

        engine = self.engine(create=write)
        try:
            return run_in_transaction(engine, work, write=write)
        except IntegrityError as exc:
            raise ConflictError(f"the change clashes with stored data: {describe(exc)}") from None
        except SQLAlchemyError as exc:
            if is_out_of_range(exc):
                raise InvalidInputError(TOO_LARGE) from None
            raise DatabaseError(f"database error: {describe(exc)}") from None
        except OverflowError as exc:
            if not is_out_of_range(exc):
                raise  # any other overflow is a bug and keeps its traceback
            raise InvalidInputError(TOO_LARGE) from None
        except Exception as exc:  # plain SQL on the session's connection (tracker.db.driver)
            failure = _database_failure(exc)
            if failure is None:
                raise
            raise failure from None


def _database_failure(exc: BaseException) -> TrackerError | None:
    """The one-line error for a failure of the database on the bare driver (as
    :meth:`AppState.run` gives it for SQLAlchemy's); None for anything else."""
    from tracker.db import driver

    if driver.is_out_of_range(exc):
        return InvalidInputError(TOO_LARGE)
    if not driver.is_driver_error(exc):
        return None
    if driver.is_integrity_error(exc):
        return ConflictError(f"the change clashes with stored data: {driver.first_line(exc)}")
    if driver.is_locked(exc):
        return DatabaseError(driver.BUSY_MESSAGE)
    return DatabaseError(f"database error: {driver.first_line(exc)}")


def close_all() -> None:
    """Dispose of every engine a command opened (checkpoints SQLite's WAL)."""
    while _OPEN:
        opened = _OPEN.pop()
        if opened._engine is not None:
            opened._engine.dispose()
            opened._engine = None
        opened.forget_if_empty()


def state(ctx: typer.Context) -> AppState:
    root = ctx.find_root()
    if not isinstance(root.obj, AppState):
        root.obj = AppState()
    return root.obj
