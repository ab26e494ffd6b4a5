"""``tracker status``: where the database stands, at a glance.

Per time control with games: the latest list, the open month (the next one to close), the
games not yet rated (those the next closes rate, by the close's own rule: a running event's
games wait for its end), the months an earlier close could rate already, the games a rerate
rates (in stale periods, or before the first closed one), the stale periods, and the biggest
movers of the latest list: on the official list, and in every other registered rating system
but the shadow (:func:`~tracker.services.periods.others`: from its readings of the
two latest lists). Beside them the player and game counts and the last import.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import status as queries
from tracker.db.queries.lists import ClosedMonth
from tracker.db.queries.periods import player_names
from tracker.db.queries.status import LastImport
from tracker.months import month_of, next_month
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.periods import registry
from tracker.services.systems import Shown
from tracker.vocabulary import TIME_CONTROLS, TimeControl

#: Movers shown per list.
MOVERS = 3


@dataclass(frozen=True)
class Mover:
    player_id: int
    name: str
    before: float  # the official list's: whole numbers
    rating: float | None
    change: float


@dataclass(frozen=True)
class Moves:
    """The biggest movers of a system beside the official list (by its name): the players
    whose reading changed most between the two latest lists (of those it rated on both)."""

    system: str
    movers: tuple[Mover, ...]


@dataclass(frozen=True)
class ListStatus:
    tc: TimeControl
    last_closed: dt.date | None
    list_date: dt.date | None
    open_month: dt.date
    waiting_games: int
    waiting_months: tuple[dt.date, ...]
    closable: tuple[dt.date, ...]
    stale_months: tuple[dt.date, ...]
    movers: tuple[Mover, ...]
    # played games a rerate rates: those of stale periods, and those before the first
    # closed period (tracking starts earlier)
    rerate_games: int = 0
    others: tuple[Moves, ...] = ()  # the other systems' movers (registry.others)


@dataclass(frozen=True)
class Status:
    tracked: int
    external: int
    games: int
    last_import: LastImport | None
    lists: tuple[ListStatus, ...]


def status(db: Db, today: dt.date) -> Status:
    """The database at a glance (reads only)."""
    tracked, external = queries.player_counts(db)
    last_import = queries.last_import(db)
    tcs = tuple(s for s in (_list_status(db, tc, today) for tc in TIME_CONTROLS) if s is not None)
    return Status(
        tracked=tracked,
        external=external,
        games=queries.game_count(db),
        last_import=last_import,
        lists=tcs,
    )


def _list_status(db: Db, tc: TimeControl, today: dt.date) -> ListStatus | None:
    closed = lists.closed_months(db, tc)
    first = lists.first_game_month(db, tc)
    if not closed and first is None:
        return None
    last = closed[-1].month if closed else None
    open_month = next_month(last) if last is not None else (first or month_of(today))
    stale = tuple(m for m, _, is_stale in closed if is_stale)
    # What the next closes and a rerate rate, by the close's own rule (rated_games.pending):
    # the periods from the open month on; the stale ones; those before tracking began.
    first_closed = closed[0].month if closed else None
    since = min(m for m in (open_month, *stale[:1], first) if m is not None)
    counts = rated_games.pending(db, tc, since)
    waiting = {m: n for m, n in counts.items() if m >= open_month}
    rerate = sum(
        n
        for m, n in counts.items()
        if m < open_month and (m in stale or (first_closed is not None and m < first_closed))
    )
    current = month_of(today)
    return ListStatus(
        tc=tc,
        last_closed=last,
        list_date=next_month(last) if last is not None else None,
        open_month=open_month,
        waiting_games=sum(waiting.values()),
        waiting_months=tuple(waiting),
        closable=tuple(m for m in waiting if m < current),
        stale_months=stale,
        movers=_movers(db, closed[-1].period_id) if closed else (),
        rerate_games=rerate,
        others=tuple(_moves(db, system, tc, closed) for system in registry.others()),
    )


def _movers(db: Db, period_id: int) -> tuple[Mover, ...]:
    """The largest rating changes on a list (of players rated before it; ``rating`` None when
    the change took one below the floor), largest first."""
    return _largest([Mover(*row) for row in registry.OFFICIAL.changes(db, period_id)])


def _largest(movers: list[Mover]) -> tuple[Mover, ...]:
    movers.sort(key=lambda m: (-abs(m.change), m.name, m.player_id))
    return tuple(movers[:MOVERS])


def _moves(db: Db, system: Shown, tc: TimeControl, closed: list[ClosedMonth]) -> Moves:
    """A system's biggest movers on the latest list: its readings of it beside those of the
    list before (none with a single list)."""
    if len(closed) < 2:
        return Moves(system.name, ())
    before, after = (system.on_list(db, tc, month) for month, _, _ in closed[-2:])
    changed = {
        pid: (old, new)
        for pid, r in after.items()
        if (new := r.rating) is not None
        and pid in before
        and (old := before[pid].rating) is not None
        and new != old
    }
    names = player_names(db, list(changed))
    movers = [Mover(p, names[p], old, new, new - old) for p, (old, new) in changed.items()]
    return Moves(system.name, _largest(movers))
