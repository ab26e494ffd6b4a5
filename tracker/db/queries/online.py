"""The players' real online ratings (``online_ratings``) and their linked accounts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day
from tracker.db.queries.players import PlayerName
from tracker.vocabulary import PLATFORMS

# ------------------------------------------------------------------------------- accounts


class Account(NamedTuple):
    """A player and the online accounts linked to him."""

    id: int
    name: str
    lichess: str | None
    chesscom: str | None

    def user(self, platform: str) -> str | None:
        """His user name on ``platform`` (a key of :data:`ONLINE_PLATFORMS`: the column of
        his account), if linked."""
        user: str | None = getattr(self, platform)
        return user


_ACCOUNT = "SELECT id, name, lichess, chesscom FROM players"


def _accounts(db: Db, sql: str, params: dict[str, Any] | None = None) -> list[Account]:
    return [
        Account(pid, name, lichess, chesscom)
        for pid, name, lichess, chesscom in db.all(sql, params)
    ]


def account(db: Db, player_id: int) -> Account | None:
    found = _accounts(db, f"{_ACCOUNT} WHERE id = :id", {"id": player_id})
    return found[0] if found else None


def accounts(db: Db, player_ids: Iterable[int]) -> dict[int, Account]:
    """The players of ``player_ids`` (those that exist), by id."""
    out: dict[int, Account] = {}
    for chunk in chunks(sorted(set(player_ids))):
        out.update(
            (a.id, a) for a in _accounts(db, f"{_ACCOUNT} WHERE id IN (:ids)", {"ids": chunk})
        )
    return out


def linked_accounts(db: Db) -> list[Account]:
    """Every player with a linked account, by name."""
    return _accounts(
        db,
        f"{_ACCOUNT} WHERE lichess IS NOT NULL OR chesscom IS NOT NULL ORDER BY name, id",
    )


def chesscom_accounts(db: Db, users: Sequence[str]) -> list[Account]:
    """The players linked to one of the Chess.com ``users`` (lower case), by name."""
    return _accounts(
        db, f"{_ACCOUNT} WHERE lower(chesscom) IN (:users) ORDER BY name", {"users": users}
    )


_LINKED: dict[str, str] = {
    platform: f"SELECT id, name FROM players WHERE {platform} IS NOT NULL AND NOT external "
    "ORDER BY name, id"
    for platform in PLATFORMS  # each platform's account is the players' column of its key
}


def tracked_on(db: Db, platform: str) -> list[PlayerName]:
    """The tracked players linked to ``platform`` (one of :data:`PLATFORMS`), by name."""
    return [PlayerName(pid, name) for pid, name in db.all(_LINKED[platform])]


# --------------------------------------------------------------------------------- points


class StoredPoint(NamedTuple):
    id: int
    perf: str
    day: dt.date
    rating: int


def stored_points(db: Db, player_id: int, platform: str) -> list[StoredPoint]:
    """A player's points stored for ``platform``."""
    rows = db.all(
        "SELECT id, perf, day, rating FROM online_ratings "
        "WHERE player_id = :pid AND platform = :platform",
        {"pid": player_id, "platform": platform},
    )
    return [StoredPoint(row_id, perf, day(on), rating) for row_id, perf, on, rating in rows]


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
    out: dict[tuple[int, str], dt.date] = {}
    for chunk in chunks(sorted(set(player_ids))):
        rows = db.all(
            "SELECT player_id, platform, max(day) FROM online_ratings "
            "WHERE player_id IN (:ids) GROUP BY player_id, platform",
            {"ids": chunk},
        )
        out.update(((pid, platform), day(last)) for pid, platform, last in rows)
    return out


def _perf_points(rows: Iterable[tuple[Any, ...]]) -> list[PerfPoint]:
    return [
        PerfPoint(pid, platform, perf, day(on), rating) for pid, platform, perf, on, rating in rows
    ]


def player_points(db: Db, player_id: int) -> list[PerfPoint]:
    """A player's every stored point, by platform, perf and day."""
    return _perf_points(
        db.all(
            "SELECT player_id, platform, perf, day, rating FROM online_ratings "
            "WHERE player_id = :pid ORDER BY platform, perf, day",
            {"pid": player_id},
        )
    )


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
        "SELECT player_id, platform, perf, day, rating FROM online_ratings "
        f"WHERE player_id IN (:ids) AND ({' OR '.join(tests)}) "
        "ORDER BY player_id, platform, day"
    )
    out: list[PerfPoint] = []
    for chunk in chunks(sorted(set(player_ids))):
        out.extend(_perf_points(db.all(sql, {**params, "ids": chunk})))
    return out
