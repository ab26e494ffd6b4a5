"""The Glicko shadow rating in the database: configuration, month closing, recomputation,
and the in-memory replays behind ``compare --preset`` and ``evaluate``.

The configured preset's shadow is stored in ``glicko_history``: a row per tracked side of
every played game (per-game presets) and a month-end row per player for every closed
period. Rows belong to a period, so rerating a period replaces them with it.
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
from collections.abc import Collection, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass

from sqlalchemy import Date, Integer, String, delete, insert, literal, null, select
from sqlalchemy.orm import Session

from tracker.db.bulk import bulk_insert, stored_date, without_gc
from tracker.db.models import (
    GlickoHistory,
    PlayerSeed,
    RatingPeriod,
    table,
)
from tracker.months import month_end, previous_month
from tracker.ratings import glicko
from tracker.ratings.glicko import GlickoPreset, GlickoState
from tracker.ratings.month_games import MonthGame
from tracker.ratings.shadow import GameUpdate, NewPlayer, ShadowGame, ShadowPlayer, rate_month
from tracker.services import lists, rated_games
from tracker.services.shadow_config import (
    PRESET_NAMES,
    SEED_RD_RANGE,
    SEEDS,
    ShadowConfig,
    check_preset,
    get_config,
    parse_seed_rd,
    seed_rd_for,
    store_config,
)
from tracker.vocabulary import SCORES, TIME_CONTROLS


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
    """Change the configuration (:func:`~tracker.services.shadow_config.store_config`);
    recompute every stored shadow if it changed."""
    new, changed = store_config(
        session,
        preset=preset,
        seed=seed,
        external_rd=external_rd,
        chesscom_start=chesscom_start,
        chesscom_c=chesscom_c,
        chesscom_rd_min=chesscom_rd_min,
        chesscom_rd_max=chesscom_rd_max,
        seed_rd=seed_rd,
    )
    if changed:
        for tc in TIME_CONTROLS:
            recompute(session, tc, new)
    return new, changed


# ---------------------------------------------------------------------------------------
# The month's games as the shadow fold takes them


_WHITE_SCORES = {result: float(white) for result, (white, _) in SCORES.items()}


def shadow_games(
    games: list[MonthGame], config: ShadowConfig, preset: GlickoPreset
) -> list[ShadowGame]:
    out = []
    fixed: dict[int | None, GlickoState] = {}  # external opponents' states, by recorded rating
    for g in games:
        white_score = _WHITE_SCORES[g.result]
        if g.white_external and g.black_external:
            continue
        white_fixed = black_fixed = None
        if g.white_external:
            white_fixed = fixed.get(g.white_rating)
            if white_fixed is None:
                white_fixed = fixed[g.white_rating] = _fixed(g.white_rating, config, preset)
        if g.black_external:
            black_fixed = fixed.get(g.black_rating)
            if black_fixed is None:
                black_fixed = fixed[g.black_rating] = _fixed(g.black_rating, config, preset)
        out.append(
            ShadowGame(
                game_id=g.id,
                played_on=g.played_on,
                white=None if g.white_external else g.white_id,
                black=None if g.black_external else g.black_id,
                white_score=white_score,
                white_fixed=white_fixed,
                black_fixed=black_fixed,
            )
        )
    return out


def _fixed(rating: int | None, config: ShadowConfig, preset: GlickoPreset) -> GlickoState:
    """An external opponent: his recorded rating with the configured fixed RD; without a
    recorded rating (an unrated opponent), what an online platform knows of a new player:
    the preset's new-player rating and RD."""
    if rating is None:
        return GlickoState(preset.initial_rating, preset.initial_rd, preset.initial_volatility)
    return GlickoState(float(rating), config.external_rd, preset.initial_volatility)


