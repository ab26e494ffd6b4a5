"""The schema's version in a database: read it, create a new database at head, refuse an
older or newer one with a clear message. (Migrations themselves: :mod:`tracker.db.migrate`.)
"""

from __future__ import annotations

from sqlalchemy import Engine, inspect, text

from tracker.db.revision import SCHEMA_REVISION
from tracker.errors import DatabaseError

EMPTY_DATABASE = (
    "no tracker database at {where} (it is empty; a command that writes, such as "
    "`tracker player add`, creates the tables)"
)


def schema_state(engine: Engine) -> str | None:
    """The Alembic revision stored in the database, or None for an empty database."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            if inspect(conn).get_table_names():
                raise DatabaseError(
                    "the database has tables but no tracker schema version; "
                    "is it a tracker database?"
                )
            return None
        row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
        if row is None:
            return None
        (revision,) = row
        return str(revision)


def ensure_current(engine: Engine, *, create: bool = True, where: str = "") -> None:
    """Create a new database at head (with ``create``; else refuse an empty one: ``where``
    names it); refuse an older or newer one with a clear message."""
    revision = schema_state(engine)
    if revision is None and not create:
        raise DatabaseError(EMPTY_DATABASE.format(where=where or "this address"))
    if revision is None:
        from tracker.db import migrate  # alembic: only when a database is created

        migrate.upgrade(engine)
        return
    if revision != SCHEMA_REVISION:
        if revision in _known_older_revisions():
            raise DatabaseError(
                f"the database schema is at revision {revision}, this tracker needs "
                f"{SCHEMA_REVISION}: run `tracker db upgrade` (back it up first with "
                "`tracker db backup FILE`)"
            )
        raise unknown_revision(revision)


def unknown_revision(revision: str) -> DatabaseError:
    """The refusal of a database at a revision no migration of this tracker's knows."""
    return DatabaseError(
        f"the database schema is at revision {revision}, unknown to this tracker "
        f"(head {SCHEMA_REVISION}); it was written by a newer version: upgrade tracker"
    )


def _known_older_revisions() -> set[str]:
    from tracker.db import migrate  # alembic: only when the revision is not the head

    return set(migrate.all_revisions()) - {SCHEMA_REVISION}
