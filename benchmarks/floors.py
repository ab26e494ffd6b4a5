"""The floors each tracker figure is measured against, as the benchmark runs them: whole
processes (``raw/``: the bare driver, no SQLAlchemy, no tracker code) on a copy of the same
database, of the same kind (SQLite, or PostgreSQL with ``--db``).

- ``import_floor``: ``raw/importer.py``, the full work of a CSV import.
- ``close_floor``: ``raw/close.py``, the full work of closing months (or of a rerate), writing
  exactly the rows tracker wrote for them (:func:`tracker_rows` reads which).
- ``read_floor``: ``raw/reads.py``, the query work of an everyday command, printed as text.
- ``STARTUP_FLOOR`` / :func:`driver_floor`: a Python process importing SQLAlchemy's ORM and
  typer / importing the driver (``sqlite3`` or ``psycopg``) and nothing else.
"""

from __future__ import annotations

import array
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from backends import Backend

from tracker.ratings.fide.tables import DP_BY_PERCENT, PD_ROWS

RAW = Path(__file__).resolve().parent / "raw"
STARTUP_FLOOR = [sys.executable, "-c", "import sqlalchemy.orm, typer"]


def _floor(module: str) -> list[str]:
    """A floor's command: ``raw/run.py`` imports the module (from its cached bytecode)."""
    return [sys.executable, str(RAW / "run.py"), module]


def driver_floor(backend: Backend) -> list[str]:
    """A Python process importing the database driver and nothing else."""
    module = "sqlite3" if backend.kind == "sqlite" else "psycopg"
    return [sys.executable, "-c", f"import {module}"]


def import_floor(db: Backend, csv_path: Path) -> list[str]:
    return [*_floor("importer"), db.target, str(csv_path)]


def read_floor(db: Backend, *args: str) -> list[str]:
    return [*_floor("reads"), db.target, *args]


# ---------------------------------------------------------------------------------------
# The rows tracker wrote, for the close floor to write as many


def tracker_rows(backend: Backend, workdir: Path, months: list[dt.date]) -> dict[str, Any]:
    """Which ``elo_history`` and ``glicko_history`` rows tracker wrote for each of ``months``
    (players; players and games, 0 for a month-end row), in the order it wrote them, saved
    as files of ids for ``raw/close.py``. Read after tracker's own close of those months."""
    periods = {
        _month(m): pid
        for m, pid in backend.fetch("SELECT month, id FROM rating_periods WHERE tc = 'standard'")
    }
    out: dict[str, Any] = {}
    for month in months:
        period = periods[month]
        elo = array.array(
            "q",
            (r[0] for r in backend.fetch(
                "SELECT player_id FROM elo_history WHERE period_id = :p ORDER BY id", p=period
            )),
        )  # fmt: skip
        players, games = array.array("q"), array.array("q")
        for player, game in backend.fetch(
            "SELECT player_id, coalesce(game_id, 0) FROM glicko_history WHERE period_id = :p "
            "ORDER BY id",
            p=period,
        ):
            players.append(player)
            games.append(game)
        files: dict[str, Any] = {}
        for kind, data in (("elo", elo), ("glicko_players", players), ("glicko_games", games)):
            path = workdir / f"rows-{month:%Y-%m}.{kind}"
            path.write_bytes(data.tobytes())
            files[kind] = str(path)
        files["counts"] = {"elo": len(elo), "glicko": len(players)}
        out[month.isoformat()] = files
    return out


def _month(value: object) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def close_floor(
    db: Backend,
    workdir: Path,
    months: list[dt.date],
    first_month: dt.date,
    rows: dict[str, Any],
    *,
    rerate: bool = False,
    name: str = "close",
) -> list[str]:
    """The command of the close (or rerate) floor of ``months`` on ``db``."""
    spec = {
        "target": db.target,
        "mode": "rerate" if rerate else "close",
        "tc": "standard",
        "months": [m.isoformat() for m in months],
        "first_month": first_month.isoformat(),
        "pd_rows": [list(r) for r in PD_ROWS],
        "dp": list(DP_BY_PERCENT),
        "rows": {m.isoformat(): rows[m.isoformat()] for m in months},
        # the history tables' columns as they are (the floor fills those it knows)
        "columns": {t: db.columns(t) for t in ("elo_history", "glicko_history")},
    }
    path = workdir / f"floor-{name}.json"
    path.write_text(json.dumps(spec))
    return [*_floor("close"), str(path)]


def agreement(tracker: Backend, floor: Backend, month: dt.date) -> dict[str, Any]:
    """How closely the floor's rows of ``month`` match tracker's (the floor's work is the
    same work): the share of Elo lines equal in every column, and of shadow rows equal in
    their dates and game counts with rating, RD and volatility within 1e-6 (and the largest
    difference of the three)."""
    elo_sql = (
        "SELECT h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games, h.score_c, "
        "h.expected_c, h.change_exact_c, h.change, h.rated_games, h.ever_2400, h.ever_2300, "
        "h.pool, h.note FROM elo_history h JOIN rating_periods r ON r.id = h.period_id "
        "WHERE r.tc = 'standard' AND r.month = :m"
    )
    glicko_sql = (
        "SELECT h.player_id, coalesce(h.game_id, 0), h.as_of, h.last_played, h.games, "
        "h.rating, h.rd, h.volatility FROM glicko_history h "
        "JOIN rating_periods r ON r.id = h.period_id WHERE r.tc = 'standard' AND r.month = :m"
    )
    mine = {r[0]: r[1:] for r in tracker.fetch(elo_sql, m=month)}
    theirs = {r[0]: r[1:] for r in floor.fetch(elo_sql, m=month)}
    same = sum(1 for p, row in mine.items() if theirs.get(p) == row)
    g_mine = {r[:2]: r[2:] for r in tracker.fetch(glicko_sql, m=month)}
    g_theirs = {r[:2]: r[2:] for r in floor.fetch(glicko_sql, m=month)}
    close = 0
    largest = 0.0
    for key, row in g_mine.items():
        other = g_theirs.get(key)
        if other is None:
            continue
        diff = max(abs(a - b) for a, b in zip(row[3:], other[3:], strict=True))
        largest = max(largest, diff)
        close += row[:3] == other[:3] and diff < 1e-6
    return {
        "elo_rows": len(mine),
        "elo_rows_floor": len(theirs),
        "elo_same": same / len(mine) if mine else 1.0,
        "glicko_rows": len(g_mine),
        "glicko_rows_floor": len(g_theirs),
        "glicko_same": close / len(g_mine) if g_mine else 1.0,
        "glicko_max_diff": largest,
    }
