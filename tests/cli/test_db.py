"""``tracker db ...``, database location and schema revision checks."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import Cli, fingerprint, one_line_error
from tracker.cli.app import app
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.location import default_path, sqlite_url
from tracker.db.revision import SCHEMA_REVISION

runner = CliRunner()


def test_current_and_check(cli: Cli) -> None:
    r = cli("db", "current", "--json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["revision"] == SCHEMA_REVISION and data["up_to_date"] is True
    r = cli("db", "check")
    assert r.exit_code == 0, r.stderr
    assert "database ok" in r.stderr


def test_older_database_is_refused_until_upgraded(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0001")
    engine.dispose()
    r = runner.invoke(app, ["--db", empty_db_url, "player", "list"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: the database schema is at revision 0001, this tracker needs {SCHEMA_REVISION}: "
        "run `tracker db upgrade` (back it up first with `tracker db backup FILE`)"
    )
    r = runner.invoke(app, ["--db", empty_db_url, "db", "check"])
    assert r.exit_code == 1
    r = runner.invoke(app, ["--db", empty_db_url, "db", "upgrade"])
    assert r.exit_code == 0, r.stderr
    assert f"from revision 0001 to {SCHEMA_REVISION}" in r.stderr
    r = runner.invoke(app, ["--db", empty_db_url, "player", "list", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == []


def test_unknown_newer_revision_is_refused(db_url: str) -> None:
    from sqlalchemy import text

    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    before = fingerprint(db_url)
    for args in (["player", "list"], ["player", "add", "X"], ["db", "upgrade"]):
        line = one_line_error(runner.invoke(app, ["--db", db_url, *args]), 1)
        assert line == (
            "error: the database schema is at revision 9999, unknown to this tracker "
            f"(head {SCHEMA_REVISION}); it was written by a newer version: upgrade tracker"
        )
    r = runner.invoke(app, ["--db", db_url, "db", "check"])  # its report, then why it fails
    assert r.exit_code == 1 and r.stderr.splitlines() == [
        f"revision 9999 (head {SCHEMA_REVISION})",
        *(["integrity check: ok"] if db_url.startswith("sqlite") else []),
        "error: the database is at a revision a newer tracker wrote: upgrade tracker",
    ]
    assert fingerprint(db_url) == before


def test_new_database_is_created_at_head(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "new.db"
    r = runner.invoke(app, ["--db", str(path), "player", "add", "Lee, Ann", "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["name"] == "Lee, Ann"
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (
            SCHEMA_REVISION,
        )
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_location_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_db = tmp_path / "env.db"
    opt_db = tmp_path / "opt.db"
    r = runner.invoke(app, ["player", "add", "Default Person"])
    assert r.exit_code == 0, r.stderr
    assert default_path().exists()
    assert str(default_path()).startswith(str(tmp_path / "xdg-data"))
    monkeypatch.setenv("TRACKER_DB", str(env_db))
    assert runner.invoke(app, ["player", "add", "Env Person"]).exit_code == 0
    assert runner.invoke(app, ["--db", str(opt_db), "player", "add", "Opt Person"]).exit_code == 0
    names = {}
    for path in (default_path(), env_db, opt_db):
        with sqlite3.connect(path) as conn:
            names[path.name] = [row[0] for row in conn.execute("SELECT name FROM players")]
    assert names == {
        "tracker.db": ["Default Person"],
        "env.db": ["Env Person"],
        "opt.db": ["Opt Person"],
    }


def test_help_never_opens_or_creates_a_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "never.db"
    monkeypatch.setenv("TRACKER_DB", str(path))
    for args in (
        [],
        ["--help"],
        ["player", "--help"],
        ["game", "add", "--help"],
        ["db", "--help"],
        ["db", "backup", "--help"],
        ["--version"],
    ):
        r = runner.invoke(app, args)
        assert r.exit_code in (0, 2), (args, r.stderr)
        assert r.stdout, args
        assert not r.stderr, args
    assert not path.exists()
    assert not default_path().exists()


def test_backup_is_a_consistent_copy(cli: Cli, db_url: str, tmp_path: Path, backend: str) -> None:
    if backend != "sqlite":
        r = cli("db", "backup", str(tmp_path / "copy.db"))
        assert r.exit_code == 1 and "pg_dump" in r.stderr
        return
    assert cli("player", "add", "Hart, Daniel").exit_code == 0
    target = tmp_path / "copy.db"
    r = cli("db", "backup", str(target), "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["integrity"] == "ok"
    r = runner.invoke(app, ["--db", str(target), "player", "list", "--json"])
    assert [p["name"] for p in json.loads(r.stdout)] == ["Hart, Daniel"]
    r = cli("db", "backup", str(target))
    assert r.exit_code == 1 and "already exists" in r.stderr
    assert cli("db", "backup", str(target), "--force").exit_code == 0


def test_db_current_on_missing_file_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "missing.db"
    r = runner.invoke(app, ["--db", str(path), "db", "current"])
    assert r.exit_code == 1 and "no database at" in r.stderr
    assert not path.exists()


def test_sqlite_url_round_trip(tmp_path: Path) -> None:
    from tracker.db.engine import sqlite_file

    assert sqlite_file(sqlite_url(tmp_path / "a.db")) == tmp_path / "a.db"
