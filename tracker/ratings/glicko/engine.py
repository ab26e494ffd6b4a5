"""The one place that touches the PyPI ``glicko2`` package: Glickman's Glicko-2 steps 2-8
through a corrected ``glicko2.Player`` (step 5 with phi^2, per-instance tau, capped
iterations), step 6 alone, and the preset's bounds applied to an update.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

import glicko2

from tracker.ratings.glicko.presets import GlickoPreset, GlickoState

SCALE: Final = 173.7178
"""Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178 (Glickman 2013, step 2)."""
CENTRE: Final = 1500.0
EPSILON: Final = 0.000001
"""Convergence tolerance of the Illinois algorithm (Glickman 2013, step 5.1)."""
MAX_ITERATIONS: Final = 1000
"""Iteration cap for step 5 (as in Lichess's scalachess and niklasf/liglicko2)."""

_PACKAGE_G: Final = glicko2.Player._g
_PACKAGE_E: Final = glicko2.Player._E


class CorrectedPlayer(glicko2.Player):  # type: ignore[misc]
    """``glicko2.Player`` with Glickman's step 5 and per-instance parameters.

    The package keeps mu and phi in the name-mangled ``_Player__rating`` / ``_Player__rd``;
    ``update_player`` still does steps 3, 4, 7 and 8 (which are correct), and calls the
    overridden ``_newVol`` (step 5) and ``_preRatingRD`` (step 6).
    """

    def __init__(
        self,
        state: GlickoState,
        *,
        tau: float,
        elapsed_periods: int,
        volatility_max: float | None,
    ) -> None:
        super().__init__(state.rating, state.rd, state.volatility)
        self._tau = tau  # instance attribute; the package's class attribute stays untouched
        self._elapsed_periods = elapsed_periods
        self._volatility_max = volatility_max
        self.iterations = 0
        # The package's steps 3, 4 and 7 ask g and E of the same opponent several times a
        # game (six and three): each is the package's own value, computed once and kept
        # (E also depends on the player's mu: kept until the next rate_one()).
        self._g_rd: float | None = None
        self._g_value = 0.0
        self._e_rating: float | None = None
        self._e_rd: float | None = None
        self._e_value = 0.0

    def rate_one(
        self,
        rating: float,
        rd: float,
        volatility: float,
        opponent_rating: float,
        opponent_rd: float,
        score: float,
    ) -> tuple[float, float, float]:
        """Glickman 2013, steps 2-8, for one game against one opponent: this player loaded
        with ``rating``, ``rd`` and ``volatility`` (the package's own setters convert them),
        then the package's ``update_player`` with the corrected step 5. The new rating, RD and
        volatility, unbounded (the preset's bounds are the caller's). One engine rates game
        after game this way: a per-game preset rates every game as its own period, and a new
        engine a game cost more than the game."""
        self.setRating(rating)
        self.setRd(rd)
        self.vol = volatility
        self._g_rd = self._e_rating = None  # g and E of another game
        try:
            self.update_player([opponent_rating], [opponent_rd], [score])
        except (ZeroDivisionError, OverflowError) as exc:
            # E (1 - E) underflows to 0 only for rating gaps of several thousand points.
            raise ValueError(f"rating difference too large for Glicko-2: {exc}") from exc
        return self.getRating(), self.getRd(), self.vol

    def _g(self, rd: float) -> float:
        if rd != self._g_rd:
            self._g_rd, self._g_value = rd, _PACKAGE_G(self, rd)
        return self._g_value

    def _E(self, rating: float, rd: float) -> float:  # the package's name
        if rating != self._e_rating or rd != self._e_rd:
            self._e_rating, self._e_rd = rating, rd
            self._e_value = _PACKAGE_E(self, rating, rd)
        return self._e_value

    def _phi_squared(self) -> float:
        phi: float = self._Player__rd
        return phi * phi

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        """Glickman 2013, step 5.1: f(x) with phi^2 (the package has mu^2 here)."""
        phi2 = self._phi_squared()
        ex = math.exp(x)
        tau = float(self._tau)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    def _newVol(
        self,
        rating_list: list[float],
        rd_list: list[float],
        outcome_list: list[float],
        v: float,
    ) -> float:
        """Glickman 2013, step 5 (Illinois algorithm), March 2022 revision, capped loops."""
        delta: float
        if (
            len(rating_list) == 1
            and rating_list[0] == self._e_rating
            and rd_list[0] == self._e_rd == self._g_rd
        ):
            # One game: the package's _delta (step 4) from the g and E its _v (step 3) just
            # computed, the same operations: v * (0 + g (s - E)).
            delta = v * (0 + self._g_value * (outcome_list[0] - self._e_value))
        else:
            delta = self._delta(rating_list, rd_list, outcome_list, v)
        tau: float = self._tau
        phi: float = self._Player__rd
        phi2 = phi * phi
        volatility: float = self.vol
        a = math.log(volatility**2)  # step 5.1

        f: Callable[[float], float]
        if type(self)._f is CorrectedPlayer._f:
            # _f inlined, its constant parts computed once: the same operations in the same
            # order, so the same floats, without two calls per evaluation.
            d2 = delta * delta - phi2 - v
            s = phi2 + v
            tau2 = tau * tau
            exp = math.exp

            def f(x: float) -> float:
                ex = exp(x)
                return ex * (d2 - ex) / (2.0 * (s + ex) ** 2) - (x - a) / tau2

        else:  # a subclass's own f (the tests use some)

            def f(x: float) -> float:
                return self._f(x, delta, v, a)

        # step 5.2: initial bracket
        big_a = a
        if delta * delta > phi2 + v:
            big_b = math.log(delta * delta - phi2 - v)
        else:
            k = 1
            while f(a - k * tau) < 0 and k < MAX_ITERATIONS:
                k += 1
            big_b = a - k * tau
        # step 5.3
        f_a = f(big_a)
        f_b = f(big_b)
        # step 5.4, with "<= 0" (revision of 22 March 2022) and an iteration cap
        iterations = 0
        while abs(big_b - big_a) > EPSILON and iterations < MAX_ITERATIONS:
            if f_b == f_a:  # flat secant: no further progress is possible
                break
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            f_c = f(big_c)
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a /= 2.0
            big_b, f_b = big_c, f_c
            iterations += 1
        self.iterations = iterations
        # step 5.5
        sigma = math.exp(big_a / 2.0)
        if self._volatility_max is not None:
            sigma = min(sigma, self._volatility_max)
        return sigma

    def _preRatingRD(self) -> None:
        """Glickman 2013, step 6, for ``elapsed_periods`` periods (Lichess per game: 0)."""
        self._Player__rd = math.sqrt(self._phi_squared() + self._elapsed_periods * self.vol**2)


def check_results(results: Sequence[tuple[GlickoState, float]]) -> None:
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be between 0 and 1, got {score}")


def glicko2_update(
    player: GlickoState,
    results: Sequence[tuple[GlickoState, float]],
    *,
    tau: float,
    elapsed_periods: int,
    volatility_max: float | None,
) -> GlickoState:
    """Glickman 2013, steps 2-8, via the corrected package player."""
    if not results:
        return step6(player, elapsed_periods, volatility_max)
    check_results(results)
    engine = CorrectedPlayer(
        player, tau=tau, elapsed_periods=elapsed_periods, volatility_max=volatility_max
    )
    try:
        engine.update_player(
            [opponent.rating for opponent, _ in results],
            [opponent.rd for opponent, _ in results],
            [score for _, score in results],
        )
    except (ZeroDivisionError, OverflowError) as exc:
        # E (1 - E) underflows to 0 only for rating gaps of several thousand points.
        raise ValueError(f"rating difference too large for Glicko-2: {exc}") from exc
    return GlickoState(float(engine.rating), float(engine.rd), float(engine.vol))


def step6(player: GlickoState, elapsed_periods: float, volatility_max: float | None) -> GlickoState:
    """Glickman 2013, step 6 alone: phi' = sqrt(phi^2 + n sigma^2), rating and sigma kept."""
    sigma = player.volatility
    if volatility_max is not None:
        sigma = min(sigma, volatility_max)
    # Same as SCALE * sqrt(phi^2 + n sigma^2), computed on the RD scale so that zero elapsed
    # time returns the RD bit for bit and growth is never lost to rounding.
    step = sigma * SCALE
    new_rd = math.sqrt(player.rd * player.rd + elapsed_periods * step * step)
    return GlickoState(player.rating, new_rd, player.volatility)


def g(phi: float) -> float:
    """Glickman 2013, step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def clamp(value: float, low: float | None, high: float | None) -> float:
    if low is not None:
        value = max(value, low)
    if high is not None:
        value = min(value, high)
    return value


def bound_rd(rd: float, preset: GlickoPreset) -> float:
    return clamp(rd, preset.rd_min, preset.rd_max)


def finish(before: GlickoState, after: GlickoState, preset: GlickoPreset) -> GlickoState:
    """Apply the preset's limits to an update: change clamp, rating, RD and sigma bounds.

    Order as in lila ``Perf.addOrReset`` then ``Glicko.cap``: first the change is clamped to
    +-max_change_per_game, then the rating, RD and volatility bounds are applied.
    """
    rating = after.rating
    if preset.max_change_per_game is not None:
        change = clamp(
            rating - before.rating, -preset.max_change_per_game, preset.max_change_per_game
        )
        rating = before.rating + change
    rating = clamp(rating, preset.rating_min, preset.rating_max)
    volatility = after.volatility
    if preset.volatility_max is not None:
        volatility = min(volatility, preset.volatility_max)
    return GlickoState(rating, bound_rd(after.rd, preset), volatility)
