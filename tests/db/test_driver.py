"""Plain SQL on the bare driver (tracker.db.driver): the same statement on SQLite and
PostgreSQL, parameters and IN lists, values as each driver gives them, and a read that opens
only a database it can read and changes nothing."""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
import sqlite3
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from sqlalchemy import text

from tests.helpers import Services, seeded
from tracker.db.driver import (
    Db,
    day,
    maybe_day,
    open_transaction,
    postgresql_conninfo,
    reader,
    sqlite_path,
)
from tracker.db.engine import make_engine, sqlite_file
from tracker.db.queries.players import PlayerName
from tracker.db.revision import SCHEMA_REVISION


class Recorder:
    """A DB-API connection that records what it is asked to run."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def cursor(self) -> Recorder:
        return self

    def execute(self, sql: str, params: dict[str, Any]) -> None:
        self.calls.append((sql, params))

    def fetchall(self) -> list[tuple[Any, ...]]:
        return []

    def close(self) -> None:
        pass


def test_postgresql_parameters_lists_and_percent_signs() -> None:
    conn = Recorder()
    db = Db(conn, "postgresql")
    db.all(
        "SELECT x::int FROM t WHERE a = :a AND b IN (:ids) AND c LIKE 'x%' AND d IN (:none)",
        {"a": 1, "ids": [4, 5], "none": []},
    )
    sql, params = conn.calls[0]
    assert sql == (
        "SELECT x::int FROM t WHERE a = %(a)s AND b IN (%(ids__0)s, %(ids__1)s) "
        "AND c LIKE 'x%%' AND d IN (NULL)"
    )
    assert params == {"a": 1, "ids__0": 4, "ids__1": 5}


def test_sqlite_parameters_are_bound_by_position() -> None:
    """SQLite binds ``?`` from a list, in the order the names stand in the statement (a name
    twice is bound twice; an IN list is its items in place): by name, sqlite3 makes a
    string a parameter."""
    conn = Recorder()
    db = Db(conn, "sqlite")
    db.all(
        "SELECT 1 WHERE m = :month AND id IN (:ids) AND n LIKE '%a' AND k = :k AND j = :month",
        {"k": 3, "month": dt.date(2026, 3, 1), "ids": (7, 8)},
    )
    assert conn.calls[0] == (
        "SELECT 1 WHERE m = ? AND id IN (?, ?) AND n LIKE '%a' AND k = ? AND j = ?",
        [dt.date(2026, 3, 1), 7, 8, 3, dt.date(2026, 3, 1)],
    )
    # a list of another length is a statement of its own; an empty one is NULL
    db.all("SELECT 1 WHERE id IN (:ids) AND x IN (:none)", {"ids": [1, 2, 3], "none": []})
    assert conn.calls[1] == ("SELECT 1 WHERE id IN (?, ?, ?) AND x IN (NULL)", [1, 2, 3])


def test_day_takes_the_drivers_date_or_sqlites_text() -> None:
    assert day("2026-03-01") == day(dt.date(2026, 3, 1)) == dt.date(2026, 3, 1)
    assert maybe_day(None) is None


class _Kinds(NamedTuple):
    on: dt.date
    until: dt.date | None
    at: dt.datetime
    flag: bool
    logo: bytes | None
    count: int


def test_a_row_is_read_by_the_types_its_fields_declare() -> None:
    read = reader(_Kinds)
    sqlite_row = ("2026-01-31", None, "2026-01-10 18:30:00.000000", 1, None, 3)
    assert read(sqlite_row) == _Kinds(
        dt.date(2026, 1, 31), None, dt.datetime(2026, 1, 10, 18, 30), True, None, 3
    )
    postgresql_row = (dt.date(2026, 1, 31), dt.date(2026, 2, 1), dt.datetime(2026, 1, 10), False)
    assert read((*postgresql_row, memoryview(b"png"), 0)) == _Kinds(*postgresql_row, b"png", 0)
    assert reader(PlayerName) is reader(PlayerName)  # made once per type


def test_urls_the_driver_reads() -> None:
    assert sqlite_path("sqlite:////tmp/club.db") == Path("/tmp/club.db")
    assert sqlite_path("sqlite:///club.db") == Path("club.db")
    assert sqlite_path("sqlite:////tmp/my%20club.db") == Path("/tmp/my club.db")  # as SQLAlchemy
    assert sqlite_path("sqlite://") is None  # in memory
    assert sqlite_path("sqlite:///club.db?mode=ro") is None  # options: SQLAlchemy's path
    assert sqlite_path("postgresql+psycopg://u@h/db") is None
    assert postgresql_conninfo("postgresql+psycopg://u:p%40ss@h:5433/db?sslmode=disable") == (
        "postgresql://u:p%40ss@h:5433/db?sslmode=disable"
    )
    assert postgresql_conninfo("postgresql+psycopg2://u@h/db") is None
    assert postgresql_conninfo("sqlite:////tmp/x.db") is None


def _hart(url: str) -> None:
    services = Services(url)
    try:
        services(seeded, "Hart, Daniel", 2318, games=240)
    finally:
        services.dispose()


def test_the_same_sql_on_a_real_database(db_url: str) -> None:
    """On each backend: the driver's parameters, IN lists and flags on a real database; a
    change seen in its own transaction, gone when the transaction is rolled back."""
    _hart(db_url)
    sql = """
        SELECT p.name, s.rating, s.ever_2400, p.created_at FROM players p
        JOIN player_seeds s ON s.player_id = p.id
        WHERE s.tc = :tc AND p.id IN (:ids) AND p.name LIKE '%Dan%'"""
    with Services(db_url).trial() as trial:
        assert trial.run("UPDATE player_seeds SET rating = 2320") == 1
        in_trial = trial.all(sql, {"tc": "standard", "ids": [1, 2]})
        assert trial.all(sql, {"tc": "standard", "ids": []}) == []
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading as db:
        rows = db.all(sql, {"tc": "standard", "ids": [1, 2]})
        assert db.scalar("SELECT min(created_at) FROM players") is not None
    assert [r[:2] for r in in_trial] == [("Hart, Daniel", 2320)]
    assert [r[:2] for r in rows] == [("Hart, Daniel", 2318)]  # the update was rolled back
    assert not rows[0][2]  # a boolean: False, or SQLite's 0


def test_a_streamed_query_reads_its_rows_in_batches(db_url: str) -> None:
    """``Db.stream``: the rows of ``all``, in order, read ``batch`` at a time as the caller
    goes (PostgreSQL: a server-side cursor), with ``IN`` lists; two streams side by side."""
    services = Services(db_url)
    with services.transaction() as s:
        for n in range(7):
            seeded(s, f"Player {n}", 2000 + n)
    sql = "SELECT id, name FROM players WHERE id IN (:ids) ORDER BY id DESC"
    params = {"ids": [1, 2, 3, 4, 5, 6, 7]}
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading as db:
        whole = db.all(sql, params)
        rows = db.stream(sql, params, batch=3)
        assert not isinstance(rows, list)
        first = next(rows)
        other = list(db.stream("SELECT name FROM players ORDER BY id", batch=2))
        assert [first, *rows] == whole
    assert tuple(whole[0]) == (7, "Player 6") and len(other) == 7


def test_a_stream_dropped_after_its_transaction_says_nothing(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tracker list | head -1`: the reader stops after a line, the transaction ends (the
    connection closes), then the half-read stream is dropped: no error on the way out."""
    _hart(db_url)
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading as db:
        rows = db.stream("SELECT id FROM players")
        assert next(rows)
    del rows
    gc.collect()
    assert unraisable == []


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.backends("sqlite")
def test_a_read_changes_no_byte_and_leaves_no_file(db_url: str) -> None:
    _hart(db_url)
    path = sqlite_file(db_url)
    assert path is not None
    before = _digest(path), sorted(p.name for p in path.parent.iterdir())
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading as db:
        assert db.scalar("SELECT name FROM players") == "Hart, Daniel"
        with pytest.raises(sqlite3.OperationalError):
            # nothing can be left half-written: the transaction is rolled back at the end
            db.execute("INSERT INTO no_such_table VALUES (1)")
    assert (_digest(path), sorted(p.name for p in path.parent.iterdir())) == before


