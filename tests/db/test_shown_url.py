"""A database URL in a message (``tracker status``, ``db current``, every error naming the
database): every password hidden, without loading SQLAlchemy."""

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


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql+psycopg://bob@h/db?password=s3cret&sslmode=require",
            "postgresql+psycopg://bob@h/db?password=***&sslmode=require",
        ),
        (
            "postgresql+psycopg://bob@h/db?sslmode=require&sslpassword=s3cret&PassWord=s3cret",
            "postgresql+psycopg://bob@h/db?sslmode=require&sslpassword=***&PassWord=***",
        ),
        ("foo://user:s3cret@host/db", "foo://user:***@host/db"),
        # URLs that do not parse: a password with an unencoded @ or ?, a port that is no number
        (
            "postgresql+psycopg://u:p@ss:w0s3cret@127.0.0.1/x",
            "postgresql+psycopg://u:***@127.0.0.1/x",
        ),
        ("postgresql+psycopg://u:s3?cret@127.0.0.1/x", "postgresql+psycopg://u:***@127.0.0.1/x"),
        ("postgresql+psycopg://u:s3cret@[::1/x", "postgresql+psycopg://u:***@[::1/x"),
    ],
)
def test_every_password_is_hidden(url: str, shown: str) -> None:
    assert shown_url(url) == shown
    assert "s3" not in shown_url(url)
