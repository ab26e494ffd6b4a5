"""The shadow rating's public functions: pure, over :class:`~.presets.GlickoState` and
:class:`~.presets.GlickoPreset`."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tracker.ratings.glicko import glicko1
from tracker.ratings.glicko.engine import (
    CENTRE,
    SCALE,
    CorrectedPlayer,
    bound_rd,
    clamp,
    finish,
    g,
    glicko2_update,
    step6,
)
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState, check_state


def new_player(
    preset: GlickoPreset, rating: float | None = None, rd: float | None = None
) -> GlickoState:
    """State of a new player: the preset's start, or ``rating`` (e.g. seeded from Elo).

    RD is the preset's new-player RD unless ``rd`` is given (a seeded player's, see
    :mod:`.seeding`); the volatility always comes from the preset; the rating is kept inside
    the preset's rating bounds (Lichess: 400-4000).
    """
    start = preset.initial_rating if rating is None else rating
    return GlickoState(
        clamp(start, preset.rating_min, preset.rating_max),
        preset.initial_rd if rd is None else rd,
        preset.initial_volatility,
    )


def idle(
    state: GlickoState, preset: GlickoPreset, *, days: float = 0, periods: int = 0
) -> GlickoState:
    """RD growth for time without games; rating and stored volatility are unchanged.

    * per-game Glicko-2 (``lichess``): ``phi^2 + days * idle_periods_per_day * sigma^2`` on the
      Glicko-2 scale (lila ``Perf.liveDeviation``), sigma capped at ``volatility_max`` inside
      the growth; then RD kept within [rd_min, rd_max].
    * per-game Glicko-1 (``chesscom``): ``sqrt(RD^2 + c^2 * days)`` (Glickman's Glicko-1,
      step 1), RD within [rd_min, rd_max].
    * monthly (``glickman``): ``periods`` times Glickman 2013 step 6,
      ``phi' = sqrt(phi^2 + periods * sigma^2)``, no cap (the paper has none).

    ``days`` is for per-game presets, ``periods`` for monthly ones; giving the other one is
    a ValueError, as is a negative amount.
    """
    if days < 0 or periods < 0:
        raise ValueError("idle time must not be negative")
    if preset.period == "month":
        if days:
            raise ValueError(f"preset {preset.name!r} counts idle time in periods, not days")
        grown = step6(state, periods, preset.volatility_max)
        return GlickoState(state.rating, bound_rd(grown.rd, preset), state.volatility)
    if periods:
        raise ValueError(f"preset {preset.name!r} counts idle time in days, not periods")
    if preset.system == "glicko1":
        c = preset.rd_growth_c if preset.rd_growth_c is not None else 0.0
        rd = glicko1.grow_rd(state.rd, c, days, rd_max=None)
        return GlickoState(state.rating, bound_rd(rd, preset), state.volatility)
    rate = preset.idle_periods_per_day if preset.idle_periods_per_day is not None else 0.0
    cap = math.inf if preset.volatility_max is None else preset.volatility_max
    rd = _grown_rd(state.rd, state.volatility, days, rate, cap)
    return GlickoState(state.rating, bound_rd(rd, preset), state.volatility)


def _grown_rd(rd: float, volatility: float, days: float, rate: float, cap: float) -> float:
    """Per-game Glicko-2's idle growth (lila ``Perf.liveDeviation``): Glickman 2013 step 6
    for ``days * rate`` periods with sigma at most ``cap``, on the RD scale (zero days give
    the RD bit for bit; growth is never lost to rounding); the RD bounds are the caller's."""
    step = min(volatility, cap) * SCALE
    grown = math.sqrt(rd * rd + days * rate * step * step)
    if not math.isfinite(grown):  # as step6's intermediate state would refuse it
        raise ValueError(f"RD must be positive and finite, got {grown}")
    return grown


