"""Parsing of the small values users type: dates, months, results, ratings.

Shared by the CLI, the services and the importers' callers; stdlib only.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import Literal, get_args

from tracker.errors import InvalidInputError

TimeControl = Literal["standard", "rapid", "blitz"]
TIME_CONTROLS: tuple[str, ...] = get_args(TimeControl)

#: Canonical results; the last two are forfeits, stored and never rated.
RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+")
FORFEITS = ("+-", "-+")
_RESULT_ALIASES = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "=": "1/2-1/2",
    "+-": "+-",
    "-+": "-+",
}
RATING_MIN, RATING_MAX = 0, 4000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")


def parse_result(text: str) -> str:
    """Canonical result for ``1-0``, ``0-1``, ``1/2-1/2``, ``½-½``, ``=``, ``+-`` or ``-+``."""
    canonical = _RESULT_ALIASES.get(text.strip())
    if canonical is None:
        raise InvalidInputError(
            f"invalid result {text!r}: use 1-0, 0-1, 1/2-1/2 (or ½-½, =), or +- / -+ for a forfeit"
        )
    return canonical


def white_score(result: str) -> float | None:
    """White's score in a played game; None for a forfeit (never rated)."""
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)


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


YEAR_MIN, YEAR_MAX = 1850, 2200


def check_year(year: int, what: str, text: str) -> None:
    """Chess ratings began long after 1850; the calendar must stay well inside Python's."""
    if not YEAR_MIN <= year <= YEAR_MAX:
        raise InvalidInputError(f"implausible {what} {text!r}: years {YEAR_MIN}..{YEAR_MAX}")


def check_rating(value: int, what: str = "rating") -> int:
    if not RATING_MIN <= value <= RATING_MAX:
        raise InvalidInputError(f"{what} {value} is outside {RATING_MIN}..{RATING_MAX}")
    return value


def check_tc(value: str) -> TimeControl:
    if value not in TIME_CONTROLS:
        raise InvalidInputError(f"unknown time control {value!r}: use standard, rapid or blitz")
    return value  # type: ignore[return-value]


def month_of(day: dt.date) -> dt.date:
    return day.replace(day=1)


def next_month(month: dt.date) -> dt.date:
    return dt.date(month.year + month.month // 12, month.month % 12 + 1, 1)


def month_label(month: dt.date) -> str:
    return f"{month.year:04d}-{month.month:02d}"


def today() -> dt.date:
    """Today's date; ``TRACKER_TODAY=YYYY-MM-DD`` pins it (for tests and reproducible demos)."""
    pinned = os.environ.get("TRACKER_TODAY")
    return parse_date(pinned, "TRACKER_TODAY") if pinned else dt.date.today()
