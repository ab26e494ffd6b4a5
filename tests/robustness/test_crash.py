"""Crash safety: ``tracker`` killed with SIGKILL at random moments during an import, a period
close and a rerate leaves a sound database in which the operation is all there or not at all.

For each operation a reference run on a copy of the starting database gives the state after
it. Every trial runs the same command (``python -m tracker``) on a fresh copy and kills it a
seeded random delay after it has opened the database; the delays are spread over the time the
reference run needed from that moment to its exit. Afterwards the copy must pass SQLite's
integrity and foreign-key checks and hold exactly the state before or the state after the
operation (every row of every table, ids of renumbered rows aside: see ``common.DIGEST``). A
killed trial that left the state before is then run again and must reach the state after:
the database stays usable (no stale lock, SQLite's WAL recovered).
"""

from __future__ import annotations

import random
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import ok, query
from tests.robustness.common import (
    Databases,
    Digest,
    Run,
    check_sqlite_integrity,
    club_players,
    differences,
    digest,
    member,
    output,
    tracker_process,
    wait_connected,
    wait_server_side_gone,
    write_games_csv,
)

#: Kills per operation (three operations: 21 per database).
TRIALS = 7
MEMBERS = 40

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds open files in /proc"),
]


@dataclass(frozen=True)
class Operation:
    name: str
    source: str  # the database each trial copies (nobody connected to it)
    args: tuple[str, ...]
    before: Digest
    after: Digest
    window: float  # seconds from opening the database to the end of the reference run


def reference(
    databases: Databases, name: str, source: str, args: tuple[str, ...], logs: Path
) -> tuple[Operation, str]:
    """Run the operation to its end on a copy; returns it and the copy (the state after)."""
    url = databases.copy(source)
    proc = tracker_process(url, *args, logs=logs, name=f"{name}-reference")
    opened = wait_connected(proc, url)
    assert proc.wait(timeout=120) == 0, output(logs, f"{name}-reference")
    assert opened is not None
    window = time.monotonic() - opened
    check_sqlite_integrity(url)
    before, after = digest(source), digest(url)
    assert before != after
    return Operation(name, source, args, before, after, window), url


def crash(op: Operation, databases: Databases, run: Run, logs: Path) -> None:
    rng = random.Random(f"crash {op.name}")
    # Stratified, one in each of TRIALS slices of the window (and a little beyond it), and
    # squared: denser at the start, where the work is (the end is the output and exit).
    delays = [op.window * 1.1 * ((k + rng.random()) / TRIALS) ** 2 for k in range(TRIALS)]
    rng.shuffle(delays)
    summary = []
    # The copies are made in the background while the trials run (PostgreSQL takes a while).
    with ThreadPoolExecutor(max_workers=1) as pool:
        copies = [pool.submit(databases.copy, op.source) for _ in delays]
        for k, delay in enumerate(delays):
            summary.append(trial(op, copies[k].result(), delay, f"{op.name}-{k}", run, logs))
            databases.drop(copies[k].result())
    print(f"{op.name}: window {op.window:.3f}s, trials {sorted(summary)}")
    # Some kill must have landed while the command was at work, or nothing was tested.
    assert ("killed", "before") in {(how, outcome) for _, how, outcome in summary}, summary


def trial(
    op: Operation, url: str, delay: float, name: str, run: Run, logs: Path
) -> tuple[float, str, str]:
    """Kill the operation ``delay`` seconds after it opened ``url``; check what it left."""
    proc = tracker_process(url, *op.args, logs=logs, name=name)
    opened = wait_connected(proc, url)
    if opened is not None:
        time.sleep(max(0.0, opened + delay - time.monotonic()))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    wait_server_side_gone(url)
    killed = proc.returncode == -signal.SIGKILL
    assert killed or proc.returncode == 0, output(logs, name)
    assert "Traceback" not in output(logs, name)[1]

    check_sqlite_integrity(url)
    state = digest(url)
    if state == op.after:
        outcome = "after"
    else:
        assert state == op.before, (
            f"{op.name} killed {delay:.3f}s after opening the database left a partial "
            f"state: against the state before: {differences(state, op.before)}; "
            f"against the state after: {differences(state, op.after)}"
        )
        outcome = "before"
        # The database is usable after the crash and the operation can be redone.
        ok(run(url, *op.args))
        check_sqlite_integrity(url)
        assert digest(url) == op.after
    return (round(delay, 3), "killed" if killed else "finished", outcome)


@pytest.fixture
def club(db_url: str, run: Run, tmp_path: Path) -> str:
    """Forty members (seeded, juniors, unrated), three visitors, three months of games."""
    for args in club_players(MEMBERS):
        ok(run(db_url, "player", "add", *args))
    season = write_games_csv(
        tmp_path / "summer.csv",
        months=["2026-06", "2026-07", "2026-08"],
        count=450,
        members=MEMBERS,
        seed=1,
    )
    ok(run(db_url, "import", str(season), "--tc", "standard"))
    return db_url


def test_import_close_and_rerate_survive_sigkill(
    club: str, databases: Databases, run: Run, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    autumn = write_games_csv(
        tmp_path / "september.csv",
        months=["2026-09"],
        count=400,
        members=MEMBERS,
        seed=2,
        new=4,
    )

    # 1. an import of 400 games (which creates four players and two events)
    imported, after_import = reference(
        databases, "import", club, ("import", str(autumn), "--tc", "standard"), logs
    )
    crash(imported, databases, run, logs)

    # 2. closing four months at once (Elo and the Glicko shadow)
    closed, after_close = reference(
        databases, "close", after_import, ("period", "close", "2026-09"), logs
    )
    assert len(set(closed.after["rating_periods"])) == 4
    crash(closed, databases, run, logs)

    # 3. a rerate of all four months after a late game in the first one
    late = (member(1), member(2), "1-0", "--date", "2026-06-30", "--round", "late")
    ok(run(after_close, "game", "add", *late))
    rerated, after_rerate = reference(databases, "rerate", after_close, ("rerate",), logs)
    assert query(after_close, "SELECT COUNT(*) FROM rating_periods WHERE stale") == [(4,)]
    assert rerated.before["elo_history"] != rerated.after["elo_history"]
    crash(rerated, databases, run, logs)

    # The reference is reproducible: rerating the unchanged result gives it again exactly.
    ok(run(after_rerate, "rerate", "--from", "2026-06"))
    assert digest(after_rerate) == rerated.after
