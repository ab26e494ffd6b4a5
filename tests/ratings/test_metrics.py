"""Prediction metrics, checked against numbers worked out by hand."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.ratings.metrics import (
    Scores,
    brier,
    coin_flip,
    coin_flip_scores,
    evaluate,
    favourite_accuracy,
    log_loss,
)

# win as 0.8 favourite, loss as 0.3 underdog, draw at 0.5, loss as 0.6 favourite
PREDICTIONS = [0.8, 0.3, 0.5, 0.6]
OUTCOMES = [1.0, 0.0, 0.5, 0.0]


def test_log_loss_by_hand() -> None:
    # -ln 0.8 = 0.223144, -ln 0.7 = 0.356675, ln 2 = 0.693147, -ln 0.4 = 0.916291
    assert log_loss(PREDICTIONS, OUTCOMES) == pytest.approx(2.189257 / 4, abs=1e-6)


def test_log_loss_of_a_draw_uses_both_terms() -> None:
    # -(0.5 ln 0.8 + 0.5 ln 0.2) = 0.5 * (0.223144 + 1.609438)
    assert log_loss([0.8], [0.5]) == pytest.approx(0.916291, abs=1e-6)


def test_log_loss_clipping() -> None:
    assert log_loss([1.0], [0.0]) == pytest.approx(-math.log(0.01))  # 4.60517
    assert log_loss([0.0], [0.0]) == pytest.approx(-math.log(0.99))  # 0.01005
    assert log_loss([1.0], [0.0], clip=(0.1, 0.9)) == pytest.approx(-math.log(0.1))
    assert log_loss([0.995], [1.0], clip=(0.001, 0.999)) == pytest.approx(-math.log(0.995))


def test_brier_by_hand() -> None:
    # 0.04 + 0.09 + 0 + 0.36 = 0.49
    assert brier(PREDICTIONS, OUTCOMES) == pytest.approx(0.1225)


def test_favourite_accuracy_by_hand() -> None:
    # decisive: 0.8 won (right), 0.3 lost (right: the opponent was favoured), 0.6 lost (wrong)
    assert favourite_accuracy(PREDICTIONS, OUTCOMES) == pytest.approx(2 / 3)


def test_favourite_accuracy_counts_an_even_call_as_half() -> None:
    assert favourite_accuracy([0.5, 0.9], [1.0, 1.0]) == pytest.approx(0.75)
    assert favourite_accuracy([0.5, 0.9], [0.0, 1.0]) == pytest.approx(0.75)


def test_favourite_accuracy_ignores_draws_and_is_none_without_decisive_games() -> None:
    assert favourite_accuracy([0.9, 0.1], [0.5, 0.0]) == 1.0
    assert favourite_accuracy([0.9, 0.1], [0.5, 0.5]) is None


def test_evaluate_bundles_everything() -> None:
    scores = evaluate(PREDICTIONS, OUTCOMES)
    assert scores == Scores(
        games=4,
        decisive_games=3,
        log_loss=pytest.approx(0.547314, abs=1e-6),  # type: ignore[arg-type]
        brier=pytest.approx(0.1225),  # type: ignore[arg-type]
        favourite_accuracy=pytest.approx(2 / 3),  # type: ignore[arg-type]
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        scores.brier = 0.0  # type: ignore[misc]


def test_coin_flip_baseline() -> None:
    assert coin_flip(3) == [0.5, 0.5, 0.5]
    assert coin_flip(0) == []
    baseline = coin_flip_scores(OUTCOMES)
    assert baseline.log_loss == pytest.approx(math.log(2))
    assert baseline.brier == pytest.approx(0.25 * 3 / 4)  # draws cost a coin flip nothing
    assert baseline.favourite_accuracy == 0.5
    assert baseline.games == 4
    assert evaluate(PREDICTIONS, OUTCOMES).brier < baseline.brier


@pytest.mark.parametrize(
    ("predictions", "outcomes", "message"),
    [
        ([0.5], [1.0, 0.0], "pair up"),
        ([], [], "no games"),
        ([1.2], [1.0], "probability"),
        ([math.nan], [1.0], "probability"),
        ([0.5], [0.3], "1, 0.5 or 0"),
    ],
)
def test_validation(predictions: list[float], outcomes: list[float], message: str) -> None:
    for metric in (log_loss, brier, favourite_accuracy, evaluate):
        with pytest.raises(ValueError, match=message):
            metric(predictions, outcomes)


def test_bad_clip_and_negative_games() -> None:
    with pytest.raises(ValueError, match="clip"):
        log_loss([0.5], [1.0], clip=(0.0, 0.99))
    with pytest.raises(ValueError, match="clip"):
        log_loss([0.5], [1.0], clip=(0.9, 0.1))
    with pytest.raises(ValueError, match="negative"):
        coin_flip(-1)


games = st.lists(
    st.tuples(st.floats(min_value=0, max_value=1), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=1,
    max_size=50,
)


@given(games)
def test_metric_ranges(pairs: list[tuple[float, float]]) -> None:
    predictions = [p for p, _ in pairs]
    outcomes = [o for _, o in pairs]
    assert 0 <= brier(predictions, outcomes) <= 1
    assert -math.log(0.99) - 1e-12 <= log_loss(predictions, outcomes) <= -math.log(0.01) + 1e-12
    accuracy = favourite_accuracy(predictions, outcomes)
    assert accuracy is None or 0 <= accuracy <= 1


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=50))
def test_coin_flip_log_loss_is_ln2_whatever_happens(outcomes: list[float]) -> None:
    assert coin_flip_scores(outcomes).log_loss == pytest.approx(math.log(2))
