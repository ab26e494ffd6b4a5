"""The Glicko flavours tracker offers (``lichess``, ``glickman``, ``chesscom``) as frozen
parameters, and the state they rate. No arithmetic here (see :mod:`.engine` and :mod:`.api`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

LICHESS_PERIODS_PER_DAY: Final = 0.21436
"""lila ``ratingPeriodsPerDay``: "so a typical player's RD goes from 60 -> 110 in 1 year"."""
CHESSCOM_PRESET: Final = "chesscom"
"""The name of the Chess.com-like preset, the one whose assumptions a database may set."""
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
        check_state(self.rating, self.rd, self.volatility)


def check_state(rating: float, rd: float, volatility: float) -> None:
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
    assumption_summary: str = ""
    """:attr:`assumptions` in one line (empty when there are none)."""

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
        name=CHESSCOM_PRESET,
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
        assumption_summary=(
            f"chesscom is Chess.com-like, not Chess.com: Glicko-1, start {start:g}, new-player"
            f" RD {initial_rd:g}, RD {_text(rd_min)}..{_text(rd_max)}, c = {c:g} per day and"
            " the rest are assumed (`tracker shadow show` lists them)"
        ),
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
    description="Lichess: Glicko-2, one game per period, RD 45-500, '?' from RD 110",
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


def get_preset(name: str) -> GlickoPreset:
    """The preset called ``name`` (case-insensitive); ValueError for an unknown name."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown Glicko preset {name!r} (known: {known})") from None