def new_player_fn(
    config: ShadowConfig,
    preset: GlickoPreset,
    ratings: lists.ListRatings,
    games: Iterable[MonthGame],
    rated_games: Mapping[int, int],
) -> NewPlayer:
    """A new player's first shadow: with ``elo`` seeding, from his Elo on the list in force
    on the day of his first game (read here, for the days of ``games``) with the RD of
    :func:`seed_rd_for` for his ``rated_games`` on that list (see :func:`rated_games_on_list`);
    an unrated player, or ``fresh`` seeding, gets the preset's new-player values."""
    if config.seed != "elo":
        return lambda pid, day: glicko.new_player(preset)
    on_list = {day: ratings.on_list_of(day) for day in {g.played_on for g in games}}

    def start(pid: int, day: dt.date) -> GlickoState:
        elo = on_list[day].get(pid)
        if elo is not None:
            rd = seed_rd_for(config, preset, rated_games.get(pid, 0))
            return glicko.new_player(preset, float(elo), rd)
        return glicko.new_player(preset)

    return start


_IN_CHUNK = 500
"""Ids per ``IN (...)`` list (SQLite allows a few thousand bound parameters at most)."""


def rated_games_on_list(
    session: Session, tc: str, month: dt.date, pids: Collection[int]
) -> dict[int, int]:
    """The rated games behind each rating of ``pids`` on the list in force during ``month``
    (the published list of the previous month, else the seeds), for those rated on it. A
    rapid or blitz player rated from his standard rating (as :class:`lists.ListRatings`
    does, Rapid & Blitz Regulations §7.2.1) counts his standard games."""
    if not pids:
        return {}
    found = _rated_games(session, tc, previous_month(month), pids)
    if tc != "standard":
        missing = [p for p in pids if p not in found]
        found |= _rated_games(session, "standard", previous_month(month), missing)
    return found


def _rated_games(
    session: Session, tc: str, list_month: dt.date, pids: Collection[int]
) -> dict[int, int]:
    if not pids:
        return {}
    if lists.period_id(session, tc, list_month) is not None:
        lines = lists.lines_at(session, tc, list_month, pids)
        return {p: line.rated_games for p, line in lines.items() if line.rating is not None}
    query = select(PlayerSeed.player_id, PlayerSeed.games).where(PlayerSeed.tc == tc)
    if len(pids) > 4 * _IN_CHUNK:  # most of the list: read it whole
        wanted = set(pids)
        return {p: n for p, n in session.execute(query) if p in wanted}
    ordered = sorted(pids)
    out: dict[int, int] = {}
    for i in range(0, len(ordered), _IN_CHUNK):
        chunk = ordered[i : i + _IN_CHUNK]
        out.update((p, n) for p, n in session.execute(query.where(PlayerSeed.player_id.in_(chunk))))
    return out


def _newcomers(games: Iterable[ShadowGame], players: Container[int]) -> set[int]:
    """The tracked sides of ``games`` without a shadow yet."""
    return {
        pid for g in games for pid in (g.white, g.black) if pid is not None and pid not in players
    }


def _rated_games_of_newcomers(
    session: Session,
    tc: str,
    month: dt.date,
    config: ShadowConfig,
    games: Iterable[ShadowGame],
    players: Container[int],
) -> dict[int, int]:
    """What :func:`new_player_fn` needs: only ``auto`` seeding from Elo reads game counts."""
    if config.seed != "elo" or config.seed_rd is not None:
        return {}
    return rated_games_on_list(session, tc, month, _newcomers(games, players))


# ---------------------------------------------------------------------------------------
# Stored shadow


def month_end_players(
    session: Session, period: int | None, only: Container[int] | None = None
) -> dict[int, ShadowPlayer]:
    """The shadow of every player at the end of ``period`` (or of the players ``only``)."""
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
        if only is None or pid in only
    }


@dataclass(frozen=True)
class ShadowMonth:
    """What the shadow fold of one month needs, read from the database."""

    month: dt.date
    preset: GlickoPreset
    previous: int | None  # the previous closed period, if any
    games: list[ShadowGame]
    players: dict[int, ShadowPlayer]  # shadows at the end of the previous month
    start: NewPlayer  # a new player's first shadow
    copy_idle: bool  # idle players' month-end rows are copied in the database


