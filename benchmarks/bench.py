"""tracker's benchmark: every figure against a floor measured in the same run on the same data.

    python benchmarks/bench.py [--large | --federation [--scale F]] [--db URL] [--json]
                               [--workdir DIR] [--runs N] [--no-big-month] [--no-site]
                               [--no-rerate] [--keep]

A seeded synthetic federation (``generate.py``) is loaded into a database: the tracked
players through the players service (most of them seeded with a rating and a game count),
then every game from one CSV file with ``tracker import FILE --create-players external``.
Each figure is a whole ``tracker`` process (wall time, and its own peak RSS) against a floor
that is a whole process too, doing the same work through the bare driver (``raw/``; see
``floors.py`` and docs/performance.md), on a copy of the same database of the same kind (SQLite, or
PostgreSQL with ``--db``). tracker and its floor run alternately (tracker, floor, tracker,
floor, ...), ``--runs`` times each (default 3), and each figure is the median: a busy moment
of the machine slows both.

- ``import``: the CSV import vs ``raw/importer.py`` (parse, match, check, natural keys,
  write; ``COPY`` on PostgreSQL); its peak RSS.
- ``close``: closing the first and the last month vs ``raw/close.py`` (previous list and
  shadows, FIDE arithmetic, Glicko-2, the same rows as tracker wrote); month N / month 1.
- ``site``: ``tracker site build DIR`` after the closes, into a fresh folder (every page
  written) and again on the unchanged database (none written): its time, pages and size.
  No floor.
- ``rerate``: ``tracker rerate --from FIRST`` vs the floor deleting the history and closing
  every month in sequence, one process.
- start-up: ``history``, ``player show``, ``compare`` (the busiest player), ``game add`` (then
  undone), ``status``, ``list --live``, ``event show`` (the biggest event), ``log``, ``list``
  vs a typer app of that one command running the raw query work (``raw/typed.py``, issue
  26); ``calc elo`` and ``--help`` vs ``python -c "import typer"``; all of them beside
  ``python -c "import sqlite3"`` (``psycopg`` on PostgreSQL) and ``python -c "import
  sqlalchemy.orm, typer"``.
- the big month: a month of four times the usual games (160,000 on ``--large``) imported,
  then closed: its time and peak RSS against its floor.
- ``list`` (when its first line comes, through a pipe) and ``compare --all``: time and peak
  RSS, no floor.

``--federation`` is FIDE's scale (``generate.FEDERATION``, times ``--scale``): the seeded
tracked players are loaded from a FIDE rating list file (``player import-fide-list``), the
games one CSV a month; the import measured against its floor is the last month's. No site,
start-up section or big month there.

Child processes run with bytecode caching on, as after a normal install. The PostgreSQL
database must have ``bench`` in its name: it (and ``<name>_floor...`` beside it) is dropped
and created again; it is ANALYZEd (untimed) after the imports, the closes of the middle
months and the rerate.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tracker.months import month_label, next_month

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from backends import Backend, add_players
from floors import (
    STARTUP_FLOOR,
    TYPER_FLOOR,
    agreement,
    close_floor,
    driver_floor,
    import_agreement,
    import_floor,
    tracker_rows,
    typer_floor,
)
from processes import TRACKER, Run, alternate, log, median_of, run, tracker
from report import as_json, machine, meets, table, targets, validate

IMPORTED = ("players", "events", "imports", "games")
#: The federation of every tracked player on ``--federation`` (its rating list's).
FEDERATION_CODE = "ENG"
#: The everyday commands that read a whole list: not timed among them on ``--federation``.
WHOLE_LISTS = ("status", "list_live", "list")


def bench(args: argparse.Namespace) -> dict[str, Any]:
    size = "federation" if args.federation else "large" if args.large else "small"
    config = {"federation": generate.FEDERATION, "large": generate.LARGE}.get(size, generate.SMALL)
    if args.federation:
        config = config.scaled(args.scale)
    runs = max(1, args.runs if args.runs is not None else 3)
    workdir = Path(args.workdir or f"/tmp/tracker-bench-{size}")
    if args.db is not None:
        workdir = workdir.with_name(workdir.name + "-pg")
    workdir.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "python": platform.python_version(),
        "size": size,
        "players": config.players,
        "games": config.games,
        "months": config.months,
        "runs": runs,
    }
    if args.federation:
        results.update(scale=args.scale, active_players=config.active_players)
    load_at_start = list(os.getloadavg())  # other work on the machine skews every figure
    backend = Backend(args.db, workdir)
    results["backend"] = backend.kind
    import tracker as package

    run([sys.executable, "-m", "compileall", "-q", str(Path(package.__file__).parent)])
    run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent)])

    log(f"generating {config.players} players, {config.games} games, {config.months} months")
    start = time.perf_counter()
    fed = generate.generate(config)
    months = fed.month_list()
    first, last = months[0], months[-1]
    if args.federation:  # one file a month, as a federation gets them
        by_month = generate.games_by_month(fed)
        csvs = [workdir / f"games-{month_label(m)}.csv" for m in months]
        for month, path in zip(months, csvs, strict=True):
            generate.write_csv(fed, path, by_month[month])
        rating_list = workdir / "standard_rating_list.txt"
        generate.write_fide_list(fed, rating_list, FEDERATION_CODE)
        results["games_last_month"] = len(by_month[last])
    else:
        csvs = [workdir / "games.csv"]
        generate.write_csv(fed, csvs[0])
        results["games_last_month"] = sum(1 for g in fed.games if g.played_on >= last)
    results["generate_s"] = time.perf_counter() - start
    results["csv_mb"] = sum(p.stat().st_size for p in csvs) / 1e6
    results["seeded_players"] = sum(
        1 for p in fed.players if not p.external and p.seed_rating is not None
    )

    log(f"creating the database ({backend.kind}) and adding the tracked players")
    backend.create()
    if args.federation:
        load_federation(backend, fed, results, rating_list, csvs[:-1])
    else:
        start = time.perf_counter()
        results["tracked_players"] = add_players(backend, fed)
        results["add_players_s"] = time.perf_counter() - start

    # 1. import (of the last month's file on --federation), alternating with its floor on a
    # copy of the database before the import
    import_games(backend, csvs[-1], results, runs)
    if args.federation:
        results["import_month_cost_ratio"] = results["import_s"] / results["import_first_month_s"]
        csvs[-1].unlink()

    # 2. closing months: the floor closes the same month on a copy of tracker's database
    floor = backend.sibling("floor")
    rows: dict[str, Any] = {}
    other_rows: dict[str, int] = {}

    def close_pair(month: dt.date, name: str) -> tuple[Run, Run]:
        before = backend.table_counts()

        def read_rows() -> None:
            rows.update(tracker_rows(backend, workdir, [month]))
            other_rows.update(written_elsewhere(before, backend.table_counts()))

        return alternate(
            lambda: run(tracker(backend.url, "period", "close", month_label(month))),
            lambda: run(close_floor(floor, workdir, [month], first, rows, name=name)),
            runs,
            undo_mine=lambda: backend.undo_period(month),
            undo_floor=lambda: floor.undo_period(month),
            after_first=read_rows,
        )

    log(f"closing {month_label(first)} and its floor ...")
    floor.copy_from(backend)
    c1, c1_floor = close_pair(first, "close-first")
    results.update(
        close_first_s=c1.seconds,
        close_first_peak_rss_mb=c1.rss_mb,
        close_first_floor_s=c1_floor.seconds,
        close_first_ratio=c1.seconds / c1_floor.seconds,
        rows_first_month=rows[first.isoformat()]["counts"],
        agreement_first_month=agreement(backend, floor, [first]),
    )
    if len(months) > 2:
        log(f"closing {month_label(months[1])} to {month_label(months[-2])} ...")
        middle = run(tracker(backend.url, "period", "close", month_label(months[-2])))
        results.update(
            close_middle_s=middle.seconds,
            close_middle_months=len(months) - 2,
            close_middle_peak_rss_mb=middle.rss_mb,
        )
        backend.analyze()  # PostgreSQL: the statistics autovacuum would have after 10 months
    log(f"closing {month_label(last)} and its floor ...")
    floor.copy_from(backend)
    cl, cl_floor = close_pair(last, "close-last")
    results.update(
        close_s=cl.seconds,
        close_peak_rss_mb=cl.rss_mb,
        close_floor_s=cl_floor.seconds,
        close_floor_peak_rss_mb=cl_floor.rss_mb,
        close_ratio=cl.seconds / cl_floor.seconds,
        month_cost_ratio=cl.seconds / c1.seconds,
        floor_month_cost_ratio=cl_floor.seconds / c1_floor.seconds,
        rows_last_month=rows[last.isoformat()]["counts"],
        agreement_last_month=agreement(backend, floor, [last]),
        rows_elsewhere=other_rows,
    )
    log(f"close first {c1.seconds:.2f}s (floor {c1_floor.seconds:.2f}s), last {cl.seconds:.2f}s")
    log(f"(floor {cl_floor.seconds:.2f}s)")

    # 3. the site of every list, player and event (no floor; far too long on --federation)
    if not args.no_site and not args.federation:
        site_build(backend, results, runs, workdir, keep=args.keep)

    # 4. rerate, alternating with the floor's (delete + every month, one process)
    if not args.no_rerate:
        rerate(backend, floor, months, rows, results, runs, workdir)

    # 5. start-up and everyday commands, interleaved (on --federation those of one player or
    # event only), then the whole list (its first line) and `compare --all`
    backend.analyze()  # PostgreSQL: as autovacuum would after the closes
    startup(backend, fed, results, runs, next_month(last), whole_lists=not args.federation)
    list_and_compare_all(backend, results, runs, whole_list=args.federation)

    # 6. the big month
    if not args.no_big_month and not args.federation:
        big_month(backend, floor, fed, results, runs, workdir)

    results["load_average"] = {"start": load_at_start, "end": list(os.getloadavg())}
    validate(results)
    goals = targets(size)
    results["targets_met"] = {  # a figure whose floor disagrees meets nothing
        name: meets(name, results[name], goals) and name not in results["invalid"]
        for name in goals
        if name in results
    }
    (workdir / "results.json").write_text(as_json(results))  # for benchmarks/scaling.py
    if not args.keep:
        floor.drop()
        for p in workdir.glob("*"):
            if p.name.startswith(("floor", "rows-", "tracker-snapshot", "help")):
                p.unlink()
    return results


def rerate(
    backend: Backend,
    floor: Backend,
    months: list[dt.date],
    rows: dict[str, Any],
    results: dict[str, Any],
    runs: int,
    workdir: Path,
) -> None:
    """``rerate --from`` the first month, alternating with the floor's (delete, then every
    month in sequence, one process) on the floor's copy."""
    first = months[0]
    log(f"rerating the whole history and its floor, {runs} runs each ...")

    def read_all_rows() -> None:
        rows.update(tracker_rows(backend, workdir, months))

    rr, rr_floor = alternate(
        lambda: run(tracker(backend.url, "rerate", "--from", month_label(first))),
        lambda: run(close_floor(floor, workdir, months, first, rows, rerate=True, name="rerate")),
        runs,
        after_first=read_all_rows,
    )
    results.update(
        rerate_s=rr.seconds,
        rerate_peak_rss_mb=rr.rss_mb,
        rerate_floor_s=rr_floor.seconds,
        rerate_floor_peak_rss_mb=rr_floor.rss_mb,
        rerate_ratio=rr.seconds / rr_floor.seconds,
        agreement_rerate=agreement(backend, floor, months),  # every month the rerate wrote
    )
    log(f"rerate {rr.seconds:.2f}s, floor {rr_floor.seconds:.2f}s")
    backend.analyze()


