"""The starting RD of a seeded shadow: the formula, its bounds, and that it is exactly what
Glickman's own updates give for the same number of evenly matched games."""

from __future__ import annotations

import dataclasses
import math

import pytest

from tracker.ratings.glicko import glicko1
from tracker.ratings.glicko.api import new_player, rate_game
from tracker.ratings.glicko.presets import GlickoState, chesscom_preset, get_preset
from tracker.ratings.glicko.seeding import (
    SEED_RD_FLOOR,
    bounded_seed_rd,
    game_information,
    seed_bounds,
    seed_rd,
)

LICHESS = get_preset("lichess")
GLICKMAN = get_preset("glickman")
CHESSCOM = get_preset("chesscom")


def test_one_evenly_matched_game_against_rd_60() -> None:
    # g(60 / 173.7178)^2 / 4 / 173.7178^2: g^2 = 1 / (1 + 3 x 0.345392^2 / pi^2) = 0.965008
    phi = 60 / 173.7178
    g2 = 1 / (1 + 3 * phi * phi / math.pi**2)
    assert g2 == pytest.approx(0.965008, abs=1e-6)
    assert game_information(60) == pytest.approx(g2 / 4 / 173.7178**2, rel=1e-15)
    assert game_information(60) == pytest.approx(7.99434e-6, rel=1e-5)
    # a perfectly known opponent gives the most: 1 / (4 x 173.7178^2)
    assert game_information(1e-9) == pytest.approx(1 / (4 * 173.7178**2), rel=1e-12)
    assert game_information(300) < game_information(60)


@pytest.mark.parametrize(
    ("games", "lichess", "glickman"),
    [
        (0, 500.0, 350.0),  # no games: the new-player RD
        (1, 288.7433, 248.7778),
        (10, 109.1458, 106.5358),
        (22, 74.5614, 73.7132),
        (41, 54.9013, 54.5601),
        (61, 45.0993, 44.9096),
        (62, 45.0, 44.5518),  # Lichess's floor of 45 from 62 games on
        (95, 45.0, 36.0932),
        (100, 45.0, 35.1887),
        (240, 45.0, 30.0),  # Glickman's suggested floor of 30 for a preset without one
    ],
)
def test_seed_rd_by_number_of_games(games: int, lichess: float, glickman: float) -> None:
    assert seed_rd(LICHESS, games, opponent_rd=60) == pytest.approx(lichess, abs=1e-4)
    assert seed_rd(GLICKMAN, games, opponent_rd=60) == pytest.approx(glickman, abs=1e-4)
    # the chesscom preset starts at 350 with a floor of 30, like Glickman's numbers
    assert seed_rd(CHESSCOM, games, opponent_rd=60) == pytest.approx(glickman, abs=1e-4)


def test_the_formula_written_out() -> None:
    """1/RD_N^2 = 1/RD_0^2 + N g(RD_j)^2 / (4 x 173.7178^2), unbounded in between."""
    for games, opponent_rd in ((5, 60.0), (30, 100.0), (50, 30.0)):
        phi = opponent_rd / 173.7178
        g2 = 1 / (1 + 3 * phi * phi / math.pi**2)
        expected = (1 / 500**2 + games * g2 / (4 * 173.7178**2)) ** -0.5
        assert seed_rd(LICHESS, games, opponent_rd=opponent_rd) == pytest.approx(
            max(expected, 45.0), rel=1e-12
        )


def test_it_is_what_glicko2_gives_for_that_many_draws_between_equals() -> None:
    """Glickman 2013 steps 3-4 and 7 with phi* = phi: N draws against an equal opponent of
    RD 60 (E = 1/2 every time, the rating never moves) leave exactly the seed RD."""
    unbounded = dataclasses.replace(LICHESS, name="test", rd_min=None, rd_max=None)
    opponent = GlickoState(1500.0, 60.0, 0.09)
    state = new_player(unbounded)
    for _ in range(40):
        state = rate_game(state, opponent, 0.5, unbounded)
    assert state.rating == pytest.approx(1500.0, abs=1e-9)
    assert state.rd == pytest.approx(seed_rd(unbounded, 40, opponent_rd=60), rel=1e-9)
    assert state.rd == pytest.approx(55.5750, abs=1e-4)


def test_it_is_what_glicko1_gives_for_that_many_draws_between_equals() -> None:
    """Glickman's Glicko-1 step 2, all N games in one period: the same number (q = 1/173.7178)."""
    rating, rd = glicko1.update(1500.0, 350.0, [(1500.0, 60.0, 0.5)] * 70)
    assert rating == 1500.0
    unbounded = chesscom_preset(rd_min=None, rd_max=None)
    assert rd == pytest.approx(seed_rd(unbounded, 70, opponent_rd=60), rel=1e-6)


def test_bounds() -> None:
    assert seed_bounds(LICHESS) == (45.0, 500.0)
    assert seed_bounds(GLICKMAN) == (SEED_RD_FLOOR, 350.0) == (30.0, 350.0)
    assert seed_bounds(chesscom_preset(rd_min=50, rd_max=300)) == (50.0, 300.0)
    # a seed is never less certain than a new account
    assert seed_bounds(chesscom_preset(rd_max=400, initial_rd=350)) == (30.0, 350.0)
    assert bounded_seed_rd(LICHESS, 80) == 80.0
    assert bounded_seed_rd(LICHESS, 20) == 45.0
    assert bounded_seed_rd(LICHESS, 900) == 500.0
    assert bounded_seed_rd(GLICKMAN, 500) == 350.0


def test_more_games_never_mean_more_doubt() -> None:
    previous = math.inf
    for games in range(0, 400, 7):
        rd = seed_rd(LICHESS, games, opponent_rd=60)
        assert rd <= previous
        previous = rd


@pytest.mark.parametrize(
    "call",
    [
        lambda: seed_rd(LICHESS, -1, opponent_rd=60),
        lambda: seed_rd(LICHESS, 10, opponent_rd=0),
        lambda: game_information(math.nan),
        lambda: bounded_seed_rd(LICHESS, -5),
        lambda: bounded_seed_rd(LICHESS, math.inf),
    ],
)
def test_nonsense_is_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_new_player_takes_a_seed_rd() -> None:
    assert new_player(LICHESS, 2318, 45.0) == GlickoState(2318.0, 45.0, 0.09)
    assert new_player(LICHESS, 2318) == GlickoState(2318.0, 500.0, 0.09)
    assert new_player(LICHESS) == GlickoState(1500.0, 500.0, 0.09)
