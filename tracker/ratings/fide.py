"""FIDE Elo rules as pure functions: expected score, K, the 700 rule, initial ratings and the
monthly rating-period fold.

Everything follows the FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook
B.02), as amended 1 October 2025, and the Rapid & Blitz Rating Regulations of the same date.
Article numbers in the docstrings refer to those texts.

Arithmetic is exact: probabilities from table 8.1.2 are :class:`~decimal.Decimal` values with
two decimals, so per-game and per-period changes are exact too. Rounding happens once, on the
period total, half away from zero (§8.3.4); the builtin :func:`round` (half to even) is never
used. The optional logistic formula (for reproducing online calculators, not FIDE) returns a
full-precision ``Decimal``; callers round only when displaying, e.g. with
:func:`quantize_half_away`.

This module imports only the standard library and performs no I/O.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Final, Literal

from tracker.months import month_index, next_month
from tracker.ratings.fide_tables import DP_BY_PERCENT, PD_ROWS
from tracker.vocabulary import TIME_CONTROLS, TimeControl

__all__ = [
    "HYPOTHETICAL_OPPONENT",
    "MAX_INITIAL_RATING",
    "MIN_INITIAL_GAMES",
    "POOL_MONTHS",
    "RAPID_BLITZ_2024",
    "RAPID_BLITZ_2024_12",
    "RATING_FLOOR",
    "STANDARD_2024",
    "STANDARD_2025_10",
    "EventKey",
    "Formula",
    "GameDetail",
    "GameStatus",
    "InitialRating",
    "PeriodChange",
    "PeriodGame",
    "PeriodOutcome",
    "PlayerState",
    "PoolGame",
    "RatedGame",
    "RuleSelection",
    "RuleSet",
    "TimeControl",
    "apply_700_rule",
    "capped_difference",
    "close_idle",
    "close_period",
    "dp_for_percentage",
    "expected_score",
    "game_change",
    "game_is_rated",
    "initial_rating",
    "k_factor",
    "k_for_state",
    "logistic_expected",
    "period_change",
    "quantize_half_away",
    "round_half_away",
    "rules_for",
    "rules_note",
    "seed_state",
    "select_rules",
    "table_expected",
]


Formula = Literal["table", "logistic"]
"""``table``: FIDE table 8.1.2 (the regulations). ``logistic``: 1/(1+10^(-D/400)) (calculators)."""

EventKey = str | int
"""Identifies an event within a player's results (used by the §8.2.1 first-event rule)."""

GameStatus = Literal["rated", "pooled", "disregarded", "unrated_opponent", "not_rated_600"]
"""What happened to one game of a period (see :class:`GameDetail`)."""

RATING_FLOOR: Final = 1400
"""§7.1.4 / §7.2.1: lowest published rating; a player who drops below it becomes unrated."""
MAX_INITIAL_RATING: Final = 2200
"""§8.2.3: the maximum initial rating."""
MIN_INITIAL_GAMES: Final = 5
"""§7.1.4: games against rated opponents needed for a first rating."""
POOL_MONTHS: Final = 26
"""§7.1.4: newcomer results are pooled over rating periods of at most 26 months."""
HYPOTHETICAL_OPPONENT: Final = 1800
"""§8.2.2: rating of each of the two hypothetical opponents (both games drawn)."""
HYPOTHETICAL_GAMES: Final = 2
K_PRODUCT_LIMIT: Final = 700
"""§8.3.3: K x n may not exceed 700 in a rating period."""
NEW_PLAYER_GAMES: Final = 30
"""§8.3.3: K 40 until events with at least 30 games are completed."""
JUNIOR_LAST_AGE: Final = 18
"""§8.3.3: K 40 until the end of the year of the 18th birthday."""
K_2400: Final = 2400
K_2300: Final = 2300

_CTX: Final = Context(prec=28, rounding=ROUND_HALF_EVEN)
_ONE: Final = Decimal(1)
_ZERO: Final = Decimal(0)
_HALF: Final = Decimal("0.5")
_VALID_SCORES: Final = (_ZERO, _HALF, _ONE)

_PD_STARTS: Final = tuple(row[0] for row in PD_ROWS)
_PD_HIGH: Final = tuple(Decimal(row[2]).scaleb(-2) for row in PD_ROWS)
_PD_LOW: Final = tuple(Decimal(row[3]).scaleb(-2) for row in PD_ROWS)


# --------------------------------------------------------------------------------------------
# Rounding
# --------------------------------------------------------------------------------------------


def round_half_away(x: Decimal) -> int:
    """Round to the nearest whole number, 0.5 away from zero.

    FIDE Rating Regulations 2024 §8.3.4: "The Rating Change for a Rating Period is rounded to
    the nearest whole number. 0.5 is rounded away from zero." (+2.50 -> 3, -2.50 -> -3).
    """
    return int(x.to_integral_value(rounding=ROUND_HALF_UP))


