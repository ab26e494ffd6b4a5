"""Shared by the robustness tests: more databases, a digest of what a database holds, a club's
worth of data, and real ``tracker`` processes.
"""

from __future__ import annotations

import csv
import os
import random
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from typer.testing import Result

from tests.helpers import Postgres
from tracker.db.engine import sqlite_file
from tracker.db.location import sqlite_url

WORKER = Path(__file__).with_name("worker.py")

#: ``run(URL, ARGS..., input=None)``: ``tracker --db URL ARGS...`` in-process (the ``run`` fixture).
Run = Callable[..., Result]


# ----------------------------------------------------------------------------- databases


@dataclass
class Databases:
    """More databases on the test's backend: empty ones and copies. Dropped at the end."""

    backend: str
    folder: Path
    postgres: Postgres | None
    made: list[str] = field(default_factory=list)

    def _path(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder / f"{uuid.uuid4().hex[:8]}.db"

    def empty(self) -> str:
        if self.backend == "sqlite":
            return sqlite_url(self._path())
        assert self.postgres is not None
        url = self.postgres.create(migrated=False)
        self.made.append(url)
        return url

    def copy(self, url: str) -> str:
        """A copy of ``url``, which no one may be connected to (PostgreSQL's TEMPLATE)."""
        source = sqlite_file(url)
        if source is not None:
            target = self._path()
            with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
                src.backup(dst)
            return sqlite_url(target)
        assert self.postgres is not None
        copy = self.postgres.copy(_database_name(url))
        self.made.append(copy)
        return copy

    def drop(self, url: str) -> None:
        path = sqlite_file(url)
        if path is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            return
        assert self.postgres is not None
        self.postgres.drop(url)
        self.made.remove(url)

    def drop_all(self) -> None:
        assert self.postgres is not None or not self.made
        while self.made:
            self.drop(self.made[-1])


def _database_name(url: str) -> str:
    name = make_url(url).database
    assert name
    return name


# What a database holds, row by row, without surrogate keys: PostgreSQL's sequences move on
# in a transaction that is rolled back, and a rerate renumbers its rows. Rows refer to
# players, events, imports and games by what identifies them (names are unique in these tests).
_GAME = "w.name, b.name, g.played_on, e.name, g.round"
DIGEST = {
    "players": "SELECT name, fide_id, federation, birth_year, sex, title, external, lichess, "
    "chesscom FROM players",
    "player_seeds": "SELECT p.name, s.tc, s.rating, s.games, s.ever_2400, s.ever_2300 "
    "FROM player_seeds s JOIN players p ON p.id = s.player_id",
    "events": "SELECT name, site, start_date, start_fixed, rated_in, end_date, rounds, kind, "
    "tc, declared FROM events",
    "byes": "SELECT e.name, p.name, y.round, y.played_on, y.tc, y.code, i.sha256 FROM byes y "
    "JOIN events e ON e.id = y.event_id JOIN players p ON p.id = y.player_id "
    "LEFT JOIN imports i ON i.id = y.import_id",
    "official_ratings": "SELECT p.name, o.tc, o.list_date, o.rating FROM official_ratings o "
    "JOIN players p ON p.id = o.player_id",
    "event_ratings": "SELECT e.name, p.name, r.rating FROM event_ratings r "
    "JOIN events e ON e.id = r.event_id JOIN players p ON p.id = r.player_id",
    "imports": "SELECT file_name, sha256, format, games_added, games_present, games_skipped, "
    "games_invalid, byes, players_created FROM imports",
    "games": "SELECT "
    + _GAME
    + ", g.result, g.tc, g.white_rating, g.black_rating, i.sha256 FROM games g "
    "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
    "LEFT JOIN events e ON e.id = g.event_id LEFT JOIN imports i ON i.id = g.import_id",
    "rating_periods": "SELECT tc, month, stale FROM rating_periods",
    "elo_history": "SELECT p.tc, p.month, pl.name, h.rating_before, h.rating, h.k, h.next_k, "
    "h.games, h.score_c, h.expected_c, h.change_exact_c, h.change, h.rated_games, "
    "h.ever_2400, h.ever_2300, h.pool, h.note FROM elo_history h "
    "JOIN rating_periods p ON p.id = h.period_id JOIN players pl ON pl.id = h.player_id",
    "list_entries": "SELECT p.tc, p.month, pl.name, e.rank, e.rating, e.change, e.games, e.k, "
    "e.rated_games, e.ever_2400, e.ever_2300 FROM list_entries e "
    "JOIN rating_periods p ON p.id = e.period_id JOIN players pl ON pl.id = e.player_id",
    "glicko_history": "SELECT pl.name, h.preset, "
    + _GAME
    + ", p.tc, p.month, h.as_of, h.rating, h.rd, h.volatility, h.last_played, h.games "
    "FROM glicko_history h JOIN players pl ON pl.id = h.player_id "
    "LEFT JOIN games g ON g.id = h.game_id LEFT JOIN players w ON w.id = g.white_id "
    "LEFT JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id "
    "LEFT JOIN rating_periods p ON p.id = h.period_id",
    "shadow_settings": "SELECT preset, seed, external_rd, chesscom_start, chesscom_c, "
    "chesscom_rd_min, chesscom_rd_max, seed_rd FROM shadow_settings",
    "online_ratings": "SELECT p.name, o.platform, o.perf, o.day, o.rating FROM online_ratings o "
    "JOIN players p ON p.id = o.player_id",
    "site_config": "SELECT title, about, url, logo, logo_type FROM site_config",
}

#: What happened, not what is: the change log (and the removed games kept with it) differs
#: between two ways to the same state (a crash and a retry, an upgrade and a fresh start).
HISTORY_TABLES = {"change_log", "removed_games"}

Digest = dict[str, list[str]]


def digest(url: str) -> Digest:
    """Every row of every table (as sorted reprs), the way the two states are compared."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names()) - {"alembic_version", *HISTORY_TABLES}
            assert tables == set(DIGEST), f"new tables to digest: {tables ^ set(DIGEST)}"
            return {
                table: sorted(repr(tuple(row)) for row in conn.execute(text(sql)))
                for table, sql in DIGEST.items()
            }
    finally:
        engine.dispose()


def differences(state: Digest, reference: Digest) -> str:
    """Which tables differ, by how many rows (for assertion messages)."""
    parts = []
    for table in DIGEST:
        ours, theirs = set(state[table]), set(reference[table])
        if ours != theirs:
            parts.append(f"{table}: {len(ours - theirs)} extra, {len(theirs - ours)} missing")
    return "; ".join(parts) or "none"


def wait_server_side_gone(url: str, timeout: float = 60) -> None:
    """After killing a client of PostgreSQL, wait until the server has ended its session.

    The server notices a dead client only when it next talks to it: a COMMIT the client sent
    just before the kill may still be completing, and reading the database before it ends
    would catch it half way between the states the test tells apart. (SQLite has no server.)
    """
    if sqlite_file(url) is not None:
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            deadline = time.monotonic() + timeout
            while True:
                others = conn.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                ).scalar_one()
                conn.rollback()
                if others == 0:
                    return
                assert time.monotonic() < deadline, "the killed client's session did not end"
                time.sleep(0.01)
    finally:
        engine.dispose()


def check_sqlite_integrity(url: str) -> None:
    """``PRAGMA integrity_check`` is ok and no foreign key dangles (SQLite only)."""
    path = sqlite_file(url)
    if path is None:
        return
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


# ----------------------------------------------------------------------------- a club


def member(i: int) -> str:
    return f"Member {i:02d}, Club"


def club_players(count: int) -> list[tuple[str, ...]]:
    """``player add`` arguments: seeded players of every kind, a few unrated, externals."""
    rng = random.Random(count)
    players: list[tuple[str, ...]] = []
    for i in range(count):
        args: tuple[str, ...] = (member(i),)
        if i % 7 == 6:
            args += ("--born", "2012")  # an unrated junior: earns a first rating
        else:
            rating = 1450 + (i * 997) % 1050
            args += ("--rating", str(rating), "--games", str(rng.choice([12, 28, 60, 300])))
            if i % 5 == 0:
                args += ("--born", "2011")  # a rated junior (K 40)
            if i % 11 == 3:
                args += ("--ever-2400",)
        players.append(args)
    players += [(f"Visitor {i}, Guest", "--external") for i in range(3)]
    return players


def write_games_csv(
    path: Path,
    *,
    months: list[str],
    count: int,
    members: int,
    seed: int,
    new: int = 0,
    events: str = "",
) -> Path:
    """``count`` games between club members (and ``new`` newcomers with a rating) over
    ``months``, with events (their names start with ``events``: an event is played at one
    time control), rounds, draws, forfeits and games against visitors."""
    rng = random.Random(seed)
    newcomers = [f"Newcomer {seed}-{i}, Club" for i in range(new)]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(
            ["date", "white", "black", "result", "event", "round", "white_rating", "black_rating"]
        )
        for i in range(count):
            month = months[i % len(months)]
            day = 1 + (i // len(months)) % 28
            white, black = (member(n) for n in rng.sample(range(members), 2))
            white_rating = black_rating = ""
            if newcomers and i % 9 == 0:
                white, white_rating = newcomers[i % len(newcomers)], str(1500 + 37 * (i % 13))
            elif i % 10 == 5:
                black, black_rating = f"Visitor {i % 3}, Guest", str(1600 + 50 * (i % 11))
            result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "1/2-1/2", "+-"])
            event = f"{events}Club Championship {month}" if i % 3 else f"{events}Rapidplay {month}"
            date = f"{month}-{day:02d}"
            out.writerow([date, white, black, result, event, i, white_rating, black_rating])
    return path


# ----------------------------------------------------------------------------- processes


def tracker_process(url: str, *args: str, logs: Path, name: str) -> subprocess.Popen[bytes]:
    """``python -m tracker --db URL ARGS...``, output to ``logs/name.out`` and ``.err``."""
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / f"{name}.out").open("wb") as out, (logs / f"{name}.err").open("wb") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "tracker", "--db", url, *args],
            stdout=out,
            stderr=err,
            cwd=logs,
        )


def worker_process(*args: str, logs: Path, name: str) -> subprocess.Popen[bytes]:
    """``python worker.py ARGS...`` (see worker.py), output to ``logs/name.out`` / ``.err``."""
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / f"{name}.out").open("wb") as out, (logs / f"{name}.err").open("wb") as err:
        return subprocess.Popen(
            [sys.executable, str(WORKER), *args], stdout=out, stderr=err, cwd=logs
        )


def output(logs: Path, name: str) -> tuple[str, str]:
    return (
        (logs / f"{name}.out").read_text(encoding="utf-8", errors="replace"),
        (logs / f"{name}.err").read_text(encoding="utf-8", errors="replace"),
    )


def wait_connected(proc: subprocess.Popen[bytes], url: str, timeout: float = 60) -> float | None:
    """Wait until the process has the database open (the SQLite file, or a socket to the
    PostgreSQL server), polling /proc; the moment (time.monotonic()), or None if it ended
    first."""
    path = sqlite_file(url)
    wanted = str(path.resolve()) if path is not None else None
    fds = Path(f"/proc/{proc.pid}/fd")
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            names = os.listdir(fds)
        except OSError:
            names = []
        for fd in names:
            try:
                target = os.readlink(fds / fd)
            except OSError:
                continue
            if (target == wanted) if wanted is not None else target.startswith("socket:"):
                return time.monotonic()
        time.sleep(0.0005)
    return None
