"""The Elo calculator: FIDE's arithmetic for a few games, no database.

Kept free of SQLAlchemy so that ``tracker calc`` starts fast.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from tracker.errors import InvalidInputError
from tracker.months import month_of
from tracker.ratings.fide.arithmetic import round_half_away
from tracker.ratings.fide.game import apply_700_rule, capped_difference, expected_score
from tracker.ratings.fide.initial import InitialRating, initial_rating
from tracker.ratings.fide.rules import Formula, select_initial_rules, select_rules
from tracker.ratings.fide.state import k_factor
from tracker.user_input import check_rating
from tracker.vocabulary import DEFAULT_PRESET

if TYPE_CHECKING:
    from tracker.ratings.glicko.presets import GlickoPreset, GlickoState

_SCORES = {"1": "1", "1.0": "1", "0": "0", "0.0": "0", "0.5": "0.5", ".5": "0.5", "1/2": "0.5"}
_SCORES |= {"=": "0.5", "½": "0.5"}


@dataclass(frozen=True)
class CalcGame:
    opponent: int
    score: Decimal
    difference: int
    expected: Decimal
    change: Decimal


@dataclass(frozen=True)
class EloCalc:
    rating: int
    k: int
    k_in_force: int
    k_source: str
    formula: str
    rules: str
    notes: tuple[str, ...]
    games: tuple[CalcGame, ...]
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    new_rating: int


def parse_game(text: str) -> tuple[int, Decimal]:
    """``OPP:SCORE`` with SCORE 1, 0.5, 0, 1/2, ½ or =."""
    opp, sep, score = text.partition(":")
    number = opp.strip().lstrip("-")
    if not sep or not (number.isascii() and number.isdecimal()):
        raise InvalidInputError(f"invalid game {text!r}: write OPPONENT_RATING:SCORE, e.g. 1700:1")
    canonical = _SCORES.get(score.strip())
    if canonical is None:
        raise InvalidInputError(f"invalid score in {text!r}: use 1, 0.5 (or 1/2, ½, =) or 0")
    return check_rating(int(opp), "opponent's rating"), Decimal(canonical)


def calc_elo(
    rating: int,
    games: Sequence[str],
    *,
    k: int | None = None,
    rated_games: int | None = None,
    born: int | None = None,
    ever_2400: bool = False,
    ever_2300: bool = False,
    formula: str = "table",
    cap: bool = True,
    on: dt.date,
) -> EloCalc:
    """One player's change over a period's games (FIDE Rating Regulations 2024 §8.3)."""
    check_rating(rating)
    if formula not in ("table", "logistic"):
        raise InvalidInputError(f"unknown formula {formula!r}: use table or logistic")
    if not games:
        raise InvalidInputError("give at least one game as OPPONENT_RATING:SCORE")
    parsed = [parse_game(g) for g in games]
    notes: list[str] = []
    if k is not None:
        if k <= 0 or k > 100:
            raise InvalidInputError(
                f"K {k} is not a development coefficient: give 1..100 (FIDE's are 10, 20 "
                "and 40; earlier rules used 15, 25 and 30)"
            )
        k_in_force, source = k, "given"
    elif rated_games is not None:
        if rated_games < 0:
            raise InvalidInputError("--games cannot be negative")
        k_in_force = k_factor(
            rated_games=rated_games,
            ever_2400=ever_2400 or rating >= 2400,
            ever_2300=ever_2300 or rating >= 2300,
            birth_year=born,
            list_year=on.year,
        )
        source = "§8.3.3 from games, age and peak"
    else:
        k_in_force, source = 20, "assumed"
        notes.append("K 20 assumed: give --k, or --games (with --born for a junior)")
    k_used = apply_700_rule(k_in_force, len(parsed))
    if k_used != k_in_force:
        notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {len(parsed)} games")
    selection = select_rules("standard", on)
    if selection.note:
        notes.append(selection.note)
    if not cap:
        notes.append("400-point rule switched off")
    fml: Formula = "logistic" if formula == "logistic" else "table"
    rows = []
    for opp, score in parsed:
        difference = capped_difference(rating, opp, selection.rules, apply_cap=cap)
        expected = expected_score(rating, opp, selection.rules, formula=fml, apply_cap=cap)
        rows.append(CalcGame(opp, score, difference, expected, k_used * (score - expected)))
    change_exact = sum((r.change for r in rows), Decimal(0))
    change = round_half_away(change_exact)
    return EloCalc(
        rating=rating,
        k=k_used,
        k_in_force=k_in_force,
        k_source=source,
        formula=formula,
        rules=selection.rules.name,
        notes=tuple(notes),
        games=tuple(rows),
        score=sum((r.score for r in rows), Decimal(0)),
        expected=sum((r.expected for r in rows), Decimal(0)),
        change_exact=change_exact,
        change=change,
        new_rating=rating + change,
    )


@dataclass(frozen=True)
class GlickoStep:
    opponent: float
    opponent_rd: float
    score: float
    expected: float
    rating: float
    rd: float
    volatility: float


@dataclass(frozen=True)
class GlickoCalc:
    preset: str
    tau: float | None
    start: GlickoState
    after_idle: GlickoState
    steps: tuple[GlickoStep, ...]
    result: GlickoState
    provisional: bool
    display: str
    assumptions: tuple[str, ...]
    assumption_summary: str = ""
    has_volatility: bool = True


def parse_glicko_game(text: str) -> tuple[float, float, float]:
    """``OPP_RATING/OPP_RD:SCORE``."""
    opp, sep, score = text.partition(":")
    rating, slash, rd = opp.partition("/")
    canonical = _SCORES.get(score.strip())
    try:
        values = (float(rating), float(rd)) if sep and slash else None
    except ValueError:
        values = None
    if values is None or canonical is None:
        raise InvalidInputError(
            f"invalid game {text!r}: write OPPONENT_RATING/OPPONENT_RD:SCORE, e.g. 1400/30:1"
        )
    if not 0 <= values[0] <= 4000:
        raise InvalidInputError(f"invalid rating in {text!r}: it must be between 0 and 4000")
    if not 0 < values[1] <= 1000:
        raise InvalidInputError(f"invalid RD in {text!r}: it must be between 0 and 1000")
    return values[0], values[1], float(canonical)


def _check_range(value: float, what: str, low: float, high: float) -> None:
    """NaN and infinities fail the comparison too."""
    if not low <= value <= high:
        raise InvalidInputError(f"{what} {value:g} is outside {low:g}..{high:g}")


def calc_glicko(
    rating: float,
    rd: float,
    volatility: float | None,
    games: Sequence[str],
    *,
    preset: str = DEFAULT_PRESET,
    tau: float | None = None,
    idle_days: float | None = None,
    idle_periods: int | None = None,
) -> GlickoCalc:
    """A Glicko calculation: per game (lichess, chesscom) or one period (glickman).

    ``volatility`` is Glicko-2's; Glicko-1 (chesscom) has none (None; a value is ignored)."""
    from tracker.ratings.glicko.api import (  # not loaded by `calc elo`
        display,
        expected_score,
        idle,
        is_provisional,
        rate_game,
        rate_period,
    )
    from tracker.ratings.glicko.presets import PRESETS, GlickoState, get_preset

    try:
        chosen = get_preset(preset)
    except ValueError:
        raise InvalidInputError(f"unknown preset {preset!r}: use {', '.join(PRESETS)}") from None
    volatility = _check_glicko_inputs(chosen, rating, rd, volatility, tau, idle_days, idle_periods)
    parsed = [parse_glicko_game(g) for g in games]
    start = GlickoState(rating, rd, volatility)
    state = idle(start, chosen, days=idle_days or 0, periods=idle_periods or 0)
    after_idle = state
    steps: list[GlickoStep] = []
    opponents = [(GlickoState(r, d, chosen.initial_volatility), s) for r, d, s in parsed]
    if chosen.period == "month":
        expected = [expected_score(state, o, chosen) for o, _ in opponents]
        if opponents or idle_periods is None:
            # Without games and without --idle-periods: one period without games (step 6).
            state = rate_period(state, opponents, chosen, tau=tau)
        steps = [
            GlickoStep(o.rating, o.rd, s, e, state.rating, state.rd, state.volatility)
            for (o, s), e in zip(opponents, expected, strict=True)
        ]
    else:
        if not opponents and idle_days is None:
            raise InvalidInputError(
                "give at least one game as OPPONENT_RATING/OPPONENT_RD:SCORE, or --idle-days"
            )
        for o, s in opponents:
            e = expected_score(state, o, chosen)
            state = rate_game(state, o, s, chosen, tau=tau)
            steps.append(GlickoStep(o.rating, o.rd, s, e, state.rating, state.rd, state.volatility))
    glicko2 = chosen.system == "glicko2"
    return GlickoCalc(
        preset=chosen.name,
        tau=tau if tau is not None or not glicko2 else chosen.tau,
        start=start,
        after_idle=after_idle,
        steps=tuple(steps),
        result=state,
        provisional=is_provisional(state, chosen),
        display=display(state, chosen),
        assumptions=chosen.assumptions,
        assumption_summary=chosen.assumption_summary,
        has_volatility=glicko2,
    )


