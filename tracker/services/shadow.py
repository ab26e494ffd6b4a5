"""The Glicko shadow rating in the database: configuration, month closing, recomputation,
and the in-memory replays behind ``compare --preset`` and ``evaluate``.

The configured preset's shadow is stored in ``glicko_history``: a row per tracked side of
every played game (per-game presets) and a month-end row per player for every closed
period. Rows belong to a period, so rerating a period replaces them with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from tracker.db.models import GlickoHistory, RatingPeriod, ShadowSettings
from tracker.errors import InvalidInputError
from tracker.parsing import next_month
from tracker.ratings import glicko
from tracker.ratings.glicko import GlickoPreset, GlickoState
from tracker.ratings.shadow import GameUpdate, NewPlayer, ShadowGame, ShadowPlayer, rate_month
from tracker.services import periods

SEEDS = ("elo", "fresh")
PRESET_NAMES = tuple(glicko.PRESETS)


@dataclass(frozen=True)
class ShadowConfig:
    """How this database computes its shadow rating."""

    preset: str = glicko.DEFAULT_PRESET
    seed: str = "elo"
    external_rd: float = 60.0
    chesscom_start: float = glicko.CHESSCOM_START
    chesscom_c: float = glicko.CHESSCOM_C_PER_DAY
    chesscom_rd_min: float = glicko.CHESSCOM_RD_MIN
    chesscom_rd_max: float = glicko.CHESSCOM_RD_MAX

    def glicko_preset(self, name: str | None = None) -> GlickoPreset:
        chosen = name or self.preset
        if chosen == "chesscom":
            return glicko.chesscom_preset(
                start=self.chesscom_start,
                c=self.chesscom_c,
                rd_min=self.chesscom_rd_min,
                rd_max=self.chesscom_rd_max,
            )
        return glicko.get_preset(chosen)


def get_config(session: Session) -> ShadowConfig:
    row = session.get(ShadowSettings, 1)
    if row is None:
        return ShadowConfig()
    return ShadowConfig(
        row.preset,
        row.seed,
        row.external_rd,
        row.chesscom_start,
        row.chesscom_c,
        row.chesscom_rd_min,
        row.chesscom_rd_max,
    )


def check_preset(name: str) -> str:
    if name not in PRESET_NAMES:
        raise InvalidInputError(f"unknown preset {name!r}: use {', '.join(PRESET_NAMES)}")
    return name


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
) -> tuple[ShadowConfig, bool]:
    """Change the configuration; recompute every stored shadow if it changed."""
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
    row.chesscom_rd_max = new.chesscom_rd_max
    session.flush()
    for tc in ("standard", "rapid", "blitz"):
        recompute(session, tc, new)
    return new, True


# ---------------------------------------------------------------------------------------
# The month's games as the shadow fold takes them


def shadow_games(
    games: list[periods.MonthGame], config: ShadowConfig, preset: GlickoPreset
) -> list[ShadowGame]:
    out = []
    for g in games:
        white_score = {"1-0": 1.0, "0-1": 0.0}.get(g.result, 0.5)
        if g.white_external and g.black_external:
            continue
        out.append(
            ShadowGame(
                game_id=g.id,
                played_on=g.played_on,
                white=None if g.white_external else g.white_id,
                black=None if g.black_external else g.black_id,
                white_score=white_score,
                white_fixed=_fixed(g.white_rating, config, preset) if g.white_external else None,
                black_fixed=_fixed(g.black_rating, config, preset) if g.black_external else None,
            )
        )
    return out


def _fixed(rating: int | None, config: ShadowConfig, preset: GlickoPreset) -> GlickoState:
    """An external opponent: his recorded rating with the configured fixed RD."""
    return GlickoState(
        float(rating or preset.initial_rating), config.external_rd, preset.initial_volatility
    )


def new_player_fn(
    config: ShadowConfig, preset: GlickoPreset, ratings: periods.ListRatings
) -> NewPlayer:
    def start(pid: int, day: dt.date) -> GlickoState:
        if config.seed == "elo":
            elo = ratings.on_list_of(day).get(pid)
            if elo is not None:
                return glicko.new_player(preset, float(elo))
        return glicko.new_player(preset)

    return start


# ---------------------------------------------------------------------------------------
# Stored shadow


def month_end_players(session: Session, period: int | None) -> dict[int, ShadowPlayer]:
    if period is None:
        return {}
    rows = session.execute(
        select(
            GlickoHistory.player_id,
            GlickoHistory.rating,
            GlickoHistory.rd,
            GlickoHistory.volatility,
            GlickoHistory.last_played,
            GlickoHistory.games,
        ).where(GlickoHistory.period_id == period, GlickoHistory.game_id.is_(None))
    )
    return {
        pid: ShadowPlayer(GlickoState(r, rd, vol), last, games)
        for pid, r, rd, vol, last, games in rows
    }


def close_month(
    session: Session, tc: str, month: dt.date, period: int, config: ShadowConfig | None = None
) -> None:
    """Rate the month's games for the configured preset and store the snapshots."""
    config = config or get_config(session)
    preset = config.glicko_preset()
    previous = periods.period_id(session, tc, periods.previous_month(month))
    players = month_end_players(session, previous)
    ratings = periods.ListRatings(session, tc)
    games = shadow_games(periods.month_games(session, tc, month), config, preset)
    after, updates = rate_month(players, games, preset, new_player_fn(config, preset, ratings))
    rows = []
    if preset.period == "game":
        rows += [
            _row(u.player_id, preset.name, period, u.after, u.game_id, u.after.last_played)
            for u in updates
        ]
    month_end = next_month(month) - dt.timedelta(days=1)
    rows += [_row(pid, preset.name, period, p, None, month_end) for pid, p in after.items()]
    if rows:
        session.execute(insert(GlickoHistory), rows)


def _row(
    pid: int,
    preset: str,
    period: int,
    p: ShadowPlayer,
    game_id: int | None,
    day: dt.date | None,
) -> dict[str, object]:
    return {
        "as_of": day,
        "player_id": pid,
        "preset": preset,
        "game_id": game_id,
        "period_id": period,
        "rating": p.state.rating,
        "rd": p.state.rd,
        "volatility": p.state.volatility,
        "last_played": p.last_played,
        "games": p.games,
    }


def recompute(session: Session, tc: str, config: ShadowConfig | None = None) -> None:
    """Replace the stored shadow of every closed period of ``tc``."""
    config = config or get_config(session)
    closed = periods.closed_months(session, tc)
    session.execute(
        delete(GlickoHistory).where(
            GlickoHistory.period_id.in_(select(RatingPeriod.id).where(RatingPeriod.tc == tc))
        )
    )
    for month, pid, _ in closed:
        close_month(session, tc, month, pid, config)


# ---------------------------------------------------------------------------------------
# In-memory replays


@dataclass(frozen=True)
class ReplayedMonth:
    month: dt.date
    players: dict[int, ShadowPlayer]
    updates: list[GameUpdate]


def replay(
    session: Session, tc: str, config: ShadowConfig, preset_name: str
) -> Iterator[ReplayedMonth]:
    """The shadow of any preset over the closed periods, computed without storing it."""
    preset = config.glicko_preset(preset_name)
    ratings = periods.ListRatings(session, tc)
    start = new_player_fn(config, preset, ratings)
    players: dict[int, ShadowPlayer] = {}
    for month, _, _ in periods.closed_months(session, tc):
        games = shadow_games(periods.month_games(session, tc, month), config, preset)
        players, updates = rate_month(players, games, preset, start)
        yield ReplayedMonth(month, players, updates)
