"""Fixtures for the import / export tests: sample files, a second database, helpers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from tests.conftest import Cli, _make_db, _Postgres
from tracker.cli.app import app

DATA = Path(__file__).parent / "data"
ROUND_ROBIN = Path(__file__).parents[1] / "importers" / "data" / "roundrobin10.trf"


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
