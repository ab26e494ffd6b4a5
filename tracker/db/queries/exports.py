"""What ``tracker export games`` reads: the games with their event and both players."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, reader
from tracker.db.queries.games import GameFilter, filter_condition
from tracker.db.queries.players import PlayerRow
from tracker.vocabulary import TimeControl


class GameLine(NamedTuple):
    """A game with its event's name, start and site, and both players."""

    id: int
    played_on: dt.date
    result: str
    tc: TimeControl
    event: str | None
    event_start: dt.date | None
    site: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    import_id: int | None
    white: PlayerRow
    black: PlayerRow


_GAMES = f"""
    SELECT g.id, g.played_on, g.result, g.tc, e.name, e.start_date, e.site, g.round,
        g.white_rating, g.black_rating, g.import_id,
        {", ".join(f"{side}.{c}" for side in "wb" for c in PlayerRow._fields)}
    FROM games g
    JOIN players w ON w.id = g.white_id
    JOIN players b ON b.id = g.black_id
    LEFT JOIN events e ON e.id = g.event_id
    WHERE {{where}}
    ORDER BY g.played_on, g.id"""


def game_lines(db: Db, which: GameFilter) -> list[GameLine]:
    """The games ``which`` names, by date, then in the order they were stored."""
    where, params = filter_condition(which)
    line, side = reader(GameLine), reader(PlayerRow)
    head, width = len(GameLine._fields) - 2, len(PlayerRow._fields)  # the game's, a side's
    return [
        line((*row[:head], side(row[head : head + width]), side(row[head + width :])))
        for row in db.all(_GAMES.format(where=where), params)
    ]
