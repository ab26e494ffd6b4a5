"""Games and their events, one at a time: recording, correcting, listing and removing them
(:mod:`tracker.services.games`, ``tracker game``)."""

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, insert_sql, stored_tc, update_sql
from tracker.vocabulary import TimeControl

# ----------------------------------------------------------------------------------- rows


class GameFields(NamedTuple):
    """What a game stores besides its id: what ``game add`` and an import write, and (but the
    import that brought it) what a correction may change."""

    white_id: int
    black_id: int
    result: str
    played_on: dt.date
    tc: TimeControl
    event_id: int | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    natural_key: str
    import_id: int | None = None


class GameRow(NamedTuple):
    """A stored game: its key and :class:`GameFields`, in the same order."""

    id: int
    white_id: int
    black_id: int
    result: str
    played_on: dt.date
    tc: TimeControl
    event_id: int | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    natural_key: str
    import_id: int | None


class GameListing(NamedTuple):
    """A game with its players' and its event's names, as ``game list`` shows it."""

    id: int
    played_on: dt.date
    white: str
    white_id: int
    black: str
    black_id: int
    result: str
    tc: TimeControl
    event: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None


class EventRow(NamedTuple):
    """A stored event (the ``events`` table's row): its name, its start date and whether that
    date was given, and what is declared of it (None: not declared): its last day, rounds,
    kind, time control and site, ``declared`` saying by whom ('user' or 'file'); and the
    rating period stated for it (None: the month it ends in)."""

    id: int
    name: str
    start_date: dt.date
    start_fixed: bool
    end_date: dt.date | None = None
    rounds: int | None = None
    kind: str | None = None
    tc: TimeControl | None = None
    site: str | None = None
    declared: str | None = None
    rated_in: dt.date | None = None


class GameFilter(NamedTuple):
    """Which games to read: a player's (as white or black), those played in
    ``[played_from, played_before)``, an event's, a time control's; None for any."""

    player_id: int | None = None
    played_from: dt.date | None = None
    played_before: dt.date | None = None
    event_id: int | None = None
    tc: TimeControl | None = None


GAME_COLUMNS = ", ".join(GameRow._fields)

_LISTING = """
    SELECT g.id, g.played_on, w.name, g.white_id, b.name, g.black_id, g.result, g.tc, e.name,
        g.round, g.white_rating, g.black_rating
    FROM games g
    JOIN players w ON w.id = g.white_id
    JOIN players b ON b.id = g.black_id
    LEFT JOIN events e ON e.id = g.event_id"""

EVENT_COLUMNS = ", ".join(EventRow._fields)


# ---------------------------------------------------------------------------------- reads


def game_by_id(db: Db, game_id: int) -> GameRow | None:
    """The stored game with this id."""
    return db.row(GameRow, f"SELECT {GAME_COLUMNS} FROM games WHERE id = :id", {"id": game_id})


def games_on_days(db: Db, days: Sequence[dt.date], players: Iterable[int]) -> list[GameListing]:
    """The stored games played on ``days`` by two of ``players`` (finding a game's twins)."""
    members = set(players)
    if not days or not members:
        return []
    found = db.rows_in(
        GameListing,
        f"{_LISTING} WHERE g.played_on IN (:days) AND g.white_id IN (:ids) ORDER BY g.id",
        members,
        {"days": sorted(set(days))},
    )
    return [g for g in found if g.black_id in members]


def game_id_by_natural_key(db: Db, key: str) -> int | None:
    """The id of the game with this natural key (date, players, event and round)."""
    found = db.scalar("SELECT id FROM games WHERE natural_key = :key", {"key": key})
    return None if found is None else int(found)


def listing_by_id(db: Db, game_id: int) -> GameListing:
    """The game with this id (which exists) with its names."""
    found = db.row(GameListing, f"{_LISTING} WHERE g.id = :id", {"id": game_id})
    assert found is not None, game_id
    return found


#: The condition on ``games g`` of each field of :class:`GameFilter`, given as itself.
_FILTERS = {
    "player_id": "(g.white_id = :player_id OR g.black_id = :player_id)",
    "played_from": "g.played_on >= :played_from",
    "played_before": "g.played_on < :played_before",
    "event_id": "g.event_id = :event_id",
    "tc": "g.tc = :tc",
}


