"""The published rating list as ``tracker list`` prints it: everyone rated on it, highest
first, read whole or streamed as it is printed."""

import datetime as dt
from collections.abc import Iterator
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import lists as list_queries
from tracker.errors import NotFoundError
from tracker.months import month_label, next_month, previous_month
from tracker.services import lists
from tracker.services.periods import registry
from tracker.services.systems import OnList
from tracker.vocabulary import TimeControl


class ListEntryView(NamedTuple):  # a tuple: a federation's list has tens of thousands
    rank: int
    player_id: int
    name: str
    title: str | None
    federation: str | None
    fide_id: int | None
    birth_year: int | None
    rating: int
    games: int
    k: int | None


class RatingList(NamedTuple):
    tc: TimeControl
    list_date: dt.date
    month: dt.date
    entries: tuple[ListEntryView, ...]
    stale: bool
    others: OnList = OnList()  # the other systems' readings of it


#: What printing a list must know before its first line (:func:`list_shape`).
ListShape = list_queries.Shape


class ListStream(NamedTuple):
    """A published list read as it is printed: its entries come in order, from the
    database, as the caller goes (in the transaction that opened it)."""

    tc: TimeControl
    list_date: dt.date
    month: dt.date
    stale: bool
    entries: Iterator[ListEntryView]
    period_id: int
    others: OnList = OnList()  # the other systems' readings of it


def rating_list(db: Db, tc: TimeControl, list_month: dt.date | None) -> RatingList:
    """The list as FIDE prints it: everyone rated on it, highest first (all of it: see
    :func:`list_stream` for one read as it is printed).

    ``list_month`` names the list by its date (the list of 2026-02 is dated 2026-02-01 and
    holds January's games); default: the latest list.
    """
    ls = list_stream(db, tc, list_month)
    return RatingList(ls.tc, ls.list_date, ls.month, tuple(ls.entries), ls.stale, ls.others)


def list_stream(db: Db, tc: TimeControl, list_month: dt.date | None) -> ListStream:
    """:func:`rating_list`, its entries streamed: the database sorts the list and its lines
    are read in batches as the caller takes them (a federation's list has hundreds of
    thousands of lines). Missing lists are refused at once."""
    closed = lists.closed_months(db, tc)
    if not closed:
        raise NotFoundError(f"no {tc} list yet: close a period first (`tracker period close`)")
    if list_month is None:
        month, period, stale = closed[-1]
    else:
        wanted = previous_month(list_month)
        match = [c for c in closed if c[0] == wanted]
        if not match:
            first, last = next_month(closed[0].month), next_month(closed[-1].month)
            raise NotFoundError(
                f"no {tc} list dated {month_label(list_month)}: lists run from "
                f"{month_label(first)} to {month_label(last)}"
            )
        month, period, stale = match[0]
    others = OnList.read(db, registry.others(), tc, month)
    return ListStream(tc, next_month(month), month, stale, _entries(db, period), period, others)


def _entries(db: Db, period: int) -> Iterator[ListEntryView]:
    # Columns, not entities: a federation's list has hundreds of thousands of lines.
    for line in list_queries.listed_lines(db, period, ("title", "federation", "fide_id")):
        title, fed, fide_id = line.extra
        yield ListEntryView(
            line.rank, line.player_id, line.name, title, fed, fide_id, line.birth_year,
            line.rating, line.games, line.k,
        )  # fmt: skip


def list_shape(db: Db, ls: ListStream) -> ListShape:
    """The shape of the list ``ls`` streams (one query of its stored entries)."""
    return list_queries.list_shape(db, ls.period_id)
