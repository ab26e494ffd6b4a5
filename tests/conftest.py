"""Fixtures: a real database per test, on SQLite and (when configured) PostgreSQL.

Every test that asks for ``db_url`` runs on SQLite, and again on PostgreSQL when
``TRACKER_TEST_POSTGRES_URL`` is set (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test).
Each test gets a database of its own at head: a copy of a template migrated once per session
(on PostgreSQL, a copy some earlier test used and left at head, emptied: see
helpers.Postgres). The helpers these fixtures are built from are in tests/helpers.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.testing

from tests.helpers import BACKENDS, PG_URL, Cli, Postgres, cli_on, click_command, make_db
from tracker.db.engine import make_engine
from tracker.db.location import sqlite_url
from tracker.db.migrate import upgrade


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend`` runs on every configured backend, or on those a ``backends`` mark names."""
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        wanted = BACKENDS if marker is None else [b for b in BACKENDS if b in marker.args]
        # Module scope: a module's tests run backend by backend, and a module-scoped fixture
        # (module_db_url) can stand on the backend.
        metafunc.parametrize("backend", wanted, scope="module")


@pytest.fixture(autouse=True, scope="session")
def _click_command_built_once() -> Iterator[None]:
    """Every in-process ``tracker`` command runs on one click command per app (see
    helpers.click_command); each still opens its own engine, as a ``tracker`` process would."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", click_command)
        yield


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may touch the user's real database or depend on the real date."""
    monkeypatch.delenv("TRACKER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("TRACKER_TODAY", "2026-11-29")
    monkeypatch.setenv(
        "COLUMNS", "1000"
    )  # tables and messages print whole unless a test narrows it


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres | None]:
    if not PG_URL:
        yield None
        return
    server = Postgres(PG_URL)
    yield server
    server.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine)
    engine.dispose()
    return path


@pytest.fixture
def db_url(
    backend: str, tmp_path: Path, postgres: Postgres | None, sqlite_template: Path
) -> Iterator[str]:
    """A fresh database at head."""
    yield from make_db(backend, tmp_path, postgres, sqlite_template)


@pytest.fixture
def other_db_url(
    backend: str, tmp_path: Path, postgres: Postgres | None, sqlite_template: Path
) -> Iterator[str]:
    """A second fresh database at head, on the same backend as ``db_url``."""
    folder = tmp_path / "other"
    folder.mkdir()
    yield from make_db(backend, folder, postgres, sqlite_template)


@pytest.fixture(scope="module")
def module_db_url(
    backend: str,
    tmp_path_factory: pytest.TempPathFactory,
    postgres: Postgres | None,
    sqlite_template: Path,
) -> Iterator[str]:
    """A database at head shared by the tests of one module (on each backend), for a scenario
    that a module-scoped fixture builds once and the tests only read."""
    yield from make_db(backend, tmp_path_factory.mktemp("module-db"), postgres, sqlite_template)


@pytest.fixture
def empty_db_url(backend: str, tmp_path: Path, postgres: Postgres | None) -> Iterator[str]:
    """A fresh database with no schema at all."""
    yield from make_db(backend, tmp_path, postgres, None)


@pytest.fixture
def cli(db_url: str) -> Cli:
    """Run ``tracker --db URL ARGS...`` in-process; returns click's Result."""
    return cli_on(db_url)