def load_federation(
    backend: Backend,
    fed: generate.Federation,
    results: dict[str, Any],
    rating_list: Path,
    months: list[Path],
) -> None:
    """As a federation loads itself (``--federation``): its rating list (the seeded tracked
    players) with ``player import-fide-list``, the unrated tracked players through the
    players service, then the games one month at a time (``months``: one CSV each) with
    ``tracker import``: each one's time and peak RSS."""
    log(f"loading the rating list ({rating_list.stat().st_size / 1e6:.0f} MB) ...")
    listed = run(
        tracker(
            backend.url,
            "player",
            "import-fide-list",
            str(rating_list),
            "--federation",
            FEDERATION_CODE,
        )
    )
    rating_list.unlink()
    start = time.perf_counter()
    unrated = add_players(backend, fed, seeded=False)
    results.update(
        fide_list_s=listed.seconds,
        fide_list_peak_rss_mb=listed.rss_mb,
        fide_list_players=results["seeded_players"],
        add_players_s=time.perf_counter() - start,
        tracked_players=results["seeded_players"] + unrated,
    )
    log(f"rating list {listed.seconds:.1f}s ({listed.rss_mb:.0f} MB); importing the months ...")
    imports: list[Run] = []
    for path in months:
        imports.append(
            run(tracker(backend.url, "import", str(path), "--create-players", "external"))
        )
        path.unlink()
        log(f"{path.name}: {imports[-1].seconds:.1f}s, {imports[-1].rss_mb:.0f} MB")
    results.update(
        import_months_s=[r.seconds for r in imports],
        import_months_peak_rss_mb=[r.rss_mb for r in imports],
        import_first_month_s=imports[0].seconds,
        import_first_month_peak_rss_mb=imports[0].rss_mb,
        import_month_before_last_s=imports[-1].seconds,
        import_month_before_last_peak_rss_mb=imports[-1].rss_mb,
        import_months_max_peak_rss_mb=max(r.rss_mb for r in imports),
    )
    backend.analyze()


