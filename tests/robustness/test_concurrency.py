"""Concurrency: several ``tracker`` processes on one database at once lose nothing and never
show a user a raw "database is locked".

Writers queue for the database (SQLite: BEGIN IMMEDIATE and a 30 s busy timeout; PostgreSQL:
an advisory lock and a lock timeout); a command that still cannot get it after a few tries
says so in one line and changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from tests.helpers import fingerprint, ok, query
from tests.robustness import worker
from tests.robustness.common import Run, output, tracker_process, worker_process
from tracker.db import driver as driver_module
from tracker.db.driver import WRITER_LOCK
from tracker.db.engine import sqlite_file

WRITERS, GAMES = 4, 200
BUSY = (
    "error: the database is busy (another tracker command is writing); nothing was changed, "
    "try again in a moment"
)

pytestmark = pytest.mark.slow


def count_games(url: str) -> int:
    return int(query(url, "SELECT COUNT(*) FROM games")[0][0])


def clean(text: str) -> None:
    """No raw database error and no traceback, whatever the command."""
    assert "locked" not in text.lower()
    assert "Traceback" not in text
    assert "database error" not in text


def club(run: Run, url: str, folder: Path) -> int:
    """The workers' players, a closed September and some October games; the games' count."""
    for i, name in enumerate(worker.PLAYERS):
        ok(run(url, "player", "add", name, "--rating", str(1500 + 60 * i), "--games", "40"))
    players = worker.PLAYERS
    rows = ["date,white,black,result,round"]
    for i in range(24):
        white, black = players[i % 12], players[(i + 1 + i // 12) % 12]
        for month in ("2026-09", worker.CLOSED_MONTH):
            rows.append(f"{month}-{1 + i:02d},{white},{black},1-0,pre")
    (folder / "autumn.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    ok(run(url, "import", str(folder / "autumn.csv"), "--tc", "standard"))
    ok(run(url, "period", "close", "2026-09"))
    return len(rows) - 1


def test_four_writers_a_close_and_a_reader(db_url: str, run: Run, tmp_path: Path) -> None:
    before = club(run, db_url, tmp_path)
    logs, stop = tmp_path / "logs", tmp_path / "stop-reading"
    writers = [
        worker_process("add", db_url, str(w), str(GAMES), logs=logs, name=f"writer{w}")
        for w in range(WRITERS)
    ]
    reader = worker_process("read", db_url, str(stop), logs=logs, name="reader")
    try:
        # The close starts once the writers are well under way.
        deadline = time.monotonic() + 120
        while count_games(db_url) < before + 100:
            assert time.monotonic() < deadline
            assert all(w.poll() is None for w in writers), "a writer ended early"
            time.sleep(0.05)
        closer = tracker_process(
            db_url, "period", "close", worker.CLOSED_MONTH, "--json", logs=logs, name="close"
        )
        assert closer.wait(timeout=300) == 0, output(logs, "close")
        for w, proc in enumerate(writers):
            assert proc.wait(timeout=300) == 0, output(logs, f"writer{w}")[1][-2000:]
    finally:
        stop.touch()
        for proc in writers:
            if proc.poll() is None:
                proc.kill()
    assert reader.wait(timeout=120) == 0, output(logs, "reader")[1][-2000:]

    for name in [*(f"writer{w}" for w in range(WRITERS)), "reader", "close"]:
        out, err = output(logs, name)
        clean(out + err)
        assert "error" not in err, (name, err[-2000:])
    for w in range(WRITERS):
        lines = output(logs, f"writer{w}")[1].splitlines()
        added = [line for line in lines if line.startswith("added game ")]
        assert len(added) == GAMES
        # a game added after the close made its period stale, and said so
        assert all(line.endswith("now stale: run `tracker rerate`") for line in lines
                   if not line.startswith("added game "))  # fmt: skip
    assert output(logs, "reader")[0].count('"month"') > 0  # it read while the others wrote

    # Every game is there exactly once.
    rounds = dict(query(db_url, "SELECT round, COUNT(*) FROM games GROUP BY round"))
    assert rounds.pop("pre") == before
    assert rounds == {worker.game_round(w, i): 1 for w in range(WRITERS) for i in range(GAMES)}

    # The close saw every October game committed before it; any later one made it stale.
    (closed,) = json.loads(output(logs, "close")[0])["closed"]
    seen = closed["games"]
    october = int(
        query(
            db_url,
            "SELECT COUNT(*) FROM games WHERE played_on >= '2026-10-01' "
            "AND played_on < '2026-11-01'",
        )[0][0]
    )
    (stale,) = query(db_url, "SELECT stale FROM rating_periods WHERE month = '2026-10-01'")[0]
    assert before // 2 < seen < october, "the close did not run while the writers wrote"
    assert bool(stale)
    ok(run(db_url, "rerate"))
    periods = json.loads(ok(run(db_url, "period", "list", "--json")).stdout)
    assert [(p["month"], p["status"], p["games"]) for p in periods] == [
        ("2026-09", "closed", 24),
        ("2026-10", "closed", october),
        ("2026-11", "open", WRITERS * GAMES // 2),
    ]


@contextmanager
def write_lock_held(url: str) -> Iterator[None]:
    """Another process's write transaction, in progress: SQLite's reserved lock, PostgreSQL's
    advisory writer lock. A watchdog lets go after 20 s so a command that waits for ever
    fails the test instead of hanging it."""
    path = sqlite_file(url)
    if path is not None:
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            conn.execute("BEGIN IMMEDIATE")
            watchdog = threading.Timer(20, conn.interrupt)
            watchdog.start()
            try:
                yield
            finally:
                watchdog.cancel()
                conn.execute("ROLLBACK")
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITER_LOCK})")
            watchdog = threading.Timer(20, conn.rollback)
            watchdog.start()
            try:
                yield
            finally:
                watchdog.cancel()
                conn.rollback()
    finally:
        engine.dispose()


def test_a_writer_kept_waiting_too_long_gets_one_clear_line(
    db_url: str, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(run(db_url, "player", "add", "Hart, Daniel"))
    ok(run(db_url, "player", "add", "Okafor, Grace"))
    game = ("game", "add", "Hart, Daniel", "Okafor, Grace", "1-0", "--date", "2026-10-01")
    before = fingerprint(db_url)
    monkeypatch.setattr(driver_module, "BUSY_TIMEOUT_MS", 300)
    with write_lock_held(db_url):
        started = time.monotonic()
        refused = run(db_url, *game)
        waited = time.monotonic() - started
        # readers are not held up by a writer
        read = run(db_url, "player", "list", "--json")
    assert (refused.exit_code, refused.stderr, refused.stdout) == (1, BUSY + "\n", "")
    assert 0.9 <= waited < 15  # three tries of 0.3 s and the pauses between them
    assert fingerprint(db_url) == before
    assert len(json.loads(ok(read).stdout)) == 2
    ok(run(db_url, *game))  # once the other writer is done, the same command goes through