def read_month(
    session: Session,
    tc: str,
    month: dt.date,
    config: ShadowConfig | None = None,
    *,
    games: list[MonthGame] | None = None,
    ratings: lists.ListRatings | None = None,
    players: dict[int, ShadowPlayer] | None = None,
    keep: bool = False,
) -> ShadowMonth:
    """Read what :func:`fold_month` needs. ``games``, ``ratings`` (the month's games and the
    published lists) and ``players`` (every shadow at the end of the previous month), when
    the caller has them already, save reading them again; ``keep``: the caller will want
    every shadow at the month's end (to close the next month), not only the movers'.

    With a per-game preset a player without games in the month keeps his shadow as it was:
    his month-end row is copied in the database instead of going through Python (most of a
    federation's players are idle in a given month), so only the active players are read."""
    config = config or get_config(session)
    preset = config.glicko_preset()
    previous = lists.period_id(session, tc, previous_month(month))
    if ratings is None:
        ratings = lists.ListRatings(session, tc)
    if games is None:
        games = rated_games.month_games(session, tc, month)
    shadow = shadow_games(games, config, preset)
    copy_idle = preset.period == "game" and previous is not None
    if players is None:
        active: set[int] | None = None
        if copy_idle and not keep:
            active = {pid for g in shadow for pid in (g.white, g.black) if pid is not None}
        players = month_end_players(session, previous, only=active)
    counts = _rated_games_of_newcomers(session, tc, month, config, shadow, players)
    start = new_player_fn(config, preset, ratings, games, counts)
    return ShadowMonth(month, preset, previous, shadow, players, start, copy_idle)


def fold_month(month: ShadowMonth) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
    """The month's shadow fold (pure: :func:`tracker.ratings.shadow.rate_month`)."""
    return rate_month(month.players, month.games, month.preset, month.start)


def write_month(
    session: Session,
    period: int,
    month: ShadowMonth,
    after: dict[int, ShadowPlayer],
    updates: list[GameUpdate],
) -> None:
    """Store the month's snapshots: a row per tracked side of every game (per-game presets)
    and a month-end row per player."""
    rows: list[tuple[object, ...]] = []
    stored = stored_date(session)
    month_end_day = month_end(month.month)
    month_end_stored = stored(month_end_day)
    name = month.preset.name
    if month.preset.period == "game":
        for u in updates:
            day = stored(u.after.last_played)  # the game's day
            rows.append(_row(u.player_id, name, period, u.after, u.game_id, day, day))
    # Month-end rows: with idle rows copied below, only the players who played (the others'
    # shadows did not move); otherwise everyone.
    moved: Iterable[int] = dict.fromkeys(u.player_id for u in updates) if month.copy_idle else after
    for pid in moved:
        p = after[pid]
        rows.append(_row(pid, name, period, p, None, month_end_stored, stored(p.last_played)))
    bulk_insert(session, _GLICKO_HISTORY, _GLICKO_COLUMNS, rows, dates_stored=True)
    if month.copy_idle:
        assert month.previous is not None
        _copy_month_end(session, month.previous, period, name, month_end_day)


def close_month(
    session: Session, tc: str, month: dt.date, period: int, config: ShadowConfig | None = None
) -> None:
    """Rate the month's games for the configured preset and store the snapshots."""
    read = read_month(session, tc, month, config)
    after, updates = fold_month(read)
    write_month(session, period, read, after, updates)


def _copy_month_end(
    session: Session, previous: int, period: int, preset: str, month_end: dt.date
) -> None:
    """Month-end rows of ``period`` for the players without any row in it yet: their rows
    of the ``previous`` period, unchanged (a per-game preset leaves an idle shadow as is)."""
    h = GlickoHistory
    present = select(h.player_id).where(h.period_id == period)
    rows = select(
        literal(month_end, Date),
        h.player_id,
        literal(preset, String),
        null(),
        literal(period, Integer),
        h.rating,
        h.rd,
        h.volatility,
        h.last_played,
        h.games,
    ).where(h.period_id == previous, h.game_id.is_(None), h.player_id.not_in(present))
    session.execute(insert(_GLICKO_HISTORY).from_select(list(_GLICKO_COLUMNS), rows))


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
    with without_gc():
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
    ratings = lists.ListRatings(session, tc)
    players: dict[int, ShadowPlayer] = {}
    for month, _, _ in lists.closed_months(session, tc):
        month_games = rated_games.month_games(session, tc, month)
        games = shadow_games(month_games, config, preset)
        counts = _rated_games_of_newcomers(session, tc, month, config, games, players)
        start = new_player_fn(config, preset, ratings, month_games, counts)
        players, updates = rate_month(players, games, preset, start)
        yield ReplayedMonth(month, players, updates)
