"""A newcomer's first rating (FIDE Rating Regulations 2024 §7.1.4, §8.2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

from tracker.ratings.fide.arithmetic import (
    CTX,
    ZERO,
    check_score,
    round_fraction_half_away,
    round_half_away,
)
from tracker.ratings.fide.rules import (
    HYPOTHETICAL_GAMES,
    HYPOTHETICAL_OPPONENT,
    MAX_INITIAL_RATING,
    MIN_INITIAL_GAMES,
    RATING_FLOOR,
)
from tracker.ratings.fide.tables import DP_BY_PERCENT


@dataclass(frozen=True)
class InitialRating:
    """A newcomer's rating from pooled results (FIDE Rating Regulations 2024 §7.1.4, §8.2).

    ``ra``: average of the rated opponents plus two hypothetical 1800s (28 digits);
    ``p``: (W + 1) / (n + 2) rounded half-up to two decimals, the table 8.1.1 index;
    ``ru``: Ra + dp rounded half away from zero and limited to 2200; ``published`` when
    ``n >= 5`` and ``ru >= 1400``.
    """

    n: int
    score: Decimal
    ra: Decimal
    p: Decimal
    dp: int
    ru: int
    published: bool
    capped: bool


def dp_for_percentage(p: Decimal) -> int:
    """dp from table 8.1.1 for a fractional score ``p`` (FIDE Rating Regulations 2024 §8.1.1).

    The index is p x 100 rounded half-up to a whole number.
    """
    index = round_half_away(p * 100)
    if not 0 <= index <= 100:
        raise ValueError(f"fractional score out of range: {p}")
    return DP_BY_PERCENT[index]


def initial_rating(results: Sequence[tuple[int, Decimal]]) -> InitialRating:
    """The initial rating Ru from ``(opponent rating, score)`` pairs against rated opponents.

    FIDE Rating Regulations 2024 §8.2.2: Ra = average rating of the rated opponents plus two
    hypothetical opponents rated 1800, both games drawn; §8.2.3: Ru = Ra + dp, rounded, at most
    2200; §7.1.4: published only when based on at least 5 games and at least 1400. The
    400-point rule does not apply. Rounding of p and of Ru is half-up (as in the Title
    Regulations; the Rating Regulations are silent) and done with exact rationals.
    """
    for _, s in results:
        check_score(s)
    n = len(results)
    score = sum((s for _, s in results), ZERO)
    opp_total = sum(r for r, _ in results) + HYPOTHETICAL_GAMES * HYPOTHETICAL_OPPONENT
    denominator = n + HYPOTHETICAL_GAMES
    ra_exact = Fraction(opp_total, denominator)
    p_exact = (Fraction(score) + Fraction(HYPOTHETICAL_GAMES, 2)) / denominator
    index = round_fraction_half_away(p_exact * 100)
    dp = DP_BY_PERCENT[index]
    ru_unlimited = round_fraction_half_away(ra_exact + dp)
    ru = min(ru_unlimited, MAX_INITIAL_RATING)
    with localcontext(CTX):
        ra = Decimal(opp_total) / Decimal(denominator)
    return InitialRating(
        n=n,
        score=score,
        ra=ra,
        p=Decimal(index).scaleb(-2),
        dp=dp,
        ru=ru,
        published=n >= MIN_INITIAL_GAMES and ru >= RATING_FLOOR,
        capped=ru_unlimited > MAX_INITIAL_RATING,
    )