def quantize_half_away(x: Decimal, places: int) -> Decimal:
    """Round ``x`` to ``places`` decimals, half away from zero (for display only)."""
    return x.quantize(_ONE.scaleb(-places), rounding=ROUND_HALF_UP)


def _round_fraction_half_away(q: Fraction) -> int:
    """Exact half-away-from-zero rounding of a rational number."""
    num, den = abs(q.numerator), q.denominator
    r = (2 * num + den) // (2 * den)
    return r if q >= 0 else -r


# --------------------------------------------------------------------------------------------
# Rule sets
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleSet:
    """The date-dependent parts of the rating rules for one list (time control).

    ``cap`` is the 400-point rule (FIDE Rating Regulations 2024 §8.3.1): a larger difference
    counts as ``cap``. ``cap_exempt_from`` is the October 2025 amendment of §8.3.1: a player
    rated at or above it uses the full difference (one-sided: his opponent is still capped).
    ``rb_600_rule`` is Rapid & Blitz Regulations §7.3.1 (from 1 December 2024): a game between
    players ``rb_gap`` or more apart is not rated if either is rated above ``rb_above``.
    """

    name: str
    effective_from: date
    cap: int = 400
    cap_exempt_from: int | None = None
    rb_600_rule: bool = False
    rb_gap: int = 600
    rb_above: int = 2600
    time_controls: tuple[TimeControl, ...] = ("standard",)
    article: str = "FIDE Rating Regulations 2024 §8.3.1"

    def caps(self, own: int) -> bool:
        """Whether the 400-point rule limits the difference for a player rated ``own``."""
        return self.cap_exempt_from is None or own < self.cap_exempt_from


STANDARD_2024: Final = RuleSet(
    name="standard, 2024-03-01",
    effective_from=date(2024, 3, 1),
    article="FIDE Rating Regulations 2024 §8.3.1 (400 rule for every player)",
)
STANDARD_2025_10: Final = RuleSet(
    name="standard, 2025-10-01",
    effective_from=date(2025, 10, 1),
    cap_exempt_from=2650,
    article="FIDE Rating Regulations 2024 §8.3.1 as amended 2025-10-01 (2650 exemption)",
)
RAPID_BLITZ_2024: Final = RuleSet(
    name="rapid/blitz, 2024-03-01",
    effective_from=date(2024, 3, 1),
    time_controls=("rapid", "blitz"),
    article="FIDE Rapid & Blitz Rating Regulations 2024 §7.3.1",
)
RAPID_BLITZ_2024_12: Final = RuleSet(
    name="rapid/blitz, 2024-12-01",
    effective_from=date(2024, 12, 1),
    rb_600_rule=True,
    time_controls=("rapid", "blitz"),
    article="FIDE Rapid & Blitz Rating Regulations 2024 §7.3.1 (600/2600 rule from 2024-12-01)",
)

_RULE_SETS: Final[dict[str, tuple[RuleSet, ...]]] = {
    "standard": (STANDARD_2024, STANDARD_2025_10),
    "rapid": (RAPID_BLITZ_2024, RAPID_BLITZ_2024_12),
    "blitz": (RAPID_BLITZ_2024, RAPID_BLITZ_2024_12),
}


@dataclass(frozen=True)
class RuleSelection:
    """The rule set chosen for an event, and whether the event predates it.

    Events that started before 1 March 2024 are rated with the 2024 rules (the earliest this
    module implements); ``predates_rules`` is then true and ``note`` says so.
    """

    rules: RuleSet
    tc: TimeControl
    event_start: date

    @property
    def predates_rules(self) -> bool:
        return self.event_start < self.rules.effective_from

    @property
    def note(self) -> str | None:
        if not self.predates_rules:
            return None
        return (
            f"rules of {self.rules.effective_from.isoformat()} applied to an event starting "
            f"{self.event_start.isoformat()}, before that date"
        )


def _check_tc(tc: str) -> None:
    if tc not in TIME_CONTROLS:
        raise ValueError(f"unknown time control {tc!r}; expected one of {TIME_CONTROLS}")


def select_rules(tc: TimeControl, event_start: date) -> RuleSelection:
    """Choose the rule set by the date the event started.

    FIDE rates an event with the rules and the list in force when it starts (FIDE Rating
    Regulations 2024 §8.3.1 "Effective from 1 October 2025"; Rapid & Blitz §7.3.1 "Effective
    from 1 December 2024"). Dates before 1 March 2024 fall back to the 2024 rules.
    """
    return _selection(tc, event_start)