def filter_condition(which: GameFilter) -> tuple[str, dict[str, Any]]:
    """The SQL condition on ``games g`` for the games ``which`` names, and its parameters
    (for the queries that read games another way: :func:`tracker.db.queries.exports.
    game_lines`)."""
    given = {name: value for name, value in which._asdict().items() if value is not None}
    return " AND ".join(["1 = 1", *(_FILTERS[name] for name in given)]), given


def listings(db: Db, which: GameFilter) -> list[GameListing]:
    """The games ``which`` names, with their names, by date and id."""
    where, params = filter_condition(which)
    return db.rows(GameListing, f"{_LISTING} WHERE {where} ORDER BY g.played_on, g.id", params)


def event_by_id(db: Db, event_id: int) -> EventRow | None:
    """The event with this id."""
    return db.row(EventRow, f"SELECT {EVENT_COLUMNS} FROM events WHERE id = :id", {"id": event_id})


def events_with_key(db: Db, key: str) -> list[EventRow]:
    """The events whose name compares as ``key`` (:func:`tracker.services.intake.event_key`),
    in the order they were added."""
    return db.rows(
        EventRow,
        f"SELECT {EVENT_COLUMNS} FROM events WHERE name_key = :key ORDER BY id",
        {"key": key},
    )


def event_tc(db: Db, event_id: int, other_than: TimeControl | None = None) -> TimeControl | None:
    """The time control of one of the event's games, one other than ``other_than`` when given
    (None: it has none)."""
    if other_than is None:
        found = db.scalar("SELECT tc FROM games WHERE event_id = :event", {"event": event_id})
    else:
        sql = "SELECT tc FROM games WHERE event_id = :event AND tc <> :tc"
        found = db.scalar(sql, {"event": event_id, "tc": other_than})
    return None if found is None else stored_tc(found)


def game_in_round(db: Db, event_id: int, player_id: int, round_: str) -> int | None:
    """The id of the player's game in that round of the event, if he plays one."""
    found = db.scalar(
        "SELECT id FROM games WHERE event_id = :e AND round = :r "
        "AND (white_id = :p OR black_id = :p)",
        {"e": event_id, "r": round_, "p": player_id},
    )
    return None if found is None else int(found)


# --------------------------------------------------------------------------------- writes


def insert_event(db: Db, event: EventRow, name_key: str) -> int:
    """A new event (``event.id`` is not used); its id."""
    names = ("name_key", *EventRow._fields[1:])
    return db.insert(insert_sql("events", names), {"name_key": name_key, **event._asdict()})


#: What ``event add``/``edit`` and an imported file's header declare of an event.
DECLARED = ("start_date", "start_fixed", "end_date", "rounds", "kind", "tc", "site", "declared")


def declare_event(db: Db, event: EventRow) -> None:
    """Write what is declared of the event (:data:`DECLARED`)."""
    db.run(update_sql("events", DECLARED), event._asdict())


def update_event_start(db: Db, event: EventRow) -> None:
    """Write the event's start date and whether it was given."""
    db.run(update_sql("events", ("start_date", "start_fixed")), event._asdict())


def follow_earliest_game(db: Db, event_id: int | None) -> None:
    """Move the start of the event ``event_id``, if it was not given, to its earliest game
    (if it has one left)."""
    if event_id is not None:
        db.run(
            "UPDATE events SET start_date = (SELECT min(played_on) FROM games WHERE event_id = :id)"
            " WHERE id = :id AND start_fixed = :given"
            " AND EXISTS (SELECT 1 FROM games WHERE event_id = :id)",
            {"id": event_id, "given": False},
        )


#: The columns a correction writes: all but the import a game came in.
CORRECTABLE = tuple(name for name in GameFields._fields if name != "import_id")


def insert_game(db: Db, game: GameFields) -> int:
    """A new game; its id."""
    return db.insert(insert_sql("games", GameFields._fields), game._asdict())


def update_game(db: Db, game_id: int, game: GameFields) -> None:
    """Write every column of ``game`` to the game ``game_id``, but the import it came in."""
    db.run(update_sql("games", CORRECTABLE), {**game._asdict(), "id": game_id})


def delete_game(db: Db, game_id: int) -> None:
    """Remove the game with this id."""
    db.run("DELETE FROM games WHERE id = :id", {"id": game_id})
