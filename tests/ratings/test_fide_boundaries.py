"""The rules' boundaries, each pinned on both sides (a mutation of any of them fails here).

- §7.1.4 / §8.2.3: an initial rating is published when it is at least 1400: exactly 1400 is;
- §7.1.2 / §7.2.1: from the 1 March 2024 list no rating below 1400 exists, so a 1300 recorded
  for an opponent counts in the February 2024 period and not in the March 2024 one;
- an event of 90 days (both ends played) is rated whole in the month it ends, one of 91 days is
  a league rated month by month (tracker's line; see docs/rules.md).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from tracker.ratings.fide.events import is_league, rated_in, recorded_rating
from tracker.ratings.fide.initial import initial_rating
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PlayerState

DRAW = Decimal("0.5")


def test_an_initial_rating_of_exactly_1400_is_published() -> None:
    # five draws: p = 50 %, dp 0, Ru = Ra = (5 x R + 2 x 1800) / 7
    exactly = initial_rating([(1240, DRAW)] * 5)
    assert (exactly.ru, exactly.published) == (1400, True)
    below = initial_rating([(1239, DRAW)] * 5)
    assert (below.ru, below.published) == (1399, False)


def test_the_floor_starts_with_the_march_2024_period() -> None:
    assert recorded_rating(1300, date(2024, 2, 1)) == 1300
    assert recorded_rating(1300, date(2024, 3, 1)) is None
    assert recorded_rating(1400, date(2024, 3, 1)) == 1400
    assert recorded_rating(1399, date(2024, 3, 1)) is None


def test_ninety_days_is_one_event_ninety_one_a_league() -> None:
    start = date(2026, 1, 10)
    ninety = start + timedelta(days=89)  # 10 January to 9 April: 90 days played
    assert not is_league(start, ninety)
    assert rated_in(start, ninety, date(2026, 2, 1)) == date(2026, 4, 1)  # rated whole
    ninety_one = start + timedelta(days=90)
    assert is_league(start, ninety_one)
    assert rated_in(start, ninety_one, date(2026, 2, 1)) == date(2026, 2, 1)  # by its months


def test_a_rated_players_floor_is_1000_until_the_march_2024_period() -> None:
    """Before 1 March 2024 the floor was 1000 (FIDE's notice of the change: "the new rating
    floor will be set at 1400"); from the March 2024 period a rating below 1400 is unrated."""

    def after(rating: int, month: date) -> int | None:
        state = PlayerState(rating=rating, rated_games=50, k=20, first_event_settled=True)
        return close_period(state, [], month=month, tc="standard")[0].rating

    assert after(1200, date(2024, 2, 1)) == 1200  # on the 1 March 2024 list
    assert after(1000, date(2024, 2, 1)) == 1000
    loser = PlayerState(rating=1005, rated_games=50, k=20, first_event_settled=True)
    lost = [PeriodGame(opponent=1100, score=Decimal(0), event_start=date(2024, 2, 3))]
    state, outcome = close_period(loser, lost, month=date(2024, 2, 1), tc="standard")
    assert (outcome.change, state.rating) == (-7, None)  # 998: below 1000
    assert after(1200, date(2024, 3, 1)) is None  # below 1400 on the 1 April 2024 list
    assert after(1400, date(2024, 3, 1)) == 1400
    assert after(1200, date(2021, 11, 1)) == 1200  # before 2022 too
    for tc in ("rapid", "blitz"):  # in every time control
        state = PlayerState(rating=1200, rated_games=50, k=20, first_event_settled=True)
        assert close_period(state, [], month=date(2023, 5, 1), tc=tc)[0].rating == 1200
