"""Closing one month: every registered rating system (:mod:`tracker.services.systems`:
FIDE's Elo, the official list, then the Glicko shadow) reads the month, folds it (pure) and
writes its rows for the new period.

A period is one month of one time control; closing it rates every game played in it and
publishes the list dated the first of the next month (FIDE Rating Regulations 2024 §7.1).
``rerate`` is the same close over every month from the first to change.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.periods.fide_elo import ClosedPeriod, FideElo
from tracker.services.shadow import GlickoShadow
from tracker.services.systems import Month, Periods, RatingSystem, Shown
from tracker.vocabulary import TimeControl

__all__ = ["OFFICIAL", "SYSTEMS", "ClosedPeriod", "close_months", "delete_periods"]

#: The official list: its close is what ``period close`` reports.
OFFICIAL = FideElo()

#: The rating systems every close runs, in this order (the official list first: the others
#: may read the list it was given, ``Month.ratings``). A test registers a system of its own
#: here to show the seam holds.
SYSTEMS: list[RatingSystem] = [OFFICIAL, GlickoShadow()]


def system(name: str) -> RatingSystem:
    """The registered system called ``name`` (``fide``, ``shadow``)."""
    for registered in SYSTEMS:
        if registered.name == name:
            return registered
    raise LookupError(f"no rating system {name!r} is registered")


def beside() -> list[Shown]:
    """The systems shown beside the official list: every one registered after it."""
    return cast("list[Shown]", SYSTEMS[1:])


def others() -> list[Shown]:
    """The systems beside the official list but the shadow (whose Glicko numbers the readers
    compare with the Elo on their own): each shown as its columns (``Shown``)."""
    return [s for s in beside() if s.name != "shadow"]


def close_months(
    db: Db, tc: TimeControl, months: list[dt.date], first_month: dt.date
) -> tuple[ClosedPeriod, ...]:
    """Close ``months`` in order, each handing what it wrote to the next (``rerate`` is this
    loop over every month from the first to change)."""
    done = []
    carry: dict[str, Any] = {}  # by system: what its close of the previous month handed on
    with without_gc():
        for i, month in enumerate(months):
            closed, carry = _close_month(
                db, tc, month, first_month, carry, keep=i < len(months) - 1
            )
            done.append(closed)
    return tuple(done)


def _close_month(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    first_month: dt.date,
    carry: dict[str, Any],
    *,
    keep: bool,
) -> tuple[ClosedPeriod, dict[str, Any]]:
    """Close one month: every system's read, then every fold, then the period and every
    system's rows. With ``keep``, also what closing the next month needs, by system."""
    systems = list(SYSTEMS)
    if systems[0] is not OFFICIAL:
        raise AssertionError("the official list closes first")
    played = rated_games.month_games(db, tc, month)  # the shadow rates every game when played
    inputs = Month(db, tc, month, first_month, played, lists.ListRatings(db, tc), keep)
    reads = [system.read(inputs, carry.get(system.name)) for system in systems]
    folds = [system.fold(read) for system, read in zip(systems, reads, strict=True)]
    period = periods.add_period(db, tc, month)
    handed = {
        system.name: system.write(inputs, period, read, folded)
        for system, read, folded in zip(systems, reads, folds, strict=True)
    }
    lists.store_list(db, tc, month, period)  # the list published, once its lines are stored
    return OFFICIAL.report(inputs, reads[0], folds[0]), handed


def delete_periods(
    db: Db, tc: TimeControl, *, since: dt.date | None = None, before: dt.date | None = None
) -> None:
    """Delete the closed periods of ``tc`` from ``since`` on, or before ``before``, with every
    system's rows of them."""
    which = Periods(tc, since, before)
    for system in SYSTEMS:
        system.delete(db, which)
    periods.delete_periods(db, tc, since=since, before=before)
