"""The floors each tracker figure is measured against, as the benchmark runs them: whole
processes (``raw/``: the bare driver, no SQLAlchemy, no tracker code; each a typer command,
``raw/command.py``) on a copy of the same database, of the same kind (SQLite, or PostgreSQL
with ``--db``).

- ``import_floor``: ``raw/importer.py``, the full work of a CSV import.
- ``close_floor``: ``raw/close.py``, the full work of closing months (or of a rerate), writing
  exactly the rows tracker wrote for them (:func:`tracker_rows` reads which).
- ``typer_floor``: ``raw/typed.py``, a typer app of one everyday command running the query
  work of ``raw/reads.py`` through the bare driver, printed as text.
- ``TYPER_FLOOR``: ``python -c 'import typer'``, the floor of ``--help`` and ``calc``.
- ``STARTUP_FLOOR`` / :func:`driver_floor`: a Python process importing SQLAlchemy's ORM and
  typer / importing the driver (``sqlite3`` or ``psycopg``) and nothing else.
"""

from __future__ import annotations

import array
import datetime as dt
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from backends import Backend

from tracker.ratings.fide.tables import DP_BY_PERCENT, PD_ROWS

RAW = Path(__file__).resolve().parent / "raw"
STARTUP_FLOOR = [sys.executable, "-c", "import sqlalchemy.orm, typer"]
#: The floor of ``--help`` and ``calc`` (issue 26): typer's own start-up, a whole process.
TYPER_FLOOR = [sys.executable, "-c", "import typer"]


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


def typer_floor(db: Backend, command: str, *args: str) -> list[str]:
    """An everyday command's floor (issue 26): ``raw/typed.py``, a typer app of that one
    command running ``raw/reads.py``'s query work through the bare driver."""
    return [*_floor("typed"), command, *args, "--db", db.target]


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
        "columns": {t: db.columns(t) for t in ("elo_history", "glicko_history", "list_entries")},
    }
    path = workdir / f"floor-{name}.json"
    path.write_text(json.dumps(spec))
    return [*_floor("close"), str(path)]


#: How far a floor's shadow rating, RD or volatility may be from tracker's (issue 26: the
#: floor computes tracker's numbers; today they agree to the last bit).
SHADOW_TOLERANCE = 1e-9

ELO_SQL = (
    "SELECT r.month, h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games, "
    "h.score_c, h.expected_c, h.change_exact_c, h.change, h.rated_games, h.ever_2400, "
    "h.ever_2300, h.pool, h.note FROM elo_history h JOIN rating_periods r ON r.id = h.period_id "
    "WHERE r.tc = 'standard' AND r.month = :m"
)
GLICKO_SQL = (
    "SELECT r.month, h.player_id, coalesce(h.game_id, 0), h.as_of, h.last_played, h.games, "
    "h.rating, h.rd, h.volatility FROM glicko_history h "
    "JOIN rating_periods r ON r.id = h.period_id WHERE r.tc = 'standard' AND r.month = :m"
)

LIST_SQL = (
    "SELECT r.month, e.player_id, e.rank, e.rating, e.change, e.games, e.k, e.rated_games, "
    "e.ever_2400, e.ever_2300 FROM list_entries e JOIN rating_periods r ON r.id = e.period_id "
    "WHERE r.tc = 'standard' AND r.month = :m"
)