@lru_cache(maxsize=4096)
def _rules_and_note(tc: TimeControl, event_start: date) -> tuple[RuleSet, str | None]:
    selection = select_rules(tc, event_start)
    return selection.rules, selection.note


@lru_cache(maxsize=4096)
def _selection(tc: TimeControl, event_start: date) -> RuleSelection:
    """:func:`select_rules`, computed once per (time control, day): a selection is frozen."""
    _check_tc(tc)
    candidates = _RULE_SETS[tc]
    chosen = candidates[0]
    for rules in candidates:
        if rules.effective_from <= event_start:
            chosen = rules
    return RuleSelection(rules=chosen, tc=tc, event_start=event_start)


def rules_for(tc: TimeControl, event_start: date) -> RuleSet:
    """The :class:`RuleSet` for an event of time control ``tc`` starting on ``event_start``."""
    return select_rules(tc, event_start).rules


def rules_note(tc: TimeControl, event_start: date) -> str | None:
    """A note such as "rules of 2024-03-01 applied to an event starting 2023-05-10, before
    that date", or ``None`` when the event is within the rules' validity."""
    return select_rules(tc, event_start).note


# --------------------------------------------------------------------------------------------
# Expected score (PD)
# --------------------------------------------------------------------------------------------


def capped_difference(own: int, opp: int, rules: RuleSet, apply_cap: bool = True) -> int:
    """Signed rating difference D = own - opp after the 400-point rule.

    FIDE Rating Regulations 2024 §8.3.1 (as amended 1 October 2025): a difference of more than
    400 counts as 400 for a player rated below 2650; a player rated 2650 or above uses the full
    difference. The test is one-sided: it looks only at ``own``.
    """
    d = own - opp
    if apply_cap and rules.caps(own):
        d = max(-rules.cap, min(rules.cap, d))
    return d


def table_expected(d: int) -> Decimal:
    """PD for a signed difference ``d`` (own - opponent, already capped) from table 8.1.2.

    FIDE Rating Regulations 2024 §8.1.2 / §8.3.2a: the higher-rated player takes PD_H of the
    row containing |d|, the lower-rated player PD_L. Exact, two decimals.
    """
    row = bisect_right(_PD_STARTS, abs(d)) - 1
    return _PD_HIGH[row] if d >= 0 else _PD_LOW[row]


def logistic_expected(d: int) -> Decimal:
    """1 / (1 + 10^(-d/400)) as a 28-digit ``Decimal`` (not FIDE: for online calculators)."""
    with localcontext(_CTX):
        return _ONE / (_ONE + Decimal(10) ** (Decimal(-d) / Decimal(400)))


def expected_score(
    own: int,
    opp: int,
    rules: RuleSet,
    formula: Formula = "table",
    apply_cap: bool = True,
) -> Decimal:
    """The player's expected score PD against ``opp``.

    FIDE Rating Regulations 2024 §8.3.1 (400-point rule, with the 2650 exemption where the rule
    set has it) then §8.3.2a (table 8.1.2). ``formula="logistic"`` replaces the table with the
    logistic curve after the same cap and returns full precision; round only for display.
    """
    d = capped_difference(own, opp, rules, apply_cap)
    if formula == "table":
        return table_expected(d)
    if formula == "logistic":
        return logistic_expected(d)
    raise ValueError(f"unknown formula {formula!r}")


def game_is_rated(own: int | None, opp: int | None, rules: RuleSet) -> bool:
    """Whether a game counts for the player whose rating is ``own`` (``None`` = unrated).

    - FIDE Rating Regulations 2024 §8.3.1 covers only games "against a rated player": a game
      against an unrated opponent (``opp is None``) is not rated, for either side.
    - Rapid & Blitz Regulations §7.3.1, from 1 December 2024: a game between players 600 or
      more points apart is not rated if at least one of them is rated above 2600.

    For an unrated player (``own is None``) a game against a rated opponent counts towards the
    initial-rating pool (§7.1.4); the 600-point rule needs two ratings and does not apply.
    """
    if opp is None:
        return False
    if own is None or not rules.rb_600_rule:
        return True
    return not (abs(own - opp) >= rules.rb_gap and max(own, opp) > rules.rb_above)


def _check_score(score: Decimal) -> None:
    if not isinstance(score, Decimal) or score not in _VALID_SCORES:
        raise ValueError(f"a game score must be Decimal 1, 0.5 or 0, not {score!r}")


def game_change(
    own: int,
    opp: int,
    score: Decimal,
    k: int,
    rules: RuleSet,
    formula: Formula = "table",
    apply_cap: bool = True,
) -> Decimal:
    """K x (S - PD) for one game, unrounded (FIDE Rating Regulations 2024 §8.3.2-§8.3.3)."""
    _check_score(score)
    with localcontext(_CTX):
        return k * (score - expected_score(own, opp, rules, formula, apply_cap))


