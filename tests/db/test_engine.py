"""Connection settings: WAL, foreign keys, busy timeout; transactions all or nothing, writers
one at a time."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from tracker.db import driver
from tracker.db.driver import BUSY_TIMEOUT_MS, CACHE_KIB, Db
from tracker.db.engine import make_engine


@pytest.mark.backends("sqlite")
def test_sqlite_pragmas(db_url: str) -> None:
    engine = make_engine(db_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
        assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -CACHE_KIB
    engine.dispose()


def test_a_failed_transaction_leaves_nothing(db_url: str) -> None:
    def ghost(db: Db) -> None:
        db.run("INSERT INTO players (name, external) VALUES ('Ghost', :no)", {"no": False})
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        driver.run(lambda: _opened(db_url, write=True), ghost)
    assert driver.run(lambda: _opened(db_url, write=False), _names) == []


def _opened(url: str, *, write: bool) -> driver.Transaction:
    opened = driver.open_transaction(url, write=write)
    assert opened is not None
    return opened


def _names(db: Db) -> list[str]:
    return db.scalars("SELECT name FROM players ORDER BY id")


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
    tracker's advisory lock, so a period close never misses a game committed meanwhile; a
    read sees one snapshot."""
    opened = _opened(db_url, write=False)
    with opened as db:
        raw = db.connection
        raw.rollback()  # out of the transaction the open began, to begin ours
        seen: list[str] = []
        for write in (True, False):
            driver.begin(Db(_Recorder(raw, seen), db.dialect), write=write)
            raw.rollback()
    if backend == "sqlite":
        assert seen == ["BEGIN IMMEDIATE", "BEGIN"]
    else:
        assert seen[0].startswith("SELECT pg_advisory_xact_lock(")
        assert seen[1:] == ["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"]


class _Recorder:
    """A driver connection that notes every statement run on it."""

    def __init__(self, connection: Any, seen: list[str]) -> None:
        self._connection, self._seen = connection, seen

    def execute(self, sql: str, *args: Any) -> Any:
        self._seen.append(sql)
        return self._connection.execute(sql, *args)

    def cursor(self) -> Any:
        return _Recorder(self._connection.cursor(), self._seen)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def test_a_result_that_keeps_nothing_is_rolled_back(db_url: str) -> None:
    """A dry run's transaction ends rolled back, not committed: what it wrote is gone."""

    def add(db: Db) -> str:
        db.run("INSERT INTO players (name, external) VALUES ('Trial', :no)", {"no": False})
        return "dry run"

    opened = lambda: _opened(db_url, write=True)  # noqa: E731
    assert driver.run(opened, add, keep=lambda result: result != "dry run") == "dry run"
    assert driver.run(lambda: _opened(db_url, write=False), _names) == []
    driver.run(opened, add, keep=lambda result: True)
    assert driver.run(lambda: _opened(db_url, write=False), _names) == ["Trial"]