def agreement(tracker: Backend, floor: Backend, months: list[dt.date]) -> dict[str, Any]:
    """Whether the floor's rows of ``months`` are tracker's (the floor's work is the same
    work): the share of Elo lines (and stored list entries) equal in every column, and of
    shadow rows equal in their
    dates and game counts with rating, RD and volatility within :data:`SHADOW_TOLERANCE`
    (and the largest difference of the three). A row only one side wrote is a row that
    disagrees. ``agrees``: every row of both sides is equal."""
    elo_rows = elo_floor = elo_same = 0
    g_rows = g_floor = g_same = 0
    largest = 0.0
    for month in months:  # a month at a time: bounded memory on a large federation
        mine = {r[:2]: r[2:] for r in tracker.fetch(ELO_SQL, m=month)}
        theirs = {r[:2]: r[2:] for r in floor.fetch(ELO_SQL, m=month)}
        elo_rows += len(mine.keys() | theirs.keys())
        elo_floor += len(theirs)
        elo_same += sum(1 for key, row in mine.items() if theirs.get(key) == row)
        # the stored list (its entries count with the Elo lines)
        mine = {r[:2]: r[2:] for r in tracker.fetch(LIST_SQL, m=month)}
        theirs = {r[:2]: r[2:] for r in floor.fetch(LIST_SQL, m=month)}
        elo_rows += len(mine.keys() | theirs.keys())
        elo_floor += len(theirs)
        elo_same += sum(1 for key, row in mine.items() if theirs.get(key) == row)
        g_mine = {r[:3]: r[3:] for r in tracker.fetch(GLICKO_SQL, m=month)}
        g_theirs = {r[:3]: r[3:] for r in floor.fetch(GLICKO_SQL, m=month)}
        g_rows += len(g_mine.keys() | g_theirs.keys())
        g_floor += len(g_theirs)
        for key, row in g_mine.items():
            other = g_theirs.get(key)
            if other is None:
                continue
            diff = max(abs(a - b) for a, b in zip(row[3:], other[3:], strict=True))
            largest = max(largest, diff)
            g_same += row[:3] == other[:3] and diff <= SHADOW_TOLERANCE
    rows, same = elo_rows + g_rows, elo_same + g_same
    return {
        "months": len(months),
        "elo_rows": elo_rows,
        "elo_rows_floor": elo_floor,
        "elo_same": elo_same / elo_rows if elo_rows else 1.0,
        "glicko_rows": g_rows,
        "glicko_rows_floor": g_floor,
        "glicko_same": g_same / g_rows if g_rows else 1.0,
        "glicko_max_diff": largest,
        "rows": rows,
        "rows_same": same,
        "same": same / rows if rows else 1.0,
        "agrees": same == rows,
    }


# What the import wrote, by content (the ids may differ, and the natural keys hold ids:
# compared through names).
IMPORT_SQL = {
    "players": "SELECT name, fide_id, external FROM players",
    "events": "SELECT name, name_key, start_date, start_fixed, rated_in FROM events",
    "imports": (
        "SELECT sha256, format, games_added, games_present, games_skipped, games_invalid, "
        "byes, players_created FROM imports"
    ),
    "games": (
        "SELECT g.played_on, w.name, b.name, g.result, g.tc, e.name, g.round, "
        "g.white_rating, g.black_rating FROM games g "
        "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
        "LEFT OUTER JOIN events e ON e.id = g.event_id"
    ),
}


def import_agreement(tracker: Backend, floor: Backend) -> dict[str, Any]:
    """Whether the import floor wrote tracker's rows: the players, events, the import's row
    and the games, compared by content (players and events by name, not id). Per table, the
    rows of either side and how many of them the other side has too."""
    out: dict[str, Any] = {}
    rows = same = 0
    for table, sql in IMPORT_SQL.items():
        # hashes, not rows: a million games stay a few tens of MB
        mine = Counter(hash(_plain(r)) for r in tracker.fetch(sql))
        theirs = Counter(hash(_plain(r)) for r in floor.fetch(sql))
        both = sum((mine & theirs).values())
        total = sum((mine | theirs).values())
        out[f"{table}_rows"] = total
        out[f"{table}_same"] = both / total if total else 1.0
        rows += total
        same += both
    out.update(rows=rows, rows_same=same, same=same / rows if rows else 1.0, agrees=same == rows)
    return out


def _plain(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row with dates as ISO text and booleans as 0/1 (SQLite and PostgreSQL alike)."""
    return tuple(
        v.isoformat() if isinstance(v, dt.date) else int(v) if isinstance(v, bool) else v
        for v in row
    )
