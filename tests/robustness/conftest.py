"""Fixtures for the robustness tests: more databases on the test's backend, and the command
line in-process on any of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tests.helpers import Postgres
from tests.robustness.common import Databases, Run
from tracker.cli.app import app


@pytest.fixture
def databases(backend: str, tmp_path: Path, postgres: Postgres | None) -> Iterator[Databases]:
    dbs = Databases(backend, tmp_path / "databases", postgres)
    yield dbs
    dbs.drop_all()


@pytest.fixture
def run() -> Run:
    """``run(URL, ARGS...)``: ``tracker --db URL ARGS...`` in-process, like the ``cli`` fixture
    but on any database; each command opens its own engine, as a ``tracker`` process would."""
    runner = CliRunner()

    def invoke(url: str, *args: str, input: str | bytes | None = None) -> Result:
        return runner.invoke(app, ["--db", url, *args], input=input)

    return invoke