class GameRater:
    """Per-game rating (``lichess``, ``chesscom``) on plain floats, one game after another:
    what :func:`rate_game` and :func:`idle` do, made once per preset (and tau) instead of once
    per game. A month's close rates every game of the month through one of these: the
    ``glicko2`` package's player (:class:`~.engine.CorrectedPlayer`) is loaded with each
    player's state in turn instead of built anew, and no state object is made on the way.
    """

    __slots__ = (
        "_engine",
        "_grow",
        "_idle_rate",
        "_limit",
        "_rating_max",
        "_rating_min",
        "_rd_max",
        "_rd_min",
        "_volatility_max",
        "preset",
    )

    def __init__(self, preset: GlickoPreset, *, tau: float | None = None) -> None:
        if preset.period != "game":
            raise ValueError(
                f"preset {preset.name!r} rates whole periods; use rate_period, not rate_game"
            )
        self.preset = preset
        self._engine = (
            CorrectedPlayer(
                GlickoState(preset.initial_rating, preset.initial_rd, preset.initial_volatility),
                tau=preset.tau if tau is None else tau,
                elapsed_periods=0,
                volatility_max=preset.volatility_max,
            )
            if preset.system == "glicko2"
            else None
        )
        # A missing bound is an infinite one: max/min then return the value itself. (A
        # missing change limit is not: r + (r' - r) need not be r'.)
        inf = math.inf
        self._limit = preset.max_change_per_game
        self._rating_min = -inf if preset.rating_min is None else preset.rating_min
        self._rating_max = inf if preset.rating_max is None else preset.rating_max
        self._volatility_max = inf if preset.volatility_max is None else preset.volatility_max
        self._rd_min = -inf if preset.rd_min is None else preset.rd_min
        self._rd_max = inf if preset.rd_max is None else preset.rd_max
        if preset.system == "glicko1":
            self._grow = preset.rd_growth_c if preset.rd_growth_c is not None else 0.0
            self._idle_rate = 0.0
        else:
            self._grow = 0.0
            self._idle_rate = (
                preset.idle_periods_per_day if preset.idle_periods_per_day is not None else 0.0
            )

    def rate(
        self,
        rating: float,
        rd: float,
        volatility: float,
        opponent_rating: float,
        opponent_rd: float,
        score: float,
    ) -> tuple[float, float, float]:
        """The player's (rating, RD, volatility) after one game; see :func:`rate_game`."""
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be between 0 and 1, got {score}")
        engine = self._engine
        if engine is None:  # Glicko-1: the paper's step 2 with one game
            new_rating, new_rd = glicko1.update(rating, rd, [(opponent_rating, opponent_rd, score)])
            new_volatility = volatility
        else:  # Glicko-2: a rating period of one game, zero elapsed periods
            new_rating, new_rd, new_volatility = engine.rate_one(
                rating, rd, volatility, opponent_rating, opponent_rd, score
            )
        check_state(new_rating, new_rd, new_volatility)
        # The preset's limits, in the order of :func:`~.engine.finish` (lila
        # ``Perf.addOrReset`` then ``Glicko.cap``): the change, then the bounds. Each test is
        # what max() and min() do (the first argument unless the other is beyond it).
        limit = self._limit
        if limit is not None:
            change = new_rating - rating
            if -limit > change:
                change = -limit
            if limit < change:
                change = limit
            new_rating = rating + change
        if self._rating_min > new_rating:
            new_rating = self._rating_min
        if self._rating_max < new_rating:
            new_rating = self._rating_max
        if self._volatility_max < new_volatility:
            new_volatility = self._volatility_max
        if self._rd_min > new_rd:
            new_rd = self._rd_min
        if self._rd_max < new_rd:
            new_rd = self._rd_max
        return new_rating, new_rd, new_volatility

    def grown_rd(self, rd: float, volatility: float, days: float) -> float:
        """The RD after ``days`` without games; see :func:`idle`."""
        if days < 0:
            raise ValueError("idle time must not be negative")
        if self._engine is None:
            grown = glicko1.grow_rd(rd, self._grow, days, rd_max=None)
        else:
            grown = _grown_rd(rd, volatility, days, self._idle_rate, self._volatility_max)
        return min(max(grown, self._rd_min), self._rd_max)


