"""``tracker evaluate``: which system predicted the games of the closed periods better (FIDE
Elo, every shadow preset, a coin flip), by log-loss, Brier score and how often the favourite won."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.errors import NotFoundError
from tracker.ratings import metrics
from tracker.ratings.fide.game import expected_score, game_is_rated
from tracker.ratings.fide.rules import rules_for
from tracker.services import lists
from tracker.services.forecast import rated_pairs
from tracker.services.shadow.config import PRESET_NAMES, get_config
from tracker.services.shadow.reads import replay
from tracker.vocabulary import TimeControl


@dataclass(frozen=True)
class SystemScore:
    system: str
    games: int
    log_loss: float
    brier: float
    accuracy: float | None


@dataclass(frozen=True)
class Evaluation:
    tc: TimeControl
    first_month: dt.date | None
    games: int
    decisive: int
    systems: tuple[SystemScore, ...]
    external_rd: float
    external_games: bool = False


def _elo_predictions(
    db: Db, tc: TimeControl, months: list[dt.date]
) -> tuple[dict[int, tuple[float, int, float]], bool]:
    """Each rated game of the months that FIDE Elo predicts (:func:`rated_pairs`): white's
    expected score, white's id, white's result; and whether one is against an external
    player."""
    out: dict[int, tuple[float, int, float]] = {}
    external = False
    for g, w, b in rated_pairs(db, tc, months):
        rules = rules_for(tc, g.rules_day)
        if game_is_rated(w, b, rules):
            outcome = {"1-0": 1.0, "0-1": 0.0}.get(g.result, 0.5)
            out[g.id] = (float(expected_score(w, b, rules)), g.white_id, outcome)
            external = external or g.white_external or g.black_external
    return out, external


def evaluate(db: Db, tc: TimeControl, from_month: dt.date | None) -> Evaluation:
    """Replay every rated game of the closed periods; score each system's prediction of it.

    FIDE Elo predicts with the expectation its own calculation uses (table 8.1.2 and the
    400-point rule) from both players' ratings on the list in force when the event started,
    recorded ratings for external players; games where either side is unrated are left out
    for every system, so all systems are scored on the same games.
    """
    config = get_config(db)
    closed = lists.closed_months(db, tc)
    months = [m for m, _, _ in closed if from_month is None or m >= from_month]
    elo, external_games = _elo_predictions(db, tc, months)
    outcomes = {gid: outcome for gid, (_, _, outcome) in elo.items()}
    if not outcomes:
        raise NotFoundError(
            f"no rated {tc} games to evaluate: close a period first (`tracker period close`)"
        )
    order = sorted(outcomes)
    actual = [outcomes[i] for i in order]
    scores = [("coin flip", metrics.coin_flip_scores(actual))]
    scores.append(("fide-elo", metrics.evaluate([elo[i][0] for i in order], actual)))
    for name in PRESET_NAMES:
        white_pred: dict[int, float] = {}
        for replayed in replay(db, tc, config, name):
            for u in replayed.updates:
                if u.game_id in outcomes and u.game_id not in white_pred:
                    assert u.expected is not None, "a replay predicts every game"
                    mine = u.player_id == elo[u.game_id][1]
                    white_pred[u.game_id] = u.expected if mine else 1.0 - u.expected
        scores.append((name, metrics.evaluate([white_pred[i] for i in order], actual)))
    decisive = sum(1 for i in order if outcomes[i] != 0.5)
    first = from_month
    if first is None and closed:
        first, _, _ = closed[0]  # the first closed month
    return Evaluation(
        tc=tc,
        first_month=first,
        games=len(order),
        decisive=decisive,
        systems=tuple(
            SystemScore(name, s.games, s.log_loss, s.brier, s.favourite_accuracy)
            for name, s in scores
        ),
        external_rd=config.external_rd,
        external_games=external_games,
    )
