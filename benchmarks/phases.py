"""Where a ``period close`` spends its time, phase by phase, beside its floor's.

    python benchmarks/phases.py DATABASE MONTH [--floor SPEC.json] [--runs N]

Closes MONTH on a copy of DATABASE (a SQLite file with MONTH open and the months before it
closed, as ``bench.py --keep`` leaves its ``tracker.db`` after undoing a month; see
docs/performance.md) with ``tracker period close`` as a whole process whose clock is read at
each phase's start and end: a dozen reads a month, no wrapper per game, so the figures are
the command's own. With ``--floor`` (the ``floor-close-last.json`` that ``bench.py --keep``
leaves, with the rows it names), the floor on another copy of DATABASE, from its own clock
reads. The phases, the same
on both sides: the interpreter's start (``python -c pass``), the imports before the command
runs, the reads (the month's games, the lists and shadows they need), the FIDE fold, the
shadow's fold, the writes (the period, the Elo lines, the shadow rows), and the rest (the
command line, the database opened, the change log, the commit, the report: the whole
process's wall time less the phases). Medians of ``--runs`` runs (default 3).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Runs one tracker command with a clock around each phase of the close, and prints the
# phases as JSON on the last line of stderr. Started as a fresh process, as a command is.
_PROBE = r"""
import json, sys, time
began = time.perf_counter()
spent = {}

def clocked(owner, name, phase):
    inner = getattr(owner, name)
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[phase] = spent.get(phase, 0.0) + time.perf_counter() - start
    setattr(owner, name, timed)

import tracker.cli.app
from tracker.cli import main
from tracker.services.periods import registry
from tracker.services.periods import closing
spent["imports"] = time.perf_counter() - began
official, shadow = registry.SYSTEMS
for system, fold in ((official, "FIDE fold"), (shadow, "shadow fold")):
    clocked(system, "read", "reads")
    clocked(system, "fold", fold)
    clocked(system, "write", "writes")
clocked(closing.rated_games, "month_games", "reads")
clocked(closing.lists, "ListRatings", "reads")
clocked(closing.queries, "add_period", "writes")
sys.argv = ["tracker", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(spent), file=sys.stderr)
"""

PHASES = ("interpreter", "imports", "reads", "FIDE fold", "shadow fold", "writes", "rest")


def tracker_phases(db: Path, month: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "tracker.db"
        shutil.copyfile(db, copy)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, "--db", str(copy), "period", "close", month],
            capture_output=True,
            text=True,
            check=True,
        )
        total = time.perf_counter() - start
    spent: dict[str, float] = json.loads(done.stderr.strip().splitlines()[-1])
    spent["total"] = total
    return spent


def interpreter() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def floor_phases(spec: Path, db: Path) -> dict[str, float]:
    """The floor's close, as ``spec`` says, on a copy of ``db`` (the floor reads tracker's
    previous list: its database at a close is a copy of tracker's before it)."""
    with tempfile.TemporaryDirectory() as tmp:
        data = json.loads(spec.read_text())
        copy = Path(tmp) / "floor.db"
        shutil.copyfile(db, copy)
        data["target"] = f"sqlite:{copy}"
        moved = Path(tmp) / "spec.json"
        moved.write_text(json.dumps(data))
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(HERE / "raw" / "close.py"), str(moved)],
            capture_output=True,
            text=True,
            check=True,
        )
        total = time.perf_counter() - start
    spent: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])["phases"]
    spent.pop("rest", None)  # the floor's report, counted with the rest below
    spent["total"] = total
    return spent


def median(runs: list[dict[str, float]], key: str) -> float | None:
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None


def table(mine: list[dict[str, float]], floor: list[dict[str, float]]) -> str:
    lines = [f"{'phase':<32} {'tracker':>9} {'floor':>9}"]
    for phase in (*PHASES, "total"):
        a, b = median(mine, phase), median(floor, phase)
        cells = [f"{x * 1000:7.0f} ms" if x is not None else f"{'':>9}" for x in (a, b)]
        lines.append(f"{phase:<32} {cells[0]:>9} {cells[1]:>9}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database", type=Path, help="a SQLite file with MONTH open")
    parser.add_argument("month", help="the month to close, YYYY-MM")
    parser.add_argument("--floor", type=Path, help="the floor's spec (bench.py --keep)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    started = interpreter()
    mine = [tracker_phases(args.database, args.month) for _ in range(runs)]
    floor = [floor_phases(args.floor, args.database) for _ in range(runs)] if args.floor else []
    for r in [*mine, *floor]:
        r["interpreter"] = started
        r["rest"] = r["total"] - sum(v for k, v in r.items() if k not in ("total", "rest"))
    print(table(mine, floor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
