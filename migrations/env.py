"""Alembic environment: batch mode and the models' naming convention from the first revision."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection

from tracker.db.engine import make_engine, schema_change
from tracker.db.location import to_url
from tracker.db.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        # Called from tracker.db.migrate inside the caller's transaction.
        _configure(connection)
        context.run_migrations()
        return
    url = to_url(os.environ.get("TRACKER_DB") or config.get_main_option("sqlalchemy.url") or "")
    engine = make_engine(url)
    with schema_change(engine) as conn:
        _configure(conn)
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
