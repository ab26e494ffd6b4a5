"""A tracker user in a loop, run as a subprocess by the robustness tests.

    python worker.py add URL WORKER COUNT    log COUNT games, one `tracker game add` each
    python worker.py read URL STOP_FILE      read histories, lists and players until STOP_FILE
                                             exists

Every command goes through the real command line (``TrackerGroup.main``: parsing, one
transaction on a new engine, error mapping), as separate ``tracker`` invocations would; only
Python's start-up is shared. Output goes to this process's stdout and stderr. Exit code 0 if
every command succeeded, else 1 (after trying them all).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

#: The players the workers pair (added by the test, seeded).
PLAYERS = [f"Worker Club {i:02d}" for i in range(12)]
#: The month being closed while the workers write, and the open month after it.
CLOSED_MONTH, OPEN_MONTH = "2026-10", "2026-11"


def planned_game(worker: int, i: int) -> list[str]:
    """Arguments of worker ``worker``'s game ``i``: every one unique (its round), half in the
    month being closed, some in a shared event."""
    white = (i + 5 * worker) % len(PLAYERS)
    black = (white + 1 + (i // len(PLAYERS)) % (len(PLAYERS) - 1)) % len(PLAYERS)
    month = CLOSED_MONTH if i % 2 == 0 else OPEN_MONTH
    args = [
        "game",
        "add",
        PLAYERS[white],
        PLAYERS[black],
        ("1-0", "0-1", "1/2-1/2")[(i + worker) % 3],
        "--date",
        f"{month}-{1 + (i * 7 + worker) % 28:02d}",
        "--round",
        game_round(worker, i),
    ]
    if i % 4 == 1:
        args += ["--event", "Club Night"]
    return args


def game_round(worker: int, i: int) -> str:
    return f"w{worker}.{i}"


READS = [
    ["history", PLAYERS[0], "--json"],
    ["list", "--json"],
    ["player", "show", PLAYERS[1], "--json"],
    ["game", "list", "--player", PLAYERS[2], "--month", CLOSED_MONTH, "--json"],
    ["period", "list", "--json"],
]


def main(argv: list[str]) -> int:
    import typer

    from tracker.cli.app import app

    command = typer.main.get_command(app)

    def tracker(url: str, args: list[str]) -> int:
        code = command.main(["--db", url, *args], prog_name="tracker", standalone_mode=False)
        return code if isinstance(code, int) else 0

    failures = 0
    if argv[0] == "add":
        url, worker, count = argv[1], int(argv[2]), int(argv[3])
        for i in range(count):
            failures += tracker(url, planned_game(worker, i)) != 0
    elif argv[0] == "read":
        url, stop = argv[1], Path(argv[2])
        deadline = time.monotonic() + 120
        while not stop.exists() and time.monotonic() < deadline:
            for args in READS:
                failures += tracker(url, args) != 0
            time.sleep(0.1)  # a user, not a benchmark: leave the CPUs to the writers
    else:
        raise SystemExit(f"unknown mode {argv[0]!r}")
    sys.stdout.flush()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
