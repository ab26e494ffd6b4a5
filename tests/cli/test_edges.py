"""The smaller edges: numbers printed as written by hand, an empty event, a very long unknown
name, CSV cells a spreadsheet would run, PGN's escapes, an in-memory database, a database on
a read-only file system, and ``db check`` of a damaged file."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import Cli, cli_on, fingerprint, js, ok, one_line_error
from tracker.cli.app import app
from tracker.db import driver

runner = CliRunner()


def test_calc_prints_a_score_as_written(cli: Cli) -> None:
    r = ok(runner.invoke(app, ["calc", "elo", "2000", *["1900:1"] * 10, "--k", "20"]))
    assert "score 10 of 10," in r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line.split()[:1] == ["10"]]
    assert rows and rows[0][2] == "1"


@pytest.mark.parametrize("event", ["", "   "])
def test_a_round_needs_an_event(cli: Cli, db_url: str, event: str) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    ok(cli("player", "add", "Sato, Yuki"))
    before = fingerprint(db_url)
    line = one_line_error(
        cli("game", "add-round", event, "--round", "2", input="Hart 1-0 Sato\n"), 1
    )
    assert line == "error: an event needs a name"
    assert fingerprint(db_url) == before


def test_a_long_unknown_name_is_not_echoed_whole(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    for args in (["history", "x" * 10_000], ["event", "show", "y" * 10_000]):
        line = one_line_error(cli(*args), 1)
        assert len(line) < 200 and "... (10000 characters)" in line


FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(1)", "+1+1", "-2+3", "\tTab"]


def test_csv_exports_put_a_quote_before_a_formula_and_read_it_back(
    cli: Cli, other_cli: Cli, tmp_path: Path
) -> None:
    """OWASP's advice: a cell a spreadsheet would run starts with '; tracker's import takes it
    off, so the exports still rebuild the database."""
    for name in FORMULAS[:3]:
        ok(cli("player", "add", name, "--rating", "2000", "--games", "50"))
    ok(cli("game", "add", "id:1", "id:2", "1-0", "--date", "2026-10-01", "--event", "=1+1",
           "--round", "-3"))  # fmt: skip
    ok(cli("game", "add", "id:3", "id:1", "+-", "--date", "2026-10-02", "--event", "=1+1"))
    games = ok(cli("export", "games")).stdout
    players = ok(cli("export", "players")).stdout
    cells = [c for row in csv.reader(io.StringIO(games + players)) for c in row]
    assert not any(c.startswith(("=", "@", "\t")) for c in cells), cells
    assert '\'=HYPERLINK("http://x","y")' in cells and "'@SUM(1)" in cells
    assert "'=1+1" in cells and "+-" in cells  # a forfeit is a result, not a formula
    (tmp_path / "players.csv").write_text(players)
    (tmp_path / "games.csv").write_text(games)
    ok(other_cli("import", str(tmp_path / "players.csv"), str(tmp_path / "games.csv")))
    assert sorted(p["name"] for p in js(other_cli, "player", "list")) == sorted(FORMULAS[:3])
    assert [(g["event"], g["round"], g["result"]) for g in js(other_cli, "game", "list")] == [
        ("=1+1", "-3", "1-0"),
        ("=1+1", None, "+-"),
    ]


PGN = r"""[Event "C:\\Clubs \"Rook\" Open"]
[Site "?"]
[Date "2026.10.03"]
[Round "1"]
[White "O\"Brien, Pat"]
[Black "Back\\slash, Bo"]
[Result "1-0"]
[WhiteElo "2000"]
[BlackElo "1900"]
[TimeControl "5400+30"]

1. e4 e5 1-0
"""


def test_pgn_tag_escapes_are_read_and_written(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "games.pgn").write_text(PGN)
    ok(cli("import", str(tmp_path / "games.pgn"), "--create-players", "external"))
    (game,) = js(cli, "game", "list")
    assert (game["white"], game["black"], game["event"]) == (
        'O"Brien, Pat',
        "Back\\slash, Bo",
        'C:\\Clubs "Rook" Open',
    )
    written = ok(cli("export", "games", "--format", "pgn")).stdout
    assert '[White "O\\"Brien, Pat"]' in written
    assert '[Black "Back\\\\slash, Bo"]' in written
    assert '[Event "C:\\\\Clubs \\"Rook\\" Open"]' in written


@pytest.mark.parametrize("url", ["sqlite:///:memory:", "sqlite://"])
@pytest.mark.parametrize("args", [["player", "add", "Hart"], ["player", "list"], ["db", "upgrade"]])
def test_an_in_memory_database_is_refused(url: str, args: list[str]) -> None:
    line = one_line_error(runner.invoke(app, ["--db", url, *args]), 1)
    assert line == (
        f"error: cannot use database {url!r}: an in-memory database keeps nothing once the "
        "command ends; give a file"
    )


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A folder whose file system is read-only, as tracker sees it (tests cannot mount one):
    a club database (in WAL mode, as tracker leaves it) is put there first."""
    folder = tmp_path / "cdrom"
    folder.mkdir()
    club = cli_on(str(folder / "club.db"))
    ok(club("player", "add", "Hart, Daniel", "--rating", "2000", "--games", "50"))
    real = driver.read_only_file_system
    monkeypatch.setattr(
        driver,
        "read_only_file_system",
        lambda p: (Path(p).exists() and Path(p).is_relative_to(folder)) or real(p),
    )
    return folder


def test_a_database_on_a_read_only_file_system_is_read(read_only: Path) -> None:
    path = read_only / "club.db"
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)
    before = sorted(p.name for p in read_only.iterdir())
    club = cli_on(str(path))
    assert [p["name"] for p in js(club, "player", "list")] == ["Hart, Daniel"]
    ok(club("db", "check"))
    assert json.loads(ok(club("db", "current", "--json")).stdout)["up_to_date"] is True
    line = one_line_error(club("player", "add", "Sato, Yuki"), 1)
    assert line == f"error: cannot write the database {path}: its file system is read-only"
    line = one_line_error(cli_on(str(read_only / "new.db"))("player", "add", "X"), 1)
    assert line == (
        f"error: cannot create the database {read_only / 'new.db'}: its file system is read-only"
    )
    assert set(p.name for p in read_only.iterdir()) <= set(before)  # nothing made there


def test_a_read_only_database_with_changes_in_its_log_is_refused(read_only: Path) -> None:
    path = read_only / "club.db"
    wal = Path(f"{path}-wal")
    wal.write_bytes(b"\0" * 4096)  # what an immutable reader would not see
    line = one_line_error(cli_on(str(path))("player", "list"), 1)
    assert line == (
        f"error: cannot read the database {path}: its file system is read-only and {wal} "
        "holds changes not yet in it; copy both files to a writable folder"
    )


@pytest.mark.backends("sqlite")
def test_db_check_reports_a_damaged_file(cli: Cli, db_url: str) -> None:
    """The other commands may still read such a file; db check says what SQLite found, and
    fails, instead of "cannot open"."""
    for i in range(300):
        ok(cli("player", "add", f"Player {i:03}", "--external"))
    path = Path(db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players'").fetchone()
    with path.open("r+b") as f:  # the players table's first page, overwritten
        f.seek((root[0] - 1) * page)
        f.write(b"\xff" * page)
    r = cli("db", "check")
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("revision ") and lines[1].startswith("integrity check: ")
    assert lines[1] != "integrity check: ok" and "cannot open" not in r.stderr
    assert lines[-1] == "error: the database failed its check (see above)"
