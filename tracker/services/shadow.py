"""The Glicko shadow rating in the database: configuration, month closing, recomputation.

The configured preset's shadow is stored in ``glicko_history``: a row per tracked side of
every played game (per-game presets) and a month-end row per player for every closed
period in which his shadow moved (per-game presets: the players who played; per-period
presets: everyone); an idle player's month-end shadow is his latest earlier one, derived when
read (:func:`month_end_players`). Rows belong to a period, so rerating a period replaces them
with it. The reads (the stored shadow read back, the folds' inputs, the in-memory replays
behind ``compare --preset`` and ``evaluate``) are :mod:`tracker.services.shadow_reads`,
re-exported here.
"""

from __future__ import annotations

__all__ = [
    "PRESET_NAMES",
    "SEEDS",
    "SEED_RD_RANGE",
    "ReplayedMonth",
    "ShadowConfig",
    "ShadowMonth",
    "check_preset",
    "close_month",
    "fill_months",
    "fold_month",
    "get_config",
    "month_end_players",
    "new_player_fn",
    "parse_seed_rd",
    "read_month",
    "recompute",
    "replay",
    "seed_rd_for",
    "set_config",
    "shadow_games",
    "write_month",
]

import datetime as dt
from collections.abc import Iterable

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from tracker.db.bulk import bulk_insert, stored_date, without_gc
from tracker.db.models import GlickoHistory, RatingPeriod, ShadowSettings, table
from tracker.errors import InvalidInputError
from tracker.months import month_end
from tracker.ratings.shadow import GameUpdate, ShadowPlayer
from tracker.services import lists
from tracker.services.shadow_config import (
    PRESET_NAMES,
    SEED_RD_RANGE,
    SEEDS,
    ShadowConfig,
    check_preset,
    get_config,
    parse_seed_rd,
    seed_rd_for,
)
from tracker.services.shadow_reads import (
    ReplayedMonth,
    ShadowMonth,
    fill_months,
    fold_month,
    month_end_players,
    new_player_fn,
    read_month,
    replay,
    shadow_games,
)
from tracker.vocabulary import TIME_CONTROLS


def write_month(
    session: Session,
    period: int,
    month: ShadowMonth,
    after: dict[int, ShadowPlayer],
    updates: list[GameUpdate],
) -> None:
    """Store the month's snapshots: a row per tracked side of every game and a month-end row
    per player who played (per-game presets: an idle shadow does not move, see
    :func:`month_end_players`), or a month-end row per player (per-period presets)."""
    rows: list[tuple[object, ...]] = []
    stored = stored_date(session)
    month_end_stored = stored(month_end(month.month))
    name = month.preset.name
    if month.preset.period == "game":
        for u in updates:
            day = stored(u.after.last_played)  # the game's day
            rows.append(_row(u.player_id, name, period, u.after, u.game_id, day, day))
    moved: Iterable[int] = (
        dict.fromkeys(u.player_id for u in updates) if month.movers_only else after
    )
    for pid in moved:
        p = after[pid]
        rows.append(_row(pid, name, period, p, None, month_end_stored, stored(p.last_played)))
    bulk_insert(session, _GLICKO_HISTORY, _GLICKO_COLUMNS, rows, dates_stored=True)


def close_month(
    session: Session, tc: str, month: dt.date, period: int, config: ShadowConfig | None = None
) -> None:
    """Rate the month's games for the configured preset and store the snapshots."""
    read = read_month(session, tc, month, config)
    after, updates = fold_month(read)
    write_month(session, period, read, after, updates)


_GLICKO_HISTORY = table(GlickoHistory)
_GLICKO_COLUMNS = (
    "as_of",
    "player_id",
    "preset",
    "game_id",
    "period_id",
    "rating",
    "rd",
    "volatility",
    "last_played",
    "games",
)


