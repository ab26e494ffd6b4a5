"""Rating periods: a month of one time control, closed (its list published) or not."""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day


def add_period(db: Db, tc: str, month: dt.date) -> int:
    """A closed period (not stale); its id."""
    return db.insert(
        "INSERT INTO rating_periods (tc, month, stale) VALUES (:tc, :month, :stale)",
        {"tc": tc, "month": month, "stale": False},
    )


def delete_periods(
    db: Db, tc: str, *, since: dt.date | None = None, before: dt.date | None = None
) -> None:
    """Delete the closed periods of ``tc`` from ``since`` on, or before ``before``, with the
    lists and shadows they published."""
    if (since is None) == (before is None):
        raise ValueError("one of since and before")
    which = "month >= :month" if since is not None else "month < :month"
    params = {"tc": tc, "month": since if since is not None else before}
    doomed = f"SELECT id FROM rating_periods WHERE tc = :tc AND {which}"
    for history in ("elo_history", "glicko_history"):
        db.run(f"DELETE FROM {history} WHERE period_id IN ({doomed})", params)
    db.run(f"DELETE FROM rating_periods WHERE tc = :tc AND {which}", params)


def time_controls_closed(db: Db) -> set[str]:
    """The time controls with a closed period."""
    return set(db.scalars("SELECT DISTINCT tc FROM rating_periods"))


class DayCount(NamedTuple):
    """The played games of one day of one event (``event_id`` None: games without one)."""

    event_id: int | None
    played_on: dt.date
    games: int


def played_by_event_day(db: Db, tc: str, forfeits: tuple[str, ...]) -> list[DayCount]:
    """The games of ``tc`` whose result is not one of ``forfeits``, counted by event and day."""
    rows = db.all(
        "SELECT event_id, played_on, count(*) FROM games"
        " WHERE tc = :tc AND result NOT IN (:forfeits) GROUP BY event_id, played_on",
        {"tc": tc, "forfeits": forfeits},
    )
    return [DayCount(event, day(on), n) for event, on, n in rows]


def players_rated_by_period(db: Db) -> dict[int, int]:
    """How many players played rated games in each closed period, by period id."""
    rows = db.all("SELECT period_id, count(*) FROM elo_history WHERE games > 0 GROUP BY period_id")
    return {period: n for period, n in rows}


def player_birth_years(db: Db, ids: list[int]) -> dict[int, int | None]:
    """The birth year of each of the players ``ids``, by id."""
    return dict(_player_column(db, "birth_year", ids))


def player_names(db: Db, ids: list[int]) -> dict[int, str]:
    """The name of each of the players ``ids``, by id."""
    return dict(_player_column(db, "name", ids))


def _player_column(db: Db, column: str, ids: list[int]) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    for chunk in chunks(sorted(set(ids))):
        out.extend(db.all(f"SELECT id, {column} FROM players WHERE id IN (:ids)", {"ids": chunk}))
    return out