def import_games(backend: Backend, csv_path: Path, results: dict[str, Any], runs: int) -> None:
    """``tracker import`` of ``csv_path``, alternating with its floor on a copy of the
    database made before it; checks that the floor wrote the same rows."""
    log(f"importing {csv_path.name}: tracker import and its floor, {runs} runs each ...")
    floor_import = backend.sibling("floor_import")
    floor_import.copy_from(backend)
    if runs > 1:
        backend.snapshot()
        floor_import.snapshot()
    imp, imp_floor = alternate(
        lambda: run(tracker(backend.url, "import", str(csv_path), "--create-players", "external")),
        lambda: run(import_floor(floor_import, csv_path)),
        runs,
        undo_mine=backend.restore,
        undo_floor=floor_import.restore,
    )
    counts = {t: backend.fetch(f"SELECT count(*) FROM {t}")[0][0] for t in IMPORTED}
    floor_counts = {t: floor_import.fetch(f"SELECT count(*) FROM {t}")[0][0] for t in IMPORTED}
    if floor_counts != counts:  # the floor must do the same import
        raise SystemExit(f"the import floor wrote {floor_counts}, tracker {counts}")
    results["agreement_import"] = import_agreement(backend, floor_import)
    results["players_on_file"] = counts["players"]
    games = backend.fetch(
        "SELECT count(*) FROM games WHERE import_id = (SELECT max(id) FROM imports)"
    )[0][0]
    backend.drop_snapshot()
    floor_import.drop_snapshot()
    floor_import.drop()
    results.update(
        import_s=imp.seconds,
        import_peak_rss_mb=imp.rss_mb,
        import_floor_s=imp_floor.seconds,
        import_floor_peak_rss_mb=imp_floor.rss_mb,
        import_games=games,
        import_games_per_s=games / imp.seconds,
        import_floor_games_per_s=games / imp_floor.seconds,
        import_ratio=imp_floor.seconds / imp.seconds,
    )
    log(f"import: {imp.seconds:.2f}s, floor {imp_floor.seconds:.2f}s")
    backend.analyze()


