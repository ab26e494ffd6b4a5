"""The stored shadow read back, and the shadow folds' inputs: plain reads
(:mod:`tracker.db.driver`) for the everyday commands, closing, recomputing and the in-memory
replays behind ``compare --preset`` and ``evaluate``. (Writing it: :mod:`tracker.services.shadow`.)

A per-game preset stores a month-end row only for the players who played in the period; an
idle player's month-end shadow is his latest earlier one, derived when read
(:func:`month_end_players`, :func:`fill_months`).
"""

import datetime as dt
from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import lists as list_queries
from tracker.db.queries import shadow as queries
from tracker.db.queries.rated_games import month_games
from tracker.months import previous_month
from tracker.ratings.glicko.api import new_player
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState
from tracker.ratings.month_games import MonthGame
from tracker.ratings.shadow import GameUpdate, NewPlayer, ShadowGame, ShadowPlayer, rate_month
from tracker.services import lists
from tracker.services.shadow.config import ShadowConfig, get_config, seed_rd_for
from tracker.vocabulary import SCORES, TimeControl

# ---------------------------------------------------------------------------------------
# The month's games as the shadow fold takes them


_WHITE_SCORES = {result: float(white) for result, (white, _) in SCORES.items()}


def shadow_games(
    games: list[MonthGame], config: ShadowConfig, preset: GlickoPreset
) -> list[ShadowGame]:
    out = []
    fixed: dict[int | None, GlickoState] = {}  # external opponents' states, by recorded rating

    def fixed_of(rating: int | None) -> GlickoState:
        if (state := fixed.get(rating)) is None:
            state = fixed[rating] = _fixed(rating, config, preset)
        return state

    for g in games:
        if g.white_external and g.black_external:
            continue
        out.append(
            ShadowGame(  # by position: game, day, white, black, White's score, fixed states
                g.id,
                g.played_on,
                None if g.white_external else g.white_id,
                None if g.black_external else g.black_id,
                _WHITE_SCORES[g.result],
                fixed_of(g.white_rating) if g.white_external else None,
                fixed_of(g.black_rating) if g.black_external else None,
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
    db: Db,
    tc: TimeControl,
    month: dt.date,
    config: ShadowConfig,
    preset: GlickoPreset,
    ratings: lists.ListRatings,
    games: Sequence[ShadowGame],
    players: Container[int],
) -> NewPlayer:
    """A new player's first shadow in the month's ``games`` (``players``: those who have one
    already): with ``elo`` seeding, from his Elo on the list in force on the day of his first
    game (read here) with the RD of :func:`seed_rd_for` for his rated games on that list
    (read for ``auto`` seeding only: :func:`rated_games_on_list`); an unrated player, or
    ``fresh`` seeding, gets the preset's new-player values."""
    if config.seed != "elo":
        return lambda pid, day: new_player(preset)
    on_list = {day: ratings.on_list_of(day) for day in {g.played_on for g in games}}
    rated_games: dict[int, int] = {}
    if config.seed_rd is None:
        new = {p for g in games for p in (g.white, g.black) if p is not None and p not in players}
        rated_games = rated_games_on_list(db, tc, month, new)
    rds: dict[int, float] = {}  # the seed RD by rated games (a month's newcomers share few)

    def start(pid: int, day: dt.date) -> GlickoState:
        elo = on_list[day].get(pid)
        if elo is not None:
            games = rated_games.get(pid, 0)
            rd = rds.get(games)
            if rd is None:
                rd = rds[games] = seed_rd_for(config, preset, games)
            return new_player(preset, float(elo), rd)
        return new_player(preset)

    return start


def rated_games_on_list(
    db: Db, tc: TimeControl, month: dt.date, pids: Collection[int]
) -> dict[int, int]:
    """The rated games behind each rating of ``pids`` on the list in force during ``month``
    (the published list of the previous month, else the seeds), for those rated on it. A
    rapid or blitz player rated from his standard rating (as :class:`lists.ListRatings`
    does, Rapid & Blitz Regulations §7.2.1) counts his standard games."""
    found = _rated_games(db, tc, previous_month(month), pids)
    if tc != "standard":
        missing = [p for p in pids if p not in found]
        found |= _rated_games(db, "standard", previous_month(month), missing)
    return found


def _rated_games(
    db: Db, tc: TimeControl, list_month: dt.date, pids: Collection[int]
) -> dict[int, int]:
    if not pids:
        return {}
    period = lists.period_id(db, tc, list_month)
    if period is not None:
        listed = list_queries.entries_with_players(db, period, pids)
        return {e.player_id: e.rated_games for e, _, _ in listed}
    return queries.seed_games(db, tc, pids)


# ---------------------------------------------------------------------------------------
# Stored shadow


def month_end_players(
    db: Db, tc: TimeControl, month: dt.date, only: Collection[int] | None = None
) -> dict[int, ShadowPlayer]:
    """The shadow of every player (or of the players ``only``) at the end of ``month``: his
    latest month-end row on a period of ``tc`` closing ``month`` or earlier.

    A per-game preset leaves an idle player's shadow as it was (idle RD growth is derived
    when read, from ``last_played``), so a closed period stores the month-end rows of the
    players who played in it only; the others' are their latest earlier ones, derived here
    (databases written before stored them copied, to the same values). A per-period preset
    stores everyone's row in every period."""
    if only is None:
        return queries.latest_month_ends(db, tc, month)
    if not only:
        return {}
    # A month's players mostly played in the months just before: the latest periods' rows
    # (read by period, as a close always read the previous one), then the others' latest
    # rows by player (the newcomers have none).
    missing = set(only)
    out: dict[int, ShadowPlayer] = {}
    periods = queries.closed_periods_from_latest(db, tc, month)
    for period, _ in periods[:_RECENT_PERIODS]:
        out.update(queries.month_ends_of_period(db, period, only=missing))
        missing.difference_update(out)
        if not missing:
            return out
    older: dict[int, dt.date] = dict(periods[_RECENT_PERIODS:])
    if not older:
        return out
    # By the player index (the newcomers have none): his rows, the latest older period's.
    out.update(queries.latest_month_ends_of_players(db, missing, older))
    return out


_RECENT_PERIODS = 2


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


class ShadowMonth(NamedTuple):
    """What the shadow fold of one month needs, read from the database."""

    month: dt.date
    preset: GlickoPreset
    previous: int | None  # the previous closed period, if any
    games: list[ShadowGame]
    players: dict[int, ShadowPlayer]  # shadows at the end of the previous month
    start: NewPlayer  # a new player's first shadow
    movers_only: bool  # only the players who played get a month-end row (per-game presets)


def read_month(
    db: Db,
    tc: TimeControl,
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
    config = config or get_config(db)
    preset = config.glicko_preset()
    previous = lists.period_id(db, tc, previous_month(month))
    if ratings is None:
        ratings = lists.ListRatings(db, tc)
    if games is None:
        games = month_games(db, tc, month)
    shadow = shadow_games(games, config, preset)
    movers_only = preset.period == "game"
    if players is None:
        if previous is None:  # the first closed period: nobody has a shadow yet
            players = {}
        else:
            active: set[int] | None = None
            if movers_only and not keep:
                active = {pid for g in shadow for pid in (g.white, g.black) if pid is not None}
            players = month_end_players(db, tc, previous_month(month), only=active)
    start = new_player_fn(db, tc, month, config, preset, ratings, shadow, players)
    return ShadowMonth(month, preset, previous, shadow, players, start, movers_only)


def fold_month(month: ShadowMonth) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
    """The month's shadow fold (pure: :func:`tracker.ratings.shadow.rate_month`), for storing:
    no predictions (``glicko_history`` has none)."""
    return rate_month(month.players, month.games, month.preset, month.start, predict=False)


class ReplayedMonth(NamedTuple):
    month: dt.date
    players: dict[int, ShadowPlayer]
    updates: list[GameUpdate]


def replay(
    db: Db, tc: TimeControl, config: ShadowConfig, preset_name: str
) -> Iterator[ReplayedMonth]:
    """The shadow of any preset over the closed periods, computed without storing it."""
    preset = config.glicko_preset(preset_name)
    ratings = lists.ListRatings(db, tc)
    players: dict[int, ShadowPlayer] = {}
    for month, _, _ in lists.closed_months(db, tc):
        games = shadow_games(month_games(db, tc, month), config, preset)
        start = new_player_fn(db, tc, month, config, preset, ratings, games, players)
        players, updates = rate_month(players, games, preset, start)
        yield ReplayedMonth(month, players, updates)
