"""Fixtures for the import / export tests: sample files, a second database, helpers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from tests.conftest import Cli, _make_db, _Postgres
from tracker.cli.app import app

DATA = Path(__file__).parent / "data"
ROUND_ROBIN = Path(__file__).parents[1] / "importers" / "data" / "roundrobin10.trf"


def has_command(*names: str) -> bool:
    """Whether ``tracker NAMES...`` exists (some commands are written in parallel)."""
    command: Any = typer.main.get_command(app)
    for name in names:
        commands = getattr(command, "commands", {})
        if name not in commands:
            return False
        command = commands[name]
    return True


def needs_periods() -> None:
    if not (has_command("period", "close") and has_command("history")):
        pytest.skip("`tracker period close` / `tracker history` are not available yet")


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.stderr or result.output
    return result


def summary(result: Result) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def games(cli: Cli) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(ok(cli("game", "list", "--json")).stdout)
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


@pytest.fixture
def other_db_url(
    backend: str, tmp_path: Path, postgres: _Postgres | None, sqlite_template: Path
) -> Iterator[str]:
    """A second fresh database at head (for round trips)."""
    folder = tmp_path / "other"
    folder.mkdir()
    yield from _make_db(backend, folder, postgres, sqlite_template)


@pytest.fixture
def other_cli(other_db_url: str) -> Cli:
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", other_db_url, *args], input=input)

    return run
