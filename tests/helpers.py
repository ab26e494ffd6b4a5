"""What the tests share: databases on the test server, the command line in-process, and small
checks on what a command returned. Fixtures and hooks live in the conftest.py files; anything a
test module imports lives here.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer
import typer.main
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner, Result

from tracker.cli.app import app
from tracker.db.engine import make_engine, sqlite_file
from tracker.db.location import sqlite_url
from tracker.db.migrate import upgrade

#: e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test; unset: SQLite only.
PG_URL = os.environ.get("TRACKER_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]

# ----------------------------------------------------------------------------- databases


class Postgres:
    """Creates throw-away databases on the test server (uuid-named: parallel runs are safe)."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.admin = create_engine(self.url, isolation_level="AUTOCOMMIT")
        self.template: str | None = None

    def url_for(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def create(self, *, migrated: bool) -> str:
        """A new database: empty, or a copy of a template migrated to head once per run."""
        return self.copy(self._template()) if migrated else self._create(None)

    def copy(self, name: str) -> str:
        """A new database copied from database ``name`` (no one may be connected to it)."""
        return self._create(name)

    def _create(self, template: str | None) -> str:
        name = f"tracker_test_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as conn:
            if template is None:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
            else:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url_for(name)

    def _template(self) -> str:
        if self.template is None:
            name = f"tracker_tmpl_{uuid.uuid4().hex[:12]}"
            with self.admin.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
            engine = make_engine(self.url_for(name))
            upgrade(engine)
            engine.dispose()
            self.template = name
        return self.template

    def drop(self, url: str) -> None:
        name = make_url(url).database
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        if self.template is not None:
            self.drop(self.url_for(self.template))
        self.admin.dispose()


def make_db(
    backend: str, folder: Path, postgres: Postgres | None, template: Path | None
) -> Iterator[str]:
    """A database on ``backend`` for as long as the generator runs, dropped afterwards: a copy
    of the SQLite ``template`` file (or of PostgreSQL's template database), or empty if
    ``template`` is None."""
    if backend == "sqlite":
        path = folder / "tracker.db"
        if template is not None:
            shutil.copyfile(template, path)
        yield sqlite_url(path)
        return
    assert postgres is not None
    url = postgres.create(migrated=template is not None)
    try:
        yield url
    finally:
        postgres.drop(url)


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of a query, as tuples."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


def fingerprint(url: str) -> Any:
    """What must not change when a command fails: a SQLite file's bytes, else every row."""
    path = sqlite_file(url)
    if path is not None:
        wal = Path(f"{path}-wal")
        return (path.read_bytes(), wal.read_bytes() if wal.exists() else b"")
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
            return {
                table: sorted(map(repr, conn.execute(text(f'SELECT * FROM "{table}"')).all()))
                for table in tables
            }
    finally:
        engine.dispose()


# ----------------------------------------------------------------------------- the CLI


@functools.cache
def click_command(typer_app: typer.Typer) -> Any:
    """typer's click command for ``typer_app``, built once. typer.testing.CliRunner would
    rebuild it for every invocation, which costs more than most commands (20-30 ms); a real
    ``tracker`` process builds it once too. tests/conftest.py installs it for every test."""
    return typer.main.get_command(typer_app)


#: ``cli(ARGS..., input=None)``: ``tracker --db URL ARGS...`` in-process, click's Result.
Cli = Callable[..., Result]


def cli_on(url: str) -> Cli:
    """The command line on the database at ``url``, in-process."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", url, *args], input=input)

    return run


def ok(result: Result) -> Result:
    """A command that must succeed."""
    assert result.exit_code == 0, (result.stderr or result.output, result.exception)
    return result


def js(cli: Cli, *args: str) -> Any:
    """``cli(*args, "--json")``, which must succeed, parsed."""
    return json.loads(ok(cli(*args, "--json")).stdout)


def summary(result: Result) -> dict[str, Any]:
    """An import's JSON report."""
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def games(cli: Cli) -> list[dict[str, Any]]:
    """``tracker game list --json``."""
    data: list[dict[str, Any]] = js(cli, "game", "list")
    return data


def comparable(game: dict[str, Any]) -> tuple[Any, ...]:
    """A game without database ids, to compare two databases."""
    return tuple(
        game[k]
        for k in (
            "date",
            "white",
            "black",
            "result",
            "tc",
            "event",
            "round",
            "white_rating",
            "black_rating",
        )
    )


def one_line_error(result: Result, code: int) -> str:
    """A command that failed with ``code`` and said why in one line: that line."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return lines[0]
