"""The live list, and where a player stands on a list.

The live list is the list as it would be published if every open month closed now: FIDE
publishes month by month, so it is the list after closing each open month in turn, up to
today's (not over yet: its games so far count, as they would if it closed today). It is made
by the close itself (:func:`tracker.services.periods.closing.close_live`: the stale periods rerated,
the open months closed, every event still running held back) in a savepoint undone at once
(:func:`rehearsed`), and read back by the code that reads a published list: the same numbers
``period close`` then ``list`` give, by construction.

Each line's place on it: :mod:`tracker.services.periods.standing`.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import lists as list_queries
from tracker.errors import NotFoundError
from tracker.services import lists
from tracker.services.periods.closing import close_live
from tracker.services.periods.listing import ListEntryView, rating_list
from tracker.services.periods.standing import place, rehearsed
from tracker.vocabulary import TimeControl


class LiveEntry(NamedTuple):
    """A line of the live list beside the last published one."""

    entry: ListEntryView  # its games: those rated in the live months
    published: int | None  # his rating on the last published list (None: not on it)
    change: int | None  # rating - published (None unless on both)
    percentile: float | None


@dataclass(frozen=True)
class LiveList:
    tc: TimeControl
    list_date: dt.date  # the live list's date: the first of the month after today's
    months: tuple[dt.date, ...]  # the months closed to make it (empty: nothing open)
    published_date: dt.date | None  # the last published list (None: no list yet)
    stale: bool  # the published lists are stale: the live list rerates them first
    entries: tuple[LiveEntry, ...]
    # the published players it drops: their published lines, with the games the live months
    # rated
    dropped: tuple[ListEntryView, ...]


def live_list(db: Db, tc: TimeControl, today: dt.date) -> LiveList:
    """The live list of ``tc`` beside the last published one (see the module's docstring)."""
    before = lists.closed_months(db, tc)
    published = rating_list(db, tc, None) if before else None

    def close_and_read() -> tuple[
        tuple[dt.date, ...], tuple[ListEntryView, ...], dt.date | None, Counter[int]
    ]:
        months = close_live(db, tc, today)
        closed = {month: period for month, period, _ in lists.closed_months(db, tc)}
        played: Counter[int] = Counter()
        for month in months:  # one read a month: the games each line rated
            played.update(dict(list_queries.period_games(db, closed[month])))
        if not closed:
            return months, (), None, played
        live = rating_list(db, tc, None)
        return months, live.entries, live.list_date, played

    months, entries, list_date, played = rehearsed(db, close_and_read)
    if list_date is None:
        raise NotFoundError(f"no {tc} games yet: nothing to rate")
    was = {e.player_id: e.rating for e in published.entries} if published else {}
    ratings = sorted(e.rating for e in entries)
    out = []
    for e in entries:
        before_rating = was.get(e.player_id)
        standing = place(ratings, e.rating)
        out.append(
            LiveEntry(
                e._replace(games=played[e.player_id]),
                published=before_rating,
                change=None if before_rating is None else e.rating - before_rating,
                percentile=standing.percentile if standing else None,
            )
        )
    on_live = {e.player_id for e in entries}
    dropped = (
        e._replace(games=played[e.player_id])
        for e in (published.entries if published else ())
        if e.player_id not in on_live
    )
    return LiveList(
        tc=tc,
        list_date=list_date,
        months=months,
        published_date=published.list_date if published else None,
        stale=published.stale if published else False,
        entries=tuple(out),
        dropped=tuple(dropped),
    )
