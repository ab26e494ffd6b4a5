"""Events as ``tracker event`` reads and changes them: the period an event is rated in, the
ratings FIDE rated players with in it (:mod:`tracker.services.events`)."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, maybe_day


class EventFacts(NamedTuple):
    """An event's name, recorded start, stated rating period and time controls played."""

    id: int
    name: str
    start_date: dt.date
    rated_in: dt.date | None
    tcs: tuple[str, ...]


def event_facts(db: Db, event_id: int) -> EventFacts:
    row = db.first(
        "SELECT id, name, start_date, rated_in FROM events WHERE id = :id", {"id": event_id}
    )
    assert row is not None
    tcs = db.scalars(
        "SELECT DISTINCT tc FROM games WHERE event_id = :id ORDER BY tc", {"id": event_id}
    )
    return EventFacts(int(row[0]), str(row[1]), day(row[2]), maybe_day(row[3]), tuple(tcs))


def set_rated_in(db: Db, event_id: int, month: dt.date | None) -> None:
    db.run("UPDATE events SET rated_in = :month WHERE id = :id", {"month": month, "id": event_id})


def player_games_in(db: Db, event_id: int, player_id: int) -> int:
    """How many games of the event the player plays (forfeits included)."""
    return int(
        db.scalar(
            "SELECT count(*) FROM games WHERE event_id = :event "
            "AND (white_id = :pid OR black_id = :pid)",
            {"event": event_id, "pid": player_id},
        )
    )


def event_ratings_of(db: Db, event_id: int) -> dict[int, int]:
    """The ratings given for players of the event (a corrected Ro), by player."""
    rows = db.all(
        "SELECT player_id, rating FROM event_ratings WHERE event_id = :id", {"id": event_id}
    )
    return {int(pid): int(rating) for pid, rating in rows}


def put_event_rating(db: Db, event_id: int, player_id: int, rating: int) -> None:
    delete_event_rating(db, event_id, player_id)
    db.run(
        "INSERT INTO event_ratings (event_id, player_id, rating) VALUES (:e, :p, :r)",
        {"e": event_id, "p": player_id, "r": rating},
    )


def delete_event_rating(db: Db, event_id: int, player_id: int) -> int:
    return db.run(
        "DELETE FROM event_ratings WHERE event_id = :e AND player_id = :p",
        {"e": event_id, "p": player_id},
    )


class NotedEvent(NamedTuple):
    """An event of a player's with FIDE inputs given: a stated rating period, or the rating
    FIDE rated him with (None: none given)."""

    event_id: int
    name: str
    rated_in: dt.date | None
    ro: int | None


def noted_events(db: Db, player_id: int) -> list[NotedEvent]:
    """The player's events with a stated rating period or a rating given for him."""
    rows = db.all(
        """
        SELECT e.id, e.name, e.rated_in, r.rating FROM events e
        LEFT JOIN event_ratings r ON r.event_id = e.id AND r.player_id = :pid
        WHERE (e.rated_in IS NOT NULL OR r.rating IS NOT NULL)
            AND EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id
                AND (g.white_id = :pid OR g.black_id = :pid))
        ORDER BY e.id""",
        {"pid": player_id},
    )
    return [
        NotedEvent(int(e), str(name), maybe_day(rated), None if ro is None else int(ro))
        for e, name, rated, ro in rows
    ]


def events_named(db: Db, key: str) -> list[tuple[int, str]]:
    """The events whose name compares as ``key`` (:func:`tracker.services.intake.event_key`):
    (id, name), in the order they were added."""
    rows = db.all("SELECT id, name FROM events WHERE name_key = :key ORDER BY id", {"key": key})
    return [(int(i), str(name)) for i, name in rows]


def event_names(db: Db) -> list[str]:
    return [str(name) for name in db.scalars("SELECT name FROM events ORDER BY name")]


def events_started_in(
    db: Db, player_id: int, tc: str, months: list[dt.date]
) -> list[tuple[int, str]]:
    """The player's events of ``tc`` with a game in one of ``months`` (first days) or later
    whose recorded start falls in one of them: (id, name)."""
    if not months:
        return []
    rows = db.all(
        """
        SELECT DISTINCT e.id, e.name, e.start_date FROM events e
        JOIN games g ON g.event_id = e.id
        WHERE g.tc = :tc AND (g.white_id = :pid OR g.black_id = :pid)
            AND e.start_date >= :first""",
        {"tc": tc, "pid": player_id, "first": min(months)},
    )
    wanted = {(m.year, m.month) for m in months}
    return [
        (int(e), str(name))
        for e, name, start in rows
        if (day(start).year, day(start).month) in wanted
    ]