# --------------------------------------------------------------------------------------------
# K and the 700 rule
# --------------------------------------------------------------------------------------------


def k_factor(
    *,
    rated_games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    list_year: int,
) -> int:
    """The development coefficient K published on a list of year ``list_year``.

    FIDE Rating Regulations 2024 §8.3.3. The text gives no precedence; this order reproduces
    FIDE's published K:

    1. ever published at 2400 or more -> 10 (for ever, even juniors and newcomers);
    2. junior (``list_year - birth_year <= 18``, i.e. until the end of the year of the 18th
       birthday) never published at 2300 or more -> 40;
    3. fewer than 30 rated games -> 40;
    4. otherwise -> 20.
    """
    if ever_2400:
        return 10
    if birth_year is not None and list_year - birth_year <= JUNIOR_LAST_AGE and not ever_2300:
        return 40
    if rated_games < NEW_PLAYER_GAMES:
        return 40
    return 20


def apply_700_rule(k: int, n: int) -> int:
    """K after the 700 rule for ``n`` games rated in one period.

    FIDE Rating Regulations 2024 §8.3.3: "If the number of games (n) for a player on any list
    for a rating period multiplied by K ... exceeds 700, then K shall be the largest whole
    number such that K x n does not exceed 700."
    """
    if k < 0 or n < 0:
        raise ValueError("K and the number of games must not be negative")
    if k * n <= K_PRODUCT_LIMIT:
        return k
    return K_PRODUCT_LIMIT // n


# --------------------------------------------------------------------------------------------
# A period's change for a rated player
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedGame:
    """One game to be rated: the player's rating Ro for the event, the opponent's, the score.

    ``own`` and ``opponent`` are the ratings on the list in force when the event started
    (FIDE Rating Regulations 2024 §8.3.1, §5); ``event_start`` selects the rule set.
    """

    own: int
    opponent: int
    score: Decimal
    event_start: date
    tc: TimeControl = "standard"
    event_key: EventKey = ""


@dataclass(frozen=True)
class GameDetail:
    """What one game of a period contributed.

    ``status``: ``rated`` (counted with ``expected``/``delta``/``change``), ``pooled`` (an
    unrated player's result added to the initial-rating pool), ``disregarded`` (zero score in
    the first event, §8.2.1), ``unrated_opponent`` (not rated, §8.3.1) or ``not_rated_600``
    (Rapid & Blitz §7.3.1).
    """

    opponent: int | None
    score: Decimal
    event_start: date
    event_key: EventKey
    status: GameStatus
    own: int | None = None
    rules: str | None = None
    difference: int | None = None
    expected: Decimal | None = None
    delta: Decimal | None = None
    change: Decimal | None = None


@dataclass(frozen=True)
class PeriodChange:
    """The change of one rating period (FIDE Rating Regulations 2024 §8.3.2-§8.3.4)."""

    k: int
    details: tuple[GameDetail, ...]
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    notes: tuple[str, ...]

    @property
    def games(self) -> int:
        return len(self.details)


def period_change(
    games: Sequence[RatedGame], k: int, *, formula: Formula = "table"
) -> PeriodChange:
    """Rate one player's games of one period with K already reduced by the 700 rule.

    FIDE Rating Regulations 2024 §8.3.2: Delta R = S - PD per game; §8.3.3: the change is
    K x Sigma Delta R; §8.3.4: only the period total is rounded, 0.5 away from zero. Every game
    given is rated; filter with :func:`game_is_rated` first.
    """
    if formula not in ("table", "logistic"):
        raise ValueError(f"unknown formula {formula!r}")
    details, score, expected, change_exact, notes = _rate_games(
        [(g.own, g.opponent, g.score, g.event_start, g.tc, g.event_key) for g in games],
        k,
        formula,
    )
    if formula == "logistic":
        notes.append("logistic expectancy used instead of FIDE table 8.1.2")
    return PeriodChange(
        k=k,
        details=tuple(details),
        score=score,
        expected=expected,
        change_exact=change_exact,
        change=round_half_away(change_exact),
        notes=tuple(notes),
    )


