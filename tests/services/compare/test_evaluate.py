"""``evaluate``, service by service: each system's predictions scored against hand-computed ones.

FIDE predicts from table 8.1.2 and the ratings on the list in force when the event started;
the Glicko presets from their shadow just before each game, replayed by hand with the pure
engine. The CLI end to end (JSON keys, table, errors) is in tests/cli/test_shadow.py.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import pytest

from tests.helpers import (
    GLICKMAN,
    LICHESS,
    Services,
    close,
    ext,
    external,
    game,
    month,
    seed_shadow,
    seeded,
    unrated,
)
from tracker.errors import NotFoundError
from tracker.ratings.fide.game import expected_score as elo_expected
from tracker.ratings.fide.rules import rules_for
from tracker.ratings.glicko import glicko1
from tracker.ratings.glicko.api import expected_score, idle, rate_game, rate_period
from tracker.ratings.glicko.presets import get_preset
from tracker.ratings.glicko.seeding import seed_rd
from tracker.services.compare import evaluate as evaluate_service
from tracker.services.compare.evaluate import Evaluation, SystemScore
from tracker.services.periods import closing, history

D = dt.date


def evaluate(db: Services, start: str | None = None) -> Evaluation:
    """``tracker evaluate [--from START]``."""
    out: Evaluation = db(evaluate_service.evaluate, "standard", month(start) if start else None)
    return out


def by_system(out: Evaluation) -> dict[str, SystemScore]:
    return {s.system: s for s in out.systems}


def evaluation_club(db: Services) -> None:
    """A 2000, B 1800 (seeded), E external; three games over two months, both closed."""
    with db.transaction() as s:
        seeded(s, "A", 2000)
        seeded(s, "B", 1800)
        external(s, "E")
        game(s, "A", "B", "1-0", "2026-01-10")
        game(s, "B", "E", "1/2-1/2", "2026-01-12", black_rating=1900)
        game(s, "B", "A", "1-0", "2026-02-03")
    db(close, "2026-02")


OUTCOMES = [1.0, 0.5, 1.0]  # White's score in the three games


def log_loss(predictions: list[float], outcomes: list[float]) -> float:
    total = 0.0
    for p, o in zip(predictions, outcomes, strict=True):
        q = min(max(p, 0.01), 0.99)
        total -= o * math.log(q) + (1 - o) * math.log(1 - q)
    return total / len(predictions)


def brier(predictions: list[float], outcomes: list[float]) -> float:
    return sum((p - o) ** 2 for p, o in zip(predictions, outcomes, strict=True)) / len(outcomes)


def accuracy(predictions: list[float], outcomes: list[float]) -> float | None:
    calls = [
        0.5 if p == 0.5 else float((p > 0.5) == (o == 1.0))
        for p, o in zip(predictions, outcomes, strict=True)
        if o != 0.5
    ]
    return sum(calls) / len(calls) if calls else None


def fide_predictions(db: Services) -> list[float]:
    """White's expected score from table 8.1.2 and the ratings on the list in force."""
    (a_jan, _) = db(history.history, "A", "standard").rows
    b_jan = db(history.history, "B", "standard").rows[0]
    # the February list: A beat B (PD 0.76, +4.8 -> 2005); B -4.8 + 2.8 -> -2.0 -> 1798
    assert (a_jan.rating, b_jan.rating) == (2005, 1798)
    jan = rules_for("standard", D(2026, 1, 10))
    feb = rules_for("standard", D(2026, 2, 3))
    p = [
        elo_expected(2000, 1800, jan),
        elo_expected(1800, 1900, jan),
        elo_expected(1798, 2005, feb),
    ]
    assert p[:2] == [Decimal("0.76"), Decimal("0.36")]
    return [float(x) for x in p]


def lichess_predictions() -> list[float]:
    a0, b0 = seed_shadow(LICHESS, 2000), seed_shadow(LICHESS, 1800)
    x = ext(1900)
    p1 = expected_score(a0, b0, LICHESS)
    a1, b1 = rate_game(a0, b0, 1.0, LICHESS), rate_game(b0, a0, 0.0, LICHESS)
    b1 = idle(b1, LICHESS, days=2)
    p2 = expected_score(b1, x, LICHESS)
    b2 = rate_game(b1, x, 0.5, LICHESS)
    p3 = expected_score(idle(b2, LICHESS, days=22), idle(a1, LICHESS, days=24), LICHESS)
    return [p1, p2, p3]


def glickman_predictions() -> list[float]:
    a0, b0 = seed_shadow(GLICKMAN, 2000), seed_shadow(GLICKMAN, 1800)
    x = ext(1900, 60, GLICKMAN)
    p1 = expected_score(a0, b0, GLICKMAN)
    p2 = expected_score(b0, x, GLICKMAN)
    a1 = rate_period(a0, [(b0, 1.0)], GLICKMAN)
    b1 = rate_period(b0, [(a0, 0.0), (x, 0.5)], GLICKMAN)
    return [p1, p2, expected_score(b1, a1, GLICKMAN)]


