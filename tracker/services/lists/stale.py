"""Stale marks: a correction (a game added, edited or removed in a closed month; a seed or a
birth year changed) marks that period and every later one stale. Reads warn about stale
periods (:func:`tracker.services.lists.stale_months`); ``rerate`` (and the next ``period
close``) recomputes them."""

from __future__ import annotations

import datetime as dt

from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.months import month_of


def mark_stale(db: Db, tc: str, on: dt.date) -> tuple[dt.date, ...]:
    """A change to the period of ``on`` invalidates it and every later closed period (and,
    if it falls before the first closed period, all of them: tracking starts earlier). The
    closed months now stale, oldest first."""
    first = periods.first_closed_month(db, tc)
    if first is None:
        return ()
    return periods.mark_stale_from(db, tc, max(month_of(on), first))


def mark_all_stale(db: Db) -> tuple[tuple[str, tuple[dt.date, ...]], ...]:
    """A change that touches every list (a seed, a birth year, tracked/external): every closed
    period of every time control is stale. The closed months by time control."""
    months = periods.mark_all_stale(db)
    return tuple((tc, tuple(found)) for tc, found in months.items())
