"""Events as ``tracker event`` reads and changes them: the period an event is rated in, the
ratings FIDE rated players with in it (:mod:`tracker.services.events.edit`)."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, insert_sql, maybe_day
from tracker.db.queries.games import GAME_COLUMNS, GameRow
from tracker.db.queries.hints import not_indexed
from tracker.db.queries.lists import event_ratings
from tracker.db.queries.players import PlayerRow
from tracker.db.queries.rated_games import UNPLAYED
from tracker.vocabulary import TimeControl


def event_tcs(db: Db, event_id: int) -> tuple[TimeControl, ...]:
    """The time controls the event's games are of."""
    sql = "SELECT DISTINCT tc FROM games WHERE event_id = :id ORDER BY tc"
    return tuple(db.scalars(sql, {"id": event_id}))


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
    return {pid: rating for (_, pid), rating in event_ratings(db, [event_id]).items()}


class EventRatingRow(NamedTuple):
    """A rating given for a player of an event (``event_ratings``: a corrected Ro)."""

    event_id: int
    player_id: int
    rating: int


def put_event_rating(db: Db, given: EventRatingRow) -> None:
    """Store a given rating (replacing the player's in the event)."""
    delete_event_rating(db, given.event_id, given.player_id)
    db.run(insert_sql("event_ratings", EventRatingRow._fields), given._asdict())


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
    return db.rows(
        NotedEvent,
        """
        SELECT e.id, e.name, e.rated_in, r.rating FROM events e
        LEFT JOIN event_ratings r ON r.event_id = e.id AND r.player_id = :pid
        WHERE e.id IN (
                SELECT id FROM events WHERE rated_in IS NOT NULL
                UNION SELECT event_id FROM event_ratings WHERE player_id = :pid
            )
            AND EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id
                AND (g.white_id = :pid OR g.black_id = :pid))
        ORDER BY e.id""",
        {"pid": player_id},
    )


def event_names(db: Db) -> list[str]:
    return [str(name) for name in db.scalars("SELECT name FROM events ORDER BY name")]


def events_started_in(
    db: Db, player_id: int, tc: TimeControl, months: list[dt.date]
) -> list[tuple[int, str]]:
    """The player's events of ``tc`` with a game in one of ``months`` (first days) or later
    whose recorded start falls in one of them: (id, name)."""
    if not months:
        return []
    rows = db.all(
        f"""
        SELECT DISTINCT e.id, e.name, e.start_date FROM events e
        JOIN games g ON g.event_id = e.id
        WHERE {not_indexed("g.tc")} = :tc AND (g.white_id = :pid OR g.black_id = :pid)
            AND e.start_date >= :first""",
        {"tc": tc, "pid": player_id, "first": min(months)},
    )
    wanted = {(m.year, m.month) for m in months}
    return [
        (int(e), str(name))
        for e, name, start in rows
        if (day(start).year, day(start).month) in wanted
    ]


class EventSummary(NamedTuple):
    """An event in one time control as ``event list`` shows it (``tc`` None: no games), with
    what is declared of it (its end, rounds and kind; None: not declared)."""

    id: int
    name: str
    start_date: dt.date
    start_fixed: bool
    rated_in: dt.date | None
    tc: TimeControl | None
    games: int  # forfeits included
    played: int  # forfeits left out (§5.1)
    first: dt.date | None  # the first and last played game
    last: dt.date | None
    end_date: dt.date | None = None
    rounds: int | None = None
    kind: str | None = None


def event_summaries(db: Db, event_id: int | None = None) -> list[EventSummary]:
    """Every event (or the one ``event_id``) by time control, by start and id."""
    where = "" if event_id is None else "WHERE e.id = :id"
    return db.rows(
        EventSummary,
        f"""
        SELECT e.id, e.name, e.start_date, e.start_fixed, e.rated_in,
            coalesce(g.tc, e.tc), count(g.id),
            coalesce(sum(CASE WHEN g.result NOT IN {UNPLAYED} THEN 1 ELSE 0 END), 0),
            min(CASE WHEN g.result NOT IN {UNPLAYED} THEN g.played_on END),
            max(CASE WHEN g.result NOT IN {UNPLAYED} THEN g.played_on END),
            e.end_date, e.rounds, e.kind
        FROM events e LEFT JOIN games g ON g.event_id = e.id {where}
        GROUP BY e.id, e.name, e.start_date, e.start_fixed, e.rated_in, g.tc, e.tc,
            e.end_date, e.rounds, e.kind
        ORDER BY e.start_date, e.id, g.tc""",
        {} if event_id is None else {"id": event_id},
    )


def event_player_counts(db: Db) -> dict[tuple[int, str], int]:
    """How many players play in each event, by (event, time control)."""
    rows = db.all(
        """
        SELECT event_id, tc, count(DISTINCT pid) FROM (
            SELECT event_id, tc, white_id AS pid FROM games WHERE event_id IS NOT NULL
            UNION ALL
            SELECT event_id, tc, black_id AS pid FROM games WHERE event_id IS NOT NULL
        ) t GROUP BY event_id, tc"""
    )
    return {(int(e), str(tc)): int(n) for e, tc, n in rows}


