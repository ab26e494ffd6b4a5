"""The raw sqlite3 floors each tracker figure is measured against, on a SQLite copy of the
same data: the import floor (``Floor``), the month floor (``MonthFloor``: a close, and with
the delete of the history, a rerate) and the start-up floor (``STARTUP_FLOOR``).

The floors use tracker's connection settings (WAL, foreign keys, synchronous NORMAL) and
include closing their connection (the WAL checkpoint), as a tracker process does on exit.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import glicko2
from backends import Backend, sqlite_copy

from tracker.months import next_month

# The start-up floor the history, calc and help figures are compared with: a Python process
# importing SQLAlchemy's ORM and typer.
STARTUP_FLOOR = [sys.executable, "-c", "import sqlalchemy.orm, typer"]


def raw_connect(path: Path) -> sqlite3.Connection:
    """sqlite3 with the connection settings tracker uses (WAL, foreign keys, NORMAL sync)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


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


# ---------------------------------------------------------------------------------------
# The import floor


class Floor:
    """The raw sqlite3 floors, on a SQLite copy of the same data."""

    def __init__(self, backend: Backend, workdir: Path, last_player_before: int) -> None:
        self.path = workdir / "floor.db"
        self.snapshot = workdir / "floor-before-import.db"
        for p in (self.path, self.snapshot):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{p}{suffix}").unlink(missing_ok=True)
        from tracker.db.engine import make_engine
        from tracker.db.schema import ensure_current

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
        sqlite_copy(self.path, self.snapshot)
        # The rows the import wrote, as the floor inserts them.
        self.new_players = _plain(
            q(f"SELECT {PLAYER_COLS} FROM players WHERE id > :n ORDER BY id", n=before)
        )
        self.events = _plain(q(f"SELECT {EVENT_COLS} FROM events ORDER BY id"))
        self.imports = _plain(q(f"SELECT {IMPORT_COLS} FROM imports ORDER BY id"))
        self.games = _plain(q(f"SELECT {GAME_COLS} FROM games ORDER BY id"))

    def import_once(self) -> float:
        sqlite_copy(self.snapshot, self.path)
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


# ---------------------------------------------------------------------------------------
# The month floor (a close; with the delete of the history, a rerate)


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