def _row(
    pid: int,
    preset: str,
    period: int,
    p: ShadowPlayer,
    game_id: int | None,
    day: object,
    last_played: object,
) -> tuple[object, ...]:
    """A ``glicko_history`` row, in the order of ``_GLICKO_COLUMNS`` (dates as stored)."""
    state = p.state
    return (
        day,
        pid,
        preset,
        game_id,
        period,
        state.rating,
        state.rd,
        state.volatility,
        last_played,
        p.games,
    )


def recompute(session: Session, tc: str, config: ShadowConfig | None = None) -> None:
    """Replace the stored shadow of every closed period of ``tc``."""
    config = config or get_config(session)
    closed = lists.closed_months(session, tc)
    glicko_history = _GLICKO_HISTORY  # a Core delete: the ORM's would fetch every deleted id first
    session.execute(
        delete(glicko_history).where(
            glicko_history.c.period_id.in_(select(RatingPeriod.id).where(RatingPeriod.tc == tc))
        )
    )
    players: dict[int, ShadowPlayer] | None = None  # every shadow at the previous month's end
    with without_gc():
        for month, pid, _ in closed:
            read = read_month(session, tc, month, config, players=players)
            players, updates = fold_month(read)
            write_month(session, pid, read, players, updates)


def set_config(
    session: Session,
    *,
    preset: str | None = None,
    seed: str | None = None,
    external_rd: float | None = None,
    chesscom_start: float | None = None,
    chesscom_c: float | None = None,
    chesscom_rd_min: float | None = None,
    chesscom_rd_max: float | None = None,
    seed_rd: str | None = None,
) -> tuple[ShadowConfig, bool]:
    """Check and store a new configuration, and recompute every stored shadow if it changed;
    the configuration and whether it changed.

    ``seed_rd``: ``"auto"`` or a number (see :func:`parse_seed_rd`); None leaves it as is."""
    current = get_config(session)
    if preset is not None:
        check_preset(preset)
    if seed is not None and seed not in SEEDS:
        raise InvalidInputError(f"unknown seeding {seed!r}: use elo or fresh")
    if external_rd is not None and not 10 <= external_rd <= 500:
        raise InvalidInputError(f"external RD {external_rd:g} is outside 10..500")
    if chesscom_start is not None and not 100 <= chesscom_start <= 3000:
        raise InvalidInputError(f"start rating {chesscom_start:g} is outside 100..3000")
    if chesscom_c is not None and not 0 <= chesscom_c <= 100:
        raise InvalidInputError(f"RD growth c {chesscom_c:g} is outside 0..100")
    new = ShadowConfig(
        preset or current.preset,
        seed or current.seed,
        current.external_rd if external_rd is None else external_rd,
        current.chesscom_start if chesscom_start is None else chesscom_start,
        current.chesscom_c if chesscom_c is None else chesscom_c,
        current.chesscom_rd_min if chesscom_rd_min is None else chesscom_rd_min,
        current.chesscom_rd_max if chesscom_rd_max is None else chesscom_rd_max,
        current.seed_rd if seed_rd is None else parse_seed_rd(seed_rd),
    )
    if not 1 <= new.chesscom_rd_min < new.chesscom_rd_max <= 1000:
        raise InvalidInputError(
            f"RD bounds {new.chesscom_rd_min:g}..{new.chesscom_rd_max:g} must satisfy "
            "1 <= minimum < maximum <= 1000"
        )
    if new == current:
        return current, False
    row = session.get(ShadowSettings, 1)
    if row is None:
        row = ShadowSettings(id=1)
        session.add(row)
    row.preset, row.seed = new.preset, new.seed
    row.external_rd, row.chesscom_start = new.external_rd, new.chesscom_start
    row.chesscom_c, row.chesscom_rd_min = new.chesscom_c, new.chesscom_rd_min
    row.chesscom_rd_max, row.seed_rd = new.chesscom_rd_max, new.seed_rd
    session.flush()
    for tc in TIME_CONTROLS:
        recompute(session, tc, new)
    return new, True
