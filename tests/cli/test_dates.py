"""A mistyped year must not pollute the database: a game dated in the future or before 1970 is
refused; one more than a year before the database's records start is refused unless --yes.
The same at every door (game add, game edit, add-round, import)."""

from __future__ import annotations

import datetime as dt

import pytest
from typer.testing import Result

from tests.helpers import Cli, fingerprint, games, ok, one_line_error

TODAY = dt.date(2026, 11, 29)  # TRACKER_TODAY in every test


@pytest.fixture
def club(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-09"))
    return cli


def add(cli: Cli, date: str, *more: str) -> Result:
    return cli("game", "add", "Sato", "Hart", "0-1", "--date", date, "--round", date, *more)


def test_a_date_long_before_the_first_period_is_refused(club: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    line = one_line_error(add(club, "2016-01-05"), 1)
    assert line == (
        "error: the date 2016-01-05 is more than a year before this database's records start "
        "(2026-09): check the year, or give --yes if it is right"
    )
    assert one_line_error(add(club, "2025-08-31"), 1).startswith(
        "error: the date 2025-08-31 is more than a year before"
    )
    assert fingerprint(db_url) == before
    ok(add(club, "2025-09-01"))  # a year before: accepted
    ok(add(club, "2024-03-02", "--yes"))
    assert sorted(g["date"] for g in games(club)) == ["2024-03-02", "2025-09-01", "2026-09-05"]


@pytest.mark.parametrize("date", ["1926-11-05", "1969-12-31", "1850-01-05"])
def test_a_date_before_1970_is_refused_even_with_yes(club: Cli, db_url: str, date: str) -> None:
    before = fingerprint(db_url)
    for more in ((), ("--yes",)):
        line = one_line_error(add(club, date, *more), 1)
        assert line == (
            f"error: the date {date} is before 1970: FIDE's first list rated the games of 1970: "
            "check the year"
        )
    assert fingerprint(db_url) == before


def test_a_date_in_the_future_is_refused(club: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    for more in ((), ("--yes",)):
        line = one_line_error(add(club, "2026-11-30", *more), 1)
        assert line == (
            "error: the date 2026-11-30 is in the future (today is 2026-11-29): check the year"
        )
    assert fingerprint(db_url) == before
    ok(add(club, "2026-11-29"))  # today is fine


def test_game_edit_checks_a_new_date_only(club: Cli, db_url: str) -> None:
    ok(add(club, "2024-01-02", "--yes"))
    before = fingerprint(db_url)
    line = one_line_error(club("game", "edit", "1", "--date", "2062-09-05"), 1)
    assert line.startswith("error: the date 2062-09-05 is in the future")
    line = one_line_error(club("game", "edit", "1", "--date", "2016-09-05"), 1)
    assert line.startswith("error: the date 2016-09-05 is more than a year before")
    assert fingerprint(db_url) == before
    ok(club("game", "edit", "2", "--round", "7"))  # its unusual date stays as it was
    ok(club("game", "edit", "1", "--date", "2016-09-05", "--yes"))
    assert [g["date"] for g in games(club)] == ["2016-09-05", "2024-01-02"]


def test_a_database_without_games_takes_any_past_date_from_1970(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    ok(cli("player", "add", "Sato, Yuki"))
    assert one_line_error(add(cli, "2030-01-01"), 1).startswith(
        "error: the date 2030-01-01 is in the future"
    )
    assert one_line_error(add(cli, "1926-11-05"), 1).startswith(
        "error: the date 1926-11-05 is before 1970"
    )
    ok(add(cli, "2019-05-04"))
    # from then on the first game is where the records start
    assert one_line_error(add(cli, "2018-04-30"), 1).startswith(
        "error: the date 2018-04-30 is more than a year before this database's records start "
        "(2019-05)"
    )
