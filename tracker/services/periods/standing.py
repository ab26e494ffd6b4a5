"""Where a player stands on a list, and reading what a write would make.

A player's place on a list is among the rated players of that list (of one time control):
his rank (1 + those rated higher; equal ratings share a rank, as on the printed list), how
many are rated, and his percentile: the share of the list's rated players rated below him,
from 0 (none is) to under 100 (he is one of them). His peak is the highest rating he was
published with, and the first list that gave it.
"""

import bisect
import datetime as dt
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from tracker.db.driver import Db
from tracker.db.queries import lists as list_queries
from tracker.db.queries import periods as period_queries
from tracker.months import next_month
from tracker.vocabulary import TimeControl

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


class Standing(NamedTuple):
    """A rated player's place on one list (see the module's docstring)."""

    rank: int
    of: int
    percentile: float  # share of the list's rated players rated below him, 0..100


class ListPlaces:
    """Where one player stands on each stored list of a time control he is rated on: his
    entries' ranks and the sizes of those lists, read by index probes around his own rank
    (``list_entries``), whatever the size of the lists."""

    def __init__(self, db: Db, tc: TimeControl, player_id: int) -> None:
        self._lists = {
            p.month: stood(p.rank, p.tied, p.last_rank + p.last_tied - 1)
            for p in list_queries.player_places(db, tc, player_id)
        }

    def place(self, month: dt.date) -> Standing | None:
        """Where he stands on the list closing ``month`` (None: he is not rated on it)."""
        return self._lists.get(month)


def stood(rank: int, tied: int, size: int) -> Standing:
    """The standing of a rank shared by ``tied`` players on a list of ``size``."""
    return Standing(rank, size, 100 * (size - (rank - 1) - tied) / size)


def place(ratings: Sequence[int], rating: int | None) -> Standing | None:
    """Where ``rating`` stands among ``ratings`` (a list's, sorted lowest first)."""
    if not ratings or not rating:
        return None
    below = bisect.bisect_left(ratings, rating)
    above = len(ratings) - bisect.bisect_right(ratings, rating)
    return stood(above + 1, len(ratings) - above - below, len(ratings))


class Peak(NamedTuple):
    rating: int
    list_date: dt.date  # the first list he reached it on


def peak(lines: list[tuple[dt.date, bool, list_queries.Line]]) -> Peak | None:
    """The highest published rating of :func:`lists.player_lines` and its first list."""
    best: Peak | None = None
    for month, _, line in lines:
        if line.rating and (best is None or line.rating > best.rating):
            best = Peak(line.rating, next_month(month))
    return best
