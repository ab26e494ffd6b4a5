"""The players and their seeds: finding, listing, adding, changing and removing them
(:mod:`tracker.services.players.roster`, :mod:`tracker.services.players.files`,
:mod:`tracker.services.periods.reconcile`)."""

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from tracker.db.driver import Db, chunks, insert_sql, maybe_day, reader, update_sql
from tracker.vocabulary import TimeControl


class PlayerRow(NamedTuple):
    """A player's own columns (``players`` but its creation time)."""

    id: int
    name: str
    fide_id: int | None
    federation: str | None
    birth_year: int | None
    sex: str | None
    title: str | None
    external: bool
    lichess: str | None
    chesscom: str | None

    def user(self, platform: str) -> str | None:
        """His user name on ``platform`` (a key of :data:`~tracker.vocabulary.PLATFORMS`: the
        column of his account), if linked."""
        user: str | None = getattr(self, platform)
        return user


class SeedRow(NamedTuple):
    """A tracked player's seed: his state on one list before tracking starts."""

    player_id: int
    tc: TimeControl
    rating: int
    games: int
    ever_2400: bool
    ever_2300: bool


class PlayerName(NamedTuple):
    """A player by his id and name."""

    id: int
    name: str


class ListedPlayer(NamedTuple):
    player: PlayerRow
    games: int  # as white or black


class TrackedFideId(NamedTuple):
    """A tracked player with a FIDE id."""

    fide_id: int
    id: int
    name: str


#: A player's columns, as :class:`PlayerRow` reads them.
PLAYERS = f"SELECT {', '.join(PlayerRow._fields)} FROM players"
#: The columns a new player or a change of one writes: all but the key.
_CHANGEABLE = PlayerRow._fields[1:]
_SEEDS = f"SELECT {', '.join(SeedRow._fields)} FROM player_seeds"


# ---------------------------------------------------------------------------------- reads


def player_by_id(db: Db, player_id: int) -> PlayerRow | None:
    """The player with this id."""
    return db.row(PlayerRow, f"{PLAYERS} WHERE id = :id", {"id": player_id})


def players_by_ids(db: Db, ids: Iterable[int]) -> list[PlayerRow]:
    """The players of these ids (those that exist), by id."""
    return db.rows_in(PlayerRow, f"{PLAYERS} WHERE id IN (:ids) ORDER BY id", ids)


def players_in(db: Db, column: str, values: Iterable[Any]) -> list[PlayerRow]:
    """The players whose ``column`` (of ``players``, or an expression of one such as
    ``lower(name)``) is one of ``values``, in no particular order."""
    return db.rows_in(PlayerRow, f"{PLAYERS} WHERE {column} IN (:values)", values, name="values")


def players_where(db: Db, column: str, value: Any) -> list[PlayerRow]:
    """The players whose ``column`` (of ``players``, or an expression of one such as
    ``lower(name)``: SQL's lower case, ASCII letters only) is ``value``, in the order they
    were added."""
    sql = f"{PLAYERS} WHERE {column} = :value ORDER BY id"
    return db.rows(PlayerRow, sql, {"value": value})


def namesake_ids(db: Db, name: str, player_id: int) -> tuple[int, ...]:
    """The ids of the players named ``name`` but ``player_id``, in the order they were added."""
    ids = db.scalars(
        "SELECT id FROM players WHERE name = :name AND id != :pid ORDER BY id",
        {"name": name, "pid": player_id},
    )
    return tuple(int(pid) for pid in ids)


def all_names(db: Db) -> list[PlayerName]:
    """Every player's id and name, by name (as the database orders them) and id."""
    return db.rows(PlayerName, "SELECT id, name FROM players ORDER BY name, id")


def distinct_names(db: Db) -> list[str]:
    """Every name a player has, once each, in no particular order."""
    return [str(name) for name in db.scalars("SELECT DISTINCT name FROM players")]


def seeds_of(db: Db, player_id: int) -> list[SeedRow]:
    """A player's seeds, by time control."""
    return db.rows(SeedRow, f"{_SEEDS} WHERE player_id = :pid ORDER BY tc", {"pid": player_id})


def all_seeds(db: Db, player_ids: Iterable[int] | None = None) -> list[SeedRow]:
    """Every seed (or those of ``player_ids``), by player and time control."""
    if player_ids is None:
        return db.rows(SeedRow, f"{_SEEDS} ORDER BY player_id, tc")
    sql = f"{_SEEDS} WHERE player_id IN (:ids) ORDER BY player_id, tc"
    return db.rows_in(SeedRow, sql, player_ids)


def first_game_day(db: Db, player_id: int) -> dt.date | None:
    """The date of the player's first game, as white or black."""
    first = db.scalar(
        "SELECT min(played_on) FROM games WHERE white_id = :pid OR black_id = :pid",
        {"pid": player_id},
    )
    return maybe_day(first)


def player_game_count(db: Db, player_id: int) -> int:
    """How many games the player has, as white or black."""
    count = db.scalar(
        "SELECT count(*) FROM games WHERE white_id = :pid OR black_id = :pid", {"pid": player_id}
    )
    return int(count or 0)


_LISTED = f"""
SELECT {", ".join(f"p.{c}" for c in PlayerRow._fields)},
       coalesce(w.n, 0) + coalesce(b.n, 0)
FROM players p
LEFT OUTER JOIN (SELECT white_id AS pid, count(*) AS n FROM games GROUP BY white_id) w
    ON w.pid = p.id
LEFT OUTER JOIN (SELECT black_id AS pid, count(*) AS n FROM games GROUP BY black_id) b
    ON b.pid = p.id
"""


