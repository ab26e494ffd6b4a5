"""A database URL in a message (``tracker status``): the password hidden as SQLAlchemy hides
it, without loading SQLAlchemy."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from tracker.db.driver import shown_url


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://postgres@127.0.0.1:5432/test",
        "postgresql+psycopg://bob:s%40cret@db.example:5432/fed?sslmode=require",
        "postgresql+psycopg://bob:pw@h/db",
        "postgresql+psycopg://bob:p:w@h/db",
        "postgresql+psycopg:///db",
        "sqlite:///rel/path.db?mode=ro",
    ],
)
def test_a_url_is_shown_as_sqlalchemy_shows_it(url: str) -> None:
    assert shown_url(url) == make_url(url).render_as_string()
    assert "pw" not in shown_url(url) and "cret" not in shown_url(url)
