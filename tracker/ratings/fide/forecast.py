"""What-if: the close of a period with games not played yet (``tracker forecast``).

The forecast games are added to the player's games of the period and the period is closed
with :func:`~.player.close_period`, the same fold as the month's close, for every way the
results can fall. Every rule of the close applies: K of the previous list and the 700 rule
over all the period's rated games, the 400-point rule by the event's start, one rounding of
the period total, the 1400 floor, an unrated player's pool and first event.

The results of n games fall in 3^n ways, but the close depends on them only through two
sums (:func:`score_classes`): the score against the games' rated opponents that the close
counts (K x Sigma (S - PD) is linear in it; an initial rating depends on the pooled score
only), and the score of the other games (not rated; for a newcomer they still make his first
event's score, §8.2.1). So the close runs once per pair of sums, and a distribution of
results is a convolution over the games (exact, with :class:`~fractions.Fraction`).

The win/draw/loss probabilities of a game (:func:`game_probabilities`) come from FIDE's
expectation and a draw rate: P(draw) = c x 2 min(E, 1 - E), so a draw is likeliest between
equals (c) and the expectation E = P(win) + P(draw)/2 holds; :func:`fit_draw_rate` fits c on
games already played (as many draws expected as there were).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from tracker.ratings.fide.arithmetic import HALF, ONE, ZERO
from tracker.ratings.fide.game import game_is_rated, table_expected
from tracker.ratings.fide.month import rated_from_standard
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import FirstEvent, PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.rules import rules_for
from tracker.vocabulary import TimeControl

#: The event key of the forecast games (an event of their own).
FORECAST_EVENT = "forecast"

ScoreClass = tuple[int, int]
"""Half points scored in the counted games and in the others."""


@dataclass(frozen=True)
class Closed:
    """The close of the period for one class of results."""

    score: Decimal  # over every forecast game
    state: PlayerState
    outcome: PeriodOutcome


def counted_games(
    state: PlayerState, games: Sequence[PeriodGame], tc: TimeControl
) -> tuple[bool, ...]:
    """Which of the forecast ``games`` the close counts for the player: against a rated
    opponent, and for a rated player a game the 600-point rule (rapid/blitz) leaves rated."""
    out = []
    for g in games:
        if g.opponent is None:
            out.append(False)
            continue
        own = g.own_rating if g.own_rating is not None else state.rating
        out.append(own is None or game_is_rated(own, g.opponent, rules_for(tc, g.rules_day)))
    return tuple(out)


def score_classes(counted: Sequence[bool]) -> list[ScoreClass]:
    """Every pair (half points in the counted games, half points in the others)."""
    a = sum(1 for c in counted if c)
    b = len(counted) - a
    return [(x, y) for x in range(2 * a + 1) for y in range(2 * b + 1)]


def split(halves: int, slots: int) -> list[Decimal]:
    """One way to score ``halves`` half points over ``slots`` games (wins first)."""
    out = []
    for _ in range(slots):
        take = min(2, halves)
        out.append((ZERO, HALF, ONE)[take])
        halves -= take
    return out


def with_scores(
    games: Sequence[PeriodGame], counted: Sequence[bool], cls: ScoreClass
) -> list[PeriodGame]:
    """The forecast games with one result vector of the class ``cls``."""
    first = iter(split(cls[0], sum(1 for c in counted if c)))
    second = iter(split(cls[1], sum(1 for c in counted if not c)))
    return [
        g._replace(score=next(first) if c else next(second))
        for g, c in zip(games, counted, strict=True)
    ]


def close_with(
    state: PlayerState,
    existing: Sequence[PeriodGame],
    forecast: Sequence[PeriodGame],
    *,
    month: date,
    tc: TimeControl,
    first_event: FirstEvent | None = None,
) -> tuple[PlayerState, PeriodOutcome]:
    """The close of ``month`` with the period's ``existing`` games and the ``forecast`` ones
    (scores given): exactly what :func:`~.month.fold_month` does for the player."""
    games = [*existing, *forecast]
    state = rated_from_standard(state, games, tc)
    return close_period(state, games, month=month, tc=tc, details=False, first_event=first_event)


def close_classes(
    state: PlayerState,
    existing: Sequence[PeriodGame],
    forecast: Sequence[PeriodGame],
    *,
    month: date,
    tc: TimeControl,
    first_event: FirstEvent | None = None,
) -> dict[ScoreClass, Closed]:
    """The close for every class of results of the ``forecast`` games (their scores are
    ignored). ``first_event``: an unrated player's first event as the database knows it
    (None: the first event of the games, the forecast's when he has no other)."""
    starting = rated_from_standard(state, [*existing, *forecast], tc)
    counted = counted_games(starting, forecast, tc)
    out: dict[ScoreClass, Closed] = {}
    for cls in score_classes(counted):
        games = with_scores(forecast, counted, cls)
        new_state, outcome = close_with(
            state, existing, games, month=month, tc=tc, first_event=first_event
        )
        out[cls] = Closed(Decimal(cls[0] + cls[1]) / 2, new_state, outcome)
    return out


def by_score(classes: Mapping[ScoreClass, Closed]) -> dict[Decimal, list[Closed]]:
    """The closes of each total score (one per class adding up to it)."""
    out: dict[Decimal, list[Closed]] = {}
    for cls in sorted(classes):
        closed = classes[cls]
        out.setdefault(closed.score, []).append(closed)
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- probabilities


Probabilities = tuple[Fraction, Fraction, Fraction]
"""P(win), P(draw), P(loss) of one game."""


def expectation(own: int | None, opponent: int | None) -> Fraction:
    """The player's expected score from table 8.1.2 at the full rating difference (a
    prediction, not a rating: no 400-point cap); 1/2 when either side has no rating."""
    if own is None or opponent is None:
        return Fraction(1, 2)
    return Fraction(table_expected(own - opponent))


def game_probabilities(expected: Fraction, draw_rate: Fraction) -> Probabilities:
    """P(win), P(draw), P(loss) with P(draw) = c x 2 min(E, 1 - E) and P(win) + P(draw)/2 =
    E (valid for 0 <= c <= 1)."""
    if not 0 <= draw_rate <= 1:
        raise ValueError(f"a draw rate lies within 0..1, not {draw_rate}")
    draw = draw_rate * 2 * min(expected, 1 - expected)
    win = expected - draw / 2
    return win, draw, 1 - win - draw


def fit_draw_rate(games: Iterable[tuple[Fraction, bool]]) -> tuple[Fraction | None, int]:
    """c such that the games (each the expectation of one side and whether it was drawn)
    expect as many draws as they had: draws / Sigma 2 min(E, 1 - E), at most 1. None when no
    game could have been drawn. Also the number of games."""
    draws = 0
    weight = Fraction(0)
    n = 0
    for expected, drawn in games:
        n += 1
        draws += drawn
        weight += 2 * min(expected, 1 - expected)
    if not weight:
        return None, n
    return min(Fraction(draws) / weight, Fraction(1)), n


def class_distribution(
    probabilities: Sequence[Probabilities], counted: Sequence[bool]
) -> dict[ScoreClass, Fraction]:
    """The exact probability of every class of results (a convolution over the games)."""
    dist: dict[ScoreClass, Fraction] = {(0, 0): Fraction(1)}
    for (win, draw, loss), c in zip(probabilities, counted, strict=True):
        nxt: dict[ScoreClass, Fraction] = {}
        for (a, b), p in dist.items():
            for halves, q in ((2, win), (1, draw), (0, loss)):
                if not q:
                    continue
                key = (a + halves, b) if c else (a, b + halves)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        dist = nxt
    return dist


def rating_distribution(
    classes: Mapping[ScoreClass, Closed], dist: Mapping[ScoreClass, Fraction]
) -> dict[int | None, Fraction]:
    """The exact distribution of the next published rating (None: unrated)."""
    out: dict[int | None, Fraction] = {}
    for cls, p in dist.items():
        rating = classes[cls].outcome.rating_after
        out[rating] = out.get(rating, Fraction(0)) + p
    return out
