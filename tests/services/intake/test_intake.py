"""The intake's rules (tracker.services.intake): the values every door checks the same way."""

from __future__ import annotations

import datetime as dt

import pytest

from tracker.errors import InvalidInputError
from tracker.services.intake import (
    DateBounds,
    age_problem,
    check_event_start,
    check_text,
    clean_event_name,
    clean_round,
    impossible_rating,
    is_fide_id,
    is_fide_rating,
    natural_key,
    round_key,
    site_form,
    typed_rating,
)

TODAY = dt.date(2026, 11, 29)  # TRACKER_TODAY in every test


def test_date_bounds() -> None:
    bounds = DateBounds(TODAY, dt.date(2026, 9, 1))
    assert bounds.earliest == dt.date(2025, 9, 1)
    assert bounds.refused(dt.date(2025, 9, 1)) is None
    assert bounds.unconfirmed(dt.date(2025, 9, 1)) is None
    assert bounds.refused(TODAY) is None
    assert bounds.refused(dt.date(2026, 11, 30)) == (
        "the date 2026-11-30 is in the future (today is 2026-11-29)"
    )
    assert bounds.unconfirmed(dt.date(2016, 1, 5)) == (
        "the date 2016-01-05 is more than a year before this database's records start (2026-09)"
    )
    assert bounds.refused(dt.date(1969, 12, 31)) == (
        "the date 1969-12-31 is before 1970: FIDE's first list rated the games of 1970"
    )
    assert DateBounds(TODAY, None).unconfirmed(dt.date(1970, 1, 5)) is None


def test_the_rules_of_a_players_age_and_a_recorded_rating() -> None:
    assert age_problem(2026, 2010, "Nova") is None
    assert (
        age_problem(2026, 2024, "Nova")
        == "Nova was born in 2024: a game in 2026 is at the age of 2"
    )
    assert age_problem(2020, 2024, "Nova", "a seed") == (
        "Nova was born in 2024: a seed in 2020 is before their birth"
    )
    assert age_problem(2026, None, "Nova") is None
    assert impossible_rating(471) is None and impossible_rating(3000) is None
    assert (
        impossible_rating(3001)
        == "a recorded rating of 3001: no rating system gives one above 3000"
    )
    assert impossible_rating(-1) == "a recorded rating of -1: no rating is below 0"
    with pytest.raises(InvalidInputError, match="--white-rating 0: a recorded rating of 0"):
        typed_rating(0, "--white-rating 0")
    assert (is_fide_rating(999), is_fide_rating(1000), is_fide_rating(3000)) == (False, True, True)
    assert (is_fide_id(99_999), is_fide_id(100_000), is_fide_id(99_999_999_999)) == (
        False,
        True,
        True,
    )
    with pytest.raises(InvalidInputError, match="the event start 1969-12-31 is before 1970"):
        check_event_start(dt.date(1969, 12, 31))


def test_event_names_rounds_sites_and_the_natural_key() -> None:
    assert clean_event_name("  Autumn   Cup ") == "Autumn Cup"
    with pytest.raises(InvalidInputError, match="an event needs a name"):
        clean_event_name("   ")
    with pytest.raises(InvalidInputError, match="contains control characters"):
        check_text("Cup\x1b[31m", "event name")
    assert [clean_round(r) for r in ("3", "03", "Round 3", "rd. 1.01", " ", "?", None)] == [
        "3", "3", "3", "1.1", None, None, None,
    ]  # fmt: skip
    assert round_key("3a") == "3a" and round_key("Final") == "final" and round_key(None) == ""
    assert site_form("  Oslo   Chess Club ") == ("Oslo Chess Club", None)
    assert site_form("x" * 201) == ("x" * 200, f"site {'x' * 40!r}... is cut to 200 characters")
    assert natural_key(dt.date(2026, 1, 5), 3, 7, None, "Final") == "2026-01-05|3|7||final"
    assert natural_key(dt.date(2026, 1, 5), 3, 7, 2, "1") == "2026-01-05|3|7|2|1"
