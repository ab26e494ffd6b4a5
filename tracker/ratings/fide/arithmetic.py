"""Exact arithmetic for the FIDE rules: the decimal context, scores, and rounding.

Probabilities from table 8.1.2 are :class:`~decimal.Decimal` values with two decimals, so
per-game and per-period changes are exact. Rounding happens once, on the period total, half
away from zero (FIDE Rating Regulations 2024 §8.3.4); the builtin :func:`round` (half to
even) is never used.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from typing import Final

CTX: Final = Context(prec=28, rounding=ROUND_HALF_EVEN)
ONE: Final = Decimal(1)
ZERO: Final = Decimal(0)
HALF: Final = Decimal("0.5")
VALID_SCORES: Final = (ZERO, HALF, ONE)


def check_score(score: Decimal) -> None:
    if not isinstance(score, Decimal) or score not in VALID_SCORES:
        raise ValueError(f"a game score must be Decimal 1, 0.5 or 0, not {score!r}")


def round_half_away(x: Decimal) -> int:
    """Round to the nearest whole number, 0.5 away from zero.

    FIDE Rating Regulations 2024 §8.3.4: "The Rating Change for a Rating Period is rounded to
    the nearest whole number. 0.5 is rounded away from zero." (+2.50 -> 3, -2.50 -> -3).
    """
    return int(x.to_integral_value(rounding=ROUND_HALF_UP))


def quantize_half_away(x: Decimal, places: int) -> Decimal:
    """Round ``x`` to ``places`` decimals, half away from zero (shown figures, and the
    norms' percentage of §1.4.9)."""
    return x.quantize(ONE.scaleb(-places), rounding=ROUND_HALF_UP)


def round_fraction_half_away(q: Fraction) -> int:
    """Exact half-away-from-zero rounding of a rational number."""
    num, den = abs(q.numerator), q.denominator
    r = (2 * num + den) // (2 * den)
    return r if q >= 0 else -r
