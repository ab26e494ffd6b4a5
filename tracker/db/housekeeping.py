"""Database housekeeping: revision, schema check, integrity and online backups."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from tracker.db import driver, migrate
from tracker.db.engine import describe, sqlite_file
from tracker.db.revision import SCHEMA_REVISION
from tracker.db.schema import schema_state, unknown_revision
from tracker.errors import DatabaseError, InvalidInputError
from tracker.files import SQLITE_SIDECARS, replacing


@dataclass(frozen=True)
class DbStatus:
    url: str
    backend: str
    revision: str | None
    head: str
    up_to_date: bool
    #: A revision of this tracker's migrations (or none yet): else a newer tracker wrote it.
    known: bool


@dataclass(frozen=True)
class DbCheck:
    status: DbStatus
    schema_differences: tuple[str, ...]
    integrity: str | None

    @property
    def ok(self) -> bool:
        sound = self.integrity in (None, "ok")
        return self.status.up_to_date and not self.schema_differences and sound


@dataclass(frozen=True)
class BackupResult:
    source: str
    target: Path
    size: int
    integrity: str


def status(engine: Engine) -> DbStatus:
    revision = schema_state(engine)
    return DbStatus(
        url=driver.shown_url(engine.url.render_as_string(hide_password=False)),
        backend=engine.url.get_backend_name(),
        revision=revision,
        head=SCHEMA_REVISION,
        up_to_date=revision == SCHEMA_REVISION,
        known=revision in (None, SCHEMA_REVISION) or revision in migrate.all_revisions(),
    )


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Upgrade to head; returns (before, after)."""
    before = schema_state(engine)
    if before is not None and before not in migrate.all_revisions():
        raise unknown_revision(before)  # no migration leads from it: alembic cannot tell
    migrate.upgrade(engine)
    return before, SCHEMA_REVISION


def check(engine: Engine) -> DbCheck:
    """The revision, SQLite's integrity check, and (of a sound file) how the schema differs
    from the models. A file too damaged for the integrity check to finish fails it, with
    SQLite's reason: it is reported, not a failure to open."""
    current = status(engine)
    integrity = None
    if current.backend == "sqlite":
        try:
            with engine.connect() as conn:
                rows = conn.execute(text("PRAGMA integrity_check")).scalars().all()
        except SQLAlchemyError as exc:
            rows = [describe(exc)]
        found = [line for row in rows for line in str(row).splitlines() if line.strip()]
        more = f" (and {len(found) - 5} more)" if len(found) > 5 else ""
        integrity = "ok" if found == ["ok"] else "; ".join(found[:5]) + more
    sound = integrity in (None, "ok")
    diffs = tuple(migrate.differences(engine)) if current.up_to_date and sound else ()
    return DbCheck(current, diffs, integrity)


def backup(engine: Engine, target: Path, *, overwrite: bool = False) -> BackupResult:
    """A consistent copy of a SQLite database through SQLite's online backup API.

    The copy is taken page by page under SQLite's own locking, so it is consistent even
    while another process writes; it is written to a temporary file of its own beside the
    target and renamed into place (:func:`tracker.files.replacing`: only a regular file is
    replaced, and only with ``overwrite``).
    """
    source = sqlite_file(engine.url.render_as_string(hide_password=False))
    if source is None:
        raise InvalidInputError(
            "tracker db backup copies SQLite databases; for PostgreSQL use pg_dump"
        )
    target = target.expanduser().absolute()
    if target.resolve() == source.resolve():
        raise InvalidInputError("the backup cannot overwrite the database itself")
    try:
        with (
            replacing(target, force=overwrite, sidecars=SQLITE_SIDECARS) as temp,
            closing(
                sqlite3.connect(driver.sqlite_uri(source, write=False), uri=True, timeout=30)
            ) as src,
            closing(sqlite3.connect(temp)) as dst,
        ):
            src.backup(dst)
            (integrity,) = dst.execute("PRAGMA integrity_check").fetchone()
            dst.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.Error as exc:
        raise DatabaseError(f"backup failed: {exc}") from None
    return BackupResult(str(source), target, target.stat().st_size, str(integrity))
