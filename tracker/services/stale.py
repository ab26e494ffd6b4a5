"""Stale marks: a correction (a game added, edited or removed in a closed month; a seed or a
birth year changed) marks that period and every later one stale. Reads warn about stale
periods (:func:`tracker.services.lists.stale_months`); ``rerate`` (and the next ``period
close``) recomputes them."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from tracker.db.models import RatingPeriod
from tracker.months import month_of


def mark_stale(session: Session, tc: str, day: dt.date) -> tuple[dt.date, ...]:
    """A change to the period of ``day`` invalidates it and every later closed period (and,
    if it falls before the first closed period, all of them: tracking starts earlier). The
    closed months now stale, oldest first."""
    month = month_of(day)
    first = session.scalar(select(func.min(RatingPeriod.month)).where(RatingPeriod.tc == tc))
    if first is None:
        return ()
    start = max(month, first)
    session.execute(
        update(RatingPeriod)
        .where(RatingPeriod.tc == tc, RatingPeriod.month >= start)
        .values(stale=True)
    )
    return tuple(
        session.scalars(
            select(RatingPeriod.month)
            .where(RatingPeriod.tc == tc, RatingPeriod.month >= start)
            .order_by(RatingPeriod.month)
        )
    )


def mark_all_stale(session: Session) -> None:
    """A change that touches every list (a seed, a birth year, tracked/external)."""
    session.execute(update(RatingPeriod).values(stale=True))
