"""The Elo calculator: FIDE's arithmetic for a few games, no database.

Kept free of SQLAlchemy so that ``tracker calc`` starts fast.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from tracker.errors import InvalidInputError
from tracker.parsing import check_rating
from tracker.ratings import fide

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
    if not sep or not opp.strip().lstrip("-").isdigit():
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
            raise InvalidInputError(f"K {k} is not a development coefficient (use 10, 20 or 40)")
        k_in_force, source = k, "given"
    elif rated_games is not None:
        if rated_games < 0:
            raise InvalidInputError("--games cannot be negative")
        k_in_force = fide.k_factor(
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
    k_used = fide.apply_700_rule(k_in_force, len(parsed))
    if k_used != k_in_force:
        notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {len(parsed)} games")
    selection = fide.select_rules("standard", on)
    if selection.note:
        notes.append(selection.note)
    if not cap:
        notes.append("400-point rule switched off")
    fml: fide.Formula = "logistic" if formula == "logistic" else "table"
    rows = []
    for opp, score in parsed:
        difference = fide.capped_difference(rating, opp, selection.rules, apply_cap=cap)
        expected = fide.expected_score(rating, opp, selection.rules, formula=fml, apply_cap=cap)
        rows.append(CalcGame(opp, score, difference, expected, k_used * (score - expected)))
    change_exact = sum((r.change for r in rows), Decimal(0))
    change = fide.round_half_away(change_exact)
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
