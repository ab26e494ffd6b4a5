"""Big files: an import reads a file a block at a time, keeps its games as compact columns and
writes them a chunk at a time, yet stays all or nothing, and the size of the blocks, chunks
and lookups changes nothing of what it writes or says."""

from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from tests.helpers import Cli, cli_on, fingerprint, js, ok, summary
from tracker.db import driver
from tracker.db.queries import imports as import_queries
from tracker.services.imports import report as import_report
from tracker.services.imports import write as import_write
from tracker.services.intake import checks as import_checks
from tracker.services.intake import present as import_present

FILES = Path(__file__).parents[1] / "importers" / "data"
HEADER = (
    "date,white,black,result,event,round,white_rating,black_rating,white_fide_id,black_fide_id,tc\n"
)


def season(games: int, *, players: int = 60, seed: int = 7, flip: float = 0.0) -> str:
    """A CSV of club games with a bit of everything: players with a recorded rating
    (created external), with only a FIDE id (tracked) or with neither (refused); events
    and rounds; game nights without an event where two players meet twice (a shared key);
    unfinished games, bad dates and over-long rounds. ``flip`` changes that share of the
    results (the same games, contradicted)."""
    rng = random.Random(seed)
    rows = [HEADER]
    start = dt.date(2025, 9, 6)
    for n in range(games):
        w, b = rng.sample(range(players), 2)
        week = n * 60 // games  # over 60 weeks
        day = start + dt.timedelta(days=7 * week + n % 3)
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-"])
        if rng.random() < flip:
            result = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0", "+-": "-+"}[result]
        kind = n % 10
        event, round_ = (
            (f"Club night {day:%Y-%m-%d}", "")
            if kind == 0
            else (
                f"Autumn Open {day:%Y-%m}-{n // 200}",
                str(n % 7 + 1),
            )
        )
        if kind == 1 and n % 20 == 1:  # the same two players twice a week: a shared key
            event, round_, w, b = "", "", 3, 4
            day = start + dt.timedelta(days=7 * week)
        if n % 97 == 5:
            result = "*"
        date = day.isoformat()
        if n % 331 == 7:  # a bad date (a test may mend it: a game of no event, then)
            date, event, round_ = "2025-13-01", "", ""
        if n % 409 == 11:
            round_ = "a round far too long to keep"
        cells = [date, _name(w), _name(b), result, event, round_]
        cells += [_rating(w), _rating(b), _fide(w), _fide(b), "standard"]
        rows.append(",".join(cells) + "\n")
    return "".join(rows)


def _name(n: int) -> str:
    return f"Player {n:03d}"


def _rating(n: int) -> str:
    return str(1400 + 13 * n % 1000) if n % 2 == 0 else ""


def _fide(n: int) -> str:
    return str(4_100_000 + n) if n % 10 in (1, 3, 5, 7) else ""  # n % 10 == 9: neither


