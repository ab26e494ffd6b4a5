"""FIDE Elo rules as pure functions: expected score, K, the 700 rule, initial ratings and the
monthly rating-period fold.

Everything follows the FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook
B.02), as amended 1 October 2025, and the Rapid & Blitz Rating Regulations of the same date,
except a first rating worked out in a standard rating period from January 2022 to February
2024, which follows the Rating Regulations of 1 January 2022 (§8.2; :data:`INITIAL_2022`).
Article numbers in the docstrings refer to the 2024 texts unless they say otherwise.

Arithmetic is exact: probabilities from table 8.1.2 are :class:`~decimal.Decimal` values with
two decimals, so per-game and per-period changes are exact too. Rounding happens once, on the
period total, half away from zero (§8.3.4); the builtin :func:`round` (half to even) is never
used. The optional logistic formula (for reproducing online calculators, not FIDE) returns a
full-precision ``Decimal``; callers round only when displaying, e.g. with
:func:`quantize_half_away`.

This module imports only the standard library and performs no I/O.

Modules: :mod:`~.tables` (tables 8.1.1 and 8.1.2 as data), :mod:`~.rules` (the rule sets by
date and the regulations' constants), :mod:`~.arithmetic` (exact decimals and rounding),
:mod:`~.game` (one game's expectation and change, K and the 700 rule), :mod:`~.period` (a
rated player's period change), :mod:`~.initial` (a newcomer's first rating), :mod:`~.records`
(what the fold carries), :mod:`~.state` (seeding and publication), :mod:`~.rated` and
:mod:`~.newcomer` (a rated and an unrated player's period), :mod:`~.player` (one player's
period fold), :mod:`~.events` (when an event is rated) and :mod:`~.month` (the whole list's
month fold). Everything public
is importable from this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.ratings.fide.arithmetic import (
        quantize_half_away,
        round_half_away,
    )
    from tracker.ratings.fide.events import (
        FLOOR_FROM,
        LEAGUE_DAYS,
        OPEN_END,
        OPEN_MONTH,
        RATING_FLOOR,
        EventSpan,
        changed_period,
        event_span,
        is_league,
        rated_in,
        rating_from,
        recorded_rating,
    )
    from tracker.ratings.fide.game import (
        apply_700_rule,
        capped_difference,
        expected_score,
        game_change,
        game_is_rated,
        k_factor,
        logistic_expected,
        table_expected,
    )
    from tracker.ratings.fide.initial import (
        InitialRating,
        dp_for_percentage,
        initial_rating,
        performance_rating,
    )
    from tracker.ratings.fide.month import (
        ListLine,
        ListRatings,
        MonthList,
        event_key,
        fold_month,
        player_games,
        rated_from_standard,
    )
    from tracker.ratings.fide.newcomer import (
        first_event_of,
    )
    from tracker.ratings.fide.period import (
        GameDetail,
        PeriodChange,
        RatedGame,
        period_change,
    )
    from tracker.ratings.fide.player import (
        close_period,
    )
    from tracker.ratings.fide.records import (
        FirstEvent,
        PeriodGame,
        PeriodOutcome,
        PlayerState,
        PoolGame,
    )
    from tracker.ratings.fide.rules import (
        HYPOTHETICAL_OPPONENT,
        INITIAL_2022,
        INITIAL_2024,
        MAX_INITIAL_RATING,
        MIN_INITIAL_GAMES,
        POOL_MONTHS,
        RAPID_BLITZ_2024,
        RAPID_BLITZ_2024_12,
        STANDARD_2024,
        STANDARD_2025_10,
        EventKey,
        Formula,
        GameStatus,
        InitialRules,
        InitialSelection,
        RuleSelection,
        RuleSet,
        rules_for,
        rules_note,
        select_initial_rules,
        select_rules,
    )
    from tracker.ratings.fide.state import (
        carries_over,
        close_idle,
        k_for_state,
        publication,
        published,
        seed_publication,
        seed_state,
    )
    from tracker.vocabulary import TimeControl

#: Each public name by the module that holds it: a name is loaded with its module on first
#: use, so ``tracker calc`` does not load the month's fold, nor a reader of the lists the rules.
_HOMES = {
    "arithmetic": ("quantize_half_away", "round_half_away"),
    "events": (
        "FLOOR_FROM",
        "LEAGUE_DAYS",
        "OPEN_END",
        "OPEN_MONTH",
        "RATING_FLOOR",
        "EventSpan",
        "changed_period",
        "event_span",
        "is_league",
        "rated_in",
        "rating_from",
        "recorded_rating",
    ),
    "game": (
        "apply_700_rule",
        "capped_difference",
        "expected_score",
        "game_change",
        "game_is_rated",
        "k_factor",
        "logistic_expected",
        "table_expected",
    ),
    "initial": ("InitialRating", "dp_for_percentage", "initial_rating", "performance_rating"),
    "month": (
        "ListLine",
        "ListRatings",
        "MonthList",
        "event_key",
        "fold_month",
        "player_games",
        "rated_from_standard",
    ),
    "newcomer": ("first_event_of",),
    "period": ("GameDetail", "PeriodChange", "RatedGame", "period_change"),
    "player": ("close_period",),
    "records": ("FirstEvent", "PeriodGame", "PeriodOutcome", "PlayerState", "PoolGame"),
    "rules": (
        "HYPOTHETICAL_OPPONENT",
        "INITIAL_2022",
        "INITIAL_2024",
        "MAX_INITIAL_RATING",
        "MIN_INITIAL_GAMES",
        "POOL_MONTHS",
        "RAPID_BLITZ_2024",
        "RAPID_BLITZ_2024_12",
        "STANDARD_2024",
        "STANDARD_2025_10",
        "EventKey",
        "Formula",
        "GameStatus",
        "InitialRules",
        "InitialSelection",
        "RuleSelection",
        "RuleSet",
        "rules_for",
        "rules_note",
        "select_initial_rules",
        "select_rules",
    ),
    "state": (
        "carries_over",
        "close_idle",
        "k_for_state",
        "publication",
        "published",
        "seed_publication",
        "seed_state",
    ),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> object:
    if name == "TimeControl":
        from tracker.vocabulary import TimeControl

        return TimeControl
    if name in _WHERE:
        value = vars(importlib.import_module(f"{__name__}.{_WHERE[name]}"))[name]
        globals()[name] = value  # found once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FLOOR_FROM",
    "HYPOTHETICAL_OPPONENT",
    "INITIAL_2022",
    "INITIAL_2024",
    "LEAGUE_DAYS",
    "MAX_INITIAL_RATING",
    "MIN_INITIAL_GAMES",
    "OPEN_END",
    "OPEN_MONTH",
    "POOL_MONTHS",
    "RAPID_BLITZ_2024",
    "RAPID_BLITZ_2024_12",
    "RATING_FLOOR",
    "STANDARD_2024",
    "STANDARD_2025_10",
    "EventKey",
    "EventSpan",
    "FirstEvent",
    "Formula",
    "GameDetail",
    "GameStatus",
    "InitialRating",
    "InitialRules",
    "InitialSelection",
    "ListLine",
    "ListRatings",
    "MonthList",
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
    "carries_over",
    "changed_period",
    "close_idle",
    "close_period",
    "dp_for_percentage",
    "event_key",
    "event_span",
    "expected_score",
    "first_event_of",
    "fold_month",
    "game_change",
    "game_is_rated",
    "initial_rating",
    "is_league",
    "k_factor",
    "k_for_state",
    "logistic_expected",
    "performance_rating",
    "period_change",
    "player_games",
    "publication",
    "published",
    "quantize_half_away",
    "rated_from_standard",
    "rated_in",
    "rating_from",
    "recorded_rating",
    "round_half_away",
    "rules_for",
    "rules_note",
    "seed_publication",
    "seed_state",
    "select_initial_rules",
    "select_rules",
    "table_expected",
]
