"""A write that commits nothing creates nothing: a failed command, a dry run or a command with
nothing to do leaves no database (nor folder) at a mistyped --db path, so that later reads say
"no database" instead of "no players yet". A path with characters a URL reads as its own
(``@``, ``%``, ``#``, ``?``) names that file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import ok, one_line_error
from tracker.cli.app import app

runner = CliRunner()

PGN = """[Event "Autumn Cup"]
[Date "2026.09.05"]
[White "Hart, Daniel"]
[Black "Berg, Ola"]
[Result "1-0"]
[WhiteElo "2310"]
[BlackElo "2150"]
[TimeControl "5400+30"]

1. e4 e5 1-0
"""

#: Commands that write but commit nothing here: each fails, is a dry run, or has nothing to do.
NOTHING_COMMITTED = [
    ("game", "remove", "5"),
    ("period", "close"),
    ("player", "edit", "Foo", "--born", "1990"),
    ("game", "add", "Hart", "Berg", "1-0"),
    ("import", "{pgn}", "--dry-run"),
    ("import", "{junk}"),
    ("import", "{pgn}", "--create-players", "no"),
    ("rerate",),
]


@pytest.mark.parametrize("args", NOTHING_COMMITTED, ids=lambda a: " ".join(a))
def test_a_write_that_commits_nothing_leaves_no_database(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    pgn = tmp_path / "autumn.pgn"
    pgn.write_text(PGN)
    junk = tmp_path / "junk.pgn"
    junk.write_text("nothing to see here\n")
    path = tmp_path / "typo" / "deeper" / "club.db"
    filled = [a.format(pgn=pgn, junk=junk) for a in args]
    runner.invoke(app, ["--db", str(path), *filled])
    assert not (tmp_path / "typo").exists()
    line = one_line_error(runner.invoke(app, ["--db", str(path), "player", "list"]), 1)
    assert line.startswith(f"error: no database at {path} ")


def test_a_write_that_commits_keeps_the_database_and_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "club.db"
    ok(runner.invoke(app, ["--db", str(path), "player", "add", "Hart, Daniel"]))
    assert path.is_file()
    assert sorted(p.name for p in path.parent.iterdir()) == ["club.db"]  # no WAL left


def test_a_failed_write_on_an_existing_database_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    ok(runner.invoke(app, ["--db", str(path), "player", "add", "Hart, Daniel"]))
    one_line_error(runner.invoke(app, ["--db", str(path), "game", "remove", "5"]), 1)
    assert "Hart, Daniel" in ok(runner.invoke(app, ["--db", str(path), "player", "list"])).stdout


@pytest.mark.parametrize("name", ["a@b.db", "50%.db", "club#1.db", "what?.db", "a%41%2541.db"])
def test_a_path_with_url_characters_names_that_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    ok(runner.invoke(app, ["--db", str(path), "player", "add", "Hart, Daniel"]))
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    ok(runner.invoke(app, ["--db", str(path), "player", "add", "Berg, Ola"]))
    out = ok(runner.invoke(app, ["--db", str(path), "player", "list"])).stdout
    assert "Hart, Daniel" in out and "Berg, Ola" in out
    one_line_error(runner.invoke(app, ["--db", str(tmp_path / f"x{name}"), "player", "list"]), 1)


def test_a_new_database_is_built_apart_and_published_only_with_something_in_it(
    tmp_path: Path,
) -> None:
    """Two commands on one new path: each builds in a file of its own; the one that commits
    nothing leaves nothing (it never deletes the other's work), the one that commits
    publishes; a second that commits too is told, and its database is not written over."""
    from tracker.cli.context import AppState, close_all
    from tracker.services.players.roster import add_player

    path = tmp_path / "club.db"
    dry, real = AppState(db_option=str(path)), AppState(db_option=str(path))
    real.write(lambda db: add_player(db, name="Hart, Daniel"))
    dry.write(lambda db: None)
    assert not path.exists()  # both still building
    assert close_all() is None
    assert [p.name for p in tmp_path.iterdir()] == ["club.db"]
    out = ok(runner.invoke(app, ["--db", str(path), "player", "list"])).stdout
    assert "Hart, Daniel" in out

    other = tmp_path / "other.db"
    first, second = AppState(db_option=str(other)), AppState(db_option=str(other))
    first.write(lambda db: add_player(db, name="Berg, Ola"))
    second.write(lambda db: add_player(db, name="Lund, Eva"))
    failure = close_all()
    assert failure == (
        f"another command created {other} meanwhile: nothing of this one was kept; run it again"
    )
    kept = ok(runner.invoke(app, ["--db", str(other), "player", "list"])).stdout
    assert ("Berg, Ola" in kept) != ("Lund, Eva" in kept)  # one of them, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db", "other.db"]


def test_db_upgrade_creates_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "new" / "club.db"
    r = ok(runner.invoke(app, ["--db", str(path), "db", "upgrade"]))
    assert "upgraded the database from revision empty to" in r.stderr
    assert path.is_file()
    ok(runner.invoke(app, ["--db", str(path), "db", "current"]))


@pytest.mark.parametrize("args", [("db", "upgrade"), ("player", "add", "Hart, Daniel")])
def test_a_new_database_whose_command_fails_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """A full disk in the middle of creating a database: its command fails, and nothing of
    the new file is left behind (``db upgrade`` keeps a new database only if it succeeds)."""
    from tracker.db import driver, migrate
    from tracker.errors import DatabaseError

    real = migrate.upgrade

    def full_disk(*a: object, **k: object) -> None:
        real(*a, **k)  # type: ignore[arg-type]
        raise DatabaseError("cannot open the database: database or disk is full")

    monkeypatch.setattr(migrate, "upgrade", full_disk)
    # the engine creates it
    monkeypatch.setattr(driver, "open_transaction", lambda url, write: None)
    path = tmp_path / "new" / "club.db"
    line = one_line_error(runner.invoke(app, ["--db", str(path), *args]), 1)
    assert line == "error: cannot open the database: database or disk is full"
    assert list(tmp_path.iterdir()) == []


#: Every kind of command, on a SQLite file that is not tracker's.
ON_ANOTHER_FILE = [
    ("status",),
    ("player", "list"),
    ("player", "add", "Hart, Daniel"),
    ("list", "--live"),
    ("db", "current"),
    ("db", "check"),
    ("db", "upgrade"),
    ("export", "games"),
]


@pytest.mark.parametrize("args", ON_ANOTHER_FILE, ids=lambda a: " ".join(a))
def test_a_sqlite_file_that_is_not_tracker_is_refused_unchanged(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Refused before anything changes: not even the journal mode in its header (bytes 18-19,
    which WAL would set)."""
    import sqlite3

    path = tmp_path / "notes.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    line = one_line_error(runner.invoke(app, ["--db", str(path), *args]), 1)
    assert "no tracker schema version; is it a tracker database?" in line
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]