def _rate_games(
    games: Iterable[tuple[int, int, Decimal, date, TimeControl, EventKey]],
    k: int,
    formula: Formula,
    *,
    details: bool = True,
    checked: bool = False,
) -> tuple[list[GameDetail], Decimal, Decimal, Decimal, list[str]]:
    """The fold behind :func:`period_change` over ``(own, opponent, score, event_start, tc,
    event_key)``: the details (none without ``details``), the score, the expected score,
    K x Sigma Delta R and the notes of the rule sets used. ``checked``: the scores are known
    to be valid."""
    out: list[GameDetail] = []
    notes: list[str] = []
    score = _ZERO
    expected = _ZERO
    delta_sum = _ZERO
    with localcontext(_CTX):
        for own, opponent, s, event_start, tc, event_key in games:
            if not checked:
                _check_score(s)
            rules, note = _rules_and_note(tc, event_start)
            if note is not None and note not in notes:
                notes.append(note)
            d = capped_difference(own, opponent, rules)
            pd = table_expected(d) if formula == "table" else logistic_expected(d)
            delta = s - pd
            if details:
                out.append(
                    GameDetail(
                        opponent=opponent,
                        score=s,
                        event_start=event_start,
                        event_key=event_key,
                        status="rated",
                        own=own,
                        rules=rules.name,
                        difference=d,
                        expected=pd,
                        delta=delta,
                        change=k * delta,
                    )
                )
            score += s
            expected += pd
            delta_sum += delta
        change_exact = k * delta_sum
    return out, score, expected, change_exact, notes


# --------------------------------------------------------------------------------------------
# Initial rating
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InitialRating:
    """A newcomer's rating from pooled results (FIDE Rating Regulations 2024 §7.1.4, §8.2).

    ``ra``: average of the rated opponents plus two hypothetical 1800s (28 digits);
    ``p``: (W + 1) / (n + 2) rounded half-up to two decimals, the table 8.1.1 index;
    ``ru``: Ra + dp rounded half away from zero and limited to 2200; ``published`` when
    ``n >= 5`` and ``ru >= 1400``.
    """

    n: int
    score: Decimal
    ra: Decimal
    p: Decimal
    dp: int
    ru: int
    published: bool
    capped: bool


def dp_for_percentage(p: Decimal) -> int:
    """dp from table 8.1.1 for a fractional score ``p`` (FIDE Rating Regulations 2024 §8.1.1).

    The index is p x 100 rounded half-up to a whole number.
    """
    index = round_half_away(p * 100)
    if not 0 <= index <= 100:
        raise ValueError(f"fractional score out of range: {p}")
    return DP_BY_PERCENT[index]


def initial_rating(results: Sequence[tuple[int, Decimal]]) -> InitialRating:
    """The initial rating Ru from ``(opponent rating, score)`` pairs against rated opponents.

    FIDE Rating Regulations 2024 §8.2.2: Ra = average rating of the rated opponents plus two
    hypothetical opponents rated 1800, both games drawn; §8.2.3: Ru = Ra + dp, rounded, at most
    2200; §7.1.4: published only when based on at least 5 games and at least 1400. The
    400-point rule does not apply. Rounding of p and of Ru is half-up (as in the Title
    Regulations; the Rating Regulations are silent) and done with exact rationals.
    """
    for _, s in results:
        _check_score(s)
    n = len(results)
    score = sum((s for _, s in results), _ZERO)
    opp_total = sum(r for r, _ in results) + HYPOTHETICAL_GAMES * HYPOTHETICAL_OPPONENT
    denominator = n + HYPOTHETICAL_GAMES
    ra_exact = Fraction(opp_total, denominator)
    p_exact = (Fraction(score) + Fraction(HYPOTHETICAL_GAMES, 2)) / denominator
    index = _round_fraction_half_away(p_exact * 100)
    dp = DP_BY_PERCENT[index]
    ru_unlimited = _round_fraction_half_away(ra_exact + dp)
    ru = min(ru_unlimited, MAX_INITIAL_RATING)
    with localcontext(_CTX):
        ra = Decimal(opp_total) / Decimal(denominator)
    return InitialRating(
        n=n,
        score=score,
        ra=ra,
        p=Decimal(index).scaleb(-2),
        dp=dp,
        ru=ru,
        published=n >= MIN_INITIAL_GAMES and ru >= RATING_FLOOR,
        capped=ru_unlimited > MAX_INITIAL_RATING,
    )


# --------------------------------------------------------------------------------------------
# The period fold
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolGame:
    """An unrated player's pending result against a rated opponent (§7.1.4 pool).

    ``month`` is the first day of the rating period in which the game was reported.
    """

    month: date
    opponent: int
    score: Decimal
    event_key: EventKey
    event_start: date


@dataclass(frozen=True)
class PlayerState:
    """A player's position on one list of one time control, as the fold carries it.

    - ``rating``: the published rating on the list (``None`` = unrated).
    - ``rated_games``: all games rated so far, including those of the initial-rating pool
      (they count towards the 30 games of §8.3.3); kept when the player drops below 1400.
    - ``ever_2400`` / ``ever_2300``: sticky, ever *published* at or above 2400 / 2300.
    - ``pool``: an unrated player's pending results (empty for a rated player).
    - ``k``: the K published with this list, in force for the next period (``None`` when
      unrated; recomputed from the other fields if ``None`` for a rated player).
    - ``has_counted_results``: the player has had results that counted, so the §8.2.1
      "zero score in the first event" rule no longer applies.
    """

    rating: int | None = None
    rated_games: int = 0
    ever_2400: bool = False
    ever_2300: bool = False
    birth_year: int | None = None
    pool: tuple[PoolGame, ...] = ()
    k: int | None = None
    has_counted_results: bool = False


