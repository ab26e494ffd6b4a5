"""The Glicko shadow rating in the database: configuration, month closing, recomputation,
and the in-memory replays behind ``compare --preset`` and ``evaluate``.

The configured preset's shadow is stored in ``glicko_history``: a row per tracked side of
every played game (per-game presets) and a month-end row per player for every closed
period in which his shadow moved (per-game presets: the players who played; per-period
presets: everyone); an idle player's month-end shadow is his latest earlier one, derived when
read (:func:`month_end_players`). Rows belong to a period, so rerating a period replaces them
with it.
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
from collections.abc import Collection, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, select
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
    session: Session, tc: str, month: dt.date, only: Collection[int] | None = None
) -> dict[int, ShadowPlayer]:
    """The shadow of every player (or of the players ``only``) at the end of ``month``: his
    latest month-end row on a period of ``tc`` closing ``month`` or earlier.

    A per-game preset leaves an idle player's shadow as it was (idle RD growth is derived
    when read, from ``last_played``), so a closed period stores the month-end rows of the
    players who played in it only; the others' are their latest earlier ones, derived here
    (databases written before stored them copied, to the same values). A per-period preset
    stores everyone's row in every period."""
    if only is None:
        return _latest_month_ends(session, tc, month)
    if not only:
        return {}
    # A month's players mostly played in the months just before: the latest periods' rows
    # (read by period, as a close always read the previous one), then the others' latest
    # rows by player (the newcomers have none).
    missing = set(only)
    out: dict[int, ShadowPlayer] = {}
    periods = session.execute(
        select(RatingPeriod.id, RatingPeriod.month)
        .where(RatingPeriod.tc == tc, RatingPeriod.month <= month)
        .order_by(RatingPeriod.month.desc())
    ).all()
    for period, _ in periods[:_RECENT_PERIODS]:
        rows = session.connection().execute(_MONTH_END.where(GlickoHistory.period_id == period))
        for pid, r, rd, vol, last_played, games in rows:
            if pid in missing:
                out[pid] = ShadowPlayer(GlickoState(r, rd, vol), last_played, games)
        missing.difference_update(out)
        if not missing:
            return out
    older = dict(periods[_RECENT_PERIODS:])
    if not older:
        return out
    # By the player index (the newcomers have no row): his rows, the latest older period's.
    ordered = sorted(missing)
    found: dict[int, tuple[dt.date, ShadowPlayer]] = {}
    for i in range(0, len(ordered), _IN_CHUNK):
        by_player = session.connection().execute(
            _MONTH_END_WITH_PERIOD.where(GlickoHistory.player_id.in_(ordered[i : i + _IN_CHUNK]))
        )
        for pid, r, rd, vol, last_played, games, stored_in in by_player:
            m = older.get(stored_in) if stored_in is not None else None
            if m is not None and (pid not in found or found[pid][0] < m):
                found[pid] = (m, ShadowPlayer(GlickoState(r, rd, vol), last_played, games))
    out.update((pid, player) for pid, (_, player) in found.items())
    return out


_RECENT_PERIODS = 2

_MONTH_END = select(
    GlickoHistory.player_id,
    GlickoHistory.rating,
    GlickoHistory.rd,
    GlickoHistory.volatility,
    GlickoHistory.last_played,
    GlickoHistory.games,
).where(GlickoHistory.game_id.is_(None))


_MONTH_END_WITH_PERIOD = select(
    GlickoHistory.player_id,
    GlickoHistory.rating,
    GlickoHistory.rd,
    GlickoHistory.volatility,
    GlickoHistory.last_played,
    GlickoHistory.games,
    GlickoHistory.period_id,
).where(GlickoHistory.game_id.is_(None))


def _latest_month_ends(session: Session, tc: str, month: dt.date) -> dict[int, ShadowPlayer]:
    """Each player's latest month-end row on a period of ``tc`` closing ``month`` or earlier
    (a whole list: one GROUP BY)."""
    h = GlickoHistory
    latest = (
        select(h.player_id.label("pid"), func.max(RatingPeriod.month).label("m"))
        .join(RatingPeriod, RatingPeriod.id == h.period_id)
        .where(RatingPeriod.tc == tc, RatingPeriod.month <= month, h.game_id.is_(None))
        .group_by(h.player_id)
    )
    last = latest.subquery()
    query = (
        _MONTH_END.join(RatingPeriod, RatingPeriod.id == h.period_id)
        .join(last, and_(last.c.pid == h.player_id, last.c.m == RatingPeriod.month))
        .where(RatingPeriod.tc == tc)
    )
    rows = session.connection().execute(query).all()  # Core, one fetch: a whole list
    return {
        pid: ShadowPlayer(GlickoState(r, rd, vol), last_played, games)
        for pid, r, rd, vol, last_played, games in rows
    }


def fill_months(
    stored: Mapping[dt.date, ShadowPlayer], months: Iterable[dt.date]
) -> dict[dt.date, ShadowPlayer]:
    """One player's month-end shadows ``stored`` (by period month), filled in for every one of
    the closed ``months`` (oldest first) from his latest earlier one (see
    :func:`month_end_players`)."""
    out: dict[dt.date, ShadowPlayer] = {}
    latest: ShadowPlayer | None = None
    for month in months:
        latest = stored.get(month, latest)
        if latest is not None:
            out[month] = latest
    return out


@dataclass(frozen=True)
class ShadowMonth:
    """What the shadow fold of one month needs, read from the database."""

    month: dt.date
    preset: GlickoPreset
    previous: int | None  # the previous closed period, if any
    games: list[ShadowGame]
    players: dict[int, ShadowPlayer]  # shadows at the end of the previous month
    start: NewPlayer  # a new player's first shadow
    movers_only: bool  # only the players who played get a month-end row (per-game presets)


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
    no month-end row is stored for him (it is derived when read, see
    :func:`month_end_players`; most of a federation's players are idle in a given month), so
    only the active players are read."""
    config = config or get_config(session)
    preset = config.glicko_preset()
    previous = lists.period_id(session, tc, previous_month(month))
    if ratings is None:
        ratings = lists.ListRatings(session, tc)
    if games is None:
        games = rated_games.month_games(session, tc, month)
    shadow = shadow_games(games, config, preset)
    movers_only = preset.period == "game"
    if players is None:
        if previous is None:  # the first closed period: nobody has a shadow yet
            players = {}
        else:
            active: set[int] | None = None
            if movers_only and not keep:
                active = {pid for g in shadow for pid in (g.white, g.black) if pid is not None}
            players = month_end_players(session, tc, previous_month(month), only=active)
    counts = _rated_games_of_newcomers(session, tc, month, config, shadow, players)
    start = new_player_fn(config, preset, ratings, games, counts)
    return ShadowMonth(month, preset, previous, shadow, players, start, movers_only)


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
