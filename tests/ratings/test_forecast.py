"""The what-if fold (tracker.ratings.fide.forecast): one close per class of results equals the
close of every result vector of the class, and the convolution equals a brute-force
enumeration of all 3^n outcomes, summing to 1 exactly."""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from tracker.ratings.fide import forecast as whatif
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PlayerState, PoolGame

D = Decimal
START = date(2026, 3, 7)
MONTH = date(2026, 3, 1)
SCORES = (D(0), D("0.5"), D(1))


def game(
    opponent: int | None, score: str = "0", key: str = "x", own: int | None = None
) -> PeriodGame:
    return PeriodGame(
        opponent=opponent, score=D(score), event_start=START, event_key=key, own_rating=own,
        rules_from=START,
    )  # fmt: skip


def forecast_games(opponents: list[int | None], own: int | None) -> list[PeriodGame]:
    return [game(o, key=whatif.FORECAST_EVENT, own=own) for o in opponents]


CASES = {
    "rated, other games, an unrated opponent": (
        PlayerState(rating=1934, rated_games=44, k=40),
        [game(2000, "1", own=1934), game(1800, "0.5", own=1934)],
        [2090, 2307, None, 1500],
        "standard",
    ),
    "rated near the floor": (
        PlayerState(rating=1410, rated_games=80, k=20),
        [],
        [1900, 2000, 1450],
        "standard",
    ),
    "700 rule: K 40 over 18 games": (
        PlayerState(rating=1700, rated_games=10, k=40),
        [game(1700, "0.5", own=1700) for _ in range(15)],
        [1650, 1800, 1750],
        "standard",
    ),
    "unrated with pending results": (
        PlayerState(
            pool=tuple(
                PoolGame(date(2026, 1, 1), r, D(s), 9, date(2026, 1, 10))
                for r, s in ((1700, "1"), (1800, "0.5"), (1650, "0"))
            ),
            first_event_settled=True,
        ),
        [],
        [1900, 1500, 1600],
        "standard",
    ),
    "newcomer, first event, an unrated opponent": (
        PlayerState(),
        [],
        [1600, None, 1700, 1500, 1650, 1550],
        "standard",
    ),
    "blitz: the 600-point rule leaves a game unrated": (
        PlayerState(rating=2700, rated_games=500, k=10, ever_2400=True, ever_2300=True),
        [],
        [2050, 2650, 2600],
        "blitz",
    ),
}


def own_of(state: PlayerState) -> int | None:
    return state.rating


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_one_close_per_class_is_every_result_vectors_close(case: str) -> None:
    state, existing, opponents, tc = CASES[case]
    forecast = forecast_games(opponents, own_of(state))
    classes = whatif.close_classes(state, existing, forecast, month=MONTH, tc=tc)
    counted = whatif.counted_games(state, forecast, tc)
    for scores in itertools.product(SCORES, repeat=len(forecast)):
        games = [g._replace(score=s) for g, s in zip(forecast, scores, strict=True)]
        new_state, outcome = whatif.close_with(state, existing, games, month=MONTH, tc=tc)
        cls = (
            int(sum(2 * s for s, c in zip(scores, counted, strict=True) if c)),
            int(sum(2 * s for s, c in zip(scores, counted, strict=True) if not c)),
        )
        expected = classes[cls]
        assert (new_state, outcome) == (expected.state, expected.outcome), scores


def brute_force(
    state: PlayerState,
    existing: list[PeriodGame],
    forecast: list[PeriodGame],
    probs: list[whatif.Probabilities],
    tc: str,
) -> dict[int | None, Fraction]:
    out: dict[int | None, Fraction] = {}
    for picks in itertools.product(range(3), repeat=len(forecast)):
        p = Fraction(1)
        games = []
        for g, pick, (win, draw, loss) in zip(forecast, picks, probs, strict=True):
            p *= (win, draw, loss)[pick]
            games.append(g._replace(score=(D(1), D("0.5"), D(0))[pick]))
        _, outcome = close_period(state, [*existing, *games], month=MONTH, tc=tc)  # type: ignore[arg-type]
        out[outcome.rating_after] = out.get(outcome.rating_after, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
@pytest.mark.parametrize("rate", [Fraction(0), Fraction(3, 10), Fraction(1)])
def test_the_distribution_is_the_brute_force_one_and_sums_to_one(case: str, rate: Fraction) -> None:
    state, existing, opponents, tc = CASES[case]
    forecast = forecast_games(opponents, own_of(state))
    strength = state.rating or 1650
    probs = [whatif.game_probabilities(whatif.expectation(strength, o), rate) for o in opponents]
    classes = whatif.close_classes(state, existing, forecast, month=MONTH, tc=tc)
    counted = whatif.counted_games(state, forecast, tc)
    dist = whatif.rating_distribution(classes, whatif.class_distribution(probs, counted))
    assert sum(dist.values()) == 1
    assert {k: v for k, v in dist.items() if v} == brute_force(state, existing, forecast, probs, tc)


def test_game_probabilities_keep_the_expectation() -> None:
    for e in (Fraction(0), Fraction(8, 100), Fraction(1, 2), Fraction(92, 100), Fraction(1)):
        for c in (Fraction(0), Fraction(312, 1000), Fraction(1)):
            win, draw, loss = whatif.game_probabilities(e, c)
            assert min(win, draw, loss) >= 0
            assert win + draw + loss == 1
            assert win + draw / 2 == e
    assert whatif.game_probabilities(Fraction(1, 2), Fraction(3, 10))[1] == Fraction(3, 10)
    with pytest.raises(ValueError):
        whatif.game_probabilities(Fraction(1, 2), Fraction(11, 10))


def test_the_draw_rate_expects_as_many_draws_as_there_were() -> None:
    games = [(Fraction(1, 2), True), (Fraction(1, 2), False), (Fraction(64, 100), True),
             (Fraction(76, 100), False)]  # fmt: skip
    rate, n = whatif.fit_draw_rate(games)
    assert n == 4
    assert rate == Fraction(2) / (1 + 1 + Fraction(72, 100) + Fraction(48, 100))
    assert rate is not None
    assert sum(2 * rate * min(e, 1 - e) for e, _ in games) == 2
    assert whatif.fit_draw_rate([]) == (None, 0)
    assert whatif.fit_draw_rate([(Fraction(1), True)]) == (None, 1)
    assert whatif.fit_draw_rate([(Fraction(1, 2), True)] * 3) == (Fraction(1), 3)


def test_the_expectation_uses_the_full_difference() -> None:
    assert whatif.expectation(1500, 2000) == Fraction(4, 100)  # D = -500, not capped at 400
    assert whatif.expectation(2000, 1500) == Fraction(96, 100)
    assert whatif.expectation(None, 2000) == Fraction(1, 2)
