"""Build a season through the ``tracker`` command and dump every table, to show that a change
of the code left the numbers byte for byte as they were.

    python benchmarks/dump.py OUT_DIR [--db URL] [--players N] [--games N] [--months N]

Builds a deterministic federation (benchmarks/generate.py) in a fresh database: the tracked
players from a players CSV, the games from a CSV, every month closed, a correction and its
rerate, the shadow on a second preset and a month closed again; also the demo's database.
Writes ``OUT_DIR/<database>/<table>.txt`` (every row, sorted, one per line) and prints one
SHA-256 per table (the time a row was written left out): run it before and after a change
and compare the two folders (``diff -r``).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from backends import Backend
from processes import TRACKER

#: Columns left out of the dump: the moment a row was written, which no rerun reproduces.
_WALL_CLOCK = {"created_at", "imported_at", "closed_at"}


def tracker(url: str, *args: str) -> str:
    done = subprocess.run(
        [TRACKER, "--db", url, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"tracker {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def players_csv(fed: generate.Federation, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(
            [
                "name",
                "fide_id",
                "federation",
                "birth_year",
                "sex",
                "title",
                "kind",
                "standard_rating",
                "standard_games",
            ]
        )
        for p in fed.players:
            if p.external:
                continue
            writer.writerow(
                [
                    p.name,
                    p.fide_id or "",
                    p.federation,
                    p.birth_year,
                    p.sex,
                    p.title or "",
                    "tracked",
                    p.seed_rating or "",
                    p.seed_games if p.seed_rating else "",
                ]
            )


def season(url: str, work: Path, config: generate.Config) -> None:
    fed = generate.generate(config)
    games = work / "games.csv"
    players = work / "players.csv"
    generate.write_csv(fed, games)
    players_csv(fed, players)
    months = fed.month_list()
    tracker(url, "import", str(players))
    tracker(url, "import", str(games), "--create-players", "external")
    tracker(url, "shadow", "set", "--preset", "glickman")
    tracker(url, "period", "close", months[-2].strftime("%Y-%m"))
    # a correction in the third month, and the rerate it asks for
    listing = tracker(url, "game", "list", "--month", months[2].strftime("%Y-%m"), "--json")
    game = _first_game(listing)
    tracker(url, "game", "edit", str(game), "--result", "1/2-1/2")
    tracker(url, "rerate")
    tracker(url, "period", "close", months[-1].strftime("%Y-%m"))


def _first_game(listing: str) -> int:
    import json

    rows = json.loads(listing)
    rows = rows["games"] if isinstance(rows, dict) else rows
    return int(rows[0]["id"])


def dump(url: str, out: Path, work: Path) -> dict[str, str]:
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(url)
    digests = {}
    out.mkdir(parents=True, exist_ok=True)
    with engine.connect() as conn:
        for table in sorted(inspect(conn).get_table_names()):
            columns = [
                c["name"] for c in inspect(conn).get_columns(table) if c["name"] not in _WALL_CLOCK
            ]
            quoted = ", ".join(f'"{c}"' for c in columns)
            rows = conn.execute(text(f'SELECT {quoted} FROM "{table}"')).all()
            lines = sorted(
                "\t".join(_text(v).replace(str(work), "<work>") for v in row) for row in rows
            )
            body = "\t".join(columns) + "\n" + "".join(line + "\n" for line in lines)
            (out / f"{table}.txt").write_text(body, encoding="utf-8")
            digests[table] = hashlib.sha256(body.encode()).hexdigest()
    engine.dispose()
    return digests


def _text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--db", help="a PostgreSQL URL (default: SQLite files in OUT)")
    parser.add_argument("--players", type=int, default=1_500)
    parser.add_argument("--games", type=int, default=16_000)
    parser.add_argument("--months", type=int, default=8)
    args = parser.parse_args(argv)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    work = Path(tempfile.mkdtemp(prefix="tracker-dump-"))  # dumped as <work>
    config = generate.Config(players=args.players, games=args.games, months=args.months)
    backend = Backend(args.db, work)
    backend.create()
    season(backend.url, work, config)
    digests = {"season": dump(backend.url, out / "season", work)}
    demo = work / "demo.db"
    subprocess.run([TRACKER, "demo", "--file", str(demo)], capture_output=True, check=True)
    digests["demo"] = dump(f"sqlite:///{demo}", out / "demo", work)
    backend.drop()
    shutil.rmtree(work)
    for database, tables in digests.items():
        for table, digest in tables.items():
            print(f"{database:<8} {table:<22} {digest[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
