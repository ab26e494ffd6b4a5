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
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import glicko2

from tracker.months import month_label, next_month

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate

BIN = Path(sys.executable).parent
TRACKER = str(BIN / "tracker")
# Child processes run as after a normal install: with bytecode caches (some sandboxes set
# PYTHONDONTWRITEBYTECODE, which would recompile tracker on every start).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CHILD_ENV["COLUMNS"] = "200"

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


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------
# Processes


@dataclass(frozen=True)
class Run:
    seconds: float
    rss_mb: float
    stdout: str


# Runs a command and reports its wall time and peak RSS. The launcher is a fresh, small
# process: a child forked straight from the bench (which holds the whole federation in
# memory) would report the bench's RSS as its own peak.
_LAUNCHER = """
import json, os, subprocess, sys, time
out = sys.argv[1]
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
seconds = time.perf_counter() - start
with open(out, "w") as f:
    json.dump([seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status)], f)
"""


def run(cmd: Sequence[str], *, check: bool = True) -> Run:
    """Run a process: its wall time and its own peak RSS."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile(suffix=".json") as report,
    ):
        launcher = [sys.executable, "-S", "-c", _LAUNCHER, report.name, *cmd]
        subprocess.run(launcher, stdout=out, stderr=err, env=CHILD_ENV, check=False)
        seconds, maxrss_kb, code = json.loads(Path(report.name).read_text())
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if check and code != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({code}):\n{stderr.decode(errors='replace')[-3000:]}"
        )
    return Run(seconds, maxrss_kb / 1024.0, stdout.decode(errors="replace"))


def tracker(url: str, *args: str) -> list[str]:
    return [TRACKER, "--db", url, *args]


def median_run(make: Callable[[], Run], runs: int, between: Callable[[], None] | None) -> Run:
    results = []
    for i in range(runs):
        if i and between is not None:
            between()
        results.append(make())
    return Run(
        statistics.median(r.seconds for r in results),
        max(r.rss_mb for r in results),
        results[-1].stdout,
    )


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


# ---------------------------------------------------------------------------------------
# The tracker database (SQLite file or PostgreSQL)


class Backend:
    """The tracker side's database: create it, snapshot/restore it, and small SQL chores."""

    def __init__(self, url: str | None, workdir: Path) -> None:
        self.workdir = workdir
        self.sqlite_path: Path | None = None
        if url is None:
            self.sqlite_path = workdir / "tracker.db"
            self.url = f"sqlite:///{self.sqlite_path}"
        else:
            self.url = url
        self.kind = "sqlite" if self.sqlite_path is not None else "postgresql"

    def engine(self) -> Any:
        from tracker.db.engine import make_engine

        return make_engine(self.url)

    def create(self) -> None:
        if self.sqlite_path is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
        else:
            self._pg_recreate(self._pg_name(), template=None)
        from tracker.db.engine import ensure_current

        engine = self.engine()
        ensure_current(engine)
        engine.dispose()

    # snapshots, for repeating the import
    def snapshot(self) -> None:
        if self.sqlite_path is not None:
            _sqlite_copy(self.sqlite_path, self.workdir / "snapshot.db")
        else:
            self._pg_recreate(self._pg_name() + "_snap", template=self._pg_name())

    def restore(self) -> None:
        if self.sqlite_path is not None:
            for suffix in ("-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
            _sqlite_copy(self.workdir / "snapshot.db", self.sqlite_path)
        else:
            self._pg_recreate(self._pg_name(), template=self._pg_name() + "_snap")

    def drop_snapshot(self) -> None:
        if self.sqlite_path is not None:
            (self.workdir / "snapshot.db").unlink(missing_ok=True)
        else:
            self._pg_admin(f'DROP DATABASE IF EXISTS "{self._pg_name()}_snap"')

    def _pg_name(self) -> str:
        from sqlalchemy.engine import make_url

        return str(make_url(self.url).database)

    def _pg_admin(self, *statements: str) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        admin = create_engine(
            make_url(self.url).set(database="postgres"), isolation_level="AUTOCOMMIT"
        )
        with admin.connect() as conn:
            for sql in statements:
                conn.execute(text(sql))
        admin.dispose()

    def _pg_recreate(self, name: str, template: str | None) -> None:
        if "bench" not in name:
            raise SystemExit(
                f"refusing to drop PostgreSQL database {name!r}: use a database whose name "
                "contains 'bench' (e.g. tracker_bench); it is dropped and created again"
            )
        tpl = f' TEMPLATE "{template}"' if template else ""
        self._pg_admin(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"{tpl}')

    def analyze(self) -> None:
        """PostgreSQL: refresh the planner's statistics after a bulk load, as autovacuum would
        soon do on a live server (a freshly loaded table has none). SQLite needs none."""
        if self.kind != "postgresql":
            return
        from sqlalchemy import text

        engine = self.engine().execution_options(isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("ANALYZE"))
        engine.dispose()

    def undo_period(self, month: dt.date) -> None:
        """Remove one closed period and its history rows (to close it again)."""
        from sqlalchemy import text

        engine = self.engine()
        with engine.begin() as conn:
            pid = conn.execute(
                text("SELECT id FROM rating_periods WHERE tc = 'standard' AND month = :m"),
                {"m": month},
            ).scalar_one()
            for table in ("elo_history", "glicko_history"):
                conn.execute(text(f"DELETE FROM {table} WHERE period_id = :p"), {"p": pid})
            conn.execute(text("DELETE FROM rating_periods WHERE id = :p"), {"p": pid})
        engine.dispose()

    def fetch(self, sql: str, **params: object) -> list[tuple[Any, ...]]:
        from sqlalchemy import text

        engine = self.engine()
        with engine.connect() as conn:
            rows = [tuple(r) for r in conn.execute(text(sql), params)]
        engine.dispose()
        return rows


def _sqlite_copy(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    src.backup(dst)
    dst.close()
    src.close()


def raw_connect(path: Path) -> sqlite3.Connection:
    """sqlite3 with the connection settings tracker uses (WAL, foreign keys, NORMAL sync)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


# ---------------------------------------------------------------------------------------
# Loading the federation


def add_players(backend: Backend, fed: generate.Federation) -> int:
    """The tracked players, through the players service, in one transaction."""
    from tracker.db.engine import transaction
    from tracker.services.players import SeedInput, add_player

    engine = backend.engine()
    with transaction(engine, write=True) as session:
        for p in fed.players:
            if p.external:
                continue
            seed = SeedInput(p.seed_rating, p.seed_games) if p.seed_rating is not None else None
            add_player(
                session,
                name=p.name,
                fide_id=p.fide_id,
                birth_year=p.birth_year,
                federation=p.federation,
                sex=p.sex,
                title=p.title,
                seed=seed,
            )
        session.flush()
    engine.dispose()
    return sum(1 for p in fed.players if not p.external)


def _iso(value: object) -> object:
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool):
        return int(value)
    return value


def _plain(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [tuple(_iso(v) for v in row) for row in rows]


PLAYER_COLS = "id, name, fide_id, federation, birth_year, sex, title, external"
SEED_COLS = "player_id, tc, rating, games, ever_2400, ever_2300"
EVENT_COLS = "id, name, site, start_date, start_fixed"
IMPORT_COLS = (
    "id, file_name, sha256, format, imported_at, games_added, games_present, games_skipped, "
    "games_invalid, byes, players_created"
)
GAME_COLS = (
    "white_id, black_id, result, played_on, tc, event_id, round, white_rating, black_rating, "
    "natural_key, import_id"
)


def _insert(conn: sqlite3.Connection, table: str, cols: str, rows: list[tuple[Any, ...]]) -> None:
    if rows:
        marks = ", ".join("?" for _ in cols.split(","))
        conn.executemany(f"INSERT INTO {table} ({cols}) VALUES ({marks})", rows)


class Floor:
    """The raw sqlite3 floors, on a SQLite copy of the same data."""

    def __init__(self, backend: Backend, workdir: Path, last_player_before: int) -> None:
        self.path = workdir / "floor.db"
        self.snapshot = workdir / "floor-before-import.db"
        for p in (self.path, self.snapshot):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{p}{suffix}").unlink(missing_ok=True)
        from tracker.db.engine import ensure_current, make_engine

        engine = make_engine(f"sqlite:///{self.path}")
        ensure_current(engine)
        engine.dispose()
        q = backend.fetch
        before = last_player_before
        conn = raw_connect(self.path)
        conn.execute("BEGIN")
        players = q(f"SELECT {PLAYER_COLS} FROM players WHERE id <= :n ORDER BY id", n=before)
        _insert(conn, "players", PLAYER_COLS, _plain(players))
        seeds = q(f"SELECT {SEED_COLS} FROM player_seeds ORDER BY player_id, tc")
        _insert(conn, "player_seeds", SEED_COLS, _plain(seeds))
        conn.execute("COMMIT")
        conn.close()
        _sqlite_copy(self.path, self.snapshot)
        # The rows the import wrote, as the floor inserts them.
        self.new_players = _plain(
            q(f"SELECT {PLAYER_COLS} FROM players WHERE id > :n ORDER BY id", n=before)
        )
        self.events = _plain(q(f"SELECT {EVENT_COLS} FROM events ORDER BY id"))
        self.imports = _plain(q(f"SELECT {IMPORT_COLS} FROM imports ORDER BY id"))
        self.games = _plain(q(f"SELECT {GAME_COLS} FROM games ORDER BY id"))

    def import_once(self) -> float:
        _sqlite_copy(self.snapshot, self.path)
        conn = raw_connect(self.path)
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        _insert(conn, "players", PLAYER_COLS, self.new_players)
        _insert(conn, "events", EVENT_COLS, self.events)
        _insert(conn, "imports", IMPORT_COLS, self.imports)
        _insert(conn, "games", GAME_COLS, self.games)
        conn.execute("COMMIT")
        conn.close()  # the last connection checkpoints the WAL, as tracker's exit does
        return time.perf_counter() - start


MONTH_GAMES_SQL = """
SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id,
       coalesce(e.start_date, g.played_on), g.white_rating, g.black_rating,
       w.external, b.external
FROM games g
JOIN players w ON w.id = g.white_id
JOIN players b ON b.id = g.black_id
LEFT OUTER JOIN events e ON e.id = g.event_id
WHERE g.tc = 'standard' AND g.played_on >= ? AND g.played_on < ?
  AND g.result NOT IN ('+-', '-+')
ORDER BY g.played_on, g.id
"""
ELO_COLS = (
    "period_id, player_id, rating_before, rating, k, next_k, games, score_c, expected_c, "
    "change_exact_c, change, rated_games, ever_2400, ever_2300, pool, note"
)
GLICKO_COLS = (
    "player_id, preset, game_id, period_id, as_of, rating, rd, volatility, last_played, games"
)
_WHITE_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


class MonthFloor:
    """Raw read of a month's games + the glicko2 package per tracked side + raw inserts of as
    many history rows as tracker writes (the Elo rows are tracker's own, read back)."""

    def __init__(self, floor: Floor, backend: Backend) -> None:
        self.path = floor.path
        self.backend = backend
        self.players: dict[int, tuple[glicko2.Player, str, int]] = {}

    def elo_rows(self, month: dt.date) -> list[tuple[Any, ...]]:
        rows = self.backend.fetch(
            f"SELECT {ELO_COLS} FROM elo_history h JOIN rating_periods p ON p.id = h.period_id "
            "WHERE p.tc = 'standard' AND p.month = :m ORDER BY h.player_id",
            m=month,
        )
        return _plain(rows)

    def month(self, month: dt.date, elo: list[tuple[Any, ...]]) -> float:
        conn = raw_connect(self.path)
        end = next_month(month)
        month_end = (end - dt.timedelta(days=1)).isoformat()
        players = self.players
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        games = conn.execute(MONTH_GAMES_SQL, (month.isoformat(), end.isoformat())).fetchall()
        per_game: list[tuple[Any, ...]] = []
        for gid, white, black, result, day, _e, _s, w_rec, b_rec, w_ext, b_ext in games:
            score = _WHITE_SCORE[result]
            sides = []
            for pid, ext, rec in ((white, w_ext, w_rec), (black, b_ext, b_rec)):
                if ext:
                    sides.append((None, float(rec or 1500), 60.0))
                    continue
                entry = players.get(pid)
                if entry is None:
                    entry = players[pid] = (glicko2.Player(1500, 500, 0.09), day, 0)
                engine = entry[0]
                sides.append((pid, engine.getRating(), engine.getRd()))
            for (pid, _r, _rd), (_o, opp_r, opp_rd), s in (
                (sides[0], sides[1], score),
                (sides[1], sides[0], 1.0 - score),
            ):
                if pid is None:
                    continue
                engine, _day, n = players[pid]
                engine.update_player([opp_r], [opp_rd], [s])
                players[pid] = (engine, day, n + 1)
                per_game.append(
                    (pid, "lichess", gid, None, day, engine.getRating(), engine.getRd(),
                     engine.vol, day, n + 1)
                )  # fmt: skip
        cur = conn.execute(
            "INSERT INTO rating_periods (tc, month, stale) VALUES ('standard', ?, 0)",
            (month.isoformat(),),
        )
        period = cur.lastrowid
        _insert(conn, "elo_history", ELO_COLS, [(period, *row[1:]) for row in elo])
        rows = [(*r[:3], period, *r[4:]) for r in per_game]
        rows += [
            (pid, "lichess", None, period, month_end, e.getRating(), e.getRd(), e.vol, day, n)
            for pid, (e, day, n) in players.items()
        ]
        _insert(conn, "glicko_history", GLICKO_COLS, rows)
        conn.execute("COMMIT")
        conn.close()  # the last connection checkpoints the WAL, as tracker's exit does
        return time.perf_counter() - start

    def delete_all(self) -> float:
        """Raw delete of every history row and period (what a rerate from the first month
        replaces), committed."""
        conn = raw_connect(self.path)
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "DELETE FROM elo_history WHERE period_id IN "
            "(SELECT id FROM rating_periods WHERE tc = 'standard')"
        )
        conn.execute(
            "DELETE FROM glicko_history WHERE period_id IN "
            "(SELECT id FROM rating_periods WHERE tc = 'standard')"
        )
        conn.execute("DELETE FROM rating_periods WHERE tc = 'standard'")
        conn.execute("COMMIT")
        conn.close()
        return time.perf_counter() - start

    def undo(self, month: dt.date) -> None:
        conn = raw_connect(self.path)
        pid = conn.execute(
            "SELECT id FROM rating_periods WHERE tc = 'standard' AND month = ?",
            (month.isoformat(),),
        ).fetchone()[0]
        conn.execute("DELETE FROM elo_history WHERE period_id = ?", (pid,))
        conn.execute("DELETE FROM glicko_history WHERE period_id = ?", (pid,))
        conn.execute("DELETE FROM rating_periods WHERE id = ?", (pid,))
        conn.close()


# ---------------------------------------------------------------------------------------
# The benchmark


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
        "base": [sys.executable, "-c", "import sqlalchemy.orm, typer"],
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
        print(json.dumps(results, indent=2))
    else:
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
