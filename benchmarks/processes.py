"""Running a command as a whole process: its wall time and its own peak RSS, and medians.

Every timed process (each ``tracker`` command, and the start-up floor) is started through a
small launcher (see ``_LAUNCHER``), with bytecode caching on, as after a normal install.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent
TRACKER = str(BIN / "tracker")
# Child processes run as after a normal install: with bytecode caches (some sandboxes set
# PYTHONDONTWRITEBYTECODE, which would recompile tracker on every start).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CHILD_ENV["COLUMNS"] = "200"


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Run:
    seconds: float
    rss_mb: float
    stdout: str
    stderr: str = ""
    first_line_s: float | None = None  # when the first line of stdout came (``first_line``)


# Runs a command and reports its wall time and peak RSS. The launcher is a fresh, small
# process: a child forked straight from the bench (which holds the whole federation in
# memory) would report the bench's RSS as its own peak. With "first-line", the command's
# stdout is a pipe the launcher reads (as `tracker list | less` would): it notes when the
# first line came, then passes the rest on.
_LAUNCHER = """
import json, os, subprocess, sys, time
out, piped = sys.argv[1], sys.argv[2] == "first-line"
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[3:], stdout=subprocess.PIPE if piped else None)
first = None
if proc.stdout is not None:
    line = proc.stdout.readline()
    first = time.perf_counter() - start
    sys.stdout.buffer.write(line)
    for chunk in iter(lambda: proc.stdout.read(1 << 16), b""):
        sys.stdout.buffer.write(chunk)
_, status, usage = os.wait4(proc.pid, 0)
seconds = time.perf_counter() - start
with open(out, "w") as f:
    json.dump([seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status), first], f)
"""


def run(cmd: Sequence[str], *, check: bool = True, first_line: bool = False) -> Run:
    """Run a process: its wall time and its own peak RSS (and with ``first_line``, when the
    first line of its stdout came, read through a pipe)."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile(suffix=".json") as report,
    ):
        mode = "first-line" if first_line else "whole"
        launcher = [sys.executable, "-S", "-c", _LAUNCHER, report.name, mode, *cmd]
        subprocess.run(launcher, stdout=out, stderr=err, env=CHILD_ENV, check=False)
        seconds, maxrss_kb, code, first = json.loads(Path(report.name).read_text())
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if check and code != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({code}):\n{stderr.decode(errors='replace')[-3000:]}"
        )
    return Run(
        seconds,
        maxrss_kb / 1024.0,
        stdout.decode(errors="replace"),
        stderr.decode(errors="replace"),
        first,
    )


def tracker(url: str, *args: str) -> list[str]:
    return [TRACKER, "--db", url, *args]


def median_of(results: Sequence[Run]) -> Run:
    """The median time of ``results``, their highest peak RSS and the last one's output."""
    return Run(
        statistics.median(r.seconds for r in results),
        max(r.rss_mb for r in results),
        results[-1].stdout,
    )


def alternate(
    mine: Callable[[], Run],
    floor: Callable[[], Run],
    runs: int,
    *,
    undo_mine: Callable[[], None] | None = None,
    undo_floor: Callable[[], None] | None = None,
    after_first: Callable[[], None] | None = None,
) -> tuple[Run, Run]:
    """tracker, floor, tracker, floor, ... ``runs`` times each (so that a busy moment of the
    machine slows both), undoing each one's work before its next run; ``after_first`` runs
    after tracker's first run (to read what it wrote). Medians, highest peak RSS."""
    ours: list[Run] = []
    theirs: list[Run] = []
    for i in range(runs):
        if i and undo_mine is not None:
            undo_mine()
        ours.append(mine())
        if i == 0 and after_first is not None:
            after_first()
        if i and undo_floor is not None:
            undo_floor()
        theirs.append(floor())
    return median_of(ours), median_of(theirs)


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start
