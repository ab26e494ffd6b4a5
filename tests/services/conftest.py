"""Fixtures for the service-level tests: the services on a real database (both backends)."""

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


@pytest.fixture
def other_db(other_db_url: str) -> Iterator[Services]:
    """The services on a second fresh database, same backend."""
    services = Services(other_db_url)
    yield services
    services.dispose()