def _check_glicko_inputs(
    chosen: GlickoPreset,
    rating: float,
    rd: float,
    volatility: float | None,
    tau: float | None,
    idle_days: float | None,
    idle_periods: int | None,
) -> float:
    """Refuse what the preset cannot rate; the volatility to start from (Glicko-1 carries
    its preset's, never used)."""
    _check_range(rating, "rating", 0, 4000)
    _check_range(rd, "RD", 1, 1000)
    if chosen.system == "glicko1" or volatility is None:
        if chosen.system == "glicko2":
            raise InvalidInputError(f"{chosen.name} is Glicko-2: give the player's volatility")
        volatility = chosen.initial_volatility  # carried, never used by Glicko-1
    _check_range(volatility, "volatility", 0.0001, 1)
    if idle_days is not None:
        _check_range(idle_days, "--idle-days", 0, 36525)
        if chosen.period != "game":
            raise InvalidInputError(
                f"{chosen.name} counts idle time in rating periods: use --idle-periods"
            )
    if idle_periods is not None:
        _check_range(idle_periods, "--idle-periods", 0, 1200)
        if chosen.period != "month":
            raise InvalidInputError(f"{chosen.name} counts idle time in days: use --idle-days")
    if tau is not None and not 0 < tau <= 3:
        raise InvalidInputError(f"tau {tau:g} is outside (0, 3]")
    return volatility


