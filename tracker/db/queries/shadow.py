"""The Glicko shadow's stored rows and settings."""

import datetime as dt
from collections.abc import Collection, Container, Mapping
from typing import Any, NamedTuple

from tracker.db.driver import IN_CHUNK, Db, chunks, day, maybe_day, reader, save_single_row
from tracker.ratings.glicko.presets import (
    CHESSCOM_C_PER_DAY,
    CHESSCOM_RD_MAX,
    CHESSCOM_RD_MIN,
    CHESSCOM_START,
    GlickoState,
)
from tracker.ratings.shadow import ShadowPlayer
from tracker.vocabulary import DEFAULT_PRESET, TimeControl


def delete_shadow(db: Db, tc: TimeControl) -> None:
    """Delete the stored shadow of every closed period of ``tc``."""
    db.run(
        "DELETE FROM glicko_history"
        " WHERE period_id IN (SELECT id FROM rating_periods WHERE tc = :tc)",
        {"tc": tc},
    )


def save_settings(db: Db, values: dict[str, Any]) -> None:
    """Store the shadow's settings (the single row of ``shadow_settings``, made if missing):
    ``values`` by column name."""
    save_single_row(db, "shadow_settings", values)


class Settings(NamedTuple):
    """The shadow's settings (the row of ``shadow_settings``; the defaults hold without
    it)."""

    preset: str = DEFAULT_PRESET
    seed: str = "elo"
    external_rd: float = 60.0
    chesscom_start: float = CHESSCOM_START
    chesscom_c: float = CHESSCOM_C_PER_DAY
    chesscom_rd_min: float = CHESSCOM_RD_MIN
    chesscom_rd_max: float = CHESSCOM_RD_MAX
    seed_rd: float | None = None  # None: ``auto``, from the player's rated games


def settings(db: Db) -> Settings | None:
    """The stored settings (None: none stored yet, the defaults hold)."""
    row = db.first(f"SELECT {', '.join(Settings._fields)} FROM shadow_settings WHERE id = 1")
    return None if row is None else Settings(*row)


def seed_games(db: Db, tc: TimeControl, players: Collection[int]) -> dict[int, int]:
    """The rated games of each of the ``players`` seeded in ``tc``, by player."""
    query = "SELECT player_id, games FROM player_seeds WHERE tc = :tc"
    if len(players) > 4 * IN_CHUNK:  # most of the list: read it whole
        wanted = set(players)
        return {p: n for p, n in db.all(query, {"tc": tc}) if p in wanted}
    return dict(db.all_in(query + " AND player_id IN (:ids)", players, {"tc": tc}))


def closed_periods_from_latest(
    db: Db, tc: TimeControl, month: dt.date
) -> list[tuple[int, dt.date]]:
    """(id, month) of every closed period of ``tc`` up to ``month``, the latest first."""
    rows = db.all(
        "SELECT id, month FROM rating_periods WHERE tc = :tc AND month <= :month "
        "ORDER BY month DESC",
        {"tc": tc, "month": month},
    )
    return [(period, day(m)) for period, m in rows]


_SHADOW = "player_id, rating, rd, volatility, last_played, games"
_MONTH_END = f"SELECT {_SHADOW} FROM glicko_history WHERE game_id IS NULL"


def _shadow(r: float, rd: float, vol: float, last_played: Any, games: int) -> ShadowPlayer:
    return ShadowPlayer(GlickoState(r, rd, vol), maybe_day(last_played), games)


def month_ends_of_period(
    db: Db, period_id: int, only: Container[int] | None = None
) -> dict[int, ShadowPlayer]:
    """The month-end shadows stored in one closed period (of the players ``only``, if
    given), by player."""
    rows = db.all(_MONTH_END + " AND period_id = :period", {"period": period_id})
    return {
        pid: _shadow(r, rd, vol, last, games)
        for pid, r, rd, vol, last, games in rows
        if only is None or pid in only
    }


