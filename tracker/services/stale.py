"""Stale marks: a correction (a game added, edited or removed in a closed month; a seed or a
birth year changed) marks that period and every later one stale. Reads warn about stale
periods (:func:`tracker.services.lists.stale_months`); ``rerate`` (and the next ``period
close``) recomputes them."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from tracker.db.driver import Db, day
from tracker.months import month_of

if TYPE_CHECKING:
    from tracker.db.driver import Source


def mark_stale(source: Source, tc: str, on: dt.date) -> tuple[dt.date, ...]:
    """A change to the period of ``on`` invalidates it and every later closed period (and,
    if it falls before the first closed period, all of them: tracking starts earlier). The
    closed months now stale, oldest first."""
    db = Db.of(source)
    first = db.scalar("SELECT min(month) FROM rating_periods WHERE tc = :tc", {"tc": tc})
    if first is None:
        return ()
    later = {"tc": tc, "start": max(month_of(on), day(first))}
    db.run(
        "UPDATE rating_periods SET stale = :stale WHERE tc = :tc AND month >= :start",
        {**later, "stale": True},
    )
    months = db.scalars(
        "SELECT month FROM rating_periods WHERE tc = :tc AND month >= :start ORDER BY month", later
    )
    return tuple(day(m) for m in months)


def mark_all_stale(source: Source) -> tuple[tuple[str, tuple[dt.date, ...]], ...]:
    """A change that touches every list (a seed, a birth year, tracked/external): every closed
    period of every time control is stale. The closed months by time control."""
    db = Db.of(source)
    db.run("UPDATE rating_periods SET stale = :stale", {"stale": True})
    months: dict[str, list[dt.date]] = {}
    for tc, month in db.all("SELECT tc, month FROM rating_periods ORDER BY tc, month"):
        months.setdefault(tc, []).append(day(month))
    return tuple((tc, tuple(found)) for tc, found in months.items())
