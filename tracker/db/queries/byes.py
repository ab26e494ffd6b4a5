"""Byes: a round of an event in which a player had no opponent (``byes``). They count in the
standings and the crosstable, never in a rating: no query of a rating period reads them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day, stored_tc
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


def _row(row: Any) -> ByeRow:
    bye_id, event_id, player_id, round_, played_on, tc, code, import_id = row
    return ByeRow(
        int(bye_id),
        int(event_id),
        int(player_id),
        str(round_),
        day(played_on),
        stored_tc(tc),
        str(code),
        None if import_id is None else int(import_id),
    )


def insert_byes(db: Db, byes: Sequence[ByeFields]) -> None:
    """Insert ``byes`` in one driver call."""
    if byes:
        db.insert_many("byes", ByeFields._fields, byes)


def insert_bye(db: Db, bye: ByeFields) -> int:
    """Insert one bye; its id."""
    names = ", ".join(ByeFields._fields)
    values = ", ".join(f":{n}" for n in ByeFields._fields)
    return db.insert(f"INSERT INTO byes ({names}) VALUES ({values})", bye._asdict())


def event_byes(db: Db, event_id: int) -> list[ByeRow]:
    """The event's byes, by round and as entered."""
    rows = db.all(
        f"SELECT {_COLUMNS} FROM byes WHERE event_id = :id ORDER BY played_on, id", {"id": event_id}
    )
    return [_row(r) for r in rows]


def bye_of(db: Db, event_id: int, player_id: int, round_: str) -> ByeRow | None:
    """The player's bye in that round of the event, if he has one."""
    row = db.first(
        f"SELECT {_COLUMNS} FROM byes WHERE event_id = :e AND player_id = :p AND round = :r",
        {"e": event_id, "p": player_id, "r": round_},
    )
    return None if row is None else _row(row)


def byes_present(db: Db, event_ids: Iterable[int]) -> set[tuple[int, int, str]]:
    """The (event, player, round) of the byes stored for ``event_ids``."""
    out: set[tuple[int, int, str]] = set()
    for chunk in chunks(sorted(set(event_ids))):
        for e, p, r in db.all(
            "SELECT event_id, player_id, round FROM byes WHERE event_id IN (:ids)", {"ids": chunk}
        ):
            out.add((int(e), int(p), str(r)))
    return out


def delete_bye(db: Db, bye_id: int) -> None:
    db.run("DELETE FROM byes WHERE id = :id", {"id": bye_id})
