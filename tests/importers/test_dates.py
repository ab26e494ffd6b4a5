"""The dates files really write (tracker.importers.dates)."""

from __future__ import annotations

from datetime import date

import pytest

from tracker.importers.dates import read_file_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2005/07/28", date(2005, 7, 28)),
        ("2005-07-28", date(2005, 7, 28)),
        ("2005.07.28", date(2005, 7, 28)),
        ("28.07.2005", date(2005, 7, 28)),
        ("28. 07. 2005", date(2005, 7, 28)),  # FIDE's own example file
        ("Jun 26, 2020", date(2020, 6, 26)),  # every Lichess Swiss export
        ("June 26, 2020", date(2020, 6, 26)),
        ("Sept 3, 2021", date(2021, 9, 3)),
        ("28 Jul 2005", date(2005, 7, 28)),
        ("28-Jul-2005", date(2005, 7, 28)),
        ("28/07/2005", date(2005, 7, 28)),
    ],
)
def test_one_reading(text: str, expected: date) -> None:
    found = read_file_date(text)
    assert found.readings == (expected,)
    assert not found.two_digit_year and found.end is None


def test_a_range_gives_its_first_date_and_its_end() -> None:
    found = read_file_date("2005/07/28 - 2005/07/31")
    assert (found.readings, found.end) == ((date(2005, 7, 28),), date(2005, 7, 31))
    assert read_file_date("28 Jul 2005 to 31 Jul 2005").end == date(2005, 7, 31)


def test_two_digit_years_have_every_reading_usual_first() -> None:
    slashes = read_file_date("05/07/28")  # TRF's 132 layout YY/MM/DD first
    assert slashes.two_digit_year
    assert slashes.by_order == (
        ("ymd", date(2005, 7, 28)),
        ("dmy", date(2028, 7, 5)),
        ("mdy", date(2028, 5, 7)),
    )
    dots = read_file_date("28.07.05")  # dots: day first
    assert dots.by_order == (
        ("dmy", date(2005, 7, 28)),
        ("ymd", date(2028, 7, 5)),
        ("ydm", date(2028, 5, 7)),  # year, day, month: as SwissPerfect writes round dates
    )
    assert read_file_date("26.14.02").by_order == (("ydm", date(2026, 2, 14)),)
    assert read_file_date("99/12/31").readings == (date(1999, 12, 31),)


def test_day_and_month_that_could_swap() -> None:
    found = read_file_date("07/06/2005")
    assert found.ambiguous and found.readings == (date(2005, 6, 7), date(2005, 7, 6))
    assert read_file_date("07.06.2005").readings == (date(2005, 6, 7),)  # dots: day first


@pytest.mark.parametrize(
    "text", ["", "someday", "2026/3", "31/02/31", "28. Juli 2005", "Jun 31, 2020"]
)
def test_no_date(text: str) -> None:
    assert not read_file_date(text).ok


def test_an_order_that_gives_the_same_date_as_another_still_reads_it() -> None:
    """``26.02.02`` read year-day-month is 2026-02-02, the year-first reading too: asked for
    in that order (``--date-order ydm``), it reads."""
    found = read_file_date("26.02.02")
    assert found.reading("ydm") == found.reading("ymd") == date(2026, 2, 2)
    assert read_file_date("05.05.26").reading("mdy") == date(2026, 5, 5)
