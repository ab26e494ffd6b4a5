"""Glicko-1 (Glickman, "The Glicko system") and the Chess.com-like preset."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.ratings.glicko import glicko1
from tracker.ratings.glicko.api import (
    display,
    expected_score,
    idle,
    is_provisional,
    new_player,
    rate_game,
    rate_pair,
    rate_period,
)
from tracker.ratings.glicko.presets import (
    CHESSCOM_C_PER_DAY,
    GlickoState,
    chesscom_preset,
    get_preset,
)

CHESSCOM = get_preset("chesscom")
PAPER_RESULTS = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]


# --------------------------------------------------------------------- the paper


def test_paper_example_rounded() -> None:
    rating, rd = glicko1.update(1500, 200, PAPER_RESULTS)
    assert round(rating) == 1464
    assert round(rd, 1) == 151.4


def test_paper_example_full_precision() -> None:
    rating, rd = glicko1.update(1500, 200, PAPER_RESULTS)
    assert rating == pytest.approx(1464.11, abs=0.01)
    assert rd == pytest.approx(151.40, abs=0.01)


def test_q_and_g_values_from_the_paper() -> None:
    assert abs(glicko1.Q - 0.0057565) < 1e-7
    for rd, g in ((30, 0.9955), (100, 0.9531), (300, 0.7242)):
        assert glicko1.g(rd) == pytest.approx(g, abs=5e-5)


def test_expected_score_example_0376() -> None:
    assert glicko1.expected_game(1400, 80, 1500, 150) == pytest.approx(0.376, abs=5e-4)
    player, opponent = GlickoState(1400, 80, 0.06), GlickoState(1500, 150, 0.06)
    assert expected_score(player, opponent, CHESSCOM) == pytest.approx(0.376, abs=5e-4)


def test_expected_game_uses_both_deviations() -> None:
    # Only the opponent's RD would give 1/(1 + 10**(g(150) * 100 / 400)) = 0.3729.
    only_opponent = glicko1.expected(1400, 1500, 150)
    assert only_opponent == pytest.approx(0.3729, abs=5e-4)
    assert glicko1.expected_game(1400, 80, 1500, 150) > only_opponent


def test_step1_growth_c_63_2_takes_rd_50_to_350_in_30_periods() -> None:
    assert glicko1.grow_rd(50, 63.2, 30) == pytest.approx(350, abs=0.5)
    assert glicko1.grow_rd(50, 63.2, 31) == 350  # capped
    assert glicko1.grow_rd(50, 63.2, 31, rd_max=None) > 350
    assert glicko1.grow_rd(50, 63.2, 0) == 50


def test_update_validation_and_empty_period() -> None:
    assert glicko1.update(1500, 200, []) == (1500, 200)
    with pytest.raises(ValueError, match="score"):
        glicko1.update(1500, 200, [(1400, 30, 2.0)])
    with pytest.raises(ValueError, match="RD"):
        glicko1.update(1500, 0, [(1400, 30, 1.0)])
    with pytest.raises(ValueError, match="negative"):
        glicko1.grow_rd(50, 63.2, -1)


# --------------------------------------------------------------------- chesscom preset


def test_chesscom_defaults() -> None:
    assert CHESSCOM.system == "glicko1"
    assert CHESSCOM.period == "game"
    assert (CHESSCOM.initial_rating, CHESSCOM.initial_rd) == (1200, 350)
    assert (CHESSCOM.rd_min, CHESSCOM.rd_max) == (30, 350)
    assert CHESSCOM.rd_growth_c == CHESSCOM_C_PER_DAY == 8.1
    # c spreads Glickman's calibration (RD 50 -> 350 in 30 two-month periods) over days
    assert math.sqrt((350**2 - 50**2) / (30 * 365.25 / 6)) == pytest.approx(8.1, abs=0.01)
    assert new_player(CHESSCOM) == GlickoState(1200, 350, 0.06)


def test_chesscom_assumptions_are_labelled() -> None:
    text = " ".join(CHESSCOM.assumptions)
    assert "c = 8.1 per day is an assumption" in text
    assert "Chess.com does not publish it" in text
    custom = chesscom_preset(start=800, c=5, rd_min=40, rd_max=300)
    custom_text = " ".join(custom.assumptions)
    assert "c = 5 per day" in custom_text
    assert "Start rating 800" in custom_text
    assert "RD floor 40, maximum 300" in custom_text


def test_chesscom_overrides() -> None:
    custom = chesscom_preset(start=800, c=5, rd_min=40, rd_max=300)
    assert new_player(custom) == GlickoState(800, 300, 0.06)
    assert new_player(custom, 1650).rating == 1650
    replaced = dataclasses.replace(CHESSCOM, initial_rating=1000, rd_growth_c=20.0)
    assert new_player(replaced).rating == 1000
    assert idle(GlickoState(1000, 50, 0.06), replaced, days=1).rd == pytest.approx(
        math.sqrt(50**2 + 20**2)
    )


def test_chesscom_game_is_a_one_game_glicko1_period() -> None:
    player, opponent = GlickoState(1500, 200, 0.06), GlickoState(1400, 30, 0.06)
    rating, rd = glicko1.update(1500, 200, [(1400, 30, 1.0)])
    assert rate_game(player, opponent, 1.0, CHESSCOM) == GlickoState(rating, rd, 0.06)
    assert rate_game(player, opponent, 1.0, CHESSCOM, tau=1.0) == GlickoState(rating, rd, 0.06)


def test_chesscom_new_players_draw_and_decisive_game() -> None:
    a = new_player(CHESSCOM)
    drawn, _ = rate_pair(a, a, 0.5, CHESSCOM)
    assert drawn.rating == pytest.approx(1200)
    winner, loser = rate_pair(a, a, 1.0, CHESSCOM)
    # one game between two unrated (350) players: d^2 = 1/(q^2 g(350)^2 / 4)
    g = glicko1.g(350)
    precision = 1 / 350**2 + glicko1.Q**2 * g**2 / 4
    assert winner.rating == pytest.approx(1200 + glicko1.Q / precision * g / 2)
    assert loser.rating == pytest.approx(1200 - glicko1.Q / precision * g / 2)
    assert winner.rd == pytest.approx(math.sqrt(1 / precision))


def test_chesscom_idle_growth_per_day() -> None:
    grown = idle(GlickoState(1200, 50, 0.06), CHESSCOM, days=30)
    assert grown.rd == pytest.approx(math.sqrt(50**2 + 8.1**2 * 30))
    assert grown.rd == pytest.approx(66.85, abs=0.01)
    assert idle(GlickoState(1200, 300, 0.06), CHESSCOM, days=3650).rd == 350


def test_chesscom_rd_floor_30() -> None:
    player = GlickoState(1200, 30, 0.06)
    free = rate_game(player, player, 1.0, dataclasses.replace(CHESSCOM, rd_min=None))
    assert free.rd < 30
    assert rate_game(player, player, 1.0, CHESSCOM).rd == 30


def test_chesscom_rating_floor_100() -> None:
    player = GlickoState(150, 350, 0.06)
    opponent = GlickoState(100, 30, 0.06)
    free = rate_game(player, opponent, 0.0, dataclasses.replace(CHESSCOM, rating_min=None))
    assert free.rating < 100
    assert rate_game(player, opponent, 0.0, CHESSCOM).rating == 100


def test_chesscom_display_rounds_and_has_no_provisional_marker() -> None:
    assert display(GlickoState(1463.5, 340, 0.06), CHESSCOM) == "1464"
    assert display(GlickoState(1463.49, 340, 0.06), CHESSCOM) == "1463"
    assert not is_provisional(GlickoState(1200, 350, 0.06), CHESSCOM)


def test_chesscom_is_per_game_only() -> None:
    player = new_player(CHESSCOM)
    with pytest.raises(ValueError, match="rate_game"):
        rate_period(player, [(player, 1.0)], CHESSCOM)
    with pytest.raises(ValueError, match="Glicko-2"):
        dataclasses.replace(CHESSCOM, period="month")


# --------------------------------------------------------------------- properties


@given(
    r_i=st.floats(min_value=100, max_value=3500),
    rd_i=st.floats(min_value=30, max_value=350),
    r_j=st.floats(min_value=100, max_value=3500),
    rd_j=st.floats(min_value=30, max_value=350),
)
def test_expected_game_is_symmetric(r_i: float, rd_i: float, r_j: float, rd_j: float) -> None:
    total = glicko1.expected_game(r_i, rd_i, r_j, rd_j) + glicko1.expected_game(
        r_j, rd_j, r_i, rd_i
    )
    assert total == pytest.approx(1.0)


@given(
    rating=st.floats(min_value=100, max_value=3500),
    rd=st.floats(min_value=30, max_value=350),
    results=st.lists(
        st.tuples(
            st.floats(min_value=100, max_value=3500),
            st.floats(min_value=30, max_value=350),
            st.sampled_from([0.0, 0.5, 1.0]),
        ),
        min_size=1,
        max_size=20,
    ),
)
def test_a_period_never_raises_rd_and_wins_only_help(
    rating: float, rd: float, results: list[tuple[float, float, float]]
) -> None:
    new_rating, new_rd = glicko1.update(rating, rd, results)
    assert new_rd <= rd
    better = [(r, d, 1.0) for r, d, _ in results]
    assert glicko1.update(rating, rd, better)[0] >= new_rating
