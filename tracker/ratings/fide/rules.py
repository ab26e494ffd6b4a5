"""The rule sets (what changed when), the regulations' constants, and the types they share.

FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02), as amended
1 October 2025, and the Rapid & Blitz Rating Regulations of the same date.
"""

from datetime import date
from functools import lru_cache
from typing import Final, Literal, NamedTuple

from tracker.ratings.fide.events import RATING_FLOOR
from tracker.vocabulary import TIME_CONTROLS, TimeControl

Formula = Literal["table", "logistic"]
"""``table``: FIDE table 8.1.2 (the regulations). ``logistic``: 1/(1+10^(-D/400)) (calculators)."""

EventKey = str | int
"""Identifies an event within a player's results (used by the §8.2.1 first-event rule)."""

GameStatus = Literal["rated", "pooled", "held", "disregarded", "unrated_opponent", "not_rated_600"]
"""What happened to one game of a period (see :class:`GameDetail`)."""

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


class RuleSet(NamedTuple):
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
    article: str = "FIDE Rating Regulations 2024 §8.3.1"


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
    article="FIDE Rapid & Blitz Rating Regulations 2024 §7.3.1",
)
RAPID_BLITZ_2024_12: Final = RuleSet(
    name="rapid/blitz, 2024-12-01",
    effective_from=date(2024, 12, 1),
    rb_600_rule=True,
    article="FIDE Rapid & Blitz Rating Regulations 2024 §7.3.1 (600/2600 rule from 2024-12-01)",
)

_RULE_SETS: Final[dict[str, tuple[RuleSet, ...]]] = {
    "standard": (STANDARD_2024, STANDARD_2025_10),
    "rapid": (RAPID_BLITZ_2024, RAPID_BLITZ_2024_12),
    "blitz": (RAPID_BLITZ_2024, RAPID_BLITZ_2024_12),
}


class RuleSelection(NamedTuple):
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


def check_tc_name(tc: str) -> None:
    if tc not in TIME_CONTROLS:
        raise ValueError(f"unknown time control {tc!r}; expected one of {TIME_CONTROLS}")


@lru_cache(maxsize=4096)
def select_rules(tc: TimeControl, event_start: date) -> RuleSelection:
    """Choose the rule set by the date the event started (once per time control and day: a
    selection is frozen).

    FIDE rates an event with the rules and the list in force when it starts (FIDE Rating
    Regulations 2024 §8.3.1 "Effective from 1 October 2025"; Rapid & Blitz §7.3.1 "Effective
    from 1 December 2024"). Dates before 1 March 2024 fall back to the 2024 rules.
    """
    check_tc_name(tc)
    candidates = _RULE_SETS[tc]
    chosen = candidates[0]
    for rules in candidates:
        if rules.effective_from <= event_start:
            chosen = rules
    return RuleSelection(rules=chosen, tc=tc, event_start=event_start)


@lru_cache(maxsize=4096)
def rules_and_note(tc: TimeControl, event_start: date) -> tuple[RuleSet, str | None]:
    selection = select_rules(tc, event_start)
    return selection.rules, selection.note


def rules_for(tc: TimeControl, event_start: date) -> RuleSet:
    """The :class:`RuleSet` for an event of time control ``tc`` starting on ``event_start``."""
    return select_rules(tc, event_start).rules


def rules_note(tc: TimeControl, event_start: date) -> str | None:
    """A note such as "rules of 2024-03-01 applied to an event starting 2023-05-10, before
    that date", or ``None`` when the event is within the rules' validity."""
    return select_rules(tc, event_start).note


InitialMethod = Literal["hypothetical_draws", "twenty_per_half_point"]
"""How Ru follows from Ra and the score (see :class:`InitialRules`)."""


