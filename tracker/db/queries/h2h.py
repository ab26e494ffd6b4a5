"""The games two players played against each other (:mod:`tracker.services.h2h`)."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries.hints import not_indexed
from tracker.vocabulary import TimeControl


class Meeting(NamedTuple):
    """One game between the two, with its event's name."""

    id: int
    played_on: dt.date
    white_id: int
    black_id: int
    result: str
    tc: TimeControl
    event: str | None
    round: str | None


def games_between(db: Db, a: int, b: int | None, tc: TimeControl | None) -> list[Meeting]:
    """Every game of ``a`` against ``b`` (against anyone if ``b`` is None; forfeits
    included), of ``tc`` if given, oldest first (date, then id)."""
    only_tc = "" if tc is None else f"AND {not_indexed('g.tc')} = :tc"  # the players' index
    if b is None:
        players = "(g.white_id = :a OR g.black_id = :a)"
    else:
        players = "((g.white_id = :a AND g.black_id = :b) OR (g.white_id = :b AND g.black_id = :a))"
    return db.rows(
        Meeting,
        f"""
        SELECT g.id, g.played_on, g.white_id, g.black_id, g.result, g.tc, e.name, g.round
        FROM games g LEFT JOIN events e ON e.id = g.event_id
        WHERE {players} {only_tc}
        ORDER BY g.played_on, g.id""",
        {"a": a, "b": b, "tc": tc},
    )
