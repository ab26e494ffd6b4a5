"""The targets (issue 15), whether a figure ``meets`` its target, the machine line, and the
results as the text table or as JSON.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

# figure -> (operator, target). Ratios are tracker / floor, except the import's (speed:
# floor time / tracker time). Times in seconds, memory in MB.
TARGETS = {
    "import_ratio": (">=", 0.7),
    "import_peak_rss_mb": ("<=", 250.0),
    "close_ratio": ("<=", 1.5),
    "close_first_ratio": ("<=", 1.5),  # issue 37
    "rerate_ratio": ("<=", 1.5),
    "month_cost_ratio": ("<=", 1.2),
    "close_peak_rss_mb": ("<=", 300.0),
    "rerate_peak_rss_mb": ("<=", 1000.0),
    "big_close_peak_rss_mb": ("<=", 300.0),
    "history_s": ("<=", 0.15),
    "player_show_s": ("<=", 0.15),
    "compare_s": ("<=", 0.15),
    "game_add_s": ("<=", 0.15),
    "list_s": ("<=", 1.0),
    "list_first_line_s": ("<", 0.3),  # issue 37: on every size
    "compare_all_s": ("<", 1.0),
    "calc_vs_sqlalchemy": ("<=", 0.5),
    "help_vs_sqlalchemy": ("<=", 0.5),
    # issue 26: each everyday command as a whole process <= 1.5x its floor (a typer app of
    # that one command running the raw queries); --help and calc <= 1.5x `import typer`
    **{
        f"{name}_vs_floor": ("<=", 1.5)
        for name in (
            "history",
            "player_show",
            "compare",
            "game_add",
            "status",
            "list_live",
            "event_show",
            "log",
            "help",
            "calc",
        )
    },
}

# --federation (FIDE's scale): the figures that have a target there.
FEDERATION_TARGETS = {
    "import_ratio": (">=", 0.7),
    "close_ratio": ("<=", 1.5),
    "rerate_ratio": ("<=", 1.5),
    "month_cost_ratio": ("<=", 1.2),
    "close_peak_rss_mb": ("<=", 500.0),
    "close_first_ratio": ("<=", 1.5),
    "list_first_line_s": ("<", 0.3),
}


def targets(size: str) -> dict[str, tuple[str, float]]:
    """The targets of a run's size (small, large or federation)."""
    return FEDERATION_TARGETS if size == "federation" else TARGETS


# The figures measured against a floor, and which agreement check says that floor computed
# tracker's numbers (issue 26): a figure whose floor disagrees is invalid.
CHECKED = {
    "import_ratio": "agreement_import",
    "close_first_ratio": "agreement_first_month",
    "close_ratio": "agreement_last_month",
    "rerate_ratio": "agreement_rerate",
    "big_close_ratio": "agreement_big_month",
}

