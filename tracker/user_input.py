"""Values a user types: dates, months, results, ratings, time controls.

Each parser takes the text as typed and returns the value or raises
:class:`~tracker.errors.InvalidInputError` with a one-line reason. Used by the command line,
the services and the importers' callers; standard library only.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable
from pathlib import Path

from tracker.errors import InvalidInputError
from tracker.vocabulary import (
    PLAUSIBLE_RATING_MAX,
    PLAUSIBLE_RATING_MIN,
    RATING_MAX,
    RATING_MIN,
    RESULT_HELP,
    TC_WORDS,
    TIME_CONTROLS,
    YEAR_MAX,
    YEAR_MIN,
    TimeControl,
    canonical_result,
)

_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_MONTH = re.compile(r"^[0-9]{4}-[0-9]{2}$")


def parse_result(text: str) -> str:
    """The canonical result of any spelling in :data:`tracker.vocabulary.RESULT_ALIASES`."""
    canonical = canonical_result(text)
    if canonical is None:
        raise InvalidInputError(f"invalid result {text!r}: use {RESULT_HELP}")
    return canonical


def parse_date(text: str, what: str = "date") -> dt.date:
    """A calendar date written YYYY-MM-DD."""
    value = text.strip()
    if not _DATE.match(value):
        raise InvalidInputError(f"malformed {what} {text!r}: use YYYY-MM-DD")
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(f"impossible {what} {text!r}: no such day") from None
    check_year(day.year, what, text)
    return day


def parse_month(text: str) -> dt.date:
    """A month written YYYY-MM, as the date of its first day."""
    value = text.strip()
    if not _MONTH.match(value):
        raise InvalidInputError(f"malformed month {text!r}: use YYYY-MM")
    year, month = int(value[:4]), int(value[5:])
    if not 1 <= month <= 12:
        raise InvalidInputError(f"impossible month {text!r}")
    check_year(year, "month", text)
    return dt.date(year, month, 1)


def check_year(year: int, what: str, text: str) -> None:
    """A year tracker can store (:data:`~tracker.vocabulary.YEAR_MIN` ..
    :data:`~tracker.vocabulary.YEAR_MAX`)."""
    if not YEAR_MIN <= year <= YEAR_MAX:
        raise InvalidInputError(f"implausible {what} {text!r}: years {YEAR_MIN}..{YEAR_MAX}")


def check_rating(value: int, what: str = "rating") -> int:
    if not RATING_MIN <= value <= RATING_MAX:
        raise InvalidInputError(f"{what} {value} is outside {RATING_MIN}..{RATING_MAX}")
    return value


def check_plausible_rating(value: int, what: str = "rating") -> int:
    """A rating typed by hand: :data:`~tracker.vocabulary.PLAUSIBLE_RATING_MIN` ..
    :data:`~tracker.vocabulary.PLAUSIBLE_RATING_MAX` (a typo such as 185 or 18500 is
    refused, not stored)."""
    if not PLAUSIBLE_RATING_MIN <= value <= PLAUSIBLE_RATING_MAX:
        raise InvalidInputError(
            f"implausible {what} {value}: FIDE ratings lie within "
            f"{PLAUSIBLE_RATING_MIN}..{PLAUSIBLE_RATING_MAX}"
        )
    return value


def check_birth_year(year: int) -> int:
    """A birth year: storable, and not after this year."""
    check_year(year, "birth year", str(year))
    if year > today().year:
        raise InvalidInputError(f"implausible birth year {year}: it is in the future")
    return year


def check_tc(value: str) -> TimeControl:
    """A time control's list, in any case (``Rapid`` is ``rapid``)."""
    for tc in TIME_CONTROLS:
        if value.strip().casefold() == tc:
            return tc
    raise InvalidInputError(f"unknown time control {value!r}: use {TC_WORDS}")


def today() -> dt.date:
    """Today's date; ``TRACKER_TODAY=YYYY-MM-DD`` pins it (for tests and reproducible demos)."""
    pinned = os.environ.get("TRACKER_TODAY")
    return parse_date(pinned, "TRACKER_TODAY") if pinned else dt.date.today()


def exists(path: Path) -> bool:
    """Whether ``path`` exists. A path the system cannot even look up (a name longer than the
    file system takes, say) is a mistyped value: one line, not a traceback."""
    return _look(path, Path.exists)


def is_dir(path: Path) -> bool:
    """Whether ``path`` is a folder (see :func:`exists`)."""
    return _look(path, Path.is_dir)


def _look(path: Path, test: Callable[[Path], bool]) -> bool:
    try:
        return test(path)
    except OSError as exc:
        raise InvalidInputError(f"cannot use {path}: {exc.strerror or exc}") from None
