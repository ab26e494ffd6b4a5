"""Dates as files write them: ISO-like calendar dates, TRF's day-first and two-digit-year
forms, and TRF birth dates (of which tracker keeps the year). Standard library only; every
function returns None (or a reason) instead of raising."""

from __future__ import annotations

import re
from datetime import date
from typing import Final

from tracker.vocabulary import YEAR_MAX, YEAR_MIN

_BIRTH: Final = re.compile(r"^(\d{4})(?:[/.\-](\d{2})[/.\-](\d{2}))?$")
_DMY: Final = re.compile(r"^(\d{1,2})([./\-])(\d{1,2})\2(\d{4})$")
_YMD_SHORT: Final = re.compile(r"^(\d{2})/(\d{2})/(\d{2})$")
_ISO_DATE: Final = re.compile(r"^(\d{4})([-./])(\d{1,2})\2(\d{1,2})$")


def parse_calendar_date(text: str) -> date | None:
    """A real calendar date written ``YYYY-MM-DD``, ``YYYY.MM.DD`` or ``YYYY/MM/DD``."""
    match = _ISO_DATE.match(text.strip())
    if match is None:
        return None
    return make_date(int(match.group(1)), int(match.group(3)), int(match.group(4)))


def make_date(year: int, month: int, day: int) -> date | None:
    """The date, or None when there is no such day (or the year is implausible)."""
    if not 1000 <= year <= 9999:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def trf_date(text: str) -> date | None:
    """A TRF date: ``YYYY/MM/DD`` (or ``.``/``-``), ``DD.MM.YYYY`` (or ``/``/``-``) or
    ``YY/MM/DD``."""
    value = text.strip()
    full = parse_calendar_date(value)
    if full is not None:
        return full
    match = _DMY.match(value)
    if match is not None:
        return make_date(int(match.group(4)), int(match.group(3)), int(match.group(1)))
    match = _YMD_SHORT.match(value)
    if match is not None:
        year = int(match.group(1))
        year += 2000 if year < 70 else 1900
        return make_date(year, int(match.group(2)), int(match.group(3)))
    return None


def birth_year(text: str) -> tuple[int | None, str | None]:
    value = text.strip()
    if not value:
        return None, None
    match = _BIRTH.match(value)
    if match is None:
        return None, f"birth date {value!r} is not YYYY/MM/DD, YYYY.MM.DD or YYYY"
    year = int(match.group(1))
    if year == 0:
        return None, None
    month, day = match.group(2), match.group(3)
    if month and day and int(month) and int(day) and make_date(year, int(month), int(day)) is None:
        return None, f"birth date {value!r} is not a real date"
    if not YEAR_MIN <= year <= YEAR_MAX:
        return None, f"birth year {year} is implausible"
    return year, None