# The start-up figures, and what each runs.
STARTUP = {
    "history": "history PLAYER",
    "player_show": "player show PLAYER",
    "compare": "compare PLAYER",
    "game_add": "game add W B 1-0 --date D",
    "status": "status",
    "list_live": "list --live",
    "event_show": "event show EVENT",
    "log": "log",
    "list": "list",
    "calc": "calc elo 1500 ... --k 20",
    "help": "--help",
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


def validate(r: dict[str, Any]) -> None:
    """The floors' agreement with tracker: ``floor_agreement`` (the share of every checked
    floor row equal to tracker's, 0..1), ``invalid`` (the figures whose floor disagrees) and
    ``valid`` (none does)."""
    checks = [r[key] for key in dict.fromkeys(CHECKED.values()) if key in r]
    rows = sum(c["rows"] for c in checks)
    r["floor_agreement"] = sum(c["rows_same"] for c in checks) / rows if rows else 1.0
    r["invalid"] = [
        name for name, key in CHECKED.items() if name in r and key in r and not r[key]["agrees"]
    ]
    r["valid"] = not r["invalid"]


def _agrees(r: dict[str, Any], name: str) -> str:
    """The agreement of a figure's floor, as the table prints it."""
    check = r.get(CHECKED.get(name, ""))
    if check is None:
        return ""
    return "100%" if check["agrees"] else f"{check['same']:.1%}"


def meets(name: str, value: float, goals: dict[str, tuple[str, float]] = TARGETS) -> bool:
    op, target = goals[name]
    if op == "<":
        return value < target
    return value >= target if op == ">=" else value <= target


def _target(key: str, r: dict[str, Any]) -> tuple[str, str]:
    invalid = key in r.get("invalid", ())
    goals = targets(r["size"])
    if key not in goals or key not in r:
        return "", "INVALID" if invalid else ""
    op, target = goals[key]
    unit = " MB" if key.endswith("_mb") else (" s" if key.endswith("_s") else "")
    met = "INVALID" if invalid else "yes" if meets(key, r[key], goals) else "NO"
    return f"{op} {target:g}{unit}", met


def table(r: dict[str, Any]) -> str:
    def s(x: float) -> str:
        return f"{x:.2f} s"

    def mb(x: float) -> str:
        return f"{x:.0f} MB"

    invalid = (
        [
            f"INVALID: the floor of {', '.join(r['invalid'])} computes other numbers than "
            "tracker (see the agreement below)",
            "",
        ]
        if r.get("invalid")
        else []
    )
    scale = (
        f" x {r['scale']:g}, {r['active_players']:,} active a month"
        if r["size"] == "federation"
        else ""
    )
    out = [
        f"tracker benchmark, {r['size']}{scale} ({r['players']:,} players, {r['games']:,} "
        f"games, {r['months']} months), {r['backend']}, {r['date']}, median of {r['runs']} runs",
        f"{r['machine']}; load average {r['load_average']['start'][0]:.2f} at the start, "
        f"{r['load_average']['end'][0]:.2f} at the end",
        "",
        *invalid,
        f"{'figure':<38} {'tracker':>10} {'floor':>10} {'ratio':>6} {'agrees':>6}  "
        f"{'target':<10} met",
    ]

    def line(what: str, mine: str, floor: str, ratio: str, key: str) -> None:
        target, met = _target(key, r)
        agrees = _agrees(r, key)
        out.append(f"{what:<38} {mine:>10} {floor:>10} {ratio:>6} {agrees:>6}  {target:<10} {met}")

    def alone(what: str, mine: str, key: str = "") -> None:
        """A figure without a floor."""
        line(what, mine, "no floor", "", key)

    months = r["months"]
    if "fide_list_s" in r:  # --federation: loaded as a federation loads itself
        alone(f"import-fide-list ({r['fide_list_players']:,} players)", s(r["fide_list_s"]))
        alone("import-fide-list peak RSS", mb(r["fide_list_peak_rss_mb"]))
        for what, key in (
            ("import month 1", "import_first_month"),
            (f"import month {months - 1}", "import_month_before_last"),
        ):
            alone(what, s(r[f"{key}_s"]))
            alone(f"{what} peak RSS", mb(r[f"{key}_peak_rss_mb"]))
        alone(f"import months 1..{months - 1} max peak RSS", mb(r["import_months_max_peak_rss_mb"]))
        line(
            f"import month {months} / month 1",
            f"{r['import_month_cost_ratio']:.2f}",
            "",
            "",
            "",
        )
    line(
        f"import month {months} (games/s)" if "fide_list_s" in r else "import (games/s)",
        f"{r['import_games_per_s']:,.0f}",
        f"{r['import_floor_games_per_s']:,.0f}",
        f"{r['import_ratio']:.2f}",
        "import_ratio",
    )
    line(
        "import peak RSS",
        mb(r["import_peak_rss_mb"]),
        mb(r["import_floor_peak_rss_mb"]),
        "",
        "import_peak_rss_mb",
    )
    line(
        "close first month",
        s(r["close_first_s"]),
        s(r["close_first_floor_s"]),
        f"{r['close_first_ratio']:.2f}",
        "close_first_ratio",
    )
    line(
        f"close last month ({r['games_last_month']:,} games)",
        s(r["close_s"]),
        s(r["close_floor_s"]),
        f"{r['close_ratio']:.2f}",
        "close_ratio",
    )
    line(
        "close last / first month",
        f"{r['month_cost_ratio']:.2f}",
        f"{r['floor_month_cost_ratio']:.2f}",
        f"{r['month_cost_ratio']:.2f}",
        "month_cost_ratio",
    )
    line(
        "close peak RSS",
        mb(r["close_peak_rss_mb"]),
        mb(r["close_floor_peak_rss_mb"]),
        "",
        "close_peak_rss_mb",
    )

    def against_floor(what: str, name: str, peak_what: str) -> None:
        """``{name}_s`` against ``{name}_floor_s``, then both peak RSS."""
        ratio = f"{name}_ratio"
        line(what, s(r[f"{name}_s"]), s(r[f"{name}_floor_s"]), f"{r[ratio]:.2f}", ratio)
        peak, floor_peak = r[f"{name}_peak_rss_mb"], r[f"{name}_floor_peak_rss_mb"]
        line(peak_what, mb(peak), mb(floor_peak), "", f"{name}_peak_rss_mb")

    if "rerate_s" in r:
        against_floor("rerate all months", "rerate", "rerate peak RSS")
    if "big_close_s" in r:
        games = f"{r['big_month_games']:,} games"
        against_floor(f"close big month ({games})", "big_close", "close big month peak RSS")
    if "site_build" in r:  # no floor: nothing raw draws the pages
        alone(f"site build ({r['site_pages']:,} pages, {r['site_mb']:.1f} MB)", s(r["site_build"]))
        alone("site rebuild (unchanged: 0 written)", s(r["site_rebuild"]))
        alone("site build peak RSS", mb(r["site_build_peak_rss_mb"]))
    alone("list: its first line (a pipe)", s(r["list_first_line_s"]), "list_first_line_s")
    if "list_lines" in r:  # --federation: the whole list (not in the start-up section)
        alone(f"list ({r['list_lines']:,} lines)", s(r["list_s"]))
        alone("list peak RSS", mb(r["list_peak_rss_mb"]))
    alone("compare --all", s(r["compare_all_s"]), "compare_all_s")
    alone("compare --all peak RSS", mb(r["compare_all_peak_rss_mb"]))
    if "history_s" in r:
        startup_table(r, out)
    rows = r["rows_last_month"]
    out += [
        "",
        f"rows written by the close of the last month: {rows['elo']:,} Elo, "
        f"{rows['glicko']:,} shadow (the floor writes the same rows). The floors' rows agree "
        f"with tracker's: {r.get('floor_agreement', 0):.1%} of them "
        f"({'valid' if r.get('valid') else 'INVALID'}; Elo exactly, shadow to 1e-9):",
        *(_agreement_line(what, r[key]) for what, key in AGREEMENTS if key in r),
        "  the raw scripts of the everyday commands print their own text: not compared",
        *(
            f"warning: the close also wrote {n:+,} rows to {t}, which the floor does not write"
            for t, n in r.get("rows_elsewhere", {}).items()
        ),
        "the import floor parses the CSV (twice: it keeps the people, events and keys, not the "
        "games), checks every row, matches the people by FIDE id then name, creates the "
        "others and the events, builds the natural keys and writes the games in chunks "
        f"({'COPY' if r['backend'] == 'postgresql' else 'executemany'}), one transaction",
        f"floors: whole processes through the bare driver ({r['backend']}) on a copy of the "
        f"same database; import {r['import_s']:.1f} s (floor {r['import_floor_s']:.1f} s); "
        f"months 2..{months - 1} closed in {r.get('close_middle_s', 0):.1f} s",
    ]
    return "\n".join(out)


def startup_table(r: dict[str, Any], out: list[str]) -> None:
    """The start-up section: each everyday command against its floors (on ``--federation``
    those of one player or event)."""
    runs = f"median of {max(r['runs'], 5)}"
    if "list_lines" not in r:  # list is among them (not on --federation): --runs times
        runs += f"; list: {r['runs']}"
    out += [
        "",
        f"start-up, whole processes ({runs}); "
        "floors: a typer command running the raw queries (calc, --help: "
        "python -c 'import typer'); python -c 'import ...'",
        f"{'command':<27} {'tracker':>7}  {'floor':<13}  "
        f"{r['startup_floor_driver']:<15}  {'sqlalchemy.orm+typer':<20}  "
        f"{'target':<10} met",
    ]
    driver, sqla = r["startup_floor_driver_s"], r["startup_floor_sqlalchemy_s"]
    for name, what in STARTUP.items():
        key = f"{name}_s"
        if f"{name}_vs_floor" not in r:  # --federation: the whole-list commands are not
            continue  # among them (its whole list is timed alone)
        target, met = _target(f"{name}_vs_floor", r)
        target = f"{target}x" if target else ""
        what = what if name != "list" else f"list ({r['list_players']:,} players)"
        raw = f"{r[f'{name}_floor_s']:.3f} {r[f'{name}_vs_floor']:>5.1f}x"
        base = f"{driver:.3f} {r[f'{name}_vs_driver']:>5.1f}x"
        orm = f"{sqla:.3f} {r[f'{name}_vs_sqlalchemy']:>5.2f}x"
        out.append(
            f"{what:<27} {r[key]:>7.3f}  {raw:<13}  {base:<15}  {orm:<20}  {target:<10} {met}"
        )


AGREEMENTS = (
    ("import (players, events, import, games)", "agreement_import"),
    ("close first month", "agreement_first_month"),
    ("close last month", "agreement_last_month"),
    ("rerate (every month)", "agreement_rerate"),
    ("close big month", "agreement_big_month"),
)


def _agreement_line(what: str, a: dict[str, Any]) -> str:
    if "elo_same" not in a:  # the import's
        return f"  {what:<38} {a['same']:.1%} of {a['rows']:,} rows"
    return (
        f"  {what:<38} {a['same']:.1%} of {a['rows']:,} rows: {a['elo_same']:.1%} of the Elo "
        f"lines, {a['glicko_same']:.1%} of the shadow rows (largest difference "
        f"{a['glicko_max_diff']:.3g})"
    )


def as_json(results: dict[str, Any]) -> str:
    return json.dumps(results, indent=2, default=str)