class InitialRules(NamedTuple):
    """The rules for a newcomer's first rating in force for a rating period.

    ``method``:

    - ``hypothetical_draws`` (FIDE Rating Regulations 2024 §8.2.2-§8.2.3): Ra averages the
      rated opponents and ``hypothetical_games`` opponents rated ``hypothetical_opponent``,
      all drawn; Ru = Ra + dp (table 8.1.1) at the fractional score over all those games;
    - ``twenty_per_half_point`` (FIDE Rating Regulations 2022 §8.2.2-§8.2.3): Ra averages the
      rated opponents only; "If the player scores 50%, then Ru = Ra. If they score more than
      50%, then Ru = Ra + 20 for each half point scored over 50%. If they score less than
      50%, then Ru = Ra + dp".

    Ru is at most ``max_rating`` (None: no maximum) and is published when based on at least
    ``min_games`` games against rated opponents, pooled over ``pool_months``, and at least
    ``floor`` (§7.1.4 of each text). ``effective_from`` is the first rating period (a month)
    judged by these rules (:func:`select_initial_rules`).
    """

    name: str
    effective_from: date
    method: InitialMethod
    floor: int
    max_rating: int | None
    hypothetical_games: int = 0
    hypothetical_opponent: int = 0
    min_games: int = MIN_INITIAL_GAMES
    pool_months: int = POOL_MONTHS
    article: str = ""


INITIAL_2022: Final = InitialRules(
    name="initial rating, 2022-01-01",
    effective_from=date(2022, 1, 1),
    method="twenty_per_half_point",
    floor=1000,
    max_rating=None,
    article="FIDE Rating Regulations 2022 §8.2.2-§8.2.3 (Ra + 20 a half point over 50%)",
)
"""FIDE Rating Regulations effective from 1 January 2022 till 29 February 2024
(https://handbook.fide.com/chapter/B022022) §8.2.2-§8.2.3, no maximum; the floor of 1000 is
the one the 1 March 2024 change raised to 1400; 5 games and 26 months as in the 2024 text
(the 2022 §7.1.4 wording was not found: see docs/rules.md)."""

INITIAL_2024: Final = InitialRules(
    name="initial rating, 2024-03-01",
    effective_from=date(2024, 3, 1),
    method="hypothetical_draws",
    floor=RATING_FLOOR,
    max_rating=MAX_INITIAL_RATING,
    hypothetical_games=HYPOTHETICAL_GAMES,
    hypothetical_opponent=HYPOTHETICAL_OPPONENT,
    article="FIDE Rating Regulations 2024 §8.2.2-§8.2.3 (two hypothetical 1800s drawn)",
)
"""FIDE Rating Regulations effective from 1 March 2024 §7.1.4, §8.2.2-§8.2.3."""

_INITIAL_RULES: Final[dict[str, tuple[InitialRules, ...]]] = {
    "standard": (INITIAL_2022, INITIAL_2024),
    "rapid": (INITIAL_2024,),
    "blitz": (INITIAL_2024,),
}


class InitialSelection(NamedTuple):
    """The initial-rating rules chosen for a rating period, and a note when the period
    predates every rule set tracker has the text of (the 2024 rules are then applied)."""

    rules: InitialRules
    tc: TimeControl
    month: date

    @property
    def note(self) -> str | None:
        """None under the current rules; else what was applied, and why."""
        period = self.month.strftime("%Y-%m")
        if self.month < self.rules.effective_from:
            return (
                f"initial-rating rules of {self.rules.effective_from.isoformat()} applied to the "
                f"rating period {period}: tracker has no text of the rules then in force"
            )
        if self.rules is _INITIAL_RULES[self.tc][-1]:
            return None
        return f"the rules in force for the period {period}: {self.rules.article}"


@lru_cache(maxsize=1024)
def select_initial_rules(tc: TimeControl, month: date) -> InitialSelection:
    """The initial-rating rules for a first rating worked out in the rating period ``month``.

    A first rating is one calculation over the pooled results of several events (§7.1.4:
    "Results from other tournaments ... are pooled"; §8.2.1: "their rating is calculated
    using all their results"), done when a list is prepared (§7.1: "On the first day of each
    month, FIDE shall prepare a list which incorporates all rated play during the rating
    period"). So the rules are those in force for the rating period that publishes it, not
    per event: from the March 2024 period (the 1 April 2024 list) the 2024 rules, from the
    January 2022 period to the February 2024 one (the 1 March 2024 list, computed before that
    day's one-time adjustment) the 2022 rules; the same line as the floor
    (:data:`tracker.ratings.fide.events.FLOOR_FROM`). Standard only: for rapid and blitz, and
    for periods before January 2022, no earlier text was found and the 2024 rules apply, with
    a note.
    """
    check_tc_name(tc)
    candidates = _INITIAL_RULES[tc]
    period = month.replace(day=1)
    chosen = candidates[-1]
    if period >= candidates[0].effective_from:
        for rules in candidates:
            if rules.effective_from <= period:
                chosen = rules
    return InitialSelection(rules=chosen, tc=tc, month=period)