def event_games(db: Db, event_id: int) -> list[GameRow]:
    """The event's games (forfeits included) in date order, then as entered."""
    sql = f"SELECT {GAME_COLUMNS} FROM games WHERE event_id = :id ORDER BY played_on, id"
    return db.rows(GameRow, sql, {"id": event_id})


def event_players(db: Db, event_id: int) -> list[PlayerRow]:
    """The players of the event's games, by name and id."""
    return db.rows(
        PlayerRow,
        f"""
        SELECT {", ".join(f"p.{c}" for c in PlayerRow._fields)} FROM players p
        WHERE p.id IN (SELECT white_id FROM games WHERE event_id = :id
                       UNION SELECT black_id FROM games WHERE event_id = :id)
        ORDER BY p.name, p.id""",
        {"id": event_id},
    )


def games_with_keys(db: Db, keys: list[str]) -> dict[str, int]:
    """The games stored under the natural keys ``keys``: key to game id."""
    sql = "SELECT natural_key, id FROM games WHERE natural_key IN (:keys)"
    return {str(key): int(gid) for key, gid in db.all_in(sql, keys, name="keys")}


def rename_event(db: Db, event_id: int, name: str, key: str) -> None:
    db.run(
        "UPDATE events SET name = :name, name_key = :key WHERE id = :id",
        {"name": name, "key": key, "id": event_id},
    )


def fix_event_start(db: Db, event_id: int, start: dt.date, fixed: bool = True) -> None:
    db.run(
        "UPDATE events SET start_date = :start, start_fixed = :fixed WHERE id = :id",
        {"start": start, "fixed": fixed, "id": event_id},
    )


def set_event_games_tc(db: Db, event_id: int, tc: TimeControl) -> int:
    """Put every game (and bye) of the event in time control ``tc``; how many games
    changed."""
    db.run("UPDATE byes SET tc = :tc WHERE event_id = :id", {"tc": tc, "id": event_id})
    return db.run(
        "UPDATE games SET tc = :tc WHERE event_id = :id AND tc <> :tc", {"tc": tc, "id": event_id}
    )


def move_byes(db: Db, from_event: int, to_event: int) -> None:
    """Put the byes of one event in another (two spellings made one)."""
    db.run(
        "UPDATE byes SET event_id = :to WHERE event_id = :from",
        {"to": to_event, "from": from_event},
    )


def move_game(db: Db, game_id: int, event_id: int, natural_key: str) -> None:
    """Put a game in another event, under the natural key it has there."""
    db.run(
        "UPDATE games SET event_id = :event, natural_key = :key WHERE id = :id",
        {"event": event_id, "key": natural_key, "id": game_id},
    )


def delete_event(db: Db, event_id: int) -> None:
    """Remove an event without games (its given ratings go with it)."""
    db.run("DELETE FROM event_ratings WHERE event_id = :id", {"id": event_id})
    db.run("DELETE FROM events WHERE id = :id", {"id": event_id})


class EventExtent(NamedTuple):
    """The first and last day of an event's games and byes (forfeits too: None without
    any), and the rounds they were entered under."""

    first: dt.date | None
    last: dt.date | None
    rounds: tuple[str, ...]


def event_extent(db: Db, event_id: int) -> EventExtent:
    """What the event's games and byes span."""
    rows = db.all(
        """
        SELECT min(played_on), max(played_on), round FROM (
            SELECT played_on, round FROM games WHERE event_id = :id
            UNION ALL
            SELECT played_on, round FROM byes WHERE event_id = :id
        ) t GROUP BY round""",
        {"id": event_id},
    )
    firsts = [day(first) for first, _, _ in rows]
    lasts = [day(last) for _, last, _ in rows]
    return EventExtent(
        min(firsts, default=None),
        max(lasts, default=None),
        tuple(str(r) for _, _, r in rows if r is not None),
    )


def event_neighbours(db: Db, event_id: int, on: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """The days of the event's games nearest to ``on``: the last on or before it and the
    first on or after it (None where there is none)."""
    row = db.first(
        """
        SELECT max(CASE WHEN played_on <= :on THEN played_on END),
            min(CASE WHEN played_on >= :on THEN played_on END)
        FROM games WHERE event_id = :id""",
        {"id": event_id, "on": on},
    )
    assert row is not None
    return maybe_day(row[0]), maybe_day(row[1])


def event_days(db: Db, event_id: int, but_game: int | None = None) -> list[dt.date]:
    """The days the event's games (but ``but_game``) were played on, once each game."""
    return [
        day(d)
        for d in db.scalars(
            "SELECT played_on FROM games WHERE event_id = :id AND id <> :but ORDER BY played_on",
            {"id": event_id, "but": but_game or 0},
        )
    ]