@dataclass(frozen=True)
class InitialCalc:
    """An unrated player's first rating from his games against rated opponents (FIDE Rating
    Regulations 2024 §8.2, or 2022 §8.2 for a rating period from January 2022 to February
    2024), and what is missing for it to be published (§7.1.4)."""

    rating: InitialRating
    missing: tuple[str, ...]  # why it is not published; empty when it is
    notes: tuple[str, ...]  # the rules of an earlier period, when they apply


def calc_initial(games: Sequence[str], on: dt.date) -> InitialCalc:
    """``tracker calc initial``: the games as ``OPPONENT_RATING:SCORE`` (rated opponents
    only: §8.2.2 counts no other), all of the player's first event and after, rated in the
    rating period of ``on`` (its month picks the rules: :func:`fide.select_initial_rules`)."""
    results = [parse_game(text) for text in games]
    selection = select_initial_rules("standard", month_of(on))
    rules = selection.rules
    rating = initial_rating(results, rules)
    missing = []
    if rating.score == 0:
        missing.append(
            "a score of zero in the first event is disregarded (§8.2.1): no rating until the "
            "player scores"
        )
    if rating.n < rules.min_games:
        more = rules.min_games - rating.n
        missing.append(
            f"{rating.n} of the {rules.min_games} games against rated opponents a first "
            f"rating needs (§7.1.4): {more} more"
        )
    if rating.ru < rules.floor:
        missing.append(
            f"{rating.ru} is below {rules.floor}: no rating is published under it (§7.1.4)"
        )
    notes = () if selection.note is None else (selection.note,)
    return InitialCalc(rating, tuple(missing), notes)
