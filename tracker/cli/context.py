"""What every command shares: the database option and one transaction per command.

Nothing here imports SQLAlchemy at module level, so ``--help`` and the calculators
never load it and never touch a database.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import typer

from tracker.errors import DatabaseError
from tracker.user_input import exists

if TYPE_CHECKING:
    from tracker.db.connect import Engine
    from tracker.db.driver import Db

T = TypeVar("T")


#: Why a read found no database, and how one comes to be.
NO_DATABASE_HINT = (
    "check --db or $TRACKER_DB; a command that writes, such as `tracker player add`, creates one"
)

_OPEN: list[AppState] = []


@dataclass(eq=False, repr=False)
class AppState:
    db_option: str | None = None
    _engine: Any = field(default=None, repr=False)
    # A new SQLite database is built in a file of its own beside the one asked for, and
    # published (linked into place) at the end only if the command committed something to
    # it: a write that commits nothing leaves nothing behind, and a command never writes
    # into a file another one is creating (see close_all).
    _staged: _Staged | None = field(default=None, repr=False)
    #: Publish a new database even with nothing in it (``tracker db upgrade`` creates one).
    keep_new: bool = False
    #: The command's own context: the command line the change log records.
    command: typer.Context | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        from tracker.db.location import resolve

        return resolve(self.db_option)

    def _open_url(self) -> str:
        """The URL the engine opens: the staging file's while a new database is built."""
        if self._staged is None:
            return self.url
        from tracker.db.location import sqlite_url

        return sqlite_url(self._staged.staging)

    def engine(self, *, check_schema: bool = True, create: bool = True) -> Engine:
        """The engine, creating a new database at head (or refusing an old one) first.

        With ``create`` False (a command that only reads) a database that does not exist, or
        has no tables yet, is refused instead: a typo in --db must not leave a new file."""
        from tracker.db.connect import engine_for

        if self._engine is None:
            if not create:
                self.check_exists()
            else:
                self._stage_new_file()
            _OPEN.append(self)  # close_all disposes of it, and ends a new file's staging
            self._engine = engine_for(
                self._open_url(),
                check_schema=check_schema,
                create=create,
                where=self.where(),
            )
        return self._engine  # type: ignore[no-any-return]

    def where(self) -> str:
        """The database as a message names it: a SQLite file's path, else the URL without
        its password."""
        from tracker.db.driver import shown_url, sqlite_path

        # without SQLAlchemy (0.2-0.3 s to load): `status` names the database it reads
        path = sqlite_path(self.url)
        return str(path) if path is not None else shown_url(self.url)

    def _stage_new_file(self) -> None:
        """A SQLite file that does not exist yet is built as a staging file beside it."""
        from tracker.db.connect import file_of

        path = file_of(self.url)
        if path is None or exists(path):
            return
        top = path
        while not exists(top.parent) and top.parent != top:
            top = top.parent
        from tracker.db.driver import read_only_file_system

        if read_only_file_system(top.parent):
            raise DatabaseError(f"cannot create the database {path}: its file system is read-only")
        staging = path.with_name(f".{path.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
        self._staged = _Staged(path, staging, top)

    def publish(self, *, succeeded: bool = True) -> str | None:
        """End a new database's staging (the engine disposed of): link it into place if the
        command ``succeeded`` and committed something to it (or :attr:`keep_new`), else
        remove it and the folders made for it. A message if it could not be published."""
        from tracker.db.driver import holds_no_data

        staged, self._staged = self._staged, None
        if staged is None:
            return None
        target, staging = staged.target, staged.staging
        failure = None
        try:
            keep = succeeded and (self.keep_new or not holds_no_data(staging))
            if staging.is_file() and keep:
                try:
                    os.link(staging, target)  # never over a file: atomic, fails if it exists
                except FileExistsError:
                    failure = (
                        f"another command created {target} meanwhile: nothing of this one "
                        "was kept; run it again"
                    )
                except OSError as exc:
                    failure = f"cannot create {target}: {exc.strerror or exc}"
                else:
                    return None
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):  # gone already, or never made
                    Path(f"{staging}{suffix}").unlink()
        if not exists(target):
            folder = target.parent
            while staged.top != target and folder.is_relative_to(staged.top):
                try:
                    folder.rmdir()  # only if empty
                except OSError:
                    break
                folder = folder.parent
        return failure

    def check_exists(self) -> None:
        """Refuse a SQLite file that does not exist (reads never create one)."""
        from tracker.db.connect import file_of
        from tracker.db.schema import EMPTY_DATABASE

        path = file_of(self.url)  # None for a URL that does not parse: the engine says why
        if path is not None and not exists(path):
            raise DatabaseError(f"no database at {path} ({NO_DATABASE_HINT})")
        if path is not None and path.is_file() and path.stat().st_size == 0:
            # Opening it would write SQLite's header (the WAL setting): a read writes nothing.
            raise DatabaseError(EMPTY_DATABASE.format(where=path))

    def read(self, work: Callable[[Db], T]) -> T:
        """A command that only reads, in one transaction (:mod:`tracker.db.driver`). A
        database that is missing, empty or at another schema is refused (see :meth:`engine`)."""
        return self._transaction(work, write=False)

    def write(self, work: Callable[[Db], T], *, keep: Callable[[T], bool] | None = None) -> T:
        """A command that writes, in one transaction: all of it is committed or none of it
        (none, too, when ``keep`` says the result keeps nothing). A new database is created
        first (see :meth:`engine`)."""
        return self._transaction(work, write=True, keep=keep)

    def rehearse(self, work: Callable[[Db], T]) -> T:
        """A command that only reads, but reads what a write would make (the live list is
        the real close of the open months): one write transaction that is always rolled
        back. It waits for another writer as a write does; like :meth:`read` it refuses a
        database that is missing, empty or at another schema, and so never creates one."""
        return self._transaction(work, write=True, keep=lambda _: False, create=False)

    def _transaction(
        self,
        work: Callable[[Db], T],
        *,
        write: bool,
        keep: Callable[[T], bool] | None = None,
        create: bool | None = None,
    ) -> T:
        from tracker.db import driver

        create = write if create is None else create

        def opener() -> driver.Transaction:
            # The driver opens a SQLite file or a PostgreSQL server at this tracker's schema
            # by itself (no SQLAlchemy to import: the everyday commands start in a fraction
            # of the time); anything else goes through the engine, which creates a new
            # database, refuses an old one and reads every URL SQLAlchemy reads.
            opened = None
            if self._engine is None:
                opened = driver.open_transaction(self.url, write=write)
            if opened is not None:
                return opened
            from tracker.db.connect import transaction_on  # on the engine's connection

            return transaction_on(self.engine(create=create), write=write)

        if not write:
            return driver.run(opener, work, keep=keep)
        command = command_line(self.command)

        def logged(db: Db) -> T:
            result = work(db)
            if db.journal and (keep is None or keep(result)):
                from tracker.services.log import write_entry

                write_entry(db, command, now())
            return result

        return driver.run(opener, logged, keep=keep)


