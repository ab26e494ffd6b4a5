"""What ``tracker player import-fide-list`` reads and writes beyond the players' own queries
(:mod:`tracker.db.queries.players`): the players a FIDE list names, their games before the
list."""

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day, update_sql
from tracker.vocabulary import TimeControl


def fide_ids(db: Db) -> dict[int, int]:
    """Every player's id by his FIDE id (those who have one)."""
    return dict(db.all("SELECT fide_id, id FROM players WHERE fide_id IS NOT NULL"))


class GameBefore(NamedTuple):
    """A game of one of the players, dated before a list."""

    white_id: int
    black_id: int
    event_id: int | None
    played_on: dt.date


def games_before(
    db: Db, player_ids: Sequence[int], tc: TimeControl, before: dt.date | None
) -> list[GameBefore]:
    """The games of ``tc`` of the players dated before ``before`` (any date if None)."""
    sql = (
        "SELECT id, white_id, black_id, event_id, played_on FROM games WHERE tc = :tc "
        "AND (white_id IN (:ids) OR black_id IN (:ids))"
    )
    params: dict[str, Any] = {"tc": tc}
    if before is not None:
        sql += " AND played_on < :before"
        params["before"] = before
    found: dict[int, GameBefore] = {}  # by id: a game of two players of two chunks is read twice
    for chunk in chunks(player_ids):
        for gid, white, black, event, on in db.all(sql, {**params, "ids": chunk}):
            found[int(gid)] = GameBefore(int(white), int(black), event, day(on))
    return list(found.values())


def latest_official(db: Db, player_ids: Sequence[int], tc: TimeControl) -> dict[int, dt.date]:
    """The latest list each of the players has an earlier-list rating for, if any."""
    sql = (
        "SELECT player_id, max(list_date) FROM official_ratings "
        "WHERE tc = :tc AND player_id IN (:ids) GROUP BY player_id"
    )
    return {int(pid): day(on) for pid, on in db.all_in(sql, player_ids, {"tc": tc})}


#: The columns of ``players`` a list line may change.
LISTED_COLUMNS = ("fide_id", "federation", "birth_year", "sex", "title")


def update_player(db: Db, player_id: int, changes: Mapping[str, Any]) -> None:
    """Set some of :data:`LISTED_COLUMNS` of a player."""
    if not changes:
        return
    unknown = set(changes) - set(LISTED_COLUMNS)
    if unknown:
        raise ValueError(f"not a listed column: {', '.join(sorted(unknown))}")
    db.run(update_sql("players", changes), {**changes, "id": player_id})


def any_games(db: Db, player_ids: Sequence[int]) -> bool:
    """Whether any of the players has a game."""
    for chunk in chunks(player_ids):
        found = db.scalar(
            "SELECT 1 FROM games WHERE white_id IN (:ids) OR black_id IN (:ids) LIMIT 1",
            {"ids": chunk},
        )
        if found is not None:
            return True
    return False
