"""Backups: ``tracker db backup`` taken while another process writes is a sound database
holding exactly the games committed when it was taken (SQLite). On PostgreSQL the command
refuses, in one line, and points at pg_dump.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.helpers import ok, query
from tests.robustness import worker
from tests.robustness.common import Run, output, worker_process
from tracker.db.engine import sqlite_file
from tracker.db.location import sqlite_url

GAMES = 300
BACKUPS = 4

pytestmark = pytest.mark.slow


def count_games(url: str) -> int:
    return int(query(url, "SELECT COUNT(*) FROM games")[0][0])


@pytest.mark.backends("sqlite")  # tracker db backup copies SQLite databases
def test_backups_taken_while_a_writer_writes(db_url: str, run: Run, tmp_path: Path) -> None:
    for name in worker.PLAYERS:
        ok(run(db_url, "player", "add", name, "--rating", "1800", "--games", "40"))
    logs = tmp_path / "logs"
    # Someone else has the database open, as another tracker command would: the writer's
    # commits then stay in the WAL instead of being checkpointed when it closes.
    other = sqlite3.connect(str(sqlite_file(db_url)))
    other.execute("SELECT COUNT(*) FROM players").fetchall()
    writer = worker_process("add", db_url, "0", str(GAMES), logs=logs, name="writer")
    taken: list[tuple[int, int, Path]] = []  # games before, games after, the backup
    try:
        for n in range(BACKUPS):
            while count_games(db_url) < 30 + 50 * n and writer.poll() is None:
                time.sleep(0.02)
            path = tmp_path / f"backup-{n}.db"
            committed = count_games(db_url)
            result = run(db_url, "db", "backup", str(path))
            taken.append((committed, count_games(db_url), path))
            assert result.exit_code == 0, result.stderr
            assert result.stderr.strip().endswith("(integrity check: ok)")
        assert writer.wait(timeout=300) == 0, output(logs, "writer")
    finally:
        other.close()
        if writer.poll() is None:
            writer.kill()

    planned = [worker.game_round(0, i) for i in range(GAMES)]
    during = 0
    for committed, later, path in taken:
        with closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert not Path(f"{path}-wal").exists()
        # tracker opens the copy as it is, and it holds the writer's first games, in order:
        # every game committed before the backup started, none that came after it ended
        url = sqlite_url(path)
        ok(run(url, "db", "check"))
        games = json.loads(ok(run(url, "game", "list", "--json")).stdout)
        rounds = [g["round"] for g in sorted(games, key=lambda g: g["id"])]
        assert rounds == planned[: len(rounds)]
        assert committed <= len(rounds) <= later
        during += 0 < len(rounds) < GAMES
    assert during >= 2, [(c, later) for c, later, _ in taken]  # taken while the writer wrote
    assert count_games(db_url) == GAMES


@pytest.mark.backends("postgresql")
def test_backup_of_postgresql_is_refused_in_one_line(db_url: str, run: Run, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    result = run(db_url, "db", "backup", str(target))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: tracker db backup copies SQLite databases; for PostgreSQL use pg_dump\n"
    )
    assert not target.exists()
