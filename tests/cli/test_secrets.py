"""No password is ever printed: wherever a command names its database (``status``, ``db
current``, every error naming it), a password in the URL's user part or in its query is shown
as ``***``; a URL that does not parse is one line, without the piece SQLAlchemy quotes."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from tests.helpers import one_line_error
from tracker.cli.app import app

runner = CliRunner()
SECRET = "s3cretPW"


def with_query_password(url: str) -> str:
    return f"{url}?password={SECRET}&sslmode=disable"


def with_user_password(url: str) -> str:
    return make_url(url).set(password=SECRET).render_as_string(hide_password=False)


COMMANDS = (
    ["status"],
    ["db", "current"],
    ["db", "current", "--json"],
    ["db", "check"],
    ["player", "list"],
    ["player", "add", "Hart, Daniel"],
)


@pytest.mark.backends("postgresql")
@pytest.mark.parametrize("password", [with_query_password, with_user_password])
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_database_with_a_password_is_shown_without_it(
    db_url: str, password: object, args: list[str]
) -> None:
    assert callable(password)
    url = password(db_url)
    r = runner.invoke(app, ["--db", url, *args])
    assert r.exit_code == 0, r.stderr
    assert SECRET not in r.stdout + r.stderr
    if args[0] in ("status", "db") and args[-1] != "check":
        assert "***" in r.stdout  # the database is named, its password hidden


@pytest.mark.backends("postgresql")
@pytest.mark.parametrize("password", [with_query_password, with_user_password])
def test_the_error_of_an_empty_database_hides_the_password(
    empty_db_url: str, password: object
) -> None:
    assert callable(password)
    line = one_line_error(runner.invoke(app, ["--db", password(empty_db_url), "list"]), 1)
    assert "no tracker database at" in line and "***" in line and SECRET not in line


@pytest.mark.parametrize(
    "url",
    [
        f"foo://user:{SECRET}@host/db",  # no such database
        f"postgresql+psycopg://u@127.0.0.1:notaport/x?password={SECRET}",
        f"postgresql+psycopg://u:p@ss:w0rd{SECRET}@127.0.0.1/x",  # an unencoded @ and :
        f"postgresql+psycopg://u:{SECRET}@[::1/x",  # an unclosed [
    ],
)
@pytest.mark.parametrize(
    "args", [["status"], ["db", "current"], ["db", "upgrade"], ["player", "add", "X"]], ids=" ".join
)
def test_a_url_that_cannot_be_used_is_one_line_without_its_password(
    url: str, args: list[str]
) -> None:
    line = one_line_error(runner.invoke(app, ["--db", url, *args]), 1)
    assert line.startswith("error: cannot use database '")
    assert SECRET not in line and "***" in line


def test_a_url_that_is_not_utf8_is_refused_without_its_password() -> None:
    """Bytes that are not UTF-8 reach argv as lone surrogates (\\udcff): the argument is
    refused, and named without its password."""
    url = f"postgresql+psycopg://u:{SECRET}@127.0.0.1:5432/caf\udce9"
    line = one_line_error(runner.invoke(app, ["--db", url, "status"]), 1)
    assert line.startswith("error: argument 'postgresql+psycopg://u:***@127.0.0.1:5432/caf")
    assert SECRET not in line