def list_and_compare_all(
    backend: Backend, results: dict[str, Any], runs: int, *, whole_list: bool
) -> None:
    """``tracker list`` of every player, ``runs`` times: when its first line comes (through a
    pipe), and with ``whole_list`` (``--federation``, where the start-up section leaves out
    ``list``) its whole time and peak RSS; ``tracker compare --all``, ``runs`` times: time and
    peak RSS. Medians, highest peak RSS."""
    log(f"list (first line) and compare --all, {runs} runs each ...")
    lists = [run(tracker(backend.url, "list"), first_line=True) for _ in range(runs)]
    compares = [run(tracker(backend.url, "compare", "--all")) for _ in range(runs)]
    whole, compared = median_of(lists), median_of(compares)
    results["list_first_line_s"] = statistics.median(r.first_line_s or 0.0 for r in lists)
    if whole_list:
        results.update(
            list_s=whole.seconds,
            list_peak_rss_mb=whole.rss_mb,
            list_lines=whole.stdout.count("\n"),
        )
    results.update(compare_all_s=compared.seconds, compare_all_peak_rss_mb=compared.rss_mb)
    log(
        f"list: first line {results['list_first_line_s']:.2f}s, all {whole.seconds:.2f}s; "
        f"compare --all {compared.seconds:.2f}s ({compared.rss_mb:.0f} MB)"
    )


