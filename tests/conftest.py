"""Shared fixtures: a real database per test, on SQLite and (when configured) PostgreSQL.

Every test that asks for ``db_url`` runs on SQLite, and again on PostgreSQL when
``TRACKER_TEST_POSTGRES_URL`` is set (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test).
Each test gets its own database, copied from a template migrated once per session.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner, Result

from tracker.cli.app import app
from tracker.db.engine import make_engine, sqlite_file
from tracker.db.location import sqlite_url
from tracker.db.migrate import upgrade

PG_URL = os.environ.get("TRACKER_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend`` runs on every configured backend, or on those a ``backends`` mark names."""
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        wanted = BACKENDS if marker is None else [b for b in BACKENDS if b in marker.args]
        metafunc.parametrize("backend", wanted)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may touch the user's real database or depend on the real date."""
    monkeypatch.delenv("TRACKER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("TRACKER_TODAY", "2026-11-29")
    monkeypatch.setenv("COLUMNS", "200")


class _Postgres:
    """Creates throw-away databases on the test server."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.admin = create_engine(self.url, isolation_level="AUTOCOMMIT")
        self.template: str | None = None

    def url_for(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def create(self, *, migrated: bool) -> str:
        name = f"tracker_test_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as conn:
            if migrated:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{self._template()}"')
            else:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
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


@pytest.fixture(scope="session")
def postgres() -> Iterator[_Postgres | None]:
    if not PG_URL:
        yield None
        return
    server = _Postgres(PG_URL)
    yield server
    server.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine)
    engine.dispose()
    return path


def _make_db(
    backend: str, tmp_path: Path, postgres: _Postgres | None, template: Path | None
) -> Iterator[str]:
    if backend == "sqlite":
        path = tmp_path / "tracker.db"
        if template is not None:
            shutil.copyfile(template, path)
        yield sqlite_url(path)
        return
    assert postgres is not None
    url = postgres.create(migrated=template is not None)
    yield url
    postgres.drop(url)


@pytest.fixture
def db_url(
    backend: str, tmp_path: Path, postgres: _Postgres | None, sqlite_template: Path
) -> Iterator[str]:
    """A fresh database at head."""
    yield from _make_db(backend, tmp_path, postgres, sqlite_template)


@pytest.fixture
def empty_db_url(backend: str, tmp_path: Path, postgres: _Postgres | None) -> Iterator[str]:
    """A fresh database with no schema at all."""
    yield from _make_db(backend, tmp_path, postgres, None)


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


Cli = Callable[..., Result]


@pytest.fixture
def cli(db_url: str) -> Cli:
    """Run ``tracker --db URL ARGS...`` in-process; returns click's Result."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", db_url, *args], input=input)

    return run
