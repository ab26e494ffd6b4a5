"""``tracker status``: where the database stands, at a glance.

Per time control with games: the latest list, the open month (the next one to close), the
games not yet rated (dated after the last closed month), the months an earlier close could
rate already, the stale periods, and the biggest movers of the latest list. Beside them the
player and game counts and the last import.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tracker.db.models import EloHistory, Game, Import, Player
from tracker.months import month_of, next_month
from tracker.services import lists
from tracker.vocabulary import TIME_CONTROLS

#: Movers shown per list.
MOVERS = 3


@dataclass(frozen=True)
class Mover:
    player_id: int
    name: str
    before: int
    rating: int | None
    change: int


@dataclass(frozen=True)
class ListStatus:
    tc: str
    last_closed: dt.date | None
    list_date: dt.date | None
    open_month: dt.date
    waiting_games: int
    waiting_months: tuple[dt.date, ...]
    closable: tuple[dt.date, ...]
    stale_months: tuple[dt.date, ...]
    movers: tuple[Mover, ...]


@dataclass(frozen=True)
class LastImport:
    id: int
    file: str
    imported_at: dt.datetime
    added: int


@dataclass(frozen=True)
class Status:
    tracked: int
    external: int
    games: int
    last_import: LastImport | None
    lists: tuple[ListStatus, ...]


def status(session: Session, today: dt.date) -> Status:
    """The database at a glance (reads only)."""
    counts = dict(
        session.execute(select(Player.external, func.count()).group_by(Player.external)).all()
    )
    games = int(session.scalar(select(func.count()).select_from(Game)) or 0)
    row = session.execute(
        select(Import.id, Import.file_name, Import.imported_at, Import.games_added)
        .order_by(Import.id.desc())
        .limit(1)
    ).first()
    last_import = LastImport(*row) if row is not None else None
    tcs = tuple(
        s for s in (_list_status(session, tc, today) for tc in TIME_CONTROLS) if s is not None
    )
    return Status(
        tracked=int(counts.get(False, 0)),
        external=int(counts.get(True, 0)),
        games=games,
        last_import=last_import,
        lists=tcs,
    )


def _list_status(session: Session, tc: str, today: dt.date) -> ListStatus | None:
    closed = lists.closed_months(session, tc)
    first = lists.first_game_month(session, tc)
    if not closed and first is None:
        return None
    last = closed[-1][0] if closed else None
    open_month = next_month(last) if last is not None else (first or month_of(today))
    waiting = session.execute(
        select(Game.played_on).where(Game.tc == tc, Game.played_on >= open_month)
    ).scalars()
    months: dict[dt.date, int] = {}
    for day in waiting:
        months[month_of(day)] = months.get(month_of(day), 0) + 1
    current = month_of(today)
    return ListStatus(
        tc=tc,
        last_closed=last,
        list_date=next_month(last) if last is not None else None,
        open_month=open_month,
        waiting_games=sum(months.values()),
        waiting_months=tuple(sorted(months)),
        closable=tuple(m for m in sorted(months) if m < current),
        stale_months=tuple(m for m, _, stale in closed if stale),
        movers=_movers(session, closed[-1][1]) if closed else (),
    )


def _movers(session: Session, period_id: int) -> tuple[Mover, ...]:
    """The largest rating changes on a list (of players rated before it; ``rating`` None when
    the change took one below the floor), largest first."""
    rows = session.execute(
        select(
            Player.id, Player.name, EloHistory.rating_before, EloHistory.rating, EloHistory.change
        )
        .join(Player, Player.id == EloHistory.player_id)
        .where(
            EloHistory.period_id == period_id,
            EloHistory.rating_before.is_not(None),
            EloHistory.games > 0,
        )
    ).all()
    movers = [
        Mover(pid, name, before, rating, change)
        for pid, name, before, rating, change in rows
        if change != 0 and before is not None
    ]
    movers.sort(key=lambda m: (-abs(m.change), m.name, m.player_id))
    return tuple(movers[:MOVERS])