def startup(
    backend: Backend,
    fed: generate.Federation,
    results: dict[str, Any],
    runs: int,
    open_month: dt.date,
    *,
    whole_lists: bool = True,
) -> None:
    """The everyday commands and start-up, each against its floor, interleaved. Without
    ``whole_lists`` (``--federation``) only the commands of one player or one event (and
    ``log``, ``calc``, ``--help``): ``status``, ``list --live`` and ``list`` read a whole list,
    600,000 lines there (the whole list is timed on its own, below)."""
    log("start-up and everyday commands ...")
    games_by: dict[int, int] = {}
    for g in fed.games:
        games_by[g.white] = games_by.get(g.white, 0) + 1
        games_by[g.black] = games_by.get(g.black, 0) + 1
    busiest = sorted(
        (p for p in fed.players if not p.external), key=lambda p: -games_by.get(p.index, 0)
    )
    who, other = busiest[0].name, busiest[1].name
    results["history_player"] = who
    day = open_month.replace(day=10).isoformat()
    if whole_lists:
        # The players on the latest list, as tracker prints them (idle players' lines are
        # derived, not stored: counting stored rows would miss most of them).
        printed = run(tracker(backend.url, "list", "--json")).stdout
        results["list_players"] = len(json.loads(printed)["players"])
    sparse = "sparse" if _sparse(backend) else "dense"
    calc = ["1500", "1400:1", "1600:=", "1550:0"]
    # the biggest event, for `event show`
    event = backend.fetch(
        "SELECT e.name FROM games g JOIN events e ON e.id = g.event_id GROUP BY e.id, e.name "
        "ORDER BY count(*) DESC, e.id LIMIT 1"
    )[0][0]
    results["event_show_event"] = event
    today = dt.datetime.now(dt.UTC).date().isoformat()
    url = backend.url
    commands: dict[str, tuple[list[str], list[str]]] = {
        "history": (tracker(url, "history", who), typer_floor(backend, "history", who)),
        "player_show": (
            tracker(url, "player", "show", who),
            typer_floor(backend, "player_show", who),
        ),
        "compare": (tracker(url, "compare", who), typer_floor(backend, "compare", who)),
        "game_add": (
            tracker(url, "game", "add", who, other, "1-0", "--date", day),
            typer_floor(backend, "game_add", who, other, "1-0", "--date", day),
        ),
        "status": (tracker(url, "status"), typer_floor(backend, "status", "--today", today)),
        "list_live": (
            tracker(url, "list", "--live"),
            typer_floor(backend, "list", "--live", "--today", today),
        ),
        "event_show": (
            tracker(url, "event", "show", event),
            typer_floor(backend, "event_show", event),
        ),
        "log": (tracker(url, "log"), typer_floor(backend, "log")),
        "list": (
            tracker(url, "list"),
            typer_floor(backend, "list", *(["--sparse"] if sparse == "sparse" else [])),
        ),
        "calc": ([TRACKER, "calc", "elo", *calc, "--k", "20"], TYPER_FLOOR),
        "help": ([TRACKER, "--help"], TYPER_FLOOR),
    }
    if not whole_lists:
        for name in WHOLE_LISTS:
            del commands[name]
    bases = {"sqlalchemy": STARTUP_FLOOR, "driver": driver_floor(backend)}
    timings: dict[str, list[Run]] = {}
    rounds = max(runs, 5)
    for i in range(rounds):  # interleaved, so that a busy moment hits them all alike
        for name, cmd in bases.items():
            timings.setdefault(name, []).append(run(cmd))
        for name, (mine, raw) in commands.items():
            if name == "list" and i >= runs:
                continue  # the longest one: --runs times
            timings.setdefault(name, []).append(run(mine))
            if name == "game_add":
                _undo_game(backend, timings[name][-1])
            timings.setdefault(f"{name}_floor", []).append(run(raw))
            if name == "game_add":
                _undo_game(backend, timings[f"{name}_floor"][-1])
    base = {name: median_of(timings[name]).seconds for name in bases}
    results["startup_floor_sqlalchemy_s"] = base["sqlalchemy"]
    results["startup_floor_driver_s"] = base["driver"]
    results["startup_floor_driver"] = bases["driver"][-1]
    results["list_floor_kind"] = sparse
    for name in commands:
        mine, raw = median_of(timings[name]), median_of(timings[f"{name}_floor"])
        results[f"{name}_s"] = mine.seconds
        results[f"{name}_peak_rss_mb"] = mine.rss_mb
        results[f"{name}_floor_s"] = raw.seconds
        results[f"{name}_vs_floor"] = mine.seconds / raw.seconds
        results[f"{name}_vs_driver"] = mine.seconds / base["driver"]
        results[f"{name}_vs_sqlalchemy"] = mine.seconds / base["sqlalchemy"]
    log(f"history {results['history_s']:.2f}s, event show {results['event_show_s']:.2f}s")


