"""The initial-rating rules by date (FIDE Rating Regulations 2024 §7.1.4, §8.2 from the March
2024 rating period; FIDE Rating Regulations 2022 §8.2 from January 2022 to February 2024):
the same games judged under each rule set, and each switch pinned on both sides (a mutation
of either date, or of the comparison, fails here).

2022 §8.2.2: "Ra is the average rating of the player's rated opponents."; §8.2.3: "If the
player scores 50%, then Ru = Ra. If they score more than 50%, then Ru = Ra + 20 for each half
point scored over 50%. If they score less than 50%, then Ru = Ra + dp. Ru is rounded to the
nearest whole number." No maximum; published from 1000 (the floor the 2024 change raised to
1400). FIDE's online calculator, which still uses this rule, gives 2020 / 2000 / 1928 for
3 / 2.5 / 2 points against five 2000s, where the 2024 rule gives 1993 / 1943 / 1893
(shared/reference/fide-rules.md, V19).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tracker.ratings.fide.initial import initial_rating
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.rules import (
    INITIAL_2022,
    INITIAL_2024,
    InitialRules,
    select_initial_rules,
)

WIN, DRAW, LOSS = Decimal(1), Decimal("0.5"), Decimal(0)


def five_2000s(*scores: Decimal) -> list[tuple[int, Decimal]]:
    return [(2000, s) for s in scores]


@pytest.mark.parametrize(
    ("scores", "old", "new"),
    [
        ((WIN, WIN, WIN, LOSS, LOSS), 2020, 1993),  # 3/5: 2000 + 20 | 1942.86 + 50
        ((WIN, WIN, DRAW, LOSS, LOSS), 2000, 1943),  # 2.5/5: Ru = Ra | 1942.86 + 0
        ((WIN, WIN, LOSS, LOSS, LOSS), 1928, 1893),  # 2/5: p .40, dp -72 | p .43, dp -50
    ],
)
def test_the_same_games_under_each_rule(scores: tuple[Decimal, ...], old: int, new: int) -> None:
    assert initial_rating(five_2000s(*scores), INITIAL_2022).ru == old
    assert initial_rating(five_2000s(*scores), INITIAL_2024).ru == new
    assert initial_rating(five_2000s(*scores)).ru == new  # the default is today's rule


def test_the_2022_rule_counts_20_for_each_half_point_over_50_percent() -> None:
    # the docs' example: Ra = (1600 + 1700 + 1500 + 1800 + 1650) / 5 = 1650; 3 of 5: +20
    games = [(1600, WIN), (1700, DRAW), (1500, WIN), (1800, LOSS), (1650, DRAW)]
    old = initial_rating(games, INITIAL_2022)
    assert (old.ra, old.p, old.dp, old.ru, old.published) == (1650, Decimal("0.60"), 20, 1670, True)
    assert initial_rating(games, INITIAL_2024).ru == 1743  # Ra 1692.86 + dp 50
    # 3.5 of 5: two half points over 50 % (+40); 4 of 5: three (+60); 5 of 5: five (+100)
    assert initial_rating(five_2000s(WIN, WIN, WIN, DRAW, LOSS), INITIAL_2022).ru == 2040
    assert initial_rating(five_2000s(WIN, WIN, WIN, WIN, LOSS), INITIAL_2022).ru == 2060
    # 4 of 6 with odd half points: 50 % is 3, one point over = two half points
    six = [(1900, WIN)] * 4 + [(1900, LOSS)] * 2
    assert initial_rating(six, INITIAL_2022).ru == 1940


def test_below_50_percent_the_2022_rule_uses_dp_at_the_plain_score() -> None:
    # 3 of 7: p = .4286 -> .43 (half-up, as the Title Regulations), dp -50
    games = [(1800, WIN)] * 3 + [(1800, LOSS)] * 4
    old = initial_rating(games, INITIAL_2022)
    assert (old.p, old.dp, old.ru) == (Decimal("0.43"), -50, 1750)


def test_the_2022_rule_has_no_maximum_the_2024_rule_2200() -> None:
    wins = [(2500, WIN)] * 5
    old = initial_rating(wins, INITIAL_2022)
    assert (old.ru, old.capped) == (2600, False)
    new = initial_rating(wins, INITIAL_2024)
    assert (new.ru, new.capped) == (2200, True)


def test_the_2022_rule_publishes_from_1000() -> None:
    # five draws: Ru = Ra; 4999 / 5 = 999.8 -> 1000 is published, 4997 / 5 = 999.4 -> 999 not
    at_1000 = initial_rating([(1000, DRAW)] * 4 + [(999, DRAW)], INITIAL_2022)
    assert (at_1000.ru, at_1000.published) == (1000, True)
    at_999 = initial_rating([(1000, DRAW)] * 3 + [(999, DRAW), (998, DRAW)], INITIAL_2022)
    assert (at_999.ru, at_999.published) == (999, False)
    # the same games under the 2024 rule: (4999 + 3600) / 7 = 1228.43 -> 1228, below 1400
    new = initial_rating([(1000, DRAW)] * 4 + [(999, DRAW)], INITIAL_2024)
    assert (new.ru, new.published) == (1228, False)
    # and five games still needed: four draws with 1500s give 1500, not published
    assert not initial_rating([(1500, DRAW)] * 4, INITIAL_2022).published


def test_the_2022_rule_needs_a_game() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        initial_rating([], INITIAL_2022)


@pytest.mark.parametrize(
    ("month", "rules", "noted"),
    [
        (date(2021, 12, 1), INITIAL_2024, "tracker has no text of the rules then in force"),
        (date(2022, 1, 1), INITIAL_2022, "FIDE Rating Regulations 2022"),
        (date(2023, 6, 1), INITIAL_2022, "FIDE Rating Regulations 2022"),
        (date(2024, 2, 1), INITIAL_2022, "FIDE Rating Regulations 2022"),
        (date(2024, 2, 29), INITIAL_2022, "FIDE Rating Regulations 2022"),  # any day of it
        (date(2024, 3, 1), INITIAL_2024, None),
        (date(2026, 11, 1), INITIAL_2024, None),
    ],
)
def test_the_rating_period_picks_the_rules(
    month: date, rules: InitialRules, noted: str | None
) -> None:
    selection = select_initial_rules("standard", month)
    assert selection.rules is rules
    if noted is None:
        assert selection.note is None
    else:
        assert selection.note is not None and noted in selection.note


def test_rapid_and_blitz_keep_the_2024_rule_with_a_note_before_march_2024() -> None:
    for tc in ("rapid", "blitz"):
        before = select_initial_rules(tc, date(2023, 6, 1))
        assert before.rules is INITIAL_2024
        assert before.note == (
            "initial-rating rules of 2024-03-01 applied to the rating period 2023-06: tracker "
            "has no text of the rules then in force"
        )
        assert select_initial_rules(tc, date(2024, 3, 1)).note is None


def newcomer_period(month: date, scores: tuple[Decimal, ...]) -> tuple[int | None, tuple[str, ...]]:
    games = [PeriodGame(2000, s, month.replace(day=10), "open") for s in scores]
    _, out = close_period(PlayerState(), games, month=month, tc="standard")
    return out.rating_after, out.notes


@pytest.mark.parametrize(
    ("month", "rating"),
    [
        (date(2021, 12, 1), 1993),  # no text found: today's rule, with a note
        (date(2022, 1, 1), 2020),
        (date(2024, 2, 1), 2020),
        (date(2024, 3, 1), 1993),
    ],
)
def test_a_newcomer_is_rated_by_the_rules_of_the_period(month: date, rating: int) -> None:
    got, notes = newcomer_period(month, (WIN, WIN, WIN, LOSS, LOSS))
    assert got == rating
    rule_notes = [n for n in notes if "rules" in n]
    assert len(rule_notes) == (0 if month >= date(2024, 3, 1) else 1)


def test_a_first_rating_between_1000_and_1400_is_published_under_the_2022_rule() -> None:
    """Five draws with 1200s: Ru = Ra = 1200 on the 1 July 2023 list; in the March 2024 period
    the same games give (6000 + 3600) / 7 = 1371.43 -> 1371: below 1400, not published."""

    def five_draws(month: date) -> PeriodOutcome:
        games = [PeriodGame(1200, DRAW, month.replace(day=10), "open")] * 5
        return close_period(PlayerState(), games, month=month, tc="standard")[1]

    old = five_draws(date(2023, 6, 1))
    assert (old.rating_after, old.list_date) == (1200, date(2023, 7, 1))
    new = five_draws(date(2024, 3, 1))
    assert new.rating_after is None
    assert "initial rating 1371 below 1400: not published" in new.notes[-1]


def test_a_pool_straddling_the_switch_is_judged_whole_by_the_later_period() -> None:
    """Three results pooled in February 2024 (under 5: no rating yet), two more in March 2024:
    all five are judged by the 2024 rule (1993), none by the 2022 rule (2020)."""
    feb, mar = date(2024, 2, 1), date(2024, 3, 1)
    state, out = close_period(
        PlayerState(),
        [PeriodGame(2000, s, date(2024, 2, 10), "a") for s in (WIN, WIN, WIN)],
        month=feb,
        tc="standard",
    )
    assert out.rating_after is None and out.initial is None
    state, out = close_period(
        state, [PeriodGame(2000, LOSS, date(2024, 3, 10), "b")] * 2, month=mar, tc="standard"
    )
    assert out.rating_after == 1993
    assert out.initial is not None and out.initial.rules is INITIAL_2024
