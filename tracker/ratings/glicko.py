"""Glicko shadow rating: presets, and an adapter over the PyPI ``glicko2`` package.

Callers see only pure functions over :class:`GlickoState` (rating, RD, volatility on the
familiar 1500-centred scale) and :class:`GlickoPreset` (frozen parameters). The package
``glicko2`` 2.1.0 (the engine chosen for the project) stays behind this module.

Why an adapter and not the package as is (details: reference/glicko-notes.md section 4):

* Its ``Player._f`` (Glickman 2013, step 5.1) uses the rating mu^2 where the paper has the
  deviation phi^2. Exact only where mu^2 == phi^2; elsewhere the new volatility is wrong, and
  through it phi* (step 6), phi' (step 7) and mu' (step 7). :class:`_CorrectedPlayer`
  overrides ``_f`` and ``_newVol`` with the paper's formula, the 22 March 2022 "<= 0" test in
  the Illinois loop and an iteration cap of :data:`MAX_ITERATIONS`.
* tau is a class attribute (``Player._tau``) shared by every player; we set it per instance.
* An empty period raises ``ZeroDivisionError`` (1/0 in ``_v``); we apply step 6 ourselves.
* No RD/volatility/rating bounds, no time-based RD growth: added here from the preset.

Presets (:data:`PRESETS`, :func:`get_preset`):

* ``lichess`` (default) - Lichess's parameters (lila ``Glicko.scala``, scalachess
  ``glicko``): 1500 / 500 / 0.09, tau 0.75, every game its own rating period computed from
  both players' pre-game values with zero elapsed periods (phi* = phi), RD growth between
  games phi^2 + days * 0.21436 * sigma^2, RD in [45, 500], volatility at most 0.1, rating in
  [400, 4000], at most 700 points per game, shown truncated with "?" while RD >= 110.
  Not modelled: the colour (first-move) advantage added in late 2025, the per-variant
  "rating regulator" factors and the halving of human-vs-bot games.
* ``glickman`` - the paper as written: 1500 / 350 / 0.06, tau 0.5, one rating period per
  month with all its games together; step 6 once per period for players without games.
* ``chesscom`` - Glicko-1 (:mod:`tracker.ratings.glicko1`), per game; everything beyond
  "Glicko with RD" is an assumption, listed in :attr:`GlickoPreset.assumptions`.
  :func:`chesscom_preset` builds variants (start rating, c, RD bounds).

Pure code: standard library and ``glicko2`` only, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

import glicko2

from tracker.ratings import glicko1

__all__ = [
    "CHESSCOM_C_PER_DAY",
    "CHESSCOM_RD_MAX",
    "CHESSCOM_RD_MIN",
    "CHESSCOM_START",
    "DEFAULT_PRESET",
    "EPSILON",
    "LICHESS_PERIODS_PER_DAY",
    "MAX_ITERATIONS",
    "PRESETS",
    "SCALE",
    "DisplayRounding",
    "GlickoPreset",
    "GlickoState",
    "PeriodKind",
    "System",
    "chesscom_preset",
    "display",
    "expected_score",
    "get_preset",
    "idle",
    "is_provisional",
    "new_player",
    "package_rate_period_unpatched",
    "rate_game",
    "rate_pair",
    "rate_period",
]

SCALE: Final = 173.7178
"""Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178 (Glickman 2013, step 2)."""
CENTRE: Final = 1500.0
EPSILON: Final = 0.000001
"""Convergence tolerance of the Illinois algorithm (Glickman 2013, step 5.1)."""
MAX_ITERATIONS: Final = 1000
"""Iteration cap for step 5 (as in Lichess's scalachess and niklasf/liglicko2)."""
LICHESS_PERIODS_PER_DAY: Final = 0.21436
"""lila ``ratingPeriodsPerDay``: "so a typical player's RD goes from 60 -> 110 in 1 year"."""

CHESSCOM_START: Final = 1200.0
"""Default start of the ``chesscom`` preset (Chess.com's historical start for everyone)."""
CHESSCOM_RD_MAX: Final = 350.0
"""Glickman's Glicko-1 default/maximum RD; Chess.com does not publish its value."""
CHESSCOM_RD_MIN: Final = 30.0
"""Glickman's suggested RD floor ("e.g. 30") so that frequent players' ratings still move."""
CHESSCOM_C_PER_DAY: Final = 8.1
"""Glicko-1 c per day: Glickman's calibration (RD 50 back to 350 after 30 two-month periods,
c = 63.2 per period) spread over days: sqrt((350^2 - 50^2) / (30 * 365.25 / 6)) = 8.106."""

System = Literal["glicko2", "glicko1"]
PeriodKind = Literal["game", "month"]
DisplayRounding = Literal["truncate", "round"]


@dataclass(frozen=True, slots=True)
class GlickoState:
    """A player's Glicko state on the 1500-centred scale.

    ``volatility`` is Glicko-2's sigma; Glicko-1 presets carry it unchanged.
    """

    rating: float
    rd: float
    volatility: float

    def __post_init__(self) -> None:
        _check_state(self.rating, self.rd, self.volatility)


def _check_state(rating: float, rd: float, volatility: float) -> None:
    """What a :class:`GlickoState` accepts (ValueError otherwise)."""
    if not math.isfinite(rating):
        raise ValueError(f"rating must be finite, got {rating}")
    if not (math.isfinite(rd) and rd > 0):
        raise ValueError(f"RD must be positive and finite, got {rd}")
    if not (math.isfinite(volatility) and volatility > 0):
        raise ValueError(f"volatility must be positive and finite, got {volatility}")


@dataclass(frozen=True, slots=True)
class GlickoPreset:
    """Frozen parameters of one Glicko flavour. ``None`` means "no such bound".

    ``period`` decides both how games are grouped and how idle time is counted:

    * ``"game"``: every game is its own rating period (:func:`rate_game`); RD grows with the
      days between games (:func:`idle` with ``days``). Glicko-2 grows
      ``phi^2 + days * idle_periods_per_day * sigma^2`` (Glicko-2 scale), Glicko-1 grows
      ``RD^2 + rd_growth_c^2 * days``.
    * ``"month"``: one rating period per calendar month with all its games together
      (:func:`rate_period`); a month without games is step 6 (:func:`idle` with ``periods``).

    ``display_rounding``: ``"truncate"`` toward zero (Lichess's ``intRating``) or ``"round"``
    half away from zero; a "?" is appended while ``RD >= provisional_rd``.
    ``tau``, ``initial_volatility`` and ``volatility_max`` are unused by Glicko-1.
    """

    name: str
    system: System
    initial_rating: float
    initial_rd: float
    initial_volatility: float
    tau: float
    period: PeriodKind
    rd_min: float | None = None
    rd_max: float | None = None
    volatility_max: float | None = None
    rating_min: float | None = None
    rating_max: float | None = None
    max_change_per_game: float | None = None
    idle_periods_per_day: float | None = None
    rd_growth_c: float | None = None
    provisional_rd: float | None = None
    display_rounding: DisplayRounding = "round"
    assumptions: tuple[str, ...] = ()
    description: str = ""

    def __post_init__(self) -> None:
        if self.system not in ("glicko2", "glicko1"):
            raise ValueError(f"unknown Glicko system {self.system!r}")
        if self.period not in ("game", "month"):
            raise ValueError(f"unknown rating period kind {self.period!r}")
        if self.display_rounding not in ("truncate", "round"):
            raise ValueError(f"unknown display rounding {self.display_rounding!r}")
        if not self.tau > 0:
            raise ValueError(f"tau must be positive, got {self.tau}")
        # Validates the initial values the same way a state does.
        GlickoState(self.initial_rating, self.initial_rd, self.initial_volatility)
        for low, high, what in (
            (self.rd_min, self.rd_max, "RD"),
            (self.rating_min, self.rating_max, "rating"),
        ):
            if low is not None and high is not None and low > high:
                raise ValueError(f"{what} bounds are inverted: {low} > {high}")
        if self.rd_min is not None and self.rd_min <= 0:
            raise ValueError(f"rd_min must be positive, got {self.rd_min}")
        if self.volatility_max is not None and self.volatility_max <= 0:
            raise ValueError(f"volatility_max must be positive, got {self.volatility_max}")
        if self.max_change_per_game is not None and self.max_change_per_game < 0:
            raise ValueError("max_change_per_game must not be negative")
        if self.period == "month":
            if self.system != "glicko2":
                raise ValueError("monthly rating periods are only implemented for Glicko-2")
            if self.max_change_per_game is not None or self.idle_periods_per_day is not None:
                raise ValueError(
                    "max_change_per_game and idle_periods_per_day belong to per-game presets"
                )
        elif self.system == "glicko2":
            if self.idle_periods_per_day is None or self.idle_periods_per_day < 0:
                raise ValueError("a per-game Glicko-2 preset needs idle_periods_per_day >= 0")
        elif self.rd_growth_c is None or self.rd_growth_c < 0:
            raise ValueError("a Glicko-1 preset needs rd_growth_c >= 0")


def _text(bound: float | None) -> str:
    return "none" if bound is None else f"{bound:g}"


def chesscom_preset(
    *,
    start: float = CHESSCOM_START,
    c: float = CHESSCOM_C_PER_DAY,
    rd_min: float | None = CHESSCOM_RD_MIN,
    rd_max: float | None = CHESSCOM_RD_MAX,
    initial_rd: float | None = None,
    rating_min: float | None = 100.0,
) -> GlickoPreset:
    """The Chess.com-like preset: Glicko-1, one rating period per game.

    Known (Chess.com's help pages and published-data API): the system is "Glicko" with an
    RD, the start depends on the level the player picks. Everything else is an assumption,
    spelled out in ``assumptions`` with the values actually used. ``initial_rd`` defaults
    to ``rd_max`` (or 350 when there is no maximum).
    """
    if initial_rd is None:
        initial_rd = rd_max if rd_max is not None else CHESSCOM_RD_MAX
    assumptions = (
        "Glicko-1 (Glickman's first paper): Chess.com says 'Glicko' but not which version.",
        f"Start rating {start:g}: Chess.com starts at a level the player picks (about 400-2000;"
        " historically 1200 for everyone); pick the one the player chose.",
        f"New-player RD {initial_rd:g}: Glickman's default; Chess.com does not publish it.",
        f"RD growth constant c = {c:g} per day is an assumption: Chess.com does not publish it."
        " Idle RD grows as sqrt(RD^2 + c^2 * days); the default 8.1 spreads Glickman's example"
        " calibration (RD 50 back to 350 in 30 two-month periods, c = 63.2) over days.",
        f"RD floor {_text(rd_min)}, maximum {_text(rd_max)}: Glickman suggests a floor of 30"
        " and uses 350 as the maximum; Chess.com publishes neither.",
        "Every game is its own rating period, from both players' pre-game values (observed"
        " behaviour: ratings change after every game).",
        f"Rating floor {_text(rating_min)}: Chess.com ratings are observed not to go below 100;"
        " this is not documented.",
        "No provisional marker: Chess.com does not publish an RD threshold.",
        "Ratings shown rounded to the nearest whole number.",
    )
    return GlickoPreset(
        name="chesscom",
        system="glicko1",
        initial_rating=start,
        initial_rd=initial_rd,
        initial_volatility=0.06,
        tau=0.5,
        period="game",
        rd_min=rd_min,
        rd_max=rd_max,
        rating_min=rating_min,
        rd_growth_c=c,
        provisional_rd=None,
        display_rounding="round",
        assumptions=assumptions,
        description="Chess.com-like: Glicko-1 per game (parameters largely assumed)",
    )


LICHESS: Final = GlickoPreset(
    name="lichess",
    system="glicko2",
    initial_rating=1500.0,
    initial_rd=500.0,
    initial_volatility=0.09,
    tau=0.75,
    period="game",
    rd_min=45.0,
    rd_max=500.0,
    volatility_max=0.1,
    rating_min=400.0,
    rating_max=4000.0,
    max_change_per_game=700.0,
    idle_periods_per_day=LICHESS_PERIODS_PER_DAY,
    provisional_rd=110.0,
    display_rounding="truncate",
    description="Lichess: Glicko-2, one game per period, RD 45-500, '?' while RD >= 110",
)

GLICKMAN: Final = GlickoPreset(
    name="glickman",
    system="glicko2",
    initial_rating=1500.0,
    initial_rd=350.0,
    initial_volatility=0.06,
    tau=0.5,
    period="month",
    display_rounding="round",
    description="Glickman's Glicko-2 paper: monthly rating periods, tau 0.5, no bounds",
)

PRESETS: Final[Mapping[str, GlickoPreset]] = MappingProxyType(
    {preset.name: preset for preset in (LICHESS, GLICKMAN, chesscom_preset())}
)
DEFAULT_PRESET: Final = "lichess"


def get_preset(name: str) -> GlickoPreset:
    """The preset called ``name`` (case-insensitive); ValueError for an unknown name."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown Glicko preset {name!r} (known: {known})") from None


# --------------------------------------------------------------------------- the engine


class _CorrectedPlayer(glicko2.Player):  # type: ignore[misc]
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

    def _phi_squared(self) -> float:
        phi = float(self._Player__rd)
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
        delta = float(self._delta(rating_list, rd_list, outcome_list, v))
        tau = float(self._tau)
        phi2 = self._phi_squared()
        a = math.log(float(self.vol) ** 2)  # step 5.1

        f: Callable[[float], float]
        if type(self)._f is _CorrectedPlayer._f:
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


def _check_results(results: Sequence[tuple[GlickoState, float]]) -> None:
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be between 0 and 1, got {score}")


def _glicko2_update(
    player: GlickoState,
    results: Sequence[tuple[GlickoState, float]],
    *,
    tau: float,
    elapsed_periods: int,
    volatility_max: float | None,
) -> GlickoState:
    """Glickman 2013, steps 2-8, via the corrected package player."""
    if not results:
        return _step6(player, elapsed_periods, volatility_max)
    _check_results(results)
    engine = _CorrectedPlayer(
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


def _step6(
    player: GlickoState, elapsed_periods: float, volatility_max: float | None
) -> GlickoState:
    """Glickman 2013, step 6 alone: phi' = sqrt(phi^2 + n sigma^2), rating and sigma kept."""
    sigma = player.volatility
    if volatility_max is not None:
        sigma = min(sigma, volatility_max)
    # Same as SCALE * sqrt(phi^2 + n sigma^2), computed on the RD scale so that zero elapsed
    # time returns the RD bit for bit and growth is never lost to rounding.
    step = sigma * SCALE
    new_rd = math.sqrt(player.rd * player.rd + elapsed_periods * step * step)
    return GlickoState(player.rating, new_rd, player.volatility)


def _g(phi: float) -> float:
    """Glickman 2013, step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _clamp(value: float, low: float | None, high: float | None) -> float:
    if low is not None:
        value = max(value, low)
    if high is not None:
        value = min(value, high)
    return value


def _bound_rd(rd: float, preset: GlickoPreset) -> float:
    return _clamp(rd, preset.rd_min, preset.rd_max)


def _finish(before: GlickoState, after: GlickoState, preset: GlickoPreset) -> GlickoState:
    """Apply the preset's limits to an update: change clamp, rating, RD and sigma bounds.

    Order as in lila ``Perf.addOrReset`` then ``Glicko.cap``: first the change is clamped to
    +-max_change_per_game, then the rating, RD and volatility bounds are applied.
    """
    rating = after.rating
    if preset.max_change_per_game is not None:
        change = _clamp(
            rating - before.rating, -preset.max_change_per_game, preset.max_change_per_game
        )
        rating = before.rating + change
    rating = _clamp(rating, preset.rating_min, preset.rating_max)
    volatility = after.volatility
    if preset.volatility_max is not None:
        volatility = min(volatility, preset.volatility_max)
    return GlickoState(rating, _bound_rd(after.rd, preset), volatility)


# --------------------------------------------------------------------------- public API


def new_player(preset: GlickoPreset, rating: float | None = None) -> GlickoState:
    """State of a new player: the preset's start, or ``rating`` (e.g. seeded from Elo).

    RD and volatility always come from the preset; the rating is kept inside the preset's
    rating bounds (Lichess: 400-4000).
    """
    start = preset.initial_rating if rating is None else rating
    return GlickoState(
        _clamp(start, preset.rating_min, preset.rating_max),
        preset.initial_rd,
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
        grown = _step6(state, periods, preset.volatility_max)
        return GlickoState(state.rating, _bound_rd(grown.rd, preset), state.volatility)
    if periods:
        raise ValueError(f"preset {preset.name!r} counts idle time in days, not periods")
    if preset.system == "glicko1":
        c = preset.rd_growth_c if preset.rd_growth_c is not None else 0.0
        rd = glicko1.grow_rd(state.rd, c, days, rd_max=None)
        return GlickoState(state.rating, _bound_rd(rd, preset), state.volatility)
    rate = preset.idle_periods_per_day if preset.idle_periods_per_day is not None else 0.0
    # _step6 with the RD bounds applied, building one state instead of two.
    sigma = state.volatility
    if preset.volatility_max is not None:
        sigma = min(sigma, preset.volatility_max)
    step = sigma * SCALE
    rd = math.sqrt(state.rd * state.rd + days * rate * step * step)
    if not math.isfinite(rd):  # as _step6's intermediate state would refuse it
        raise ValueError(f"RD must be positive and finite, got {rd}")
    return GlickoState(state.rating, _bound_rd(rd, preset), state.volatility)


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
    ``tau`` overrides the preset's (ignored by Glicko-1).
    """
    if preset.period != "game":
        raise ValueError(
            f"preset {preset.name!r} rates whole periods; use rate_period, not rate_game"
        )
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be between 0 and 1, got {score}")
    if preset.system == "glicko1":
        rating, rd = glicko1.update(
            player.rating, player.rd, [(opponent.rating, opponent.rd, score)]
        )
        after = GlickoState(rating, rd, player.volatility)
        return _finish(player, after, preset)
    # _glicko2_update(player, [(opponent, score)], ...) then _finish, for the one game, with
    # the same operations and checks but without the intermediate lists and state.
    engine = _CorrectedPlayer(
        player,
        tau=preset.tau if tau is None else tau,
        elapsed_periods=0,
        volatility_max=preset.volatility_max,
    )
    try:
        engine.update_player([opponent.rating], [opponent.rd], [score])
    except (ZeroDivisionError, OverflowError) as exc:
        raise ValueError(f"rating difference too large for Glicko-2: {exc}") from exc
    rating, rd, volatility = float(engine.rating), float(engine.rd), float(engine.vol)
    _check_state(rating, rd, volatility)
    # _finish
    if preset.max_change_per_game is not None:
        limit = preset.max_change_per_game
        change = min(max(rating - player.rating, -limit), limit)
        rating = player.rating + change
    if preset.rating_min is not None:
        rating = max(rating, preset.rating_min)
    if preset.rating_max is not None:
        rating = min(rating, preset.rating_max)
    if preset.volatility_max is not None:
        volatility = min(volatility, preset.volatility_max)
    if preset.rd_min is not None:
        rd = max(rd, preset.rd_min)
    if preset.rd_max is not None:
        rd = min(rd, preset.rd_max)
    return GlickoState(rating, rd, volatility)


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
    after = _glicko2_update(
        player,
        results,
        tau=preset.tau if tau is None else tau,
        elapsed_periods=1,
        volatility_max=preset.volatility_max,
    )
    return _finish(player, after, preset)


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
    return 1.0 / (1.0 + math.exp(-_g(opponent.rd / SCALE) * (mu - mu_j)))


def is_provisional(state: GlickoState, preset: GlickoPreset) -> bool:
    """True while RD >= the preset's provisional threshold (Lichess: 110)."""
    return preset.provisional_rd is not None and state.rd >= preset.provisional_rd


def display(state: GlickoState, preset: GlickoPreset) -> str:
    """The rating as a platform would show it: ``"1741"`` or ``"1741?"`` when provisional."""
    if preset.display_rounding == "truncate":
        whole = math.trunc(state.rating)
    else:
        whole = int(math.copysign(math.floor(abs(state.rating) + 0.5), state.rating))
    return f"{whole}?" if is_provisional(state, preset) else str(whole)


def package_rate_period_unpatched(
    player: GlickoState,
    results: Sequence[tuple[GlickoState, float]],
    *,
    tau: float = 0.5,
) -> GlickoState:
    """One rating period through the raw ``glicko2`` 2.1.0 package, defect included.

    For tests that pin the package's step 5 defect (mu^2 in ``_f``); never use it for
    ratings. No bounds, step 6 with one elapsed period, and, like the package, an empty
    ``results`` raises ZeroDivisionError. tau is set on the instance only.
    """
    engine = glicko2.Player(player.rating, player.rd, player.volatility)
    engine._tau = tau
    engine.update_player(
        [opponent.rating for opponent, _ in results],
        [opponent.rd for opponent, _ in results],
        [score for _, score in results],
    )
    return GlickoState(float(engine.rating), float(engine.rd), float(engine.vol))