def site_build(
    backend: Backend, results: dict[str, Any], runs: int, workdir: Path, *, keep: bool
) -> None:
    """``tracker site build DIR`` into a fresh folder (every page written), then again on the
    unchanged database (every page the same: none written), ``runs`` times each; the pages,
    the site's size, medians and the build's peak RSS. No floor: nothing raw draws pages."""
    log(f"building the site and rebuilding it, {runs} runs each ...")
    folder = workdir / "site"
    builds: list[Run] = []
    rebuilds: list[Run] = []
    for _ in range(runs):
        shutil.rmtree(folder, ignore_errors=True)
        builds.append(run(tracker(backend.url, "site", "build", str(folder))))
        rebuilds.append(run(tracker(backend.url, "site", "build", str(folder))))
    pages, written = _site_counts(builds[-1])
    again, rewritten = _site_counts(rebuilds[-1])
    # the pages, and the list of them the build keeps beside them (``.tracker-site``)
    files = [p for p in folder.rglob("*") if p.is_file() and p.name != ".tracker-site"]
    if written != pages or again != pages or rewritten or len(files) != pages:
        raise SystemExit(
            f"site build: {pages} pages ({written} written), then {again} ({rewritten} "
            f"written); {len(files)} files in {folder}"
        )
    build, rebuild = median_of(builds), median_of(rebuilds)
    results.update(
        site_build=build.seconds,
        site_build_peak_rss_mb=build.rss_mb,
        site_rebuild=rebuild.seconds,
        site_rebuild_peak_rss_mb=rebuild.rss_mb,
        site_pages=pages,
        site_mb=sum(p.stat().st_size for p in files) / 1e6,
    )
    log(f"site build {build.seconds:.2f}s ({pages:,} pages), rebuild {rebuild.seconds:.2f}s")
    if not keep:
        shutil.rmtree(folder)


def _site_counts(built: Run) -> tuple[int, int]:
    """The files of a ``site build`` and how many it wrote, from its last line."""
    found = re.search(r"(\d+) files?, (\d+) written", built.stderr)
    if found is None:
        raise RuntimeError(f"site build said: {(built.stdout + built.stderr)[-200:]!r}")
    return int(found.group(1)), int(found.group(2))


