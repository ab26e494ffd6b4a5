"""One game: the 400-point rule, the expected score PD, whether a game is rated, its change;
and K with the 700 rule (FIDE Rating Regulations 2024 §8.1-§8.3)."""

from __future__ import annotations

from decimal import Decimal, localcontext
from typing import Final

from tracker.ratings.fide.arithmetic import CTX, ONE, check_score
from tracker.ratings.fide.rules import (
    K_PRODUCT_LIMIT,
    Formula,
    RuleSet,
)
from tracker.ratings.fide.tables import PD_ROWS

_PD_STARTS: Final = tuple(start for start, _, _, _ in PD_ROWS)
_PD_HIGH: Final = tuple(Decimal(high).scaleb(-2) for _, _, high, _ in PD_ROWS)
_PD_LOW: Final = tuple(Decimal(low).scaleb(-2) for _, _, _, low in PD_ROWS)
_PD_LAST_START: Final = _PD_STARTS[-1]
#: Table 8.1.2 by |D| (0 to the start of its open-ended last row): each row's (PD_H, PD_L)
#: repeated for every difference in it, so that a game looks its PD up by index.
_PD_ENDS: Final = (*_PD_STARTS[1:], _PD_LAST_START + 1)  # each row's first |D| beyond it
_PD_BY_DIFFERENCE: Final = tuple(
    pair
    for start, end, pair in zip(
        _PD_STARTS, _PD_ENDS, zip(_PD_HIGH, _PD_LOW, strict=True), strict=True
    )
    for _ in range(start, end)
)


def capped_difference(own: int, opp: int, rules: RuleSet, apply_cap: bool = True) -> int:
    """Signed rating difference D = own - opp after the 400-point rule.

    FIDE Rating Regulations 2024 §8.3.1 (as amended 1 October 2025): a difference of more than
    400 counts as 400 for a player rated below 2650; a player rated 2650 or above uses the full
    difference. The test is one-sided: it looks only at ``own``.
    """
    d = own - opp
    if apply_cap and (rules.cap_exempt_from is None or own < rules.cap_exempt_from):
        cap = rules.cap
        if d > cap:
            d = cap
        elif d < -cap:
            d = -cap
    return d


def table_expected(d: int) -> Decimal:
    """PD for a signed difference ``d`` (own - opponent, already capped) from table 8.1.2.

    FIDE Rating Regulations 2024 §8.1.2 / §8.3.2a: the higher-rated player takes PD_H of the
    row containing |d|, the lower-rated player PD_L. Exact, two decimals.
    """
    high, low = _PD_BY_DIFFERENCE[min(abs(d), _PD_LAST_START)]
    return high if d >= 0 else low


def logistic_expected(d: int) -> Decimal:
    """1 / (1 + 10^(-d/400)) as a 28-digit ``Decimal`` (not FIDE: for online calculators)."""
    with localcontext(CTX):
        return ONE / (ONE + Decimal(10) ** (Decimal(-d) / Decimal(400)))


def expected_score(
    own: int,
    opp: int,
    rules: RuleSet,
    formula: Formula = "table",
    apply_cap: bool = True,
) -> Decimal:
    """The player's expected score PD against ``opp``.

    FIDE Rating Regulations 2024 §8.3.1 (400-point rule, with the 2650 exemption where the rule
    set has it) then §8.3.2a (table 8.1.2). ``formula="logistic"`` replaces the table with the
    logistic curve after the same cap and returns full precision; round only for display.
    """
    d = capped_difference(own, opp, rules, apply_cap)
    if formula == "table":
        return table_expected(d)
    if formula == "logistic":
        return logistic_expected(d)
    raise ValueError(f"unknown formula {formula!r}")


def game_is_rated(own: int | None, opp: int | None, rules: RuleSet) -> bool:
    """Whether a game counts for the player whose rating is ``own`` (``None`` = unrated).

    - FIDE Rating Regulations 2024 §8.3.1 covers only games "against a rated player": a game
      against an unrated opponent (``opp is None``) is not rated, for either side.
    - Rapid & Blitz Regulations §7.3.1, from 1 December 2024: a game between players 600 or
      more points apart is not rated if at least one of them is rated above 2600.

    For an unrated player (``own is None``) a game against a rated opponent counts towards the
    initial-rating pool (§7.1.4); the 600-point rule needs two ratings and does not apply.
    """
    if opp is None:
        return False
    if own is None or not rules.rb_600_rule:
        return True
    return not (abs(own - opp) >= rules.rb_gap and max(own, opp) > rules.rb_above)


def game_change(
    own: int,
    opp: int,
    score: Decimal,
    k: int,
    rules: RuleSet,
    formula: Formula = "table",
) -> Decimal:
    """K x (S - PD) for one game, unrounded (FIDE Rating Regulations 2024 §8.3.2-§8.3.3)."""
    check_score(score)
    with localcontext(CTX):
        return k * (score - expected_score(own, opp, rules, formula))


def apply_700_rule(k: int, n: int) -> int:
    """K after the 700 rule for ``n`` games rated in one period.

    FIDE Rating Regulations 2024 §8.3.3: "If the number of games (n) for a player on any list
    for a rating period multiplied by K ... exceeds 700, then K shall be the largest whole
    number such that K x n does not exceed 700."
    """
    if k < 0 or n < 0:
        raise ValueError("K and the number of games must not be negative")
    if k * n <= K_PRODUCT_LIMIT:
        return k
    return K_PRODUCT_LIMIT // n
