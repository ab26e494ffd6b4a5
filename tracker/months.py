"""Month arithmetic: a rating period is a calendar month, named by the date of its first day.

FIDE Rating Regulations 2024 §7.1: a list is published on the first day of each month and
incorporates the rated play of the rating period before it. Standard library only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence


def month_of(day: dt.date) -> dt.date:
    """The month (its first day) that ``day`` falls in."""
    return day.replace(day=1)


def next_month(month: dt.date) -> dt.date:
    """The first day of the month after ``month``'s (the date of the list it publishes)."""
    return dt.date(month.year + month.month // 12, month.month % 12 + 1, 1)


def previous_month(month: dt.date) -> dt.date:
    """The first day of the month before ``month``'s."""
    return dt.date(month.year - (month.month == 1), (month.month - 2) % 12 + 1, 1)


def months_between(first: dt.date, last: dt.date) -> list[dt.date]:
    """Every month from ``first`` to ``last`` inclusive (both first days of a month)."""
    months = []
    current = first
    while current <= last:
        months.append(current)
        current = next_month(current)
    return months


def month_index(month: dt.date) -> int:
    """A month's number counted from year 0, so that differences count months."""
    return month.year * 12 + month.month - 1


def month_end(month: dt.date) -> dt.date:
    """The last day of ``month``."""
    return next_month(month) - dt.timedelta(days=1)


def month_label(month: dt.date) -> str:
    """``YYYY-MM``, the way tracker names a month everywhere."""
    return f"{month.year:04d}-{month.month:02d}"


def month_span(months: Sequence[dt.date]) -> str:
    """The first to the last of ``months`` as a message names them ("2026-01 to 2026-03";
    one month alone: "2026-01")."""
    start, end = month_label(months[0]), month_label(months[-1])
    return start if start == end else f"{start} to {end}"


def a_month_after(day: dt.date) -> dt.date:
    """The same day of the next month (its last day, where the next month is shorter)."""
    following = next_month(month_of(day))
    return min(following + dt.timedelta(days=day.day - 1), month_end(following))


def a_month_before(day: dt.date) -> dt.date:
    """The same day of the month before (its last day, where that month is shorter)."""
    before = previous_month(month_of(day))
    return min(before + dt.timedelta(days=day.day - 1), month_end(before))
