"""How well did a rating system predict the games? Log loss, Brier score, favourite accuracy.

Each game is scored from one player's side: ``predictions[i]`` is the expected score the
system gave that player before the game, ``outcomes[i]`` what the player actually scored
(1, 0.5 or 0). Draws take part in log loss and Brier score with outcome 0.5; favourite
accuracy looks at decisive games only.

Pure code: standard library only, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

DEFAULT_CLIP: Final = (0.01, 0.99)
"""Predictions are clipped into this range before the logarithm, so one confident miss
cannot make the log loss infinite."""

_OUTCOMES: Final = frozenset({0.0, 0.5, 1.0})


@dataclass(frozen=True, slots=True)
class Scores:
    """Summary of a set of predictions (lower log loss and Brier are better).

    ``favourite_accuracy`` is None when no game was decisive.
    """

    games: int
    decisive_games: int
    log_loss: float
    brier: float
    favourite_accuracy: float | None


def _validate(predictions: Sequence[float], outcomes: Sequence[float]) -> None:
    if len(predictions) != len(outcomes):
        raise ValueError(
            f"{len(predictions)} predictions but {len(outcomes)} outcomes; they must pair up"
        )
    if not predictions:
        raise ValueError("no games to score")
    for p in predictions:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"a prediction must be a probability in [0, 1], got {p}")
    for o in outcomes:
        if o not in _OUTCOMES:
            raise ValueError(f"an outcome must be 1, 0.5 or 0, got {o}")


def log_loss(
    predictions: Sequence[float],
    outcomes: Sequence[float],
    clip: tuple[float, float] = DEFAULT_CLIP,
) -> float:
    """Mean cross-entropy in nats: ``-(o ln p + (1 - o) ln(1 - p))`` averaged over games.

    ``p`` is first clipped into ``clip`` (default 0.01-0.99). A coin flip scores
    ln 2 = 0.6931 on every game, draws included.
    """
    _validate(predictions, outcomes)
    low, high = clip
    if not 0.0 < low <= high < 1.0:
        raise ValueError(f"clip must satisfy 0 < low <= high < 1, got {clip}")
    total = 0.0
    for p, o in zip(predictions, outcomes, strict=True):
        q = min(max(p, low), high)
        total -= o * math.log(q) + (1.0 - o) * math.log(1.0 - q)
    return total / len(predictions)


def brier(predictions: Sequence[float], outcomes: Sequence[float]) -> float:
    """Mean squared error ``(p - o)^2``; a coin flip scores 0.25 per decisive game, 0 per draw."""
    _validate(predictions, outcomes)
    return sum((p - o) ** 2 for p, o in zip(predictions, outcomes, strict=True)) / len(predictions)


def favourite_accuracy(predictions: Sequence[float], outcomes: Sequence[float]) -> float | None:
    """Share of decisive games won by the side the prediction favoured.

    Draws are left out. A game predicted at exactly p == 0.5 has no favourite and counts as
    half a correct call, so a coin flip scores exactly 0.5 whatever the results. None when
    no game was decisive.
    """
    _validate(predictions, outcomes)
    decisive = 0
    correct = 0.0
    for p, o in zip(predictions, outcomes, strict=True):
        if o == 0.5:
            continue
        decisive += 1
        if p == 0.5:
            correct += 0.5
        elif (p > 0.5) == (o == 1.0):
            correct += 1.0
    return correct / decisive if decisive else None


def evaluate(
    predictions: Sequence[float],
    outcomes: Sequence[float],
    clip: tuple[float, float] = DEFAULT_CLIP,
) -> Scores:
    """All three measures at once."""
    return Scores(
        games=len(predictions),
        decisive_games=sum(1 for o in outcomes if o != 0.5),
        log_loss=log_loss(predictions, outcomes, clip),
        brier=brier(predictions, outcomes),
        favourite_accuracy=favourite_accuracy(predictions, outcomes),
    )


def coin_flip(games: int) -> list[float]:
    """The no-skill baseline: p = 0.5 for every game."""
    if games < 0:
        raise ValueError(f"number of games must not be negative, got {games}")
    return [0.5] * games


def coin_flip_scores(outcomes: Sequence[float], clip: tuple[float, float] = DEFAULT_CLIP) -> Scores:
    """:func:`evaluate` of the coin-flip baseline on the same outcomes.

    Its figures are known exactly (log-loss ln 2 whatever the outcomes, Brier 1/4 of the
    decisive share); they are returned as such rather than summed game by game.
    """
    scores = evaluate(coin_flip(len(outcomes)), outcomes, clip)
    return Scores(
        games=scores.games,
        decisive_games=scores.decisive_games,
        log_loss=math.log(2),
        brier=0.25 * scores.decisive_games / len(outcomes),
        favourite_accuracy=scores.favourite_accuracy,
    )
