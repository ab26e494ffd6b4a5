"""Fixtures for the CLI tests: the command line on a second database."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, cli_on


@pytest.fixture
def other_cli(other_db_url: str) -> Cli:
    """The command line on ``other_db_url``."""
    return cli_on(other_db_url)
