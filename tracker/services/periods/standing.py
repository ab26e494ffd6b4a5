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
from itertools import accumulate, groupby
from operator import itemgetter
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
    of the stored lines (and the seeds), the lists of ``months`` only kept, each as how many of
    its players have each rating (a few thousand numbers, whatever the size of the list)."""

    def __init__(self, db: Db, tc: str, closed: list[ClosedMonth], months: Collection[dt.date]):
        self._lists: dict[dt.date, _Counted] = {}
        wanted = set(months)
        if not closed or not wanted:
            return
        last = max(wanted)
        # a seed is a player's rating on every list before his first stored line
        current: dict[int, int | None] = {p: s.rating for p, s in lists.seeds(db, tc).items()}
        counts: dict[int, int] = {}
        for r in current.values():
            if r:
                counts[r] = counts.get(r, 0) + 1
        # the stored lines come list by list, in the order of the lists
        lines = groupby(list_queries.list_moves(db, tc, last), key=itemgetter(0))
        period_lines = next(lines, None)
        for month, period, _ in closed:
            if month > last:
                break
            if period_lines is not None and period_lines[0] == period:
                for _, pid, rating in period_lines[1]:
                    before = current.get(pid)
                    if before:
                        counts[before] -= 1
                    if rating:
                        counts[rating] = counts.get(rating, 0) + 1
                    current[pid] = rating
                period_lines = next(lines, None)
            if month in wanted:
                self._lists[month] = _Counted(counts)

    def place(self, month: dt.date, rating: int | None) -> Standing | None:
        """Where ``rating`` stands on the list closing ``month`` (None: unrated, or not a
        list read)."""
        counted = self._lists.get(month)
        return None if counted is None else counted.place(rating)


class _Counted:
    """A list's ratings as the number of its players at or below each rating."""

    def __init__(self, counts: dict[int, int]):
        self.ratings = sorted(r for r, n in counts.items() if n > 0)
        self.at_most = list(accumulate(counts[r] for r in self.ratings))
        self.size = self.at_most[-1] if self.at_most else 0

    def place(self, rating: int | None) -> Standing | None:
        """As :func:`place` on the list's sorted ratings."""
        if not self.size or not rating:
            return None
        lower = bisect.bisect_left(self.ratings, rating)
        below = self.at_most[lower - 1] if lower else 0
        upper = bisect.bisect_right(self.ratings, rating)
        above = self.size - (self.at_most[upper - 1] if upper else 0)
        return Standing(above + 1, self.size, 100 * below / self.size)


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