def latest_month_ends_of_players(
    db: Db, players: Collection[int], periods: Mapping[int, dt.date]
) -> dict[int, ShadowPlayer]:
    """Each of the ``players``' month-end shadow stored in the latest of ``periods`` (id ->
    month) he has one in (read by the player index: every one of his month-end rows)."""
    found: dict[int, tuple[dt.date, list[Any]]] = {}
    for chunk in chunks(sorted(players)):
        rows = db.all(
            f"SELECT {_SHADOW}, period_id FROM glicko_history"
            " WHERE game_id IS NULL AND player_id IN (:ids)",
            {"ids": chunk},
        )
        for *row, period in rows:
            month = periods.get(period) if period is not None else None
            if month is not None and (row[0] not in found or found[row[0]][0] < month):
                found[row[0]] = (month, row)
    return {pid: _shadow(*row[1:]) for pid, (_, row) in found.items()}


class MonthEnd(NamedTuple):
    """A stored month-end shadow as read."""

    player_id: int
    rating: float
    rd: float
    volatility: float
    last_played: dt.date | None
    games: int


def latest_month_ends(db: Db, tc: TimeControl, month: dt.date) -> dict[int, ShadowPlayer]:
    """Each player's latest month-end shadow on a period of ``tc`` closing ``month`` or
    earlier (a whole list: one query)."""
    return {
        pid: ShadowPlayer(GlickoState(r, rd, vol), last, n)
        for pid, r, rd, vol, last, n in latest_month_end_rows(db, tc, month)
    }


def latest_month_end_rows(db: Db, tc: TimeControl, month: dt.date) -> list[MonthEnd]:
    """:func:`latest_month_ends` as the rows read (a whole list's readings are worked out
    on them: a state object a player cost more than the arithmetic)."""
    shadow = "h.player_id, h.rating, h.rd, h.volatility, h.last_played, h.games"
    if db.sqlite:
        # One scan of the month-end rows' own index (by player, every column read in it),
        # grouped by player: SQLite takes the bare columns of a max() query from the row
        # holding the max (its documented rule). Its planner, without statistics, would take
        # the periods' index and read the per-game rows too: 0.62 s against 0.16 s on
        # --large's 2.4 million rows, 280,000 of them month-end rows.
        sql = f"""
            SELECT {shadow}, max(r.month)
            FROM glicko_history h INDEXED BY ix_glicko_history_month_ends
            JOIN rating_periods r ON r.id = h.period_id
            WHERE r.tc = :tc AND r.month <= :month AND h.game_id IS NULL
            GROUP BY h.player_id"""
        read = reader(MonthEnd)
        return [read(row[:6]) for row in db.all(sql, {"tc": tc, "month": month})]
    # PostgreSQL: one sorted scan, not an index probe per player (see lists._latest)
    sql = f"""
        SELECT DISTINCT ON (h.player_id) {shadow}
        FROM glicko_history h
        JOIN rating_periods r ON r.id = h.period_id
        WHERE r.tc = :tc AND r.month <= :month AND h.game_id IS NULL
        ORDER BY h.player_id, r.month DESC"""
    return db.rows(MonthEnd, sql, {"tc": tc, "month": month})  # one fetch: a whole list


def player_month_ends(db: Db, tc: TimeControl, player_id: int) -> dict[dt.date, ShadowPlayer]:
    """One player's stored month-end shadows in ``tc``, by period month."""
    # SQLite, without statistics, took the player's index and read his per-game rows too (8
    # ms for a federation's busiest player): the month-end rows' own index finds his alone
    index = " INDEXED BY ix_glicko_history_month_ends" if db.sqlite else ""
    rows = db.all(
        f"""
        SELECT r.month, h.rating, h.rd, h.volatility, h.last_played, h.games
        FROM glicko_history h{index} JOIN rating_periods r ON r.id = h.period_id
        WHERE r.tc = :tc AND h.player_id = :pid AND h.game_id IS NULL""",
        {"tc": tc, "pid": player_id},
    )
    return {day(month): _shadow(r, rd, vol, last, games) for month, r, rd, vol, last, games in rows}