def test_what_the_driver_will_not_read(tmp_path: Path, db_url: str) -> None:
    """None: the caller goes through SQLAlchemy, whose checks explain what is wrong."""
    missing = tmp_path / "missing" / "club.db"
    assert open_transaction(f"sqlite:///{missing}", write=False) is None
    assert not missing.parent.exists()  # nothing created
    empty = tmp_path / "empty.db"
    empty.touch()
    assert open_transaction(f"sqlite:///{empty}", write=False) is None
    assert empty.stat().st_size == 0
    assert open_transaction("mysql://u@h/db", write=False) is None
    assert open_transaction("postgresql+psycopg://nobody@127.0.0.1:1/none", write=False) is None
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
        assert open_transaction(db_url, write=False) is None  # an older schema
        with engine.begin() as conn:
            conn.execute(text(f"UPDATE alembic_version SET version_num = '{SCHEMA_REVISION}'"))
    finally:
        engine.dispose()
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading:
        pass


@pytest.mark.backends("postgresql")
def test_a_postgresql_read_sees_one_snapshot_and_waits_no_longer_than_sqlite(db_url: str) -> None:
    reading = open_transaction(db_url, write=False)
    assert reading is not None
    with reading as db:
        assert db.scalar("SHOW transaction_isolation") == "repeatable read"
        assert db.scalar("SHOW transaction_read_only") == "on"
        assert db.scalar("SHOW lock_timeout") == "30s"


def test_dates_go_to_sqlite_as_iso_text_in_statements_and_bulk_inserts() -> None:
    """As SQLAlchemy's Date stores them: what the schema's readers and indexes expect."""
    import sqlite3

    conn = sqlite3.connect(":memory:")
    db = Db(conn, "sqlite")
    db.run("CREATE TABLE t (d DATE, n INTEGER)")
    db.run("INSERT INTO t VALUES (:d, 1)", {"d": dt.date(2026, 3, 1)})
    db.insert_many("t", ("d", "n"), [(dt.date(2026, 4, 1), 2), (None, 3)])
    assert db.all("SELECT d, typeof(d) FROM t ORDER BY n") == [
        ("2026-03-01", "text"),
        ("2026-04-01", "text"),
        (None, "null"),
    ]
    assert db.scalar("SELECT count(*) FROM t WHERE d = :d", {"d": dt.date(2026, 4, 1)}) == 1
