"""How tracker's close, rerate and import grow with the federation: a table of time and peak
memory against games per month and players on file, from the results of benchmark runs of
different sizes, with the exponent of a power law fitted to them.

    python benchmarks/scaling.py SMALL.json LARGE.json FEDERATION.json [--markdown]

Each file is what ``bench.py`` writes to ``WORKDIR/results.json``. The exponent ``b`` of
``time = a * n ** b`` is the least-squares slope of log(time) against log(n): 1 is linear
growth, 2 quadratic. The row "exponent" gives it against the players on file, against the
games, and the memory's against the games. The import's games are those of the file imported
(the whole CSV on small and ``--large``, month 12's file on ``--federation``); the close's,
those of the month closed; the rerate's, every game rated. The everyday commands (issue 37)
are timed against the players on file alone: their reads touch one player's rows and the
stored lists, so their exponent should be near 0 (flat).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: figure -> (its time, its peak memory, the results key of its n, what n counts)
FIGURES = {
    "close": ("close_s", "close_peak_rss_mb", "games_last_month", "a month"),
    "rerate": ("rerate_s", "rerate_peak_rss_mb", "games", "rated"),
    "import": ("import_s", "import_peak_rss_mb", "import_games", "imported"),
}

#: everyday command (``history``, ``player show``, ``compare``, ``event show``, ``list
#: --live``) -> its time (a whole process; ``list --live`` not on ``--federation``)
EVERYDAY = {
    "history": "history_s",
    "player": "player_show_s",
    "compare": "compare_s",
    "event": "event_show_s",
    "live": "list_live_s",
}


def exponent(points: Sequence[tuple[float, float]]) -> float | None:
    """The least-squares slope of log(y) against log(x): None with fewer than two distinct x."""
    logs = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({x for x, _ in logs}) < 2:
        return None
    mx = sum(x for x, _ in logs) / len(logs)
    my = sum(y for _, y in logs) / len(logs)
    sxx = sum((x - mx) ** 2 for x, _ in logs)
    sxy = sum((x - mx) * (y - my) for x, y in logs)
    return sxy / sxx


def players_on_file(r: dict[str, Any]) -> int:
    """The players in the database: the tracked ones and the externals the imports created."""
    return int(r.get("players_on_file") or r["players"])


def rows(results: Sequence[dict[str, Any]]) -> list[list[str]]:
    out = []
    for name, (time_key, rss_key, n_key, counts) in FIGURES.items():
        have = [r for r in results if time_key in r and n_key in r]
        for r in have:
            out.append(
                [
                    name,
                    f"{r['size']} {_ENGINES.get(r['backend'], r['backend'])}",
                    f"{players_on_file(r):,}",
                    f"{r[n_key]:,} {counts}",
                    f"{r[time_key]:.2f} s",
                    f"{r[rss_key]:.0f} MB" if rss_key in r else "",
                ]
            )
        by_games = exponent([(r[n_key], r[time_key]) for r in have])
        by_players = exponent([(players_on_file(r), r[time_key]) for r in have])
        memory = exponent([(r[n_key], r[rss_key]) for r in have if rss_key in r])
        out.append(
            [
                name,
                "exponent",
                _b(by_players),
                _b(by_games),
                "",
                _b(memory),
            ]
        )
    for name, time_key in EVERYDAY.items():
        have = [r for r in results if time_key in r]
        for r in have:
            size = f"{r['size']} {_ENGINES.get(r['backend'], r['backend'])}"
            out.append([name, size, f"{players_on_file(r):,}", "", f"{r[time_key]:.3f} s", ""])
        if have:
            by_players = exponent([(players_on_file(r), r[time_key]) for r in have])
            out.append([name, "exponent", _b(by_players), "", "", ""])
    return out


def _b(value: float | None) -> str:
    return "" if value is None else f"b = {value:.2f}"


HEADER = ["figure", "size", "players", "games", "time", "memory"]
_ENGINES = {"sqlite": "SQLite", "postgresql": "PG"}


def markdown(table: list[list[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(lines)


def text(table: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [HEADER, *table]) for i in range(len(HEADER))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [HEADER, *table]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="results.json of bench runs")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    results = [json.loads(p.read_text()) for p in args.results]
    table = rows(results)
    print(markdown(table) if args.markdown else text(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
