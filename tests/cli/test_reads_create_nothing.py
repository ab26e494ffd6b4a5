"""A command that only reads never creates a database: a typo in --db or $TRACKER_DB says
"no database at PATH"; the first write creates it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect
from typer.testing import CliRunner

from tests.helpers import cli_on, ok, one_line_error
from tracker.cli.app import app
from tracker.db.engine import sqlite_file

runner = CliRunner()

READS = [
    ("player", "list"),
    ("player", "show", "Hart"),
    ("game", "list"),
    ("history", "Hart"),
    ("list",),
    ("list", "--live"),
    ("compare", "--all"),
    ("evaluate",),
    ("period", "list"),
    ("shadow", "show"),
    ("import", "list"),
    ("export", "games"),
    ("status",),
    ("event", "list"),
    ("event", "show", "Autumn Open"),
]

HINT = "check --db or $TRACKER_DB; a command that writes, such as `tracker player add`, creates one"


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_a_read_on_a_missing_file_creates_nothing(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "typo" / "club.db"
    line = one_line_error(runner.invoke(app, ["--db", str(path), *args]), 1)
    assert line == f"error: no database at {path} ({HINT})"
    assert not path.parent.exists()


def test_a_typo_in_tracker_db_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "clbu.db"
    monkeypatch.setenv("TRACKER_DB", str(path))
    line = one_line_error(runner.invoke(app, ["history", "Hart"]), 1)
    assert line == f"error: no database at {path} ({HINT})"
    assert not path.exists()
    # the default file is not created either
    line = one_line_error(runner.invoke(app, ["--db", str(tmp_path / "x.db"), "list"]), 1)
    assert not (tmp_path / "x.db").exists()


def test_an_empty_db_option_is_a_usage_error(tmp_path: Path) -> None:
    for value in ("", "  "):
        line = one_line_error(runner.invoke(app, ["--db", value, "player", "list"]), 2)
        assert line == "error: --db needs a database: a SQLite file path or a URL"
        line = one_line_error(runner.invoke(app, ["--db", value, "player", "add", "A"]), 2)


def test_a_write_creates_the_database(tmp_path: Path) -> None:
    path = tmp_path / "new" / "club.db"
    ok(runner.invoke(app, ["--db", str(path), "player", "add", "Hart, Daniel"]))
    assert path.exists()
    out = ok(runner.invoke(app, ["--db", str(path), "player", "list"])).stdout
    assert "Hart, Daniel" in out


def tables(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return sorted(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_a_read_on_an_empty_database_creates_no_tables(empty_db_url: str) -> None:
    path = sqlite_file(empty_db_url)
    if path is not None:
        path.touch()  # an empty file is an empty SQLite database
    cli = cli_on(empty_db_url)
    line = one_line_error(cli("player", "list"), 1)
    assert line.startswith("error: no tracker database at ")
    assert line.endswith(
        "(it is empty; a command that writes, such as `tracker player add`, creates the tables)"
    )
    assert tables(empty_db_url) == []
    ok(cli("player", "add", "Hart, Daniel"))
    assert "players" in tables(empty_db_url)
    assert "Hart, Daniel" in ok(cli("player", "list")).stdout