@dataclass(frozen=True)
class PeriodGame:
    """One game of the player in a period, as given to :func:`close_period`.

    ``opponent``: the opponent's rating on the list in force at the event start (``None`` =
    unrated: the game is not rated). ``own_rating``: the player's rating Ro for the event;
    ``None`` uses ``state.rating`` (also §8.2.4: a newly published player is rated with his
    current rating). ``tc``, if given, must equal the period's time control. Forfeits must not
    be passed (§5.1).
    """

    opponent: int | None
    score: Decimal
    event_start: date
    event_key: EventKey = ""
    own_rating: int | None = None
    tc: TimeControl | None = None


@dataclass(frozen=True)
class PeriodOutcome:
    """The result of closing one rating period for one player.

    ``k_in_force`` is the K from the previous list, ``k`` the K used after the 700 rule
    (``None`` without rated games). ``games``/``score`` count the games that were rated (for a
    rated player) or added to the pool (for an unrated player); ``expected``, ``change_exact``
    and ``change`` are zero for an unrated player. ``initial`` is set whenever a first rating
    was computed (published or not). ``next_k`` is the K published on the new list.
    """

    month: date
    list_date: date
    tc: TimeControl
    rating_before: int | None
    rating_after: int | None
    k_in_force: int | None
    k: int | None
    games: int
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    next_k: int | None
    initial: InitialRating | None
    details: tuple[GameDetail, ...]
    notes: tuple[str, ...]
    rated_games_after: int
    pool_size: int

    @property
    def became_rated(self) -> bool:
        return self.rating_before is None and self.rating_after is not None

    @property
    def dropped_to_unrated(self) -> bool:
        return self.rating_before is not None and self.rating_after is None


def _check_month(month: date, what: str = "month") -> None:
    if month.day != 1:
        raise ValueError(f"{what} must be the first day of a month, not {month.isoformat()}")


def k_for_state(state: PlayerState, list_year: int) -> int:
    """K for ``state`` as published on a list of year ``list_year`` (§8.3.3, see k_factor)."""
    return k_factor(
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        ever_2300=state.ever_2300,
        birth_year=state.birth_year,
        list_year=list_year,
    )


def seed_state(
    rating: int | None,
    games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    first_month: date,
) -> PlayerState:
    """A starting state for a player whose history before ``first_month`` is not replayed.

    A seeded rating counts as published: it sets ``ever_2400`` / ``ever_2300`` when it reaches
    2400 / 2300. ``k`` is the K of the list dated ``first_month`` (the list in force during
    that period), computed with that list's year (FIDE Rating Regulations 2024 §8.3.3).
    """
    _check_month(first_month, "first_month")
    if games < 0:
        raise ValueError("the number of rated games must not be negative")
    if rating is not None and rating <= 0:
        raise ValueError("a rating must be positive")
    if rating is not None:
        ever_2400 = ever_2400 or rating >= K_2400
        ever_2300 = ever_2300 or rating >= K_2300 or ever_2400
    state = PlayerState(
        rating=rating,
        rated_games=games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=birth_year,
        has_counted_results=rating is not None or games > 0,
    )
    if rating is None:
        return state
    return replace(state, k=k_for_state(state, first_month.year))


def _with_published(state: PlayerState, rating: int) -> PlayerState:
    """Update the sticky flags from a newly published rating (§8.3.3)."""
    return replace(
        state,
        rating=rating,
        ever_2400=state.ever_2400 or rating >= K_2400,
        ever_2300=state.ever_2300 or rating >= K_2300,
    )


def _add_note(notes: list[str], note: str | None) -> None:
    if note is not None and note not in notes:
        notes.append(note)