def written_elsewhere(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Rows a close added to tables other than the periods, the two histories, the stored
    list and the change log (which the floor writes): none today; the report warns if a
    change makes some."""
    ours = {"rating_periods", "elo_history", "glicko_history", "list_entries", "change_log"}
    return {
        t: n - before.get(t, 0) for t, n in after.items() if t not in ours and n != before.get(t, 0)
    }


def _sparse(backend: Backend) -> bool:
    """Whether tracker stores only what changed: the latest list holds fewer lines than there
    are players with a line at all (the list floor then takes each one's latest line)."""
    latest = backend.fetch(
        "SELECT count(*) FROM elo_history WHERE period_id = (SELECT id FROM rating_periods "
        "WHERE tc = 'standard' ORDER BY month DESC LIMIT 1)"
    )[0][0]
    ever = backend.fetch(
        "SELECT count(DISTINCT h.player_id) FROM elo_history h JOIN rating_periods r "
        "ON r.id = h.period_id WHERE r.tc = 'standard'"
    )[0][0]
    return bool(latest < 0.98 * ever)


def _undo_game(backend: Backend, added: Run) -> None:
    """Remove the game a `game add` (tracker's or its floor's) just added."""
    found = re.search(r"added game (\d+)", added.stdout + added.stderr)
    if found is None:
        raise RuntimeError(f"no game added: {(added.stdout + added.stderr)[:200]!r}")
    backend.execute("DELETE FROM games WHERE id = :g", g=int(found.group(1)))


def big_month(
    backend: Backend,
    floor: Backend,
    fed: generate.Federation,
    results: dict[str, Any],
    runs: int,
    workdir: Path,
) -> None:
    games = generate.big_month(fed)
    month = games[0].played_on.replace(day=1)
    log(f"the big month {month_label(month)}: {len(games):,} games, import and close ...")
    path = workdir / "big-month.csv"
    generate.write_csv(fed, path, games)
    imp = run(tracker(backend.url, "import", str(path), "--create-players", "external"))
    backend.analyze()
    floor.copy_from(backend)
    rows: dict[str, Any] = {}
    first = fed.month_list()[0]
    big, big_floor = alternate(
        lambda: run(tracker(backend.url, "period", "close", month_label(month))),
        lambda: run(close_floor(floor, workdir, [month], first, rows, name="close-big")),
        runs,
        undo_mine=lambda: backend.undo_period(month),
        undo_floor=lambda: floor.undo_period(month),
        after_first=lambda: rows.update(tracker_rows(backend, workdir, [month])),
    )
    results.update(
        big_month=month.isoformat(),
        big_month_games=len(games),
        big_import_s=imp.seconds,
        big_import_peak_rss_mb=imp.rss_mb,
        big_close_s=big.seconds,
        big_close_peak_rss_mb=big.rss_mb,
        big_close_floor_s=big_floor.seconds,
        big_close_floor_peak_rss_mb=big_floor.rss_mb,
        big_close_ratio=big.seconds / big_floor.seconds,
        rows_big_month=rows[month.isoformat()]["counts"],
        agreement_big_month=agreement(backend, floor, [month]),
    )
    log(f"big month close {big.seconds:.2f}s ({big.rss_mb:.0f} MB), floor {big_floor.seconds:.2f}s")
    path.unlink()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="50,000 players, 1,000,000 games")
    parser.add_argument("--db", help="run on this database URL (PostgreSQL), floors too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--workdir", help="where the files go (default /tmp/tracker-bench-*)")
    parser.add_argument("--runs", type=int, help="runs of tracker and of each floor (default 3)")
    parser.add_argument(
        "--no-big-month", action="store_true", help="skip the big month (import and close)"
    )
    parser.add_argument("--no-site", action="store_true", help="skip the site build")
    parser.add_argument("--keep", action="store_true", help="keep the floor databases and the site")
    parser.add_argument(
        "--federation",
        action="store_true",
        help="FIDE's scale: 800,000 players (600,000 on the rating list), 50,000 active a month, "
        "250,000 games a month, 12 months",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="with --federation: this many times the players, active players and games",
    )
    parser.add_argument("--no-rerate", action="store_true", help="skip the rerate")
    args = parser.parse_args(argv)
    if args.federation and args.large:
        parser.error("--federation and --large are two sizes: give one")
    if args.scale != 1.0 and not args.federation:
        parser.error("--scale goes with --federation")
    if args.scale <= 0:
        parser.error("--scale must be positive")
    if shutil.which(TRACKER) is None:
        raise SystemExit(f"{TRACKER} not found: install tracker into this Python first")
    results = bench(args)
    print(as_json(results) if args.json else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
