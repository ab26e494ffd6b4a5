"""tracker's benchmark: every figure against a floor measured in the same run on the same data.

    python benchmarks/bench.py [--large] [--db URL] [--json] [--workdir DIR] [--runs N]

A seeded synthetic federation (``generate.py``) is loaded into a database: the tracked
players through the players service (most of them seeded with a rating and a game count),
then every game from one CSV file with ``tracker import FILE --create-players external``
(the file names the external opponents and records their ratings). Then, each as a whole
``tracker`` process (wall time, and its own peak RSS):

- ``import``: the CSV import, vs raw ``sqlite3`` ``executemany`` of the same rows (the new
  players, events, the import row and the games, read back from the tracker database) into
  the same schema with the same indexes, in one transaction: ``import_ratio`` is tracker's
  speed / raw speed (target >= 0.5).
- ``close``: closing the last month (FIDE Elo + the lichess shadow), vs a floor of raw
  ``sqlite3`` reading that month's games, the ``glicko2`` package's update for each tracked
  side of each game, and raw inserts of as many history rows as tracker writes (target
  <= 2).
- ``month_cost_ratio``: closing the last month / closing the first (target <= 1.3; every
  month holds the same number of games).
- ``rerate``: ``tracker rerate --from FIRST`` (the whole history), vs a raw delete of the
  history it replaces plus the sum of the monthly floors (target <= 2).
- ``history`` / ``calc`` / ``help``: ``tracker history PLAYER --json`` (the busiest player),
  ``tracker calc elo`` and ``tracker --help`` vs ``python -c "import sqlalchemy.orm, typer"``
  (targets <= 1.5, <= 0.5, <= 0.5).
- peak RSS of the close and the rerate (targets <= 300 MB and <= 1000 MB).

The floors use tracker's connection settings (WAL, foreign keys, synchronous NORMAL) and
include closing their connection (the WAL checkpoint), as a tracker process does on exit.
Child processes run with bytecode caching on, as after a normal install.

``--db URL`` runs the tracker side on another database (PostgreSQL); the floors stay raw
sqlite3. The PostgreSQL database must have ``bench`` in its name: it is dropped and created
again; it is ANALYZEd (untimed) after the import and after the rerate, as autovacuum would.

Times are medians of ``--runs`` runs where a run is cheap to repeat (the close of a month is
undone between runs; the import is restored from a copy): 3 (small) or 1 (large) for the
import and the rerate, 5 or 3 for a close, 14 (interleaved) for the start-up figures.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import glicko2

from tracker.months import month_label

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from backends import Backend, add_players
from floors import STARTUP_FLOOR, Floor, MonthFloor
from processes import TRACKER, Run, log, median_run, run, tracker
from report import TARGETS, as_json, machine, meets, table


def bench(args: argparse.Namespace) -> dict[str, Any]:
    config = generate.LARGE if args.large else generate.SMALL
    runs = args.runs if args.runs is not None else (1 if args.large else 3)
    quick_runs = args.runs if args.runs is not None else (3 if args.large else 5)
    workdir = Path(args.workdir or f"/tmp/tracker-bench-{'large' if args.large else 'small'}")
    if args.db is not None:
        workdir = workdir.with_name(workdir.name + "-pg")
    workdir.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "python": platform.python_version(),
        "size": "large" if args.large else "small",
        "players": config.players,
        "games": config.games,
        "months": config.months,
        "runs": runs,
    }
    load_at_start = list(os.getloadavg())  # other work on the machine skews every figure
    backend = Backend(args.db, workdir)
    results["backend"] = backend.kind
    import tracker as package

    run([sys.executable, "-m", "compileall", "-q", str(Path(package.__file__).parent)])

    log(f"generating {config.players} players, {config.games} games, {config.months} months")
    start = time.perf_counter()
    fed = generate.generate(config)
    csv_path = workdir / "games.csv"
    generate.write_csv(fed, csv_path)
    gen_s = time.perf_counter() - start
    months = fed.month_list()
    first, last = months[0], months[-1]
    results["generate_s"] = gen_s
    results["csv_mb"] = csv_path.stat().st_size / 1e6
    results["games_last_month"] = sum(1 for g in fed.games if g.played_on >= last)

    log(f"creating the database ({backend.kind}) and adding the tracked players")
    backend.create()
    start = time.perf_counter()
    tracked = add_players(backend, fed)
    results["add_players_s"] = time.perf_counter() - start
    results["tracked_players"] = tracked
    results["seeded_players"] = sum(
        1 for p in fed.players if not p.external and p.seed_rating is not None
    )

    # 1. import
    log("importing the games with `tracker import` ...")
    import_cmd = tracker(backend.url, "import", str(csv_path), "--create-players", "external")
    if runs > 1:
        backend.snapshot()
    imp = median_run(lambda: run(import_cmd), runs, backend.restore if runs > 1 else None)
    if runs > 1:
        backend.drop_snapshot()
    results["import_s"] = imp.seconds
    results["import_peak_rss_mb"] = imp.rss_mb
    log(f"import: {imp.seconds:.2f}s")

    backend.analyze()
    log("raw sqlite3 floor of the import ...")
    floor = Floor(backend, workdir, tracked)
    floor_import = statistics.median(floor.import_once() for _ in range(max(runs, 3)))
    results["import_floor_s"] = floor_import
    results["import_games"] = len(floor.games)
    results["import_games_per_s"] = len(floor.games) / imp.seconds
    results["import_floor_games_per_s"] = len(floor.games) / floor_import
    results["import_ratio"] = floor_import / imp.seconds

    # 2-3. closing months
    log(f"closing {month_label(first)} ...")

    def close(month: dt.date) -> Run:
        return run(tracker(backend.url, "period", "close", month_label(month)))

    c1 = median_run(lambda: close(first), quick_runs, lambda: backend.undo_period(first))
    results["close_first_s"] = c1.seconds
    results["close_first_peak_rss_mb"] = c1.rss_mb
    if len(months) > 2:
        log(f"closing {month_label(months[1])} to {month_label(months[-2])} ...")
        middle = close(months[-2])
        results["close_middle_s"] = middle.seconds
        results["close_middle_months"] = len(months) - 2
        results["close_middle_peak_rss_mb"] = middle.rss_mb
    log(f"closing {month_label(last)} ...")
    cl = median_run(lambda: close(last), quick_runs, lambda: backend.undo_period(last))
    results["close_s"] = cl.seconds
    results["close_peak_rss_mb"] = cl.rss_mb
    results["month_cost_ratio"] = cl.seconds / c1.seconds
    log(f"close first {c1.seconds:.2f}s, last {cl.seconds:.2f}s")

    log("rerating the whole history ...")
    rerate = tracker(backend.url, "rerate", "--from", month_label(first))
    rr = median_run(lambda: run(rerate), runs, None)
    results["rerate_s"] = rr.seconds
    results["rerate_peak_rss_mb"] = rr.rss_mb
    log(f"rerate {rr.seconds:.2f}s")
    backend.analyze()

    log("raw floors of the months ...")
    mf = MonthFloor(floor, backend)
    month_floor: list[float] = []
    before_last: dict[int, tuple[glicko2.Player, str, int]] = {}
    for m in months:
        elo = mf.elo_rows(m)
        if m == last:
            before_last = copy.deepcopy(mf.players)
        month_floor.append(mf.month(m, elo))
    last_floor = [month_floor[-1]]
    elo_last = mf.elo_rows(last)
    for _ in range(max(runs, 3) - 1):
        mf.undo(last)
        mf.players = copy.deepcopy(before_last)
        last_floor.append(mf.month(last, elo_last))
    results["close_floor_s"] = statistics.median(last_floor)
    results["close_first_floor_s"] = month_floor[0]
    results["close_ratio"] = cl.seconds / results["close_floor_s"]
    # A rerate replaces the stored history: its floor deletes it, then does every month.
    results["rerate_floor_delete_s"] = mf.delete_all()
    results["rerate_floor_months_s"] = sum(month_floor)
    results["rerate_floor_s"] = results["rerate_floor_delete_s"] + sum(month_floor)
    results["rerate_ratio"] = rr.seconds / results["rerate_floor_s"]
    results["history_rows_last_month"] = {
        "elo": len(elo_last),
        "glicko": backend.fetch(
            "SELECT count(*) FROM glicko_history h JOIN rating_periods p ON p.id = h.period_id "
            "WHERE p.tc = 'standard' AND p.month = :m",
            m=last,
        )[0][0],
    }

    # 4. process start-up
    log("start-up: history, calc, help ...")
    games_by: dict[int, int] = {}
    for g in fed.games:
        games_by[g.white] = games_by.get(g.white, 0) + 1
        games_by[g.black] = games_by.get(g.black, 0) + 1
    busiest = max(
        (p for p in fed.players if not p.external), key=lambda p: games_by.get(p.index, 0)
    )
    results["history_player"] = busiest.name
    n = max(quick_runs, 7) * 2
    startup = {
        "base": STARTUP_FLOOR,
        "history": tracker(backend.url, "history", busiest.name, "--json"),
        "calc": [TRACKER, "calc", "elo", "1500", "1400:1", "1600:=", "1550:0", "--k", "20"],
        "help": [TRACKER, "--help"],
    }
    timings: dict[str, list[Run]] = {name: [] for name in startup}
    for _ in range(n):  # interleaved, so that a busy moment hits them all alike
        for name, cmd in startup.items():
            timings[name].append(run(cmd))
    base, hist, calc, helped = (
        Run(
            statistics.median(r.seconds for r in timings[name]),
            max(r.rss_mb for r in timings[name]),
            timings[name][-1].stdout,
        )
        for name in startup
    )
    results["import_baseline_s"] = base.seconds
    results["history_s"] = hist.seconds
    results["history_rows"] = len(json.loads(hist.stdout))
    results["calc_s"] = calc.seconds
    results["help_s"] = helped.seconds
    results["history_ratio"] = hist.seconds / base.seconds
    results["calc_ratio"] = calc.seconds / base.seconds
    results["help_ratio"] = helped.seconds / base.seconds

    results["load_average"] = {"start": load_at_start, "end": list(os.getloadavg())}
    results["targets_met"] = {name: meets(name, results[name]) for name in TARGETS}
    if not args.keep:
        for p in workdir.glob("*.db*"):
            if p.name.startswith(("floor", "snapshot")):
                p.unlink()
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="50,000 players, 1,000,000 games")
    parser.add_argument("--db", help="run the tracker side on this database URL (PostgreSQL)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--workdir", help="where the files go (default /tmp/tracker-bench-*)")
    parser.add_argument("--runs", type=int, help="runs per repeated figure")
    parser.add_argument("--keep", action="store_true", help="keep the floor databases")
    args = parser.parse_args(argv)
    if shutil.which(TRACKER) is None:
        raise SystemExit(f"{TRACKER} not found: install tracker into this Python first")
    results = bench(args)
    if args.json:
        print(as_json(results))
    else:
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
