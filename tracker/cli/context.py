"""What every command shares: the database option and one transaction per command.

Nothing here imports SQLAlchemy at module level, so ``--help`` and the calculators
never load it and never touch a database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from tracker.errors import ConflictError, DatabaseError, InvalidInputError

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

T = TypeVar("T")

#: A number beyond what the database stores: an id, a count or a FIDE id typed by hand.
TOO_LARGE = "a number in the command is too large for the database"

_OPEN: list[AppState] = []


@dataclass
class AppState:
    db_option: str | None = None
    _engine: Any = field(default=None, repr=False)

    @property
    def url(self) -> str:
        from tracker.db.location import resolve

        return resolve(self.db_option)

    def engine(self, *, check_schema: bool = True) -> Engine:
        """The engine, creating a new database at head (or refusing an old one) first."""
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        from tracker.db.engine import BUSY_MESSAGE, describe, is_locked, make_engine
        from tracker.db.schema import ensure_current

        if self._engine is None:
            try:
                self._engine = make_engine(self.url)
                _OPEN.append(self)
            except (ArgumentError, ValueError) as exc:
                raise DatabaseError(f"cannot use database {self.db_option!r}: {exc}") from None
            except ImportError as exc:
                raise DatabaseError(f"cannot use this database: missing driver ({exc})") from None
            if check_schema:
                try:
                    ensure_current(self._engine)
                except SQLAlchemyError as exc:
                    if is_locked(exc):  # creating a new database while another command does
                        raise DatabaseError(BUSY_MESSAGE) from None
                    raise DatabaseError(f"cannot open the database: {describe(exc)}") from None
        return self._engine  # type: ignore[no-any-return]

    def run(self, work: Callable[[Session], T], *, write: bool) -> T:
        """One command, one transaction: all of it is committed or none of it."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        from tracker.db.engine import describe, is_out_of_range, run_in_transaction

        engine = self.engine()
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


def close_all() -> None:
    """Dispose of every engine a command opened (checkpoints SQLite's WAL)."""
    while _OPEN:
        opened = _OPEN.pop()
        if opened._engine is not None:
            opened._engine.dispose()
            opened._engine = None


def state(ctx: typer.Context) -> AppState:
    root = ctx.find_root()
    if not isinstance(root.obj, AppState):
        root.obj = AppState()
    return root.obj
