"""Fixtures for the CLI tests: a second database, for round trips and comparisons."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import Cli, Postgres, cli_on, make_db


@pytest.fixture
def other_db_url(
    backend: str, tmp_path: Path, postgres: Postgres | None, sqlite_template: Path
) -> Iterator[str]:
    """A second fresh database at head, on the same backend as ``db_url``."""
    folder = tmp_path / "other"
    folder.mkdir()
    yield from make_db(backend, folder, postgres, sqlite_template)


@pytest.fixture
def other_cli(other_db_url: str) -> Cli:
    """The command line on ``other_db_url``."""
    return cli_on(other_db_url)
