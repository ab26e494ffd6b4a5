"""``tracker site build``: everything a club's static rating pages show.

Nothing here is computed for the site: each number comes from the service the CLI prints
it with (:func:`~tracker.services.periods.history.rating_list` for ``tracker list``,
:func:`~tracker.services.periods.history.history` for ``tracker history``,
:func:`~tracker.services.periods.detail.month_details` for ``history --month``,
:func:`~tracker.services.compare.compare` for the chart ``--plot`` draws,
:func:`~tracker.services.h2h.opponents` for ``tracker h2h PLAYER``,
:func:`~tracker.services.compare.compare_all` for the shadow beside the list,
:func:`~tracker.services.events.report.show_event` for ``event show``). The pages are drawn
by the CLI layer (:mod:`tracker.cli.site_pages`).

A federation's site has tens of thousands of pages: :func:`site` reads what the index and
the Elo-and-Glicko page need, and :class:`SiteReads` gives each player's and each event's
data one at a time, to be drawn and written before the next is read; what every page reads
alike (the closed months, the lists' ranks, each month's period details) is read once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.services import lists
from tracker.services.compare import Comparison, StandingRow, compare, compare_all
from tracker.services.events.report import EventReport, EventRow, list_events, show_event
from tracker.services.h2h import Opponents, opponents
from tracker.services.periods.detail import MonthDetails, PeriodDetail
from tracker.services.periods.history import History, RatingList, Shared, history, rating_list
from tracker.services.periods.status import ListStatus, status
from tracker.services.players import list_players
from tracker.services.players.refs import PlayerView
from tracker.user_input import check_tc
from tracker.vocabulary import TIME_CONTROLS, TimeControl


@dataclass(frozen=True)
class SiteList:
    """One time control's latest list, with the shadow of each player on it and the rounded
    change of the period that made his line (None: his first rating)."""

    tc: str
    preset: str
    rating_list: RatingList
    shadows: dict[int, StandingRow]
    changes: dict[int, int | None]
    pending: ListStatus | None  # what ``tracker status`` says is open and not yet rated


@dataclass(frozen=True)
class SiteRecord:
    """One time control of a player: his history (``tracker history``), the same months as
    ``tracker compare`` gives them for the chart (as ``--plot`` draws it), and each closed
    period's games as ``tracker history --month`` lists them."""

    history: History
    comparison: Comparison
    periods: tuple[PeriodDetail, ...]  # by month


@dataclass(frozen=True)
class SitePlayer:
    player: PlayerView
    records: tuple[SiteRecord, ...]  # one per time control he has a history in
    opponents: Opponents  # ``tracker h2h PLAYER`` (of the site's time control, if one)


@dataclass(frozen=True)
class Site:
    tc: str | None  # the time control asked for; None: all
    tcs: tuple[TimeControl, ...]  # the time controls asked for
    lists: tuple[SiteList, ...]  # those with a closed period, in the order of ``tcs``
    players: tuple[PlayerView, ...]  # tracked players by id
    events: tuple[EventRow, ...]  # those with games, by id


def site(db: Db, tc: str | None, today: dt.date) -> Site:
    """The lists, the players and the events, in a stable order (ids, time controls as
    listed)."""
    tcs: tuple[TimeControl, ...] = (check_tc(tc),) if tc is not None else TIME_CONTROLS
    site_lists = []
    statuses = {s.tc: s for s in status(db, today).lists}
    for t in tcs:
        if not lists.closed_months(db, t):
            continue
        rl = rating_list(db, t, None)
        standings = compare_all(db, t)
        lines = lists.lines_at(db, t, rl.month, [e.player_id for e in rl.entries])
        changes: dict[int, int | None] = {
            e.player_id: (
                line.change
                if (line := lines.get(e.player_id)) is not None and line.rating_before is not None
                else None
            )
            for e in rl.entries
        }
        site_lists.append(
            SiteList(
                tc=t,
                preset=standings.preset,
                rating_list=rl,
                shadows={r.player_id: r for r in standings.rows},
                changes=changes,
                pending=statuses.get(t),
            )
        )
    events = sorted(  # an event whose games were all removed has no page
        (e for e in list_events(db, today) if e.games and (tc is None or e.tc == tcs[0])),
        key=lambda e: e.id,
    )
    return Site(
        tc=tc,
        tcs=tcs,
        lists=tuple(site_lists),
        players=tuple(sorted(list_players(db, external=False), key=lambda p: p.id)),
        events=tuple(events),
    )


class SiteReads:
    """Each player's and each event's page data, one at a time, from reads made once for
    all of them (each time control's closed months, list ranks and period details)."""

    def __init__(self, db: Db, site: Site) -> None:
        self.db = db
        self.site = site
        self.open_tcs = [sl.rating_list.tc for sl in site.lists]
        self.shared = {t: Shared(db, t) for t in self.open_tcs}
        self.months = {t: MonthDetails(db, s.tc, s.closed) for t, s in self.shared.items()}

    def players(self) -> Iterator[SitePlayer]:
        for p in self.site.players:
            records = []
            for t in self.open_tcs:
                h = history(self.db, f"#{p.id}", t, self.shared[t])
                if not h.rows:
                    continue
                months = self.months[t]
                periods = [
                    d for m, _, _ in months.closed if (d := months.month(m).get(p.id)) is not None
                ]
                records.append(SiteRecord(h, compare(self.db, f"#{p.id}", t, None), tuple(periods)))
            yield SitePlayer(p, tuple(records), opponents(self.db, f"#{p.id}", self.site.tc))

    def events(self, today: dt.date) -> Iterator[EventReport]:
        for e in self.site.events:
            facts = event_queries.event_facts(self.db, e.id)
            yield show_event(self.db, facts, today, self.months)
