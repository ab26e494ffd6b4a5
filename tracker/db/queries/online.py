"""The players' real online ratings (``online_ratings``) and their linked accounts."""

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, day
from tracker.db.queries.players import PLAYERS, PlayerName, PlayerRow
from tracker.vocabulary import PLATFORMS

# ------------------------------------------------------------------------------- accounts


def linked_accounts(db: Db) -> list[PlayerRow]:
    """Every player with a linked account, by name."""
    return db.rows(
        PlayerRow, f"{PLAYERS} WHERE lichess IS NOT NULL OR chesscom IS NOT NULL ORDER BY name, id"
    )


def chesscom_accounts(db: Db, users: Sequence[str]) -> list[PlayerRow]:
    """The players linked to one of the Chess.com ``users`` (lower case), by name."""
    sql = f"{PLAYERS} WHERE lower(chesscom) IN (:users) ORDER BY name"
    return db.rows(PlayerRow, sql, {"users": users})


_LINKED: dict[str, str] = {
    platform: f"SELECT id, name FROM players WHERE {platform} IS NOT NULL AND NOT external "
    "ORDER BY name, id"
    for platform in PLATFORMS  # each platform's account is the players' column of its key
}


def tracked_on(db: Db, platform: str) -> list[PlayerName]:
    """The tracked players linked to ``platform`` (one of :data:`PLATFORMS`), by name."""
    return db.rows(PlayerName, _LINKED[platform])


# --------------------------------------------------------------------------------- points


class StoredPoint(NamedTuple):
    id: int
    perf: str
    day: dt.date
    rating: int


def stored_points(db: Db, player_id: int, platform: str) -> list[StoredPoint]:
    """A player's points stored for ``platform``."""
    return db.rows(
        StoredPoint,
        "SELECT id, perf, day, rating FROM online_ratings "
        "WHERE player_id = :pid AND platform = :platform",
        {"pid": player_id, "platform": platform},
    )


class PerfPoint(NamedTuple):
    """A row of ``online_ratings`` (its columns, the id left out): a player's rating on a
    platform's rating category on a day."""

    player_id: int
    platform: str
    perf: str
    day: dt.date
    rating: int


def add_points(db: Db, points: Sequence[PerfPoint]) -> None:
    """Store the points, in their order (ids are given in it)."""
    db.insert_many("online_ratings", PerfPoint._fields, points)


def set_rating(db: Db, point_id: int, rating: int) -> None:
    db.run(
        "UPDATE online_ratings SET rating = :rating WHERE id = :id",
        {"rating": rating, "id": point_id},
    )


def last_days(db: Db, player_ids: Iterable[int]) -> dict[tuple[int, str], dt.date]:
    """The day of each player's latest stored point, per platform."""
    sql = (
        "SELECT player_id, platform, max(day) FROM online_ratings "
        "WHERE player_id IN (:ids) GROUP BY player_id, platform"
    )
    return {(pid, platform): day(last) for pid, platform, last in db.all_in(sql, player_ids)}


_POINTS = f"SELECT {', '.join(PerfPoint._fields)} FROM online_ratings"


def player_points(db: Db, player_id: int) -> list[PerfPoint]:
    """A player's every stored point, by platform, perf and day."""
    sql = f"{_POINTS} WHERE player_id = :pid ORDER BY platform, perf, day"
    return db.rows(PerfPoint, sql, {"pid": player_id})


def perf_points(
    db: Db, player_ids: Iterable[int], perfs: Sequence[tuple[str, str]]
) -> list[PerfPoint]:
    """The players' points in the ``perfs`` (platform, perf), by player, platform and day."""
    if not perfs:
        return []
    params: dict[str, Any] = {}
    tests = []
    for i, (platform, perf) in enumerate(perfs):
        params[f"platform{i}"], params[f"perf{i}"] = platform, perf
        tests.append(f"(platform = :platform{i} AND perf = :perf{i})")
    sql = (
        f"{_POINTS} WHERE player_id IN (:ids) AND ({' OR '.join(tests)}) "
        "ORDER BY player_id, platform, day"
    )
    return db.rows_in(PerfPoint, sql, player_ids, params)
