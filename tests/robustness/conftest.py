"""Fixtures for the robustness tests: more databases on the test's backend, and the command
line in-process on any of them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.testing
from typer.testing import CliRunner, Result

from tests.conftest import _Postgres
from tests.robustness.common import Databases
from tracker.cli.app import app

Run = Callable[..., Result]


@pytest.fixture
def databases(backend: str, tmp_path: Path, postgres: _Postgres | None) -> Iterator[Databases]:
    dbs = Databases(backend, tmp_path / "databases", postgres)
    yield dbs
    dbs.drop_all()


@functools.cache
def _command(typer_app: typer.Typer) -> Any:
    return typer.main.get_command(typer_app)


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(URL, ARGS...)``: ``tracker --db URL ARGS...`` in-process, like the ``cli`` fixture
    but on any database. The click command is built once (typer would rebuild it for every
    invocation, which costs more than most commands); each command still opens its own
    engine, as a separate ``tracker`` process would."""
    monkeypatch.setattr(typer.testing, "_get_command", _command)
    runner = CliRunner()

    def invoke(url: str, *args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", url, *args], input=input)

    return invoke
