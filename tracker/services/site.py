"""``tracker site build``: everything a club's static rating pages show, read in one go.

Nothing here is computed for the site: each number comes from the service the CLI prints
it with (:func:`~tracker.services.periods.history.rating_list` for ``tracker list``,
:func:`~tracker.services.periods.history.history` for ``tracker history``,
:func:`~tracker.services.periods.detail.month_details` for ``history --month``,
:func:`~tracker.services.compare.compare` for the chart ``--plot`` draws,
:func:`~tracker.services.h2h.opponents` for ``tracker h2h PLAYER``,
:func:`~tracker.services.compare.compare_all` for the shadow beside the list,
:func:`~tracker.services.events.report.show_event` for ``event show``). The pages are drawn
by the CLI layer (:mod:`tracker.cli.site_pages`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.db.queries.players import listed_players
from tracker.services import lists
from tracker.services.compare import Comparison, StandingRow, compare, compare_all
from tracker.services.events.report import EventReport, list_events, show_event
from tracker.services.h2h import Opponents, opponents
from tracker.services.periods.detail import PeriodDetail, month_details
from tracker.services.periods.history import History, RatingList, Shared, history, rating_list
from tracker.services.players import list_players
from tracker.services.players.refs import PlayerView
from tracker.user_input import check_tc
from tracker.vocabulary import TIME_CONTROLS


@dataclass(frozen=True)
class SiteList:
    """One time control's latest list, with the shadow of each player on it and the rounded
    change of the period that made his line (None: his first rating, or no change row)."""

    tc: str
    preset: str
    rating_list: RatingList
    shadows: dict[int, StandingRow]
    changes: dict[int, int | None]


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

    @property
    def histories(self) -> tuple[History, ...]:
        return tuple(r.history for r in self.records)


@dataclass(frozen=True)
class Site:
    tcs: tuple[str, ...]  # the time controls asked for
    lists: tuple[SiteList, ...]  # those with a closed period, in the order of ``tcs``
    players: tuple[SitePlayer, ...]  # tracked players by id
    events: tuple[EventReport, ...]  # by id


def site(db: Db, tc: str | None, today: dt.date) -> Site:
    """The data of every page, in a stable order (ids, time controls as listed)."""
    tcs: tuple[str, ...] = (check_tc(tc),) if tc is not None else TIME_CONTROLS
    open_tcs = [t for t in tcs if lists.closed_months(db, t)]
    players = sorted(list_players(db, external=False), key=lambda p: p.id)
    rows = [listed.player for listed in listed_players(db, external=False)]
    histories: dict[tuple[int, str], History] = {}
    details: dict[tuple[int, str], list[PeriodDetail]] = {}
    for t in open_tcs:
        shared = Shared(db, t)
        for p in players:
            histories[p.id, t] = history(db, f"#{p.id}", t, shared)
        for month, _, _ in shared.closed:
            for pid, detail in month_details(db, shared.tc, month, shared.closed, rows).items():
                details.setdefault((pid, t), []).append(detail)
    site_lists = []
    for t in open_tcs:
        rl = rating_list(db, t, None)
        standings = compare_all(db, t)
        changes: dict[int, int | None] = {}
        for e in rl.entries:
            h = histories.get((e.player_id, t))
            row = next((r for r in h.rows if r.month == rl.month), None) if h else None
            changes[e.player_id] = (
                row.change if row is not None and row.rating_before is not None else None
            )
        site_lists.append(
            SiteList(
                tc=t,
                preset=standings.preset,
                rating_list=rl,
                shadows={r.player_id: r for r in standings.rows},
                changes=changes,
            )
        )
    events = sorted(
        {e.id for e in list_events(db, today) if tc is None or e.tc == tcs[0]},
    )
    return Site(
        tcs=tcs,
        lists=tuple(site_lists),
        players=tuple(
            SitePlayer(
                p,
                tuple(
                    SiteRecord(
                        histories[p.id, t],
                        compare(db, f"#{p.id}", t, None),
                        tuple(details.get((p.id, t), ())),
                    )
                    for t in open_tcs
                    if histories[p.id, t].rows
                ),
                opponents(db, f"#{p.id}", tc),
            )
            for p in players
        ),
        events=tuple(show_event(db, event_queries.event_facts(db, i), today) for i in events),
    )
