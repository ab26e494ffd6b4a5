"""Connection settings: WAL, foreign keys, busy timeout, and real transactions/SAVEPOINTs."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from tracker.db.driver import BUSY_TIMEOUT_MS, CACHE_KIB
from tracker.db.engine import make_engine, transaction
from tracker.db.models import Player


@pytest.mark.backends("sqlite")
def test_sqlite_pragmas(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
        assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -CACHE_KIB
    engine.dispose()


def test_savepoint_rolls_back_only_its_part(db_url: str) -> None:
    engine = make_engine(db_url)
    with transaction(engine, write=True) as session:
        session.add(Player(name="Kept"))
        session.flush()
        nested = session.begin_nested()
        session.add(Player(name="Dropped"))
        session.flush()
        nested.rollback()
    with transaction(engine, write=False) as session:
        assert list(session.scalars(select(Player.name))) == ["Kept"]
    engine.dispose()


def test_failed_transaction_leaves_nothing(db_url: str) -> None:
    engine = make_engine(db_url)
    with pytest.raises(RuntimeError), transaction(engine, write=True) as session:
        session.add(Player(name="Ghost"))
        session.flush()
        raise RuntimeError("boom")
    with transaction(engine, write=False) as session:
        assert list(session.scalars(select(Player.name))) == []
    engine.dispose()


def test_foreign_keys_are_enforced(db_url: str) -> None:
    engine = make_engine(db_url)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO player_seeds (player_id, tc, rating, games, ever_2400, ever_2300) "
                "VALUES (999, 'standard', 2000, 10, false, false)"
            )
        )
    engine.dispose()


def test_write_transactions_serialise_writers(db_url: str, backend: str) -> None:
    """SQLite: BEGIN IMMEDIATE for writes, plain BEGIN for reads. PostgreSQL: writes take the
    tracker's advisory lock, so a period close never misses a game committed meanwhile."""
    from sqlalchemy import event

    engine = make_engine(db_url)
    seen: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _record(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        seen.append(statement)

    with transaction(engine, write=True) as session:
        session.execute(text("SELECT 1"))
    with transaction(engine, write=False) as session:
        session.execute(text("SELECT 2"))
    engine.dispose()
    if backend == "sqlite":
        assert seen == ["BEGIN IMMEDIATE", "SELECT 1", "BEGIN", "SELECT 2"]
    else:
        assert seen[0].startswith("SELECT pg_advisory_xact_lock(")
        assert seen[1:] == ["SELECT 1", "SELECT 2"]