def rate_game(
    player: GlickoState,
    opponent: GlickoState,
    score: float,
    preset: GlickoPreset,
    *,
    tau: float | None = None,
) -> GlickoState:
    """The player's state after one game, for per-game presets (``lichess``, ``chesscom``).

    Both states are the pre-game values, after the caller has applied :func:`idle` for the
    time since each player's previous game; ``score`` is the player's (1, 0.5 or 0).

    Glicko-2: a rating period of one game (Glickman 2013, steps 2-8) with zero elapsed
    periods in step 6 (phi* = phi, lila ``skipDeviationIncrease = true``), starting from the
    volatility as stored. Glicko-1: the paper's step 2 with one game. Then the change is
    clamped to +-max_change_per_game and the rating, RD and volatility bounds are applied.
    ``tau`` overrides the preset's (ignored by Glicko-1). Many games: :class:`GameRater`.
    """
    rated = GameRater(preset, tau=tau).rate(
        player.rating, player.rd, player.volatility, opponent.rating, opponent.rd, score
    )
    return GlickoState(*rated)


def rate_pair(
    white: GlickoState,
    black: GlickoState,
    white_score: float,
    preset: GlickoPreset,
    *,
    tau: float | None = None,
) -> tuple[GlickoState, GlickoState]:
    """Both players after one game, each computed from both pre-game states."""
    return (
        rate_game(white, black, white_score, preset, tau=tau),
        rate_game(black, white, 1.0 - white_score, preset, tau=tau),
    )


def rate_period(
    player: GlickoState,
    results: Sequence[tuple[GlickoState, float]],
    preset: GlickoPreset,
    *,
    tau: float | None = None,
) -> GlickoState:
    """The player's state after a whole rating period (monthly presets, ``glickman``).

    ``results`` holds ``(opponent_state, score)`` for every game of the period, all
    opponents at their values before the period. Glickman 2013, steps 2-8 with the new
    volatility in step 6. With no results only step 6 applies (rating and volatility kept,
    phi' = sqrt(phi^2 + sigma^2)). The preset's RD/volatility/rating bounds, if any, apply.
    """
    if preset.period != "month":
        raise ValueError(
            f"preset {preset.name!r} rates every game separately; use rate_game, not rate_period"
        )
    after = glicko2_update(
        player,
        results,
        tau=preset.tau if tau is None else tau,
        elapsed_periods=1,
        volatility_max=preset.volatility_max,
    )
    return finish(player, after, preset)


def expected_score(player: GlickoState, opponent: GlickoState, preset: GlickoPreset) -> float:
    """Predicted score of ``player`` against ``opponent``.

    Glicko-2 presets: Glickman 2013 step 3, ``E = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))``,
    only the opponent's deviation. Glicko-1 (``chesscom``): both deviations combined,
    ``g(sqrt(RD_i^2 + RD_j^2))`` (Glickman's Glicko-1 paper, 0.376 example).
    """
    if preset.system == "glicko1":
        return glicko1.expected_game(player.rating, player.rd, opponent.rating, opponent.rd)
    mu = (player.rating - CENTRE) / SCALE
    mu_j = (opponent.rating - CENTRE) / SCALE
    return 1.0 / (1.0 + math.exp(-g(opponent.rd / SCALE) * (mu - mu_j)))


def is_provisional(state: GlickoState, preset: GlickoPreset) -> bool:
    """True while RD >= the preset's provisional threshold (Lichess: 110)."""
    return provisional(state.rd, preset)


def provisional(rd: float, preset: GlickoPreset) -> bool:
    """:func:`is_provisional` of a state with this RD (a whole list's shadows are read on
    plain floats)."""
    return preset.provisional_rd is not None and rd >= preset.provisional_rd


def display(state: GlickoState, preset: GlickoPreset) -> str:
    """The rating as a platform would show it: ``"1741"`` or ``"1741?"`` when provisional."""
    return shown(state.rating, state.rd, preset)


def shown(rating: float, rd: float, preset: GlickoPreset) -> str:
    """:func:`display` of a state with this rating and RD."""
    if preset.display_rounding == "truncate":
        whole = math.trunc(rating)
    else:
        whole = int(math.copysign(math.floor(abs(rating) + 0.5), rating))
    return f"{whole}?" if provisional(rd, preset) else str(whole)
