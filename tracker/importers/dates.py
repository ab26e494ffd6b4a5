"""Dates as files write them. Standard library only; nothing here raises on bad input.

* :func:`parse_calendar_date`: ``YYYY-MM-DD`` (or ``.``/``/``), what CSV files hold.
* :func:`read_file_date`: every way tournament files write a date (TRF 042/052/132, the
  dates a pairing program or an online platform exports), with each possible reading when
  the text alone cannot tell:

  - ``2005/07/28``, ``2005-07-28``, ``2005.07.28``: year first, one reading;
  - ``28.07.2005``, ``28. 07. 2005`` (blanks after the dots, as FIDE's own example file has
    them): day first, one reading;
  - ``28/07/2005``, ``28-07-2005``: day first, and month first as a second reading when both
    numbers could be a month (``07/06/2005``), since US programs write ``MM/DD/YYYY``;
  - ``Jun 26, 2020`` (every Lichess Swiss export), ``June 26 2020``, ``28 Jul 2005``,
    ``28-Jul-2005``: English month names or their first three letters, one reading;
  - a two-digit year (``05/07/28``, TRF's 132 layout ``YY/MM/DD``; ``28.07.05``): years 00-69
    are 2000-2069, 70-99 are 1970-1999, and the field order has several readings (year
    first, day first, month first, ordered by how the separator is usually meant; last,
    year-day-month, as SwissPerfect writes its round dates: ``23.26.02``);
  - a range ``2005/07/28 - 2005/07/31`` (or ``... to ...``): the first date, and the end.

  A caller that has other dates to compare with (TRF's 052 and 132) picks the reading that
  agrees with them; see :mod:`tracker.importers.trf`.
* :func:`birth_year`: TRF birth dates, of which tracker keeps the year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Final

from tracker.vocabulary import YEAR_MAX, YEAR_MIN

_BIRTH: Final = re.compile(r"^([0-9]{4})(?:[/.\-]([0-9]{2})[/.\-]([0-9]{2}))?$")
_ISO_DATE: Final = re.compile(r"^([0-9]{4})([-./])([0-9]{1,2})\2([0-9]{1,2})$")
#: Three numbers with one separator (blanks allowed after it): 2005/07/28, 28. 07. 2005...
_NUMBERS: Final = re.compile(r"^([0-9]{1,4})([./\-]) ?([0-9]{1,2})\2 ?([0-9]{1,4})\.?$")
#: The months by their English names and the first three letters (``jan``: 1), as files
#: write them.
MONTHS: Final[dict[str, int]] = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
#: Jun 26, 2020 / June 26 2020
_MONTH_FIRST: Final = re.compile(
    r"^(?P<month>[A-Za-z]+)\.? (?P<day>[0-9]{1,2}),? (?P<year>[0-9]{4})$"
)
#: 26 Jun 2020 / 26-Jun-2020 / 26. June 2020
_DAY_FIRST: Final = re.compile(
    r"^(?P<day>[0-9]{1,2})\.?[ \-](?P<month>[A-Za-z]+)\.?[ \-,]{1,2}(?P<year>[0-9]{4})$"
)
_RANGE: Final = re.compile(r"\s+(?:[-\u2013\u2014]|to)\s+", re.IGNORECASE)
#: A two-digit year below this is 20YY, otherwise 19YY.
CENTURY_PIVOT: Final = 70


#: How the numbers of a date are ordered: year-month-day, day-month-year, month-day-year,
#: year-day-month (SwissPerfect's round dates); ``named`` for a date with the month's name.
Order = str
#: The orders a caller may insist on (``tracker import --date-order``).
ORDERS: Final = ("ymd", "dmy", "mdy", "ydm")


@dataclass(frozen=True, slots=True)
class FileDate:
    """A date as a file wrote it.

    ``by_order`` holds every date the text can mean, with the field order that gives it,
    the usual reading first; it is empty when the text is no date at all.
    ``two_digit_year`` says the century was assumed. ``end`` is the end of a range
    (``2005/07/28 - 2005/07/31``), if the text was one.
    """

    text: str
    by_order: tuple[tuple[Order, date], ...]
    two_digit_year: bool = False
    end: date | None = None
    #: every order that gives a real date, those that give the same date as another included
    #: (``26.02.02`` is 2026-02-02 read year first, and read year-day-month as well)
    orders: tuple[tuple[Order, date], ...] = ()

    @property
    def readings(self) -> tuple[date, ...]:
        return tuple(day for _, day in self.by_order)

    @property
    def ok(self) -> bool:
        return bool(self.by_order)

    @property
    def ambiguous(self) -> bool:
        return len(self.by_order) > 1

    @property
    def first(self) -> date | None:
        return self.by_order[0][1] if self.by_order else None

    def reading(self, order: Order) -> date | None:
        """The date under one field order (an unambiguous date under any)."""
        if len(self.by_order) == 1 and not self.two_digit_year:
            return self.by_order[0][1]
        return next((day for o, day in self.orders or self.by_order if o == order), None)


def make_date(year: int, month: int, day: int) -> date | None:
    """The date, or None when there is no such day (or the year is implausible)."""
    if not 1000 <= year <= 9999:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def parse_calendar_date(text: str) -> date | None:
    """A real calendar date written ``YYYY-MM-DD``, ``YYYY.MM.DD`` or ``YYYY/MM/DD``."""
    match = _ISO_DATE.match(text.strip())
    if match is None:
        return None
    return make_date(int(match.group(1)), int(match.group(3)), int(match.group(4)))


def _full_year(two_digits: int) -> int:
    return two_digits + (2000 if two_digits < CENTURY_PIVOT else 1900)


def _valid(pairs: list[tuple[Order, date | None]]) -> tuple[tuple[Order, date], ...]:
    """The orders that give a real date (a date given by two orders is kept once)."""
    out: list[tuple[Order, date]] = []
    for order, day in pairs:
        if day is not None and day not in (d for _, d in out):
            out.append((order, day))
    return tuple(out)


def _numeric_readings(first: str, separator: str, middle: str, last: str) -> FileDate | None:
    a, b, c = int(first), int(middle), int(last)
    text = f"{first}{separator}{middle}{separator}{last}"
    if len(first) == 4:
        return FileDate(text, _valid([("ymd", make_date(a, b, c))]))
    if len(last) == 4:
        if separator == ".":
            return FileDate(text, _valid([("dmy", make_date(c, b, a))]))
        return FileDate(text, _valid([("dmy", make_date(c, b, a)), ("mdy", make_date(c, a, b))]))
    if len(last) != 2 or len(first) > 2:
        return None
    # A two-digit year: which number is the year depends on the program that wrote it.
    year_first = ("ymd", make_date(_full_year(a), b, c)) if len(first) == 2 else ("ymd", None)
    day_first = ("dmy", make_date(_full_year(c), b, a))
    month_first = ("mdy", make_date(_full_year(c), a, b))
    year_day = ("ydm", make_date(_full_year(a), c, b)) if len(first) == 2 else ("ydm", None)
    order = (
        [day_first, year_first, month_first, year_day]
        if separator == "."
        else [year_first, day_first, month_first, year_day]
    )
    every = tuple((o, d) for o, d in order if d is not None)
    return FileDate(text, _valid(order), two_digit_year=True, orders=every)


def _named_month(value: str) -> date | None:
    match = _MONTH_FIRST.match(value) or _DAY_FIRST.match(value)
    if match is None:
        return None
    month = MONTHS.get(match["month"].casefold())
    return None if month is None else make_date(int(match["year"]), month, int(match["day"]))


def _single(value: str) -> FileDate:
    match = _NUMBERS.match(value)
    if match is not None:
        found = _numeric_readings(match.group(1), match.group(2), match.group(3), match.group(4))
        if found is not None:
            return FileDate(value, found.by_order, found.two_digit_year, orders=found.orders)
    named = _named_month(" ".join(value.split()))
    return FileDate(value, (("named", named),) if named is not None else ())


def read_file_date(text: str) -> FileDate:
    """Every reading of a date as a tournament file writes it (see the module docstring)."""
    value = text.strip()
    parts = _RANGE.split(value, maxsplit=1)
    if len(parts) == 2:
        start, end = _single(parts[0].strip()), _single(parts[1].strip())
        if start.ok and end.ok:
            return FileDate(value, start.by_order, start.two_digit_year, end.first, start.orders)
    return _single(value)


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
