"""Where a player stands on a list, and reading what a write would make.

A player's place on a list is among the rated players of that list (of one time control):
his rank (1 + those rated higher; equal ratings share a rank, as on the printed list), how
many are rated, and his percentile: the share of the list's rated players rated below him,
from 0 (none is) to under 100 (he is one of them). His peak is the highest rating he was
published with, and the first list that gave it.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tracker.db.driver import Db
from tracker.db.queries import lists as list_queries
from tracker.db.queries import periods as period_queries
from tracker.db.queries.lists import ClosedMonth
from tracker.months import next_month
from tracker.services import lists

T = TypeVar("T")


def rehearsed(db: Db, work: Callable[[], T]) -> T:
    """``work`` in a savepoint undone when it ends: what it wrote is gone, what it read and
    returned stays. On PostgreSQL the transaction must allow writes (``AppState.rehearse``)."""
    counters = period_queries.sequence_values(db)
    savepoint = db.savepoint("rehearsal")
    try:
        return work()
    finally:
        savepoint.undo()
        period_queries.restore_sequences(db, counters)  # PostgreSQL's do not roll back


@dataclass(frozen=True)
class Standing:
    """A rated player's place on one list (see the module's docstring)."""

    rank: int
    of: int
    percentile: float  # share of the list's rated players rated below him, 0..100


class Standings:
    """The ratings on the closed lists of a time control, to place a rating on each: one read
    of the stored lines (and the seeds), the lists of ``months`` only kept."""

    def __init__(self, db: Db, tc: str, closed: list[ClosedMonth], months: Collection[dt.date]):
        self._lists: dict[dt.date, list[int]] = {}
        wanted = set(months)
        if not closed or not wanted:
            return
        first = closed[0].month
        current: dict[int, int | None] = {
            pid: lists.seeded_state(seed, seed.birth_year, first).rating
            for pid, seed in lists.seeds(db, tc).items()
        }
        moves = list_queries.list_moves(db, tc, max(wanted))
        i = 0
        for month, _, _ in closed:
            if month > max(wanted):
                break
            while i < len(moves) and moves[i][0] <= month:
                _, pid, rating = moves[i]
                current[pid] = rating
                i += 1
            if month in wanted:
                self._lists[month] = sorted(r for r in current.values() if r)

    def place(self, month: dt.date, rating: int | None) -> Standing | None:
        """Where ``rating`` stands on the list closing ``month`` (None: unrated, or not a
        list read)."""
        return place(self._lists.get(month, []), rating)


def place(ratings: Sequence[int], rating: int | None) -> Standing | None:
    """Where ``rating`` stands among ``ratings`` (a list's, sorted lowest first)."""
    if not ratings or not rating:
        return None
    n = len(ratings)
    below = bisect.bisect_left(ratings, rating)
    above = n - bisect.bisect_right(ratings, rating)
    return Standing(above + 1, n, 100 * below / n)


@dataclass(frozen=True)
class Peak:
    rating: int
    list_date: dt.date  # the first list he reached it on


def peak(lines: list[tuple[dt.date, bool, list_queries.Line]]) -> Peak | None:
    """The highest published rating of :func:`lists.player_lines` and its first list."""
    best: Peak | None = None
    for month, _, line in lines:
        if line.rating and (best is None or line.rating > best.rating):
            best = Peak(line.rating, next_month(month))
    return best
