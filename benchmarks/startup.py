"""Where a ``tracker`` command's start-up goes: the interpreter, each package's imports, and
the command's own work, from ``python -X importtime``.

    python benchmarks/startup.py [--runs N] [--db DATABASE] [--script FILE] -- COMMAND [ARGS...]

Runs ``python -m tracker [--db DATABASE] COMMAND ARGS`` ``--runs`` times (default 5) with
``-X importtime`` and, beside it, ``python -c pass`` (the interpreter alone); adds up each
module's own import time by package (``typer`` with the click it embeds, ``sqlalchemy``,
``psycopg``, the standard library, and tracker by layer: ``tracker.cli``,
``tracker.services``, ``tracker.ratings``, ``tracker.db``, the rest of tracker) and prints
the medians, with the remainder of the process's wall time: the command's own work (reading
its arguments, its queries, its output) and the interpreter's exit. ``-X importtime`` makes
imports a little slower: the shares matter more than the milliseconds. ``--script FILE``
profiles that script instead of tracker (a floor: ``raw/typed.py history PLAYER --db
TARGET``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
TRACKER_LAYERS = ("tracker.cli", "tracker.services", "tracker.ratings", "tracker.db")
OTHERS = {"typer": "typer", "click": "typer", "sqlalchemy": "sqlalchemy", "psycopg": "psycopg"}


def group(module: str) -> str:
    if module == "tracker" or module.startswith("tracker."):
        for layer in TRACKER_LAYERS:
            if module == layer or module.startswith(layer + "."):
                return layer
        return "tracker (other)"
    top = module.split(".")[0]
    return OTHERS.get(top, "standard library and others")


def one_run(program: Sequence[str], command: Sequence[str]) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *program, *command],
        capture_output=True,
        text=True,
        env=env,
    )
    spent: dict[str, float] = {"wall": time.perf_counter() - start}
    for line in done.stderr.splitlines():
        found = _LINE.match(line)
        if found:
            name = group(found.group(4))
            spent[name] = spent.get(name, 0.0) + int(found.group(1)) / 1e6
    return spent


def interpreter() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", help="the database the command reads")
    parser.add_argument("--script", help="profile this Python script instead of tracker")
    parser.add_argument("command", nargs="+", help="the command and its arguments")
    args = parser.parse_args(argv)
    command = [*(["--db", args.db] if args.db else []), *args.command]
    program = [args.script] if args.script else ["-m", "tracker"]
    runs = [one_run(program, command) for _ in range(max(1, args.runs))]
    bare = statistics.median(interpreter() for _ in range(max(1, args.runs)))
    names = sorted({k for r in runs for k in r if k != "wall"}, key=lambda k: (k[:7], k))
    medians = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in names}
    wall = statistics.median(r["wall"] for r in runs)
    what = args.script or "tracker"
    print(f"{what + ' ' + ' '.join(args.command):<44} {wall * 1000:7.0f} ms")
    print(f"  {'interpreter (python -c pass)':<42} {bare * 1000:7.0f} ms")
    for name, seconds in medians.items():
        print(f"  {'imports: ' + name:<42} {seconds * 1000:7.0f} ms")
    rest = wall - bare - sum(medians.values())
    print(f"  {'the command itself (work, output, exit)':<42} {rest * 1000:7.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
