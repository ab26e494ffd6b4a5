"""close_idle: the shortcut for a rated player without games gives what close_period gives."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PlayerState
from tracker.ratings.fide.state import close_idle

STATES = st.builds(
    PlayerState,
    rating=st.one_of(st.none(), st.integers(min_value=1000, max_value=2900)),
    rated_games=st.integers(min_value=0, max_value=400),
    ever_2400=st.booleans(),
    ever_2300=st.booleans(),
    birth_year=st.one_of(st.none(), st.integers(min_value=1940, max_value=2020)),
    k=st.one_of(st.none(), st.sampled_from([10, 20, 40])),
    first_event_settled=st.booleans(),
    pool=st.just(()),  # nothing pending (builds() draws a named tuple's defaults)
)
MONTHS = st.builds(
    date,
    st.integers(min_value=2023, max_value=2030),
    st.integers(min_value=1, max_value=12),
    st.just(1),
)


@given(state=STATES, month=MONTHS, tc=st.sampled_from(["standard", "rapid", "blitz"]))
def test_close_idle_is_close_period_without_games(state: PlayerState, month: date, tc: str) -> None:
    idle = close_idle(state, list_year=month.year + (month.month == 12))
    if state.rating is None or state.rating < 1400:
        assert idle is None  # close_period rates these (or drops them below the floor)
        return
    new_state, outcome = close_period(state, [], month=month, tc=tc)  # type: ignore[arg-type]
    assert idle == new_state
    assert outcome.rating_before == outcome.rating_after == state.rating
    assert outcome.k is None and outcome.next_k == idle.k
    assert (outcome.games, outcome.change, outcome.notes, outcome.details) == (0, 0, (), ())
    assert outcome.score == outcome.expected == outcome.change_exact == Decimal(0)
    assert outcome.rated_games_after == idle.rated_games and outcome.pool_size == 0


GAMES = st.lists(
    st.builds(
        PeriodGame,
        opponent=st.one_of(st.none(), st.integers(min_value=1000, max_value=2900)),
        score=st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
        event_start=st.sampled_from([date(2024, 1, 6), date(2025, 10, 4), date(2026, 3, 7)]),
        event_key=st.sampled_from(["a", "b", 7]),
        own_rating=st.one_of(st.none(), st.integers(min_value=1000, max_value=2900)),
        tc=st.none(),  # games of the period's own list (builds() draws a named tuple's defaults)
    ),
    max_size=40,
)


@given(state=STATES, games=GAMES, month=MONTHS, tc=st.sampled_from(["standard", "rapid", "blitz"]))
def test_close_period_without_details_differs_only_in_the_details(
    state: PlayerState, games: list[PeriodGame], month: date, tc: str
) -> None:
    full = close_period(state, games, month=month, tc=tc)  # type: ignore[arg-type]
    bare = close_period(state, games, month=month, tc=tc, details=False)  # type: ignore[arg-type]
    assert bare[0] == full[0]
    assert bare[1] == full[1]._replace(details=())