def close_all(*, succeeded: bool = True) -> str | None:
    """Dispose of every engine a command opened (checkpoints SQLite's WAL) and publish the
    databases it created if it ``succeeded`` (:meth:`AppState.publish`); what went wrong
    doing so, if anything."""
    failure = None
    while _OPEN:
        opened = _OPEN.pop()
        if opened._engine is not None:
            opened._engine.dispose()
            opened._engine = None
        failure = opened.publish(succeeded=succeeded) or failure
    return failure


class _Staged(NamedTuple):
    """A new SQLite database being built: the file asked for, the file it is built in, and
    the first folder made for it."""

    target: Path
    staging: Path
    top: Path


def state(ctx: typer.Context) -> AppState:
    """The command's state; ``ctx`` (the command's own context) names the command line the
    change log records."""
    root = ctx.find_root()
    if not isinstance(root.obj, AppState):
        root.obj = AppState()
    root.obj.command = ctx
    return root.obj


def now() -> dt.datetime:
    """The time a log entry records (UTC, to the second); with ``TRACKER_TODAY`` pinned (tests,
    reproducible demos), that day's midnight."""
    if os.environ.get("TRACKER_TODAY"):
        from tracker.user_input import today

        return dt.datetime.combine(today(), dt.time())
    return dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)


def command_line(ctx: typer.Context | None) -> str:
    """The command ``ctx`` runs, as a user would type it again: its words, its arguments,
    and the options given other than their defaults (not ``--db``)."""
    import shlex

    if ctx is None:
        return "tracker"
    words = [ctx.command_path]
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if value is None or value is False or value == () or value == []:
            continue
        if param.param_type_name == "argument":
            values = value if isinstance(value, (list, tuple)) else [value]
            words += [shlex.quote(_shown(v, param.metavar)) for v in values]
        elif value != param.default and param.name != "json":
            flag = param.opts[0]
            if value is True:
                words.append(flag)
            else:
                for v in value if isinstance(value, (list, tuple)) else [value]:
                    words += [flag, shlex.quote(_shown(v, param.metavar))]
    return " ".join(words)


def _shown(value: object, metavar: str | None) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()[:7] if metavar == "MONTH" else value.isoformat()
    return str(value)