def dump(url: str) -> dict[str, list[str]]:
    """Every row of every table but the times (of creation, of import)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            inspector = inspect(conn)
            out = {}
            for table in sorted(inspector.get_table_names()):
                columns = [
                    c["name"]
                    for c in inspector.get_columns(table)
                    if c["name"] not in ("created_at", "imported_at")
                ]
                listed = ", ".join(f'"{c}"' for c in columns)
                rows = conn.execute(text(f'SELECT {listed} FROM "{table}"')).all()
                out[table] = sorted(map(repr, rows))
            return out
    finally:
        engine.dispose()


def tour(cli: Cli, folder: Path) -> list[tuple[int, str, str]]:
    """A season's imports: a file, a second one overlapping it (some results contradicted),
    the first again (a dry run: all present), PGN game nights (shared keys, a repeat)."""
    a, b = folder / "a.csv", folder / "b.csv"
    commands = [
        ("import", str(a), "--skip-invalid"),
        ("import", str(b), "--skip-invalid", "--json"),
        ("import", str(a), "--skip-invalid", "--dry-run"),
        # b rejected, the other held back: nothing written, every problem reported (the
        # league declared, its rounds a month and more apart)
        ("event", "add", "County League 2026", "--start", "2026-03-07", "--type", "league"),
        ("import", str(FILES / "league_archive.pgn"), str(b), "--tc", "standard"),
        (
            "import",
            str(FILES / "blitz_night.pgn"),
            str(FILES / "club.pgn"),
            "--tc",
            "rapid",
            "--create-players",
            "external",
            "--skip-invalid",
        ),
    ]
    out = []
    for args in commands:
        r = cli(*args)
        out.append((r.exit_code, _untimed(r.stdout), _untimed(r.stderr)))
    return out


def _untimed(text: str) -> str:
    """The text without the times of earlier imports (``imported before as #1 on 2026-12-05
    23:27``): the second tour runs later, perhaps in another minute."""
    return re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d)?", "TIME", text)


def test_tiny_blocks_chunks_and_lookups_write_and_report_exactly_the_same(
    db_url: str, other_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.csv").write_text(season(1500))
    (tmp_path / "b.csv").write_text(
        HEADER + season(1500, flip=0.02).split("\n", 1)[1] + season(400, seed=8).split("\n", 1)[1]
    )
    usual = tour(cli_on(db_url), tmp_path)
    assert [code for code, *_ in usual] == [0, 0, 0, 0, 1, 0]
    assert "held back" in usual[4][2]
    report = summary_of(usual[1][1])
    assert report["added"] > 300 and report["already_present"] > 1000
    assert any("already recorded as game" in p for p in report["files"][0]["problems"])
    assert "share their date, players, event and round" in usual[0][2]

    monkeypatch.setattr(import_report, "BLOCK", 61)  # bytes read at a time
    monkeypatch.setattr(import_write, "CHUNK", 7)  # games per INSERT
    monkeypatch.setattr(import_present, "PRESENT_CHUNK", 5)  # keys per round of lookups
    monkeypatch.setattr(driver, "IN_CHUNK", 3)  # values per IN (...)
    monkeypatch.setattr(import_checks, "_bitmap_size", lambda count: 8)  # every key "shared"
    tiny = tour(cli_on(other_db_url), tmp_path)
    assert tiny == usual
    assert dump(other_db_url) == dump(db_url)


def summary_of(stdout: str) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads(stdout)
    return data


def test_a_problem_on_the_last_line_of_a_big_file_writes_nothing(
    cli: Cli, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_write, "CHUNK", 100)
    path = tmp_path / "big.csv"
    rows = season(3000, seed=3).replace("2025-13-01", "2025-12-01").replace("*", "1-0")
    rows = rows.replace("a round far too long to keep", "9")
    path.write_text(rows + "2026-01-10,Player 003,Player 006,2-0,,,1439,1478,,,standard\n")
    before = fingerprint(db_url)
    r = cli("import", str(path), "--create-players", "external")
    assert r.exit_code == 1
    lines = [line for line in r.stderr.splitlines() if not line.startswith("  warning: ")]
    assert lines[0].startswith(f"{path}:3002: invalid result '2-0'")
    assert lines[1] == (
        f"{path}: rejected (csv), nothing written: 1 invalid, 1 problem; --skip-invalid would "
        "import its 3000 valid new games"
    )
    assert fingerprint(db_url) == before
    f = summary(
        ok(cli("import", str(path), "--create-players", "external", "--skip-invalid", "--json"))
    )["files"][0]
    assert (f["added"], f["invalid"], f["already_present"]) == (3000, 1, 0)


def test_a_failure_after_some_chunks_were_written_leaves_the_database_unchanged(
    cli: Cli, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_write, "CHUNK", 100)
    path = tmp_path / "big.csv"
    path.write_text(season(2000, seed=5))
    real_insert = import_queries.insert_games
    calls = {"games": 0}

    def failing_insert(db: Any, games: Any) -> None:
        calls["games"] += 1
        if calls["games"] == 12:  # 1,100 games written in this transaction
            raise sqlite3.OperationalError("disk I/O error")
        real_insert(db, games)

    monkeypatch.setattr(import_queries, "insert_games", failing_insert)
    before = fingerprint(db_url)
    r = cli("import", str(path), "--skip-invalid")
    assert calls["games"] == 12
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == ["error: database error: disk I/O error"]
    assert fingerprint(db_url) == before
    monkeypatch.setattr(import_queries, "insert_games", real_insert)
    f = summary(ok(cli("import", str(path), "--skip-invalid", "--json")))["files"][0]
    assert f["added"] > 1500


def test_a_person_written_several_ways_takes_the_first_title_in_the_file(
    cli: Cli, tmp_path: Path
) -> None:
    """Ann is written without her FIDE id in the first game and with it in the second: one
    person. Her title is the first the file gives (IM, in the second game), not the one of
    the way of writing her met first (WGM, in the third game)."""

    def game(day: int, white: str, extra: str) -> str:
        return (
            f'[Event "Club"]\n[Date "2026.03.{day:02d}"]\n[White "{white}"]\n'
            f'[Black "Bob {day}"]\n[Result "1-0"]\n[BlackElo "1500"]\n{extra}\n1. e4 e5 1-0\n\n'
        )

    path = tmp_path / "ann.pgn"
    path.write_text(
        game(1, "Ann", "")
        + game(2, "Ann", '[WhiteFideId "4100123"]\n[WhiteTitle "IM"]')
        + game(3, "Ann", '[WhiteTitle "WGM"]')
    )
    f = summary(ok(cli("import", str(path), "--tc", "standard", "--json")))["files"][0]
    assert (f["added"], f["problems"]) == (3, [])
    players = {p["name"]: p for p in js(cli, "player", "list")}
    assert (players["Ann"]["fide_id"], players["Ann"]["title"]) == (4100123, "IM")
    assert [p["external"] for name, p in sorted(players.items())] == [False, True, True, True]
