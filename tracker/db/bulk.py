"""Small helpers of batch work on a session: reading one column of many players, and pausing
the collector (:mod:`tracker.db.collector`, kept importable from here).

Bulk writes go through :meth:`tracker.db.driver.Db.insert_many` (COPY on PostgreSQL, one
``executemany`` on SQLite).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tracker.db.collector import without_gc as without_gc  # the close and the shadow use it
from tracker.db.models import Player

#: Ids per ``IN (...)`` list.
_IN_CHUNK = 500


def player_values(session: Session, column: Any, ids: Iterable[int]) -> dict[int, Any]:
    """``column`` of the players ``ids`` (a few: the month's newcomers, say), by id."""
    wanted = sorted(set(ids))
    out: dict[int, Any] = {}
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        out.update(session.execute(select(Player.id, column).where(Player.id.in_(chunk))).all())
    return out
