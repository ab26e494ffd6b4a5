"""A newcomer's first rating (FIDE Rating Regulations 2024 §7.1.4, §8.2; for rating periods
from January 2022 to February 2024, FIDE Rating Regulations 2022 §8.2)."""

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
from tracker.ratings.fide.rules import INITIAL_2024, InitialRules
from tracker.ratings.fide.tables import DP_BY_PERCENT


@dataclass(frozen=True)
class InitialRating:
    """A newcomer's rating from pooled results (FIDE Rating Regulations 2024 §7.1.4, §8.2).

    Under the 2024 rules (``rules`` :data:`~.rules.INITIAL_2024`): ``ra``, the average of the
    rated opponents plus two hypothetical 1800s (28 digits); ``p``, (W + 1) / (n + 2) rounded
    half-up to two decimals, the table 8.1.1 index; ``dp`` from table 8.1.1; ``ru``, Ra + dp
    rounded half away from zero and limited to 2200; ``published`` when ``n >= 5`` and
    ``ru >= 1400``.

    Under the 2022 rules (:data:`~.rules.INITIAL_2022`): ``ra``, the average of the rated
    opponents only; ``p``, W / n rounded half-up to two decimals; ``dp``, what is added to
    Ra: 0 at 50 %, 20 a half point over 50 %, table 8.1.1's dp at ``p`` below 50 %; ``ru``
    has no maximum and is published from 1000.
    """

    n: int
    score: Decimal
    ra: Decimal
    p: Decimal
    dp: int
    ru: int
    published: bool
    capped: bool
    rules: InitialRules = INITIAL_2024


def dp_for_percentage(p: Decimal) -> int:
    """dp from table 8.1.1 for a fractional score ``p`` (FIDE Rating Regulations 2024 §8.1.1).

    The index is p x 100 rounded half-up to a whole number.
    """
    index = round_half_away(p * 100)
    if not 0 <= index <= 100:
        raise ValueError(f"fractional score out of range: {p}")
    return DP_BY_PERCENT[index]


def performance_rating(results: Sequence[tuple[int, Decimal]]) -> int | None:
    """The performance rating over ``(opponent rating, score)`` pairs: the opponents'
    average plus dp of the fractional score (FIDE Rating Regulations 2024 §8.1.1, table
    8.1.1: a zero score is the average - 800, a full score + 800), rounded half away from
    zero once; None without results."""
    if not results:
        return None
    average = Decimal(sum(rating for rating, _ in results)) / len(results)
    p = sum((points for _, points in results), Decimal(0)) / len(results)
    return round_half_away(average + dp_for_percentage(p))


def initial_rating(
    results: Sequence[tuple[int, Decimal]], rules: InitialRules = INITIAL_2024
) -> InitialRating:
    """The initial rating Ru from ``(opponent rating, score)`` pairs against rated opponents,
    under ``rules`` (the set in force for the rating period: :func:`~.rules.select_initial_rules`).

    FIDE Rating Regulations 2024 §8.2.2: "Ra is the average rating of the player's rated
    opponents plus two hypothetical opponents rated 1800. The result against these two
    hypothetical opponents is considered as a draw."; §8.2.3: "Ru = Ra + dp. Ru is rounded to
    the nearest whole number. The maximum initial rating is 2200."; §7.1.4: published when
    based on "at least 5 games against rated opponents" and "at least 1400". The 400-point
    rule does not apply.

    FIDE Rating Regulations 2022 (periods January 2022 to February 2024) §8.2.2: "Ra is the
    average rating of the player's rated opponents."; §8.2.3: "If the player scores 50%, then
    Ru = Ra. If they score more than 50%, then Ru = Ra + 20 for each half point scored over
    50%. If they score less than 50%, then Ru = Ra + dp. Ru is rounded to the nearest whole
    number." (no maximum); published from 1000.

    Rounding of p and of Ru is half-up (as in the Title Regulations; the Rating Regulations
    are silent) and done with exact rationals.
    """
    for _, s in results:
        check_score(s)
    if rules.method == "twenty_per_half_point":
        return _twenty_per_half_point(results, rules)
    n = len(results)
    score = sum((s for _, s in results), ZERO)
    hypothetical = rules.hypothetical_games
    opp_total = sum(r for r, _ in results) + hypothetical * rules.hypothetical_opponent
    denominator = n + hypothetical
    ra_exact = Fraction(opp_total, denominator)
    p_exact = (Fraction(score) + Fraction(hypothetical, 2)) / denominator
    index = round_fraction_half_away(p_exact * 100)
    dp = DP_BY_PERCENT[index]
    return _result(results, rules, opp_total, denominator, ra_exact + dp, index, dp)


def _twenty_per_half_point(
    results: Sequence[tuple[int, Decimal]], rules: InitialRules
) -> InitialRating:
    """FIDE Rating Regulations 2022 §8.2.2-§8.2.3 (see :func:`initial_rating`)."""
    n = len(results)
    if n == 0:
        raise ValueError("an initial rating needs at least one game against a rated opponent")
    score = sum((s for _, s in results), ZERO)
    opp_total = sum(r for r, _ in results)
    ra_exact = Fraction(opp_total, n)
    index = round_fraction_half_away(Fraction(score) / n * 100)
    half_points_over = int(2 * score) - n  # half points over 50 %: 2 x (W - n/2)
    # over 50 %: 20 a half point; at 50 % table 8.1.1 gives dp 0 (Ru = Ra); below: dp at p
    dp = 20 * half_points_over if half_points_over > 0 else DP_BY_PERCENT[index]
    return _result(results, rules, opp_total, n, ra_exact + dp, index, dp)


def _result(
    results: Sequence[tuple[int, Decimal]],
    rules: InitialRules,
    opp_total: int,
    denominator: int,
    ru_exact: Fraction,
    index: int,
    dp: int,
) -> InitialRating:
    n = len(results)
    ru_unlimited = round_fraction_half_away(ru_exact)
    ru = ru_unlimited if rules.max_rating is None else min(ru_unlimited, rules.max_rating)
    with localcontext(CTX):
        ra = Decimal(opp_total) / Decimal(denominator)
    return InitialRating(
        n=n,
        score=sum((s for _, s in results), ZERO),
        ra=ra,
        p=Decimal(index).scaleb(-2),
        dp=dp,
        ru=ru,
        published=n >= rules.min_games and ru >= rules.floor,
        capped=ru != ru_unlimited,
        rules=rules,
    )
