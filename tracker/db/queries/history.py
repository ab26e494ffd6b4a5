"""What a player's history, card and comparison read beyond the lists: his games' days,
the stored shadow, the names of players and events."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, maybe_day, stored_tc
from tracker.db.queries.hints import not_indexed
from tracker.vocabulary import TimeControl

#: A player's games of one time control (``:tc``, ``:pid``), as a FROM clause read by the
#: players' indexes (not the time control's).
_PLAYER_GAMES = (
    f"FROM games WHERE {not_indexed('tc')} = :tc AND (white_id = :pid OR black_id = :pid)"
)


def last_game_day(db: Db, tc: TimeControl, player_id: int) -> dt.date | None:
    """The day of the player's latest game of ``tc``."""
    last = db.scalar(
        f"SELECT played_on {_PLAYER_GAMES} ORDER BY played_on DESC LIMIT 1",
        {"tc": tc, "pid": player_id},
    )
    return maybe_day(last)


def game_days(db: Db, player_id: int) -> dict[TimeControl, dict[int, dt.date]]:
    """The day of each of the player's games, by time control and game id: one read of his
    games for every time control (each game's own row says its time control: a read a time
    control read them all, three times for a card)."""
    out: dict[TimeControl, dict[int, dt.date]] = {}
    for game_id, played_on, tc in db.all(
        "SELECT id, played_on, tc FROM games WHERE white_id = :pid OR black_id = :pid",
        {"pid": player_id},
    ):
        out.setdefault(stored_tc(tc), {})[game_id] = day(played_on)
    return out


def plays_external(
    db: Db, tc: TimeControl, before: dt.date | None, player_id: int | None = None
) -> bool:
    """Whether a game of ``tc`` dated before ``before`` (None: no day, no game) pits a
    tracked player (``player_id``, or anyone) against an external one."""
    if before is None:
        return False
    params: dict[str, object] = {"tc": tc, "before": before}
    if player_id is None:
        where = "g.tc = :tc AND g.played_on < :before"
    else:  # his games by the players' indexes, not every game of the time control by date
        where = (
            f"{not_indexed('g.tc')} = :tc AND {not_indexed('g.played_on')} < :before "
            "AND (g.white_id = :pid OR g.black_id = :pid)"
        )
        params["pid"] = player_id
    found = db.scalar(
        f"""
        SELECT g.id FROM games g
        JOIN players w ON w.id = g.white_id
        JOIN players b ON b.id = g.black_id
        WHERE w.external != b.external AND {where}
        LIMIT 1""",
        params,
    )
    return found is not None


class StoredShadow(NamedTuple):
    """A stored shadow of a player (``glicko_history``): after a game (``game_id``, played
    on ``played_on``), or at the end of ``month`` (``game_id`` None)."""

    month: dt.date
    game_id: int | None
    played_on: dt.date | None
    rating: float
    rd: float
    volatility: float
    last_played: dt.date | None
    games: int


def stored_shadow(db: Db, tc: TimeControl, player_id: int) -> list[StoredShadow]:
    """Every stored shadow of the player in the closed periods of ``tc``, in order."""
    return db.rows(
        StoredShadow,
        """
        SELECT r.month, h.game_id, g.played_on, h.rating, h.rd, h.volatility, h.last_played,
            h.games
        FROM glicko_history h
        JOIN rating_periods r ON r.id = h.period_id
        LEFT JOIN games g ON g.id = h.game_id
        WHERE r.tc = :tc AND h.player_id = :pid
        ORDER BY r.month, g.played_on, h.game_id""",
        {"tc": tc, "pid": player_id},
    )


def event_names(db: Db, ids: list[int]) -> dict[int, str]:
    """The name of each of the events ``ids``, by id."""
    return dict(db.all_in("SELECT id, name FROM events WHERE id IN (:ids)", ids))
