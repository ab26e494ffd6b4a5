"""``forecast`` at the service (tracker.services.forecast): the change for each score, a
target, the exact distribution, worked by hand. That each forecast is what a close then
publishes is checked end to end in tests/cli/test_forecast.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tests.helpers import Services, day, external, seeded, unrated
from tracker.errors import InvalidInputError, UsageError
from tracker.services.forecast import forecast

D = Decimal
START = day("2026-07-10")


@pytest.fixture
def club(db: Services) -> Services:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)  # 100 games, born 1980: K 20
        unrated(s, "Fox")
        external(s, "Guest")
    return db


def test_two_games_against_an_equal_rating(club: Services) -> None:
    """PD .50 a game, K 20: each half point over 1 is +10."""
    fc = club(forecast, "Hart", ["2000", "2000"], tc="standard", start=START, target=2010)
    assert (fc.player, fc.rating, fc.k_in_force, fc.k_used) == ("Hart", 2000, 20, 20)
    assert (fc.month, fc.list_date) == (day("2026-07-01"), day("2026-07-01"))
    assert [(o.rating, o.counted, o.expected) for o in fc.opponents] == [(2000, True, D("0.5"))] * 2
    rows = [(r.score, r.low.change, r.low.rating) for r in fc.rows]
    assert rows == [
        (D(0), -20, 1980), (D("0.5"), -10, 1990), (D(1), 0, 2000),
        (D("1.5"), 10, 2010), (D(2), 20, 2020),
    ]  # fmt: skip
    assert all(r.low == r.high for r in fc.rows)  # every game counts alike
    assert fc.target is not None and (fc.target.score, fc.target.reached) == (D("1.5"), 2010)


def test_the_distribution_with_a_given_draw_rate(club: Services) -> None:
    """E .50, draw rate .25: a draw 2 x .25 x .50 = 1/4, a win and a loss 3/8 each."""
    fc = club(forecast, "Hart", ["2000", "2000"], tc="standard", start=START,
              probabilities=True, draw_rate=D("0.25"))  # fmt: skip
    dist = fc.distribution
    assert dist is not None and dist.fitted_games is None and dist.strength == 2000
    assert {o.rating: o.probability for o in dist.outcomes} == {
        1980: Fraction(9, 64), 1990: Fraction(3, 16), 2000: Fraction(11, 32),
        2010: Fraction(3, 16), 2020: Fraction(9, 64),
    }  # fmt: skip
    assert dist.expected_score == 1


def test_an_unrated_opponent_is_not_rated_for_a_rated_player(club: Services) -> None:
    fc = club(forecast, "Hart", ["Fox", "2000"], tc="standard", start=START)
    assert [(o.name, o.counted) for o in fc.opponents] == [("Fox", False), (None, True)]
    one = next(r for r in fc.rows if r.score == 1)
    assert (one.low.change, one.high.change) == (-10, 10)  # the point on Fox, or on 2000


def test_what_cannot_be_forecast(club: Services) -> None:
    with pytest.raises(UsageError, match="give at least one opponent"):
        club(forecast, "Hart", [], tc="standard", start=START)
    with pytest.raises(InvalidInputError, match="Guest is an external player"):
        club(forecast, "Guest", ["2000"], tc="standard", start=START)
    with pytest.raises(InvalidInputError, match=r"a draw rate lies within 0\.\.1"):
        club(forecast, "Hart", ["2000"], tc="standard", start=START, draw_rate=D(2))
