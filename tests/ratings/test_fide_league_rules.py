"""A league (an event over 90 days, rated month by month) is rated each month with that
month's list, but by the rules in force when the league began (docs/rules.md, "Rules by
date": the rule set follows the event's start): the 2650 exception of 1 October 2025 does
not reach the October games of a league that began in September 2025 (issue 23, point 7a).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from tracker.ratings.fide.month import player_games
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PlayerState
from tracker.ratings.month_games import MonthGame

OCTOBER = date(2025, 10, 1)


def league_game(rules_from: date | None) -> MonthGame:
    """Elite (2700, id 1) beats Club (2100, id 2) on 12 October 2025 in a league (event 7)
    whose October part is rated with the October list."""
    return MonthGame(1, 1, 2, "1-0", date(2025, 10, 12), 7, OCTOBER, None, None, False, False,
                     rules_from=rules_from)  # fmt: skip


def expected(game: MonthGame, pid: int) -> Decimal:
    lists = {OCTOBER: {1: 2700, 2: 2100}}
    mine = player_games([game], lists, OCTOBER)[pid]
    state = PlayerState(rating=lists[OCTOBER][pid], rated_games=500, k=10)
    _, outcome = close_period(state, mine, month=OCTOBER, tc="standard")
    (detail,) = outcome.details
    assert detail.own == lists[OCTOBER][pid]  # the October list
    return outcome.expected


def test_a_league_begun_before_october_2025_keeps_the_400_cap_for_everyone() -> None:
    # 600 points apart, capped at 400: table 8.1.2 gives .92 (not .98 uncapped)
    game = league_game(rules_from=date(2025, 9, 6))
    assert expected(game, 1) == Decimal("0.92")
    assert expected(game, 2) == Decimal("0.08")


def test_a_league_begun_in_october_2025_has_the_2650_exception() -> None:
    game = league_game(rules_from=date(2025, 10, 4))
    assert expected(game, 1) == Decimal("0.98")  # 2700 >= 2650: the full 600
    assert expected(game, 2) == Decimal("0.08")  # his opponent is still capped


def test_a_game_without_a_separate_rules_day_follows_its_list_day() -> None:
    assert expected(league_game(rules_from=None), 1) == Decimal("0.98")
