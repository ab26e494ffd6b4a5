"""Byes: a round of an event in which a player had no opponent (``byes``). They count in the
standings and the crosstable, never in a rating: no query of a rating period reads them."""

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from tracker.db.driver import Db, insert_sql
from tracker.vocabulary import TimeControl


class ByeFields(NamedTuple):
    """A ``byes`` row, but its id."""

    event_id: int
    player_id: int
    round: str
    played_on: dt.date
    tc: TimeControl
    code: str
    import_id: int | None = None


class ByeRow(NamedTuple):
    """A stored bye (the ``byes`` table's row, but when it was added)."""

    id: int
    event_id: int
    player_id: int
    round: str
    played_on: dt.date
    tc: TimeControl
    code: str
    import_id: int | None


_COLUMNS = ", ".join(ByeRow._fields)


def insert_byes(db: Db, byes: Sequence[ByeFields]) -> None:
    """Insert ``byes`` in one driver call."""
    if byes:
        db.insert_many("byes", ByeFields._fields, byes)


def insert_bye(db: Db, bye: ByeFields) -> int:
    """Insert one bye; its id."""
    return db.insert(insert_sql("byes", ByeFields._fields), bye._asdict())


def event_byes(db: Db, event_id: int) -> list[ByeRow]:
    """The event's byes, by round and as entered."""
    return db.rows(
        ByeRow,
        f"SELECT {_COLUMNS} FROM byes WHERE event_id = :id ORDER BY played_on, id",
        {"id": event_id},
    )


def bye_of(db: Db, event_id: int, player_id: int, round_: str) -> ByeRow | None:
    """The player's bye in that round of the event, if he has one."""
    return db.row(
        ByeRow,
        f"SELECT {_COLUMNS} FROM byes WHERE event_id = :e AND player_id = :p AND round = :r",
        {"e": event_id, "p": player_id, "r": round_},
    )


def byes_present(db: Db, event_ids: Iterable[int]) -> set[tuple[int, int, str]]:
    """The (event, player, round) of the byes stored for ``event_ids``."""
    sql = "SELECT event_id, player_id, round FROM byes WHERE event_id IN (:ids)"
    return {(int(e), int(p), str(r)) for e, p, r in db.all_in(sql, event_ids)}


def delete_bye(db: Db, bye_id: int) -> None:
    db.run("DELETE FROM byes WHERE id = :id", {"id": bye_id})