def chesscom_predictions() -> list[float]:
    # Glicko-1 by hand: the seed RD of 100 games, c = 8.1 per day, both RDs in the expectation
    rd = seed_rd(get_preset("chesscom"), 100, opponent_rd=60.0)
    assert rd == pytest.approx(35.1887, abs=1e-4)
    a, b, x = (2000.0, rd), (1800.0, rd), (1900.0, 60.0)
    p1 = glicko1.expected_game(*a, *b)
    a1 = glicko1.update(*a, [(*b, 1.0)])
    b1 = glicko1.update(*b, [(*a, 0.0)])
    b1 = (b1[0], math.sqrt(b1[1] ** 2 + 8.1**2 * 2))
    p2 = glicko1.expected_game(*b1, *x)
    b2 = glicko1.update(*b1, [(*x, 0.5)])
    b2 = (b2[0], math.sqrt(b2[1] ** 2 + 8.1**2 * 22))
    a1 = (a1[0], math.sqrt(a1[1] ** 2 + 8.1**2 * 24))
    return [p1, p2, glicko1.expected_game(*b2, *a1)]


def test_evaluate_scores_every_system_against_hand_computed_predictions(db: Services) -> None:
    evaluation_club(db)
    out = evaluate(db)
    assert (out.games, out.decisive) == (3, 2)
    systems = by_system(out)
    assert [s.system for s in out.systems] == [
        "coin flip",
        "fide-elo",
        "lichess",
        "glickman",
        "chesscom",
    ]
    assert all(s.games == 3 for s in out.systems)

    coin = systems["coin flip"]
    assert coin.log_loss == math.log(2)
    assert (coin.brier, coin.accuracy) == ((0.25 + 0 + 0.25) / 3, 0.5)

    for name, predictions in (
        ("fide-elo", fide_predictions(db)),
        ("lichess", lichess_predictions()),
        ("glickman", glickman_predictions()),
        ("chesscom", chesscom_predictions()),
    ):
        got = systems[name]
        assert got.log_loss == pytest.approx(log_loss(predictions, OUTCOMES), rel=1e-12), name
        assert got.brier == pytest.approx(brier(predictions, OUTCOMES), rel=1e-12), name
        assert got.accuracy == accuracy(predictions, OUTCOMES), name

    # FIDE by hand: 0.76 (won), 0.36 (drawn), B 1798 v A 2005 (won by the underdog)
    p3 = fide_predictions(db)[2]
    assert p3 < 0.5
    assert systems["fide-elo"].accuracy == 0.5
    assert systems["fide-elo"].log_loss == pytest.approx(
        -(math.log(0.76) + 0.5 * math.log(0.36) + 0.5 * math.log(0.64) + math.log(p3)) / 3
    )
    assert systems["fide-elo"].brier == pytest.approx((0.24**2 + 0.14**2 + (1 - p3) ** 2) / 3)


def test_evaluate_from_restricts_the_scored_games(db: Services) -> None:
    evaluation_club(db)
    out = evaluate(db, "2026-02")
    assert (out.games, out.decisive) == (1, 1)
    systems = by_system(out)
    assert all(s.games == 1 for s in out.systems)
    assert systems["coin flip"].log_loss == math.log(2)
    # still predicted from the whole replay: the shadow remembers January
    for name, predictions in (
        ("fide-elo", fide_predictions(db)),
        ("lichess", lichess_predictions()),
        ("glickman", glickman_predictions()),
        ("chesscom", chesscom_predictions()),
    ):
        p = predictions[2]
        assert systems[name].log_loss == pytest.approx(-math.log(min(max(p, 0.01), 0.99)))
        assert systems[name].brier == pytest.approx((1 - p) ** 2)
    # nothing left to score from March on: an error, never January's games
    with pytest.raises(NotFoundError, match="no rated standard games"):
        evaluate(db, "2026-03")


def test_evaluate_leaves_out_games_with_an_unrated_side(db: Services) -> None:
    evaluation_club(db)
    with db.transaction() as s:
        unrated(s, "Newbie", born=1990)
        game(s, "Newbie", "A", "0-1", "2026-01-20")
    db(closing.rerate, tc=None, from_month=None)
    assert evaluate(db).games == 3


def test_coin_flip_log_loss_is_exactly_ln2_for_a_bigger_pool(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "A", 2000)
        seeded(s, "B", 1800)
        for d in range(1, 31):
            game(s, "A", "B", "1-0", f"2026-01-{d:02d}")
    db(close, "2026-01")
    coin = evaluate(db).systems[0]
    assert coin.games == 30
    assert coin.log_loss == math.log(2)


def test_fide_prediction_uses_the_list_in_force_when_the_event_started(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "A", 2000)
        seeded(s, "B", 1800)
        game(s, "A", "B", "1-0", "2026-01-10")
        # an event that starts on 31 January and ends in February: rated in February, with
        # the January list
        game(s, "B", "A", "0-1", "2026-01-31", event="Winter", round_="1")
        game(s, "A", "B", "0-1", "2026-02-02", event="Winter", round_="2")
    db(close, "2026-02")
    a_jan, a_feb = db(history.history, "A", "standard").rows
    assert a_jan.rating == 2005  # +4.8; Winter ends in February and is rated there
    assert a_feb.games == 2
    jan = rules_for("standard", D(2026, 1, 31))
    p = [
        float(elo_expected(2000, 1800, jan)),
        float(elo_expected(1800, 2000, jan)),
        float(elo_expected(2000, 1800, jan)),  # January list, not 2010 v 1790
    ]
    assert p == [0.76, 0.24, 0.76]
    assert float(elo_expected(2010, 1790, jan)) == 0.78  # what the February list says
    systems = by_system(evaluate(db))
    outcomes = [1.0, 0.0, 0.0]
    assert systems["fide-elo"].log_loss == pytest.approx(log_loss(p, outcomes), rel=1e-12)
    assert systems["fide-elo"].brier == pytest.approx(brier(p, outcomes), rel=1e-12)
    assert systems["fide-elo"].accuracy == pytest.approx(2 / 3)
