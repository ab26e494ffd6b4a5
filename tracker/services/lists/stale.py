"""Stale marks: a correction (a game added, edited or removed in a closed month; a seed or a
birth year changed) marks that period and every later one stale. Reads warn about stale
periods (as :func:`tracker.services.lists.closed_months` marks them); ``rerate`` (and the
next ``period close``) recomputes them, every rating system of the close alike, from the first stale
period: so a game marks stale the first period that any of them rates it in
(:func:`changed_month`)."""

from __future__ import annotations

import datetime as dt

from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.months import month_of
from tracker.ratings.fide.events import EventSpan, changed_period
from tracker.services import log
from tracker.vocabulary import TimeControl

Span = EventSpan


def changed_month(before: Span | None, after: Span | None, played_on: dt.date) -> dt.date:
    """The first period a game on ``played_on`` can change when it is added to, edited in or
    removed from an event spanning ``before`` and then ``after`` (see
    :func:`tracker.ratings.fide.changed_period`): the period in which FIDE rates it (the month
    its event ends in) or, if earlier, the game's own month, in which the Glicko shadow rates
    it (the shadow takes every played game in the month it was played). A game of 29
    September in an open rated in October changes September's shadow: rerating from October
    would leave it out, and rerating would no longer equal logging the game on time."""
    return min(changed_period(before, after, played_on), month_of(played_on))


def mark_stale(db: Db, tc: TimeControl, on: dt.date) -> tuple[dt.date, ...]:
    """A change to the period of ``on`` invalidates it and every later closed period (and,
    if it falls before the first closed period, all of them: tracking starts earlier). The
    closed months now stale, oldest first."""
    first = periods.first_closed_month(db, tc)
    if first is None:
        return ()
    marked = periods.mark_stale_from(db, tc, max(month_of(on), first))
    log.note_stale(db, tc, marked)
    return marked


def mark_all_stale(db: Db) -> tuple[tuple[TimeControl, tuple[dt.date, ...]], ...]:
    """A change that touches every list (a seed, a birth year, tracked/external): every closed
    period of every time control is stale. The closed months by time control."""
    months = periods.mark_all_stale(db)
    for tc, found in months.items():
        log.note_stale(db, tc, found)
    return tuple((tc, tuple(found)) for tc, found in months.items())


def stale_back(db: Db, tc: TimeControl, *, but: int) -> tuple[dt.date, ...] | None:
    """Undo the stale marks of the log entry ``but`` (a removal a restore undoes): the closed
    periods of ``tc`` are stale from the first month another change since their last close
    or rerate marked (none: none is); the months left stale. None when the log cannot tell
    (no close or rerate of ``tc`` in it: the marks may be older than the log)."""
    entries = log.read_log(db)
    settled = [
        i
        for i, entry in enumerate(entries)
        if any(n["did"] in ("closed", "rerated") and n.get("tc") == tc for n in entry.notes)
    ]
    if not settled:
        return None
    marked = [
        dt.date.fromisoformat(f"{label}-01")
        for entry in entries[settled[-1] + 1 :]
        if entry.id != but
        for n in entry.notes
        if n["did"] == "stale" and n.get("tc") == tc
        for label in n.get("months", ())
    ]
    return periods.stale_from(db, tc, min(marked, default=None))
