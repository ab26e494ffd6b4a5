"""Glicko-1 (Glickman, "The Glicko system", glicko.pdf) on plain floats.

This is the engine behind the Chess.com-like ``chesscom`` preset in
:mod:`tracker.ratings.glicko`; callers normally go through that module, which owns the
state/preset types, the bounds and the display rules. Everything here is the paper's
arithmetic on the rating scale itself (no 173.7178 conversion, no volatility):

* Step 1 (before a rating period): ``RD = min(sqrt(RD_old**2 + c**2 * t), 350)``
  -> :func:`grow_rd`.
* Step 2 (the period's games): ``d**2``, ``r'`` and ``RD'`` -> :func:`update`.
* Expected score of a single game with both players' uncertainty,
  ``E = 1 / (1 + 10**(-g(sqrt(RD_i**2 + RD_j**2)) * (r_i - r_j) / 400))``
  -> :func:`expected_game` (the paper's 1400/80 vs 1500/150 -> 0.376 example).

Pure code: standard library only, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

Q: Final = math.log(10) / 400
"""q = ln(10) / 400 = 0.0057565 (Glickman, "The Glicko system", step 2)."""


def g(rd: float) -> float:
    """Glickman's g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2) (Glicko-1, step 2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * Q * Q * rd * rd / (math.pi * math.pi))


def expected(rating: float, opponent_rating: float, opponent_rd: float) -> float:
    """E(s | r, r_j, RD_j) as used inside the update (only the opponent's RD; step 2)."""
    return 1.0 / (1.0 + math.pow(10.0, -g(opponent_rd) * (rating - opponent_rating) / 400.0))


def expected_game(rating: float, rd: float, opponent_rating: float, opponent_rd: float) -> float:
    """Predicted score of one game, uncertainty of both players combined.

    Glickman ("The Glicko system", section "expected outcome"):
    ``E = 1 / (1 + 10**(-g(sqrt(RD_i**2 + RD_j**2)) * (r_i - r_j) / 400))``.
    Player 1400 / RD 80 against 1500 / RD 150 -> 0.376. Symmetric: the two players'
    expectations add up to 1.
    """
    combined = math.sqrt(rd * rd + opponent_rd * opponent_rd)
    return 1.0 / (1.0 + math.pow(10.0, -g(combined) * (rating - opponent_rating) / 400.0))


def grow_rd(rd: float, c: float, elapsed: float, rd_max: float | None = 350.0) -> float:
    """Step 1: RD before a period after ``elapsed`` units of time without games.

    ``RD = min(sqrt(RD_old**2 + c**2 * elapsed), rd_max)``; ``c`` is in RD points per
    square-root unit of time (the paper uses rating periods; the ``chesscom`` preset uses days).
    ``rd_max=None`` leaves the growth uncapped.
    """
    if elapsed < 0:
        raise ValueError(f"elapsed time must not be negative, got {elapsed}")
    if c < 0:
        raise ValueError(f"c must not be negative, got {c}")
    grown = math.sqrt(rd * rd + c * c * elapsed)
    return grown if rd_max is None else min(grown, rd_max)


def update(
    rating: float, rd: float, results: Sequence[tuple[float, float, float]]
) -> tuple[float, float]:
    """Step 2 for one rating period: new ``(rating, RD)``.

    ``results`` holds ``(opponent_rating, opponent_rd, score)`` with score 1, 0.5 or 0
    (any value in [0, 1] is accepted), all taken from the values before the period.

    ``d^2 = 1 / (q^2 * sum(g(RD_j)^2 E_j (1 - E_j)))``,
    ``r' = r + q / (1/RD^2 + 1/d^2) * sum(g(RD_j) (s_j - E_j))``,
    ``RD' = sqrt(1 / (1/RD^2 + 1/d^2))``.
    An empty period returns the input unchanged (step 1 is the caller's business).
    Paper example: 1500/200 beats 1400/30, loses to 1550/100 and 1700/300 -> 1464.11 / 151.40.
    """
    if rd <= 0:
        raise ValueError(f"RD must be positive, got {rd}")
    if not results:
        return rating, rd
    information = 0.0
    surprise = 0.0
    for opponent_rating, opponent_rd, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be between 0 and 1, got {score}")
        g_j = g(opponent_rd)
        e_j = expected(rating, opponent_rating, opponent_rd)
        information += g_j * g_j * e_j * (1.0 - e_j)
        surprise += g_j * (score - e_j)
    precision = 1.0 / (rd * rd) + Q * Q * information  # 1/RD^2 + 1/d^2
    new_rating = rating + Q / precision * surprise
    new_rd = math.sqrt(1.0 / precision)
    return new_rating, new_rd