def listed_players(db: Db, external: bool | None = None) -> list[ListedPlayer]:
    """The players (only the external or only the tracked ones, if ``external`` says so) by
    name, with their number of games."""
    where = "" if external is None else "WHERE p.external = :external"
    rows = db.all(f"{_LISTED} {where} ORDER BY p.name, p.id", {"external": external})
    return [ListedPlayer(reader(PlayerRow)(row[:-1]), int(row[-1])) for row in rows]


def tracked_fide_ids(db: Db) -> list[TrackedFideId]:
    """The tracked players who have a FIDE id."""
    return db.rows(
        TrackedFideId,
        "SELECT fide_id, id, name FROM players WHERE fide_id IS NOT NULL AND external = :external",
        {"external": False},
    )


# --------------------------------------------------------------------------------- writes


def insert_player(db: Db, player: PlayerRow) -> int:
    """A new player (``player.id`` is not used; his creation time is the database's); his
    id."""
    return db.insert(insert_sql("players", _CHANGEABLE), player._asdict())


def insert_players(db: Db, players: Iterable[PlayerRow]) -> None:
    """New players in one driver call, given ids in their order (as :func:`insert_player`
    one by one)."""
    db.insert_many("players", _CHANGEABLE, (p[1:] for p in players))


def update_player(db: Db, player: PlayerRow, columns: Iterable[str] = _CHANGEABLE) -> None:
    """Write ``columns`` of ``player`` (every one but the key) to his row."""
    db.run(update_sql("players", columns), player._asdict())


def delete_player(db: Db, player_id: int) -> None:
    """Remove a player and his seeds (his history goes with him: those keys cascade)."""
    db.run("DELETE FROM player_seeds WHERE player_id = :pid", {"pid": player_id})
    db.run("DELETE FROM players WHERE id = :pid", {"pid": player_id})


def insert_seed(db: Db, seed: SeedRow) -> None:
    db.run(insert_sql("player_seeds", SeedRow._fields), seed._asdict())


def insert_seeds(db: Db, seeds: Iterable[SeedRow]) -> None:
    """Store new seeds in one driver call (a FIDE list adds 600,000 players; one seed:
    :func:`insert_seed`)."""
    db.insert_many("player_seeds", SeedRow._fields, seeds)


def delete_seed(db: Db, player_id: int, tc: TimeControl) -> None:
    db.run(
        "DELETE FROM player_seeds WHERE player_id = :pid AND tc = :tc",
        {"pid": player_id, "tc": tc},
    )


class EarlierList(NamedTuple):
    """A player's rating on one of FIDE's earlier lists (``official_ratings``)."""

    tc: TimeControl
    list_date: dt.date
    rating: int


def earlier_lists_of(db: Db, player_id: int) -> list[EarlierList]:
    """A player's ratings on earlier lists, by time control and date."""
    return db.rows(
        EarlierList,
        "SELECT tc, list_date, rating FROM official_ratings WHERE player_id = :pid "
        "ORDER BY tc, list_date",
        {"pid": player_id},
    )


def all_earlier_lists(db: Db) -> list[tuple[int, EarlierList]]:
    """Every rating given on an earlier list, by player, time control and date."""
    rows = db.all(
        "SELECT player_id, tc, list_date, rating FROM official_ratings "
        "ORDER BY player_id, tc, list_date"
    )
    return [(int(row[0]), reader(EarlierList)(row[1:])) for row in rows]


def put_earlier_list(db: Db, player_id: int, entry: EarlierList) -> None:
    """Give (or replace) the player's rating on an earlier list (two plain statements: a
    driver call of many rows, a COPY on PostgreSQL, costs more for one)."""
    delete_earlier_list(db, player_id, entry.tc, entry.list_date)
    names = ("player_id", *EarlierList._fields)
    db.run(insert_sql("official_ratings", names), {"player_id": player_id, **entry._asdict()})


def put_earlier_lists(
    db: Db, tc: TimeControl, list_date: dt.date, ratings: Mapping[int, int]
) -> None:
    """Give (or replace) players' ratings on one earlier list, by player: a few statements
    for a whole FIDE list (600,000 players), not two a player."""
    for ids in chunks(list(ratings)):
        db.run(
            "DELETE FROM official_ratings WHERE tc = :tc AND list_date = :d"
            " AND player_id IN (:ids)",
            {"tc": tc, "d": list_date, "ids": list(ids)},
        )
    db.insert_many(
        "official_ratings",
        ("player_id", *EarlierList._fields),
        ((pid, tc, list_date, rating) for pid, rating in ratings.items()),
    )


def delete_earlier_list(db: Db, player_id: int, tc: TimeControl, list_date: dt.date) -> int:
    """Remove the player's rating on an earlier list; how many rows went (0 or 1)."""
    return db.run(
        "DELETE FROM official_ratings WHERE player_id = :pid AND tc = :tc AND list_date = :d",
        {"pid": player_id, "tc": tc, "d": list_date},
    )


def delete_online_ratings(db: Db, player_id: int, platform: str) -> None:
    """Forget the online ratings stored of one of the player's accounts."""
    db.run(
        "DELETE FROM online_ratings WHERE player_id = :pid AND platform = :platform",
        {"pid": player_id, "platform": platform},
    )


def bye_count(db: Db, player_id: int) -> int:
    """How many byes the player has."""
    return int(db.scalar("SELECT count(*) FROM byes WHERE player_id = :p", {"p": player_id}))
