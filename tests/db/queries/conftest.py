"""Fixtures for the named queries' tests: a real database at head (both backends), written to
through the services as the commands write it, then read through the queries."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers import Services


@pytest.fixture
def db(db_url: str) -> Iterator[Services]:
    """The services on a fresh database at head."""
    services = Services(db_url)
    yield services
    services.dispose()
