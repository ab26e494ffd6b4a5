"""What ``tracker player import-fide-list`` reads and writes: the players a FIDE list names,
their seeds, their games before the list."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, day
from tracker.db.queries.imports import NewPlayer
from tracker.db.queries.players import PLAYER_COLUMNS, PlayerRow, SeedRow, player_row
from tracker.vocabulary import TimeControl

_PLAYER = f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players"


def _players(db: Db, sql: str, params: Mapping[str, Any]) -> list[PlayerRow]:
    return [player_row(row) for row in db.all(sql, params)]


def fide_ids(db: Db) -> dict[int, int]:
    """Every player's id by his FIDE id (those who have one)."""
    return {
        fide_id: pid
        for fide_id, pid in db.all("SELECT fide_id, id FROM players WHERE fide_id IS NOT NULL")
    }


def players_by_id(db: Db, ids: Sequence[int]) -> list[PlayerRow]:
    out: list[PlayerRow] = []
    for chunk in chunks(ids):
        out += _players(db, f"{_PLAYER} WHERE id IN (:ids)", {"ids": chunk})
    return out


def players_named(db: Db, names: Sequence[str]) -> list[PlayerRow]:
    """The players whose name is exactly one of ``names``."""
    out: list[PlayerRow] = []
    for chunk in chunks(names):
        out += _players(db, f"{_PLAYER} WHERE name IN (:names)", {"names": chunk})
    return out


def seeds_of(db: Db, player_ids: Sequence[int]) -> list[SeedRow]:
    """The seeds of the players, by player and time control."""
    out: list[SeedRow] = []
    for chunk in chunks(player_ids):
        rows = db.all(
            "SELECT player_id, tc, rating, games, ever_2400, ever_2300 FROM player_seeds "
            "WHERE player_id IN (:ids) ORDER BY player_id, tc",
            {"ids": chunk},
        )
        out += [
            SeedRow(pid, tc, rating, games, bool(e2400), bool(e2300))
            for pid, tc, rating, games, e2400, e2300 in rows
        ]
    return out


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
    out: dict[int, dt.date] = {}
    for chunk in chunks(player_ids):
        rows = db.all(
            "SELECT player_id, max(list_date) FROM official_ratings "
            "WHERE tc = :tc AND player_id IN (:ids) GROUP BY player_id",
            {"tc": tc, "ids": chunk},
        )
        out.update({int(pid): day(on) for pid, on in rows})
    return out


def add_player(db: Db, player: NewPlayer) -> int:
    """Store a new player a list line adds (no online account); his id."""
    return db.insert(
        "INSERT INTO players (name, fide_id, federation, birth_year, sex, title, external) "
        "VALUES (:name, :fide_id, :federation, :birth_year, :sex, :title, :external)",
        player._asdict(),
    )


#: The columns of ``players`` a list line may change.
LISTED_COLUMNS = ("fide_id", "federation", "birth_year", "sex", "title")


def update_player(db: Db, player_id: int, changes: Mapping[str, Any]) -> None:
    """Set some of :data:`LISTED_COLUMNS` of a player."""
    if not changes:
        return
    unknown = set(changes) - set(LISTED_COLUMNS)
    if unknown:
        raise ValueError(f"not a listed column: {', '.join(sorted(unknown))}")
    sets = ", ".join(f"{column} = :{column}" for column in changes)
    db.run(f"UPDATE players SET {sets} WHERE id = :id", {**changes, "id": player_id})


def remove_seed(db: Db, player_id: int, tc: TimeControl) -> None:
    db.run(
        "DELETE FROM player_seeds WHERE player_id = :pid AND tc = :tc",
        {"pid": player_id, "tc": tc},
    )


def add_seed(db: Db, seed: SeedRow) -> None:
    db.run(
        "INSERT INTO player_seeds (player_id, tc, rating, games, ever_2400, ever_2300) "
        "VALUES (:player_id, :tc, :rating, :games, :ever_2400, :ever_2300)",
        seed._asdict(),
    )


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
