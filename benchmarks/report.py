"""The targets, whether a figure ``meets`` its target, the machine line, and the results as
the text table or as JSON.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

TARGETS = {
    "import_ratio": (">=", 0.5),
    "close_ratio": ("<=", 2.0),
    "rerate_ratio": ("<=", 2.0),
    "month_cost_ratio": ("<=", 1.3),
    "history_ratio": ("<=", 1.5),
    "calc_ratio": ("<=", 0.5),
    "help_ratio": ("<=", 0.5),
    "close_peak_rss_mb": ("<=", 300.0),
    "rerate_peak_rss_mb": ("<=", 1000.0),
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}"


def meets(name: str, value: float) -> bool:
    op, target = TARGETS[name]
    return value >= target if op == ">=" else value <= target


def table(r: dict[str, Any]) -> str:
    def s(x: float) -> str:
        return f"{x:.2f} s"

    mb = "MB"
    rows = [
        (
            "import (games/s)",
            f"{r['import_games_per_s']:,.0f}",
            f"{r['import_floor_games_per_s']:,.0f}",
            "import_ratio",
        ),
        (f"close last month ({r['games_last_month']:,} games)", s(r["close_s"]),
         s(r["close_floor_s"]), "close_ratio"),
        ("rerate all months", s(r["rerate_s"]), s(r["rerate_floor_s"]), "rerate_ratio"),
        ("close last / first month", s(r["close_s"]), s(r["close_first_s"]), "month_cost_ratio"),
        ("history PLAYER --json", s(r["history_s"]), s(r["import_baseline_s"]), "history_ratio"),
        ("calc elo", s(r["calc_s"]), s(r["import_baseline_s"]), "calc_ratio"),
        ("--help", s(r["help_s"]), s(r["import_baseline_s"]), "help_ratio"),
        ("close peak RSS", f"{r['close_peak_rss_mb']:.0f} {mb}", "", "close_peak_rss_mb"),
        ("rerate peak RSS", f"{r['rerate_peak_rss_mb']:.0f} {mb}", "", "rerate_peak_rss_mb"),
    ]  # fmt: skip
    out = [
        f"tracker benchmark, {r['size']} ({r['players']:,} players, {r['games']:,} games, "
        f"{r['months']} months), {r['backend']}, {r['date']}",
        f"{r['machine']}; load average {r['load_average']['start'][0]:.2f} at the start, "
        f"{r['load_average']['end'][0]:.2f} at the end",
        "",
        f"{'figure':<36} {'tracker':>14} {'floor':>14}  {'ratio':>7}  {'target':>7}  met",
    ]
    for what, mine, floor, key in rows:
        op, target = TARGETS[key]
        value = r[key]
        fmt = f"{value:.0f}" if key.endswith("_mb") else f"{value:.2f}"
        ratio = "" if key.endswith("_mb") else fmt
        out.append(
            f"{what:<36} {mine:>14} {floor:>14}  {ratio:>7}  {op}{target:<6g}  "
            f"{'yes' if meets(key, value) else 'NO'}"
        )
    out.append("")
    out.append(
        f"floors: raw sqlite3; start-up floor: python -c 'import sqlalchemy.orm, typer'. "
        f"import {r['import_s']:.1f} s, close first month {r['close_first_s']:.2f} s, "
        f"months 2..{r['months'] - 1} {r.get('close_middle_s', 0):.1f} s"
    )
    return "\n".join(out)


def as_json(results: dict[str, Any]) -> str:
    return json.dumps(results, indent=2)