def close_period(
    state: PlayerState,
    games: Sequence[PeriodGame],
    *,
    month: date,
    tc: TimeControl,
    formula: Formula = "table",
    details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    """Fold one monthly rating period into a player's state (FIDE Rating Regulations 2024 §7-8).

    ``month`` is the first day of the period; the new list is dated the first day of the next
    month (§7.1). A rated player is rated with the K of the previous list (``state.k``) after
    the 700 rule over all the period's rated games (§8.3.3); the period total is rounded once
    (§8.3.4); below 1400 he becomes unrated (§7.2.1), keeping his game count, with an empty
    pool. An unrated player's results against rated opponents are pooled for at most 26
    monthly periods (§7.1.4); a zero score in his first event is disregarded (§8.2.1); from 5
    pooled games an initial rating is computed (§8.2) and published if at least 1400.

    ``details=False`` leaves the outcome's per-game ``details`` empty (everything else is the
    same), for callers that store only the period's figures.
    """
    _check_month(month)
    _check_tc(tc)
    for g in games:
        _check_score(g.score)
        if g.tc is not None and g.tc != tc:
            raise ValueError(f"a {g.tc} game cannot be rated on the {tc} list")
    if state.rating is not None:
        return _close_rated(state, state.rating, games, month, tc, formula, details)
    return _close_unrated(state, games, month, tc, details)


def close_idle(state: PlayerState, *, month: date) -> PlayerState | None:
    """The new state of a rated player without games in the period, or ``None`` when he is
    not rated (or rated below the floor, which :func:`close_period` handles).

    The same state as ``close_period(state, [], month=month, tc=...)``, whose outcome is then
    empty: no games, no change, no notes, the rating unchanged, ``k`` None and ``next_k`` the
    new state's K. Most players of a federation's list have no games in a given month; this
    spares building their (empty) reports.
    """
    _check_month(month)
    rating = state.rating
    if rating is None or rating < RATING_FLOOR:
        return None
    # _close_rated with n = 0: _with_published(rating), then the K of the new list (§8.3.3)
    ever_2400 = state.ever_2400 or rating >= K_2400
    ever_2300 = state.ever_2300 or rating >= K_2300
    next_k = k_factor(
        rated_games=state.rated_games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=state.birth_year,
        list_year=next_month(month).year,
    )
    return PlayerState(
        rating=rating,
        rated_games=state.rated_games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=state.birth_year,
        pool=(),
        k=next_k,
        has_counted_results=True,
    )


def _close_rated(
    state: PlayerState,
    rating: int,
    games: Sequence[PeriodGame],
    month: date,
    tc: TimeControl,
    formula: Formula,
    with_details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    list_date = next_month(month)
    k_in_force = state.k if state.k is not None else k_for_state(state, month.year)
    notes: list[str] = []
    slots: list[GameDetail | None] = []
    counted: list[tuple[int, int, Decimal, date, TimeControl, EventKey]] = []
    counted_slots: list[int] = []
    unrated_opp = 0
    rule_600 = 0
    for g in games:
        ro = g.own_rating if g.own_rating is not None else rating
        rules = rules_for(tc, g.event_start)
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif not game_is_rated(ro, g.opponent, rules):
            status = "not_rated_600"
            rule_600 += 1
        else:
            counted_slots.append(len(slots))
            slots.append(None)
            counted.append((ro, g.opponent, g.score, g.event_start, tc, g.event_key))
            continue
        if not with_details:
            continue
        slots.append(
            GameDetail(
                opponent=g.opponent,
                score=g.score,
                event_start=g.event_start,
                event_key=g.event_key,
                status=status,
                own=ro,
                rules=rules.name,
            )
        )

    n = len(counted)
    k_used: int | None = None
    score = expected = change_exact = _ZERO
    change = 0
    if n:
        k_used = apply_700_rule(k_in_force, n)
        # period_change(counted, k_used), without building its report
        if formula not in ("table", "logistic"):
            raise ValueError(f"unknown formula {formula!r}")
        rated, score, expected, change_exact, rule_notes = _rate_games(
            counted, k_used, formula, details=with_details, checked=True
        )
        if formula == "logistic":
            rule_notes.append("logistic expectancy used instead of FIDE table 8.1.2")
        change = round_half_away(change_exact)
        if with_details:
            for slot, detail in zip(counted_slots, rated, strict=True):
                slots[slot] = detail
        for note in rule_notes:
            _add_note(notes, note)
        if k_used != k_in_force:
            notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {n} games (§8.3.3)")
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not rated (§8.3.1)")
    if rule_600:
        notes.append(
            f"{rule_600} game(s) not rated: 600 or more points apart with a player above 2600 "
            "(rapid/blitz §7.3.1)"
        )

    new_rating = rating + change
    rated_games = state.rated_games + n
    rating_after: int | None
    next_k: int | None
    if new_rating < RATING_FLOOR:
        rating_after = None
        next_k = None
        new_state = PlayerState(
            rating=None,
            rated_games=rated_games,
            ever_2400=state.ever_2400,
            ever_2300=state.ever_2300,
            birth_year=state.birth_year,
            pool=(),
            k=None,
            has_counted_results=True,
        )
        notes.append(
            f"rating {new_rating} is below {RATING_FLOOR}: shown as unrated on the "
            f"{list_date.isoformat()} list (§7.2.1)"
        )
    else:
        # _with_published(new_rating), then the K of the new list (§8.3.3)
        rating_after = new_rating
        ever_2400 = state.ever_2400 or new_rating >= K_2400
        ever_2300 = state.ever_2300 or new_rating >= K_2300
        next_k = k_factor(
            rated_games=rated_games,
            ever_2400=ever_2400,
            ever_2300=ever_2300,
            birth_year=state.birth_year,
            list_year=list_date.year,
        )
        new_state = PlayerState(
            rating=new_rating,
            rated_games=rated_games,
            ever_2400=ever_2400,
            ever_2300=ever_2300,
            birth_year=state.birth_year,
            pool=(),
            k=next_k,
            has_counted_results=True,
        )

    details = tuple(d for d in slots if d is not None)
    outcome = PeriodOutcome(
        month=month,
        list_date=list_date,
        tc=tc,
        rating_before=rating,
        rating_after=rating_after,
        k_in_force=k_in_force,
        k=k_used,
        games=n,
        score=score,
        expected=expected,
        change_exact=change_exact,
        change=change,
        next_k=next_k,
        initial=None,
        details=details,
        notes=tuple(notes),
        rated_games_after=rated_games,
        pool_size=0,
    )
    return new_state, outcome


def _close_unrated(
    state: PlayerState,
    games: Sequence[PeriodGame],
    month: date,
    tc: TimeControl,
    with_details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    list_date = next_month(month)
    notes: list[str] = []
    now = month_index(month)

    kept = tuple(pg for pg in state.pool if now - month_index(pg.month) < POOL_MONTHS)
    expired = len(state.pool) - len(kept)
    if expired:
        notes.append(f"{expired} pooled result(s) older than {POOL_MONTHS} months dropped (§7.1.4)")

    # Events of this period with results against rated opponents, in order of start date.
    event_order: list[tuple[date, EventKey]] = []
    event_score: dict[tuple[date, EventKey], Decimal] = {}
    for g in games:
        if g.opponent is None:
            continue
        ident = (g.event_start, g.event_key)
        if ident not in event_score:
            event_order.append(ident)
            event_score[ident] = _ZERO
        event_score[ident] += g.score
    event_order.sort(key=lambda ident: ident[0])  # stable: same-day events keep input order

    disregarded: set[tuple[date, EventKey]] = set()
    has_counted = state.has_counted_results or state.rated_games > 0 or bool(state.pool)
    if not has_counted:
        for ident in event_order:
            if event_score[ident] == _ZERO:
                disregarded.add(ident)
                notes.append(
                    f"zero score in the first event (started {ident[0].isoformat()}) "
                    "disregarded (§8.2.1)"
                )
                continue
            has_counted = True
            break

    details: list[GameDetail] = []
    added: list[PoolGame] = []
    unrated_opp = 0
    for g in games:
        _add_note(notes, rules_note(tc, g.event_start) if g.opponent is not None else None)
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif (g.event_start, g.event_key) in disregarded:
            status = "disregarded"
        else:
            status = "pooled"
            added.append(PoolGame(month, g.opponent, g.score, g.event_key, g.event_start))
        if with_details:
            details.append(
                GameDetail(
                    opponent=g.opponent,
                    score=g.score,
                    event_start=g.event_start,
                    event_key=g.event_key,
                    status=status,
                )
            )
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not counted (§7.1.4)")

    pool = kept + tuple(added)
    new_state = replace(state, pool=pool, has_counted_results=has_counted, k=None)
    initial: InitialRating | None = None
    rating_after: int | None = None
    next_k: int | None = None
    if len(pool) >= MIN_INITIAL_GAMES:
        initial = initial_rating([(pg.opponent, pg.score) for pg in pool])
        if initial.published:
            rating_after = initial.ru
            new_state = _with_published(
                replace(new_state, rated_games=state.rated_games + len(pool), pool=()),
                initial.ru,
            )
            next_k = k_for_state(new_state, list_date.year)
            new_state = replace(new_state, k=next_k)
            notes.append(
                f"first rating {initial.ru} from {initial.n} games published on the "
                f"{list_date.isoformat()} list (§8.2)"
            )
        else:
            notes.append(
                f"initial rating {initial.ru} below {RATING_FLOOR}: not published; the results "
                "stay in the pool (§7.1.4)"
            )

    outcome = PeriodOutcome(
        month=month,
        list_date=list_date,
        tc=tc,
        rating_before=None,
        rating_after=rating_after,
        k_in_force=None,
        k=None,
        games=len(added),
        score=sum((pg.score for pg in added), _ZERO),
        expected=_ZERO,
        change_exact=_ZERO,
        change=0,
        next_k=next_k,
        initial=initial,
        details=tuple(details),
        notes=tuple(notes),
        rated_games_after=new_state.rated_games,
        pool_size=len(new_state.pool),
    )
    return new_state, outcome
