"""Glicko-2 adapter: reference numbers, the package defect, presets, bounds and properties.

Reference numbers: tests/ratings/data/worked-examples.md (Glicko-2: Glickman's "Example of the
Glicko-2 system", Lichess's calculator tests and constants, the glicko2 2.1.0 package's defect
against Glickman's step 5); the package-versus-Glickman tables were measured with a direct
implementation of Glickman's steps.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import glicko2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.ratings.glicko.api import (
    GameRater,
    display,
    expected_score,
    idle,
    is_provisional,
    new_player,
    rate_game,
    rate_pair,
    rate_period,
)
from tracker.ratings.glicko.engine import MAX_ITERATIONS
from tracker.ratings.glicko.engine import CorrectedPlayer as _CorrectedPlayer
from tracker.ratings.glicko.presets import (
    PRESETS,
    GlickoPreset,
    GlickoState,
    get_preset,
)
from tracker.vocabulary import DEFAULT_PRESET

LICHESS = get_preset("lichess")
GLICKMAN = get_preset("glickman")
CHESSCOM = get_preset("chesscom")


# The test oracle: the raw package, defect included (not part of tracker's API).
def package_rate_period_unpatched(
    player: GlickoState,
    results: Sequence[tuple[GlickoState, float]],
    *,
    tau: float = 0.5,
) -> GlickoState:
    """One rating period through the raw ``glicko2`` 2.1.0 package, defect included.

    For tests that pin the package's step 5 defect (mu^2 in ``_f``); never use it for
    ratings. No bounds, step 6 with one elapsed period, and, like the package, an empty
    ``results`` raises ZeroDivisionError. tau is set on the instance only.
    """
    engine = glicko2.Player(player.rating, player.rd, player.volatility)
    engine._tau = tau
    engine.update_player(
        [opponent.rating for opponent, _ in results],
        [opponent.rd for opponent, _ in results],
        [score for _, score in results],
    )
    return GlickoState(float(engine.rating), float(engine.rd), float(engine.vol))


PAPER_PLAYER = GlickoState(1500, 200, 0.06)
PAPER_RESULTS = [
    (GlickoState(1400, 30, 0.06), 1.0),
    (GlickoState(1550, 100, 0.06), 0.0),
    (GlickoState(1700, 300, 0.06), 0.0),
]


# --------------------------------------------------------------------- Glickman's paper


def test_glickman_2013_example() -> None:
    new = rate_period(PAPER_PLAYER, PAPER_RESULTS, GLICKMAN)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glickman_2013_example_full_precision_uses_phi_in_step5() -> None:
    # At rating 1500 mu = 0, so the package's mu^2 turns phi^2 = 1.3255 into 0 and its
    # sigma' is 0.0599934; Glickman's formula gives 0.0599960.
    new = rate_period(PAPER_PLAYER, PAPER_RESULTS, GLICKMAN)
    assert new.rating == pytest.approx(1464.0507, abs=1e-4)
    assert new.rd == pytest.approx(151.5165, abs=1e-4)
    assert new.volatility == pytest.approx(0.0599960, abs=5e-7)
    raw = package_rate_period_unpatched(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert raw.volatility == pytest.approx(0.0599934, abs=5e-7)


def test_expected_scores_match_paper_table() -> None:
    expected = [0.639, 0.432, 0.303]
    for (opponent, _), e in zip(PAPER_RESULTS, expected, strict=True):
        assert expected_score(PAPER_PLAYER, opponent, GLICKMAN) == pytest.approx(e, abs=5e-4)


def test_expected_score_uses_only_opponent_deviation() -> None:
    opponent = GlickoState(1700, 300, 0.06)
    narrow = expected_score(GlickoState(1500, 30, 0.06), opponent, LICHESS)
    wide = expected_score(GlickoState(1500, 500, 0.06), opponent, LICHESS)
    assert narrow == wide
    less_known = expected_score(PAPER_PLAYER, GlickoState(1700, 30, 0.06), LICHESS)
    assert less_known < narrow  # a sharper opponent rating means a clearer favourite


def test_extreme_period_converges_to_genuine_glicko2_answer() -> None:
    # 50 losses to players 600 lower, tau 0.5 -> sigma' 3.68, r' -3250 (Glickman's steps by hand).
    results = [(GlickoState(1400, 50, 0.06), 0.0)] * 50
    new = rate_period(GlickoState(2000, 50, 0.06), results, GLICKMAN)
    assert new.volatility == pytest.approx(3.68, abs=0.005)
    assert new.rating == pytest.approx(-3250, abs=1)


# --------------------------------------------------------------------- the package defect


def test_package_defect_30_losses_correct_versus_unpatched() -> None:
    player = GlickoState(2400, 50, 0.06)
    results = [(GlickoState(1800, 50, 0.06), 0.0)] * 30
    correct = rate_period(player, results, GLICKMAN)
    assert correct.rating == pytest.approx(1989.3, abs=0.05)
    assert correct.rd == pytest.approx(49.87, abs=0.005)
    assert correct.volatility == pytest.approx(0.07889, abs=5e-6)
    raw = package_rate_period_unpatched(player, results, tau=0.5)
    assert raw.rating == pytest.approx(2000.5, abs=0.05)
    assert raw.rd == pytest.approx(49.19, abs=0.005)
    assert raw.volatility == pytest.approx(0.06002, abs=5e-6)


# 20 losses to opponents 600 points lower, all RD 50, sigma 0.06, tau 0.5 (the package measured).
SURPRISE_TABLE = [
    # r, package sigma', package r', package RD'
    (900, 0.06007, 627.1, 49.80),
    (1200, 0.06064, 926.9, 49.81),
    (1500, 0.06629, 1224.7, 50.01),
    (1800, 0.06064, 1526.9, 49.81),
    (2200, 0.06004, 1927.1, 49.79),
    (2800, 0.06000, 2527.1, 49.79),
]


@pytest.mark.parametrize(("rating", "raw_sigma", "raw_rating", "raw_rd"), SURPRISE_TABLE)
def test_surprising_period_table(
    rating: float, raw_sigma: float, raw_rating: float, raw_rd: float
) -> None:
    player = GlickoState(rating, 50, 0.06)
    results = [(GlickoState(rating - 600, 50, 0.06), 0.0)] * 20
    correct = rate_period(player, results, GLICKMAN)
    assert correct.volatility == pytest.approx(0.06555, abs=5e-6)
    assert correct.rating == pytest.approx(rating - 275.0, abs=0.05)
    assert correct.rd == pytest.approx(49.98, abs=0.005)
    raw = package_rate_period_unpatched(player, results, tau=0.5)
    assert raw.volatility == pytest.approx(raw_sigma, abs=5e-6)
    assert raw.rating == pytest.approx(raw_rating, abs=0.05)
    assert raw.rd == pytest.approx(raw_rd, abs=0.005)


def test_unpatched_package_raises_on_empty_period_but_adapter_does_not() -> None:
    with pytest.raises(ZeroDivisionError):
        package_rate_period_unpatched(PAPER_PLAYER, [], tau=0.5)
    assert rate_period(PAPER_PLAYER, [], GLICKMAN).rd > PAPER_PLAYER.rd


def test_tau_is_per_call_and_never_leaks_into_the_package_class() -> None:
    player = GlickoState(2400, 50, 0.06)
    results = [(GlickoState(1800, 50, 0.06), 0.0)] * 30
    before = rate_period(player, results, GLICKMAN)
    high = rate_period(player, results, GLICKMAN, tau=1.2)
    assert glicko2.Player._tau == 0.5
    low = rate_period(player, results, GLICKMAN, tau=0.2)
    assert glicko2.Player._tau == 0.5
    package_rate_period_unpatched(player, results, tau=1.2)
    assert glicko2.Player._tau == 0.5
    assert high.volatility > before.volatility > low.volatility
    assert rate_period(player, results, GLICKMAN) == before


class _ExactRootPlayer(_CorrectedPlayer):
    """f(x) = (a - 0.25) - x: the first secant step lands exactly on the root (f_C == 0)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        return (a - 0.25) - x


def test_illinois_uses_the_2022_less_or_equal_revision() -> None:
    # vol = e^-3 makes a = ln(vol^2) exactly -6, so every step below is exact. With "< 0"
    # (the 2013 text) f_C == 0 would halve f_A for ever; we would stop at the cap with
    # sigma = e^-3 instead of the root e^(-6.25/2).
    engine = _ExactRootPlayer(
        GlickoState(1500, 200, math.exp(-3.0)), tau=1.0, elapsed_periods=1, volatility_max=None
    )
    sigma = engine._newVol([0.0], [0.0], [0.5], 1.0)
    assert sigma == pytest.approx(math.exp(-6.25 / 2), rel=1e-12)
    assert engine.iterations == 2


# --------------------------------------------------------------------- Lichess preset


def test_lichess_one_game_between_new_players() -> None:
    newcomer = new_player(LICHESS)
    assert newcomer == GlickoState(1500, 500, 0.09)
    winner, loser = rate_pair(newcomer, newcomer, 1.0, LICHESS)
    assert winner.rating == pytest.approx(1741.48, abs=0.005)
    assert winner.rd == pytest.approx(396.69, abs=0.005)
    assert winner.volatility == pytest.approx(0.0899983, abs=5e-8)
    assert loser.rating == pytest.approx(1258.52, abs=0.005)
    assert loser.rd == pytest.approx(396.69, abs=0.005)
    assert loser.volatility == pytest.approx(0.0899983, abs=5e-8)


def test_lichess_tau_075_with_glickman_start() -> None:
    player = GlickoState(1500, 350, 0.06)
    new = rate_game(player, player, 1.0, LICHESS)
    assert new.rating == pytest.approx(1662.21, abs=0.005)
    assert new.rd == pytest.approx(290.23, abs=0.005)
    assert new.volatility == pytest.approx(0.0599993, abs=5e-8)


def test_lichess_game_adds_no_step6_growth() -> None:
    # With one elapsed period (the paper) the RD would be sqrt(phi^2 + sigma'^2) first.
    player = GlickoState(1500, 350, 0.06)
    per_game = rate_game(player, player, 0.5, LICHESS)
    as_period = rate_period(player, [(player, 0.5)], GLICKMAN, tau=0.75)
    assert per_game.rd < as_period.rd


def test_lichess_idle_growth_60_to_110_in_a_year() -> None:
    grown = idle(GlickoState(1800, 60, 0.06), LICHESS, days=365)
    assert grown.rd == pytest.approx(110.0, abs=0.01)
    assert grown.rating == 1800
    assert grown.volatility == 0.06


def test_lichess_idle_zero_days_changes_nothing() -> None:
    state = GlickoState(1800, 60, 0.06)
    assert idle(state, LICHESS) == state


def test_lichess_display_and_provisional() -> None:
    winner, _ = rate_pair(new_player(LICHESS), new_player(LICHESS), 1.0, LICHESS)
    assert display(winner, LICHESS) == "1741?"
    assert is_provisional(winner, LICHESS)
    settled = GlickoState(1741.99, 109.99, 0.06)
    assert display(settled, LICHESS) == "1741"  # truncated, not rounded
    assert not is_provisional(settled, LICHESS)
    assert is_provisional(GlickoState(1741.99, 110.0, 0.06), LICHESS)  # ">= 110"


# --------------------------------------------------------------------- Lichess bounds


def test_rd_floor_45() -> None:
    player = GlickoState(1500, 45, 0.06)
    assert rate_game(player, player, 1.0, dataclasses.replace(LICHESS, rd_min=None)).rd < 45
    assert rate_game(player, player, 1.0, LICHESS).rd == 45


def test_rd_ceiling_500_in_idle_growth() -> None:
    player = GlickoState(1500, 490, 0.09)
    assert idle(player, dataclasses.replace(LICHESS, rd_max=None), days=365).rd > 500
    assert idle(player, LICHESS, days=365).rd == 500


def test_rd_ceiling_500_after_a_game_from_an_out_of_range_state() -> None:
    player = GlickoState(1500, 900, 0.09)
    opponent = GlickoState(1500, 500, 0.09)
    assert rate_game(player, opponent, 1.0, dataclasses.replace(LICHESS, rd_max=None)).rd > 500
    assert rate_game(player, opponent, 1.0, LICHESS).rd == 500


def test_volatility_cap_after_a_game_starts_from_stored_value() -> None:
    player = GlickoState(1500, 100, 0.15)
    opponent = GlickoState(1500, 100, 0.06)
    free = rate_game(player, opponent, 1.0, dataclasses.replace(LICHESS, volatility_max=None))
    assert free.volatility == pytest.approx(0.15, abs=1e-4)  # update started from 0.15
    capped = rate_game(player, opponent, 1.0, LICHESS)
    assert capped.volatility == 0.1
    assert capped.rating == free.rating  # phi* = phi: sigma does not enter a Lichess game


def test_volatility_cap_inside_idle_growth() -> None:
    stored = GlickoState(1500, 60, 0.2)
    grown = idle(stored, LICHESS, days=365)
    assert grown.rd == pytest.approx(idle(GlickoState(1500, 60, 0.1), LICHESS, days=365).rd)
    assert grown.rd < idle(stored, dataclasses.replace(LICHESS, volatility_max=None), days=365).rd
    assert grown.volatility == 0.2  # the stored value is left alone


def test_700_point_clamp() -> None:
    underdog = GlickoState(1500, 500, 0.09)
    champion = GlickoState(3000, 45, 0.06)
    no_clamp = dataclasses.replace(LICHESS, max_change_per_game=None)
    free = rate_game(underdog, champion, 1.0, no_clamp)
    assert free.rating - underdog.rating > 700
    assert rate_game(underdog, champion, 1.0, LICHESS).rating == 2200
    favourite_loses = rate_game(champion, underdog, 0.0, LICHESS)
    assert favourite_loses.rating >= 3000 - 700


def test_rating_floor_400() -> None:
    player = GlickoState(600, 500, 0.09)
    opponent = GlickoState(400, 45, 0.06)
    no_floor = dataclasses.replace(LICHESS, rating_min=None)
    assert rate_game(player, opponent, 0.0, no_floor).rating < 400
    assert rate_game(player, opponent, 0.0, LICHESS).rating == 400


def test_rating_ceiling_4000() -> None:
    player = GlickoState(3900, 300, 0.09)
    opponent = GlickoState(3990, 45, 0.09)
    no_ceiling = dataclasses.replace(LICHESS, rating_max=None)
    assert rate_game(player, opponent, 1.0, no_ceiling).rating > 4000
    assert rate_game(player, opponent, 1.0, LICHESS).rating == 4000


def test_new_player_seeded_rating_respects_bounds() -> None:
    assert new_player(LICHESS, 1850) == GlickoState(1850, 500, 0.09)
    assert new_player(LICHESS, 250).rating == 400
    assert new_player(GLICKMAN, 250) == GlickoState(250, 350, 0.06)


# --------------------------------------------------------------------- Glickman preset


def test_glickman_idle_120_periods() -> None:
    grown = idle(GlickoState(1500, 50, 0.06), GLICKMAN, periods=120)
    assert grown.rd == pytest.approx(124.65, abs=0.005)


def test_glickman_empty_period_is_step6_once() -> None:
    state = GlickoState(1620, 50, 0.06)
    after = rate_period(state, [], GLICKMAN)
    assert after == idle(state, GLICKMAN, periods=1)
    assert after.rd == pytest.approx(173.7178 * math.sqrt((50 / 173.7178) ** 2 + 0.06**2))
    assert (after.rating, after.volatility) == (1620, 0.06)


def test_glickman_has_no_rd_cap() -> None:
    assert idle(GlickoState(1500, 350, 0.06), GLICKMAN, periods=100).rd > 350


def test_glickman_display_rounds_without_marker() -> None:
    assert display(GlickoState(1464.5, 151.5, 0.06), GLICKMAN) == "1465"
    assert display(GlickoState(1464.49, 351, 0.06), GLICKMAN) == "1464"
    assert not is_provisional(GlickoState(1500, 350, 0.06), GLICKMAN)


# --------------------------------------------------------------------- presets and API


def test_presets_registry() -> None:
    assert set(PRESETS) == {"lichess", "glickman", "chesscom"}
    assert DEFAULT_PRESET == "lichess"
    assert get_preset(" Lichess ") is LICHESS
    lichess = PRESETS["lichess"]
    assert (lichess.tau, lichess.rd_min, lichess.rd_max, lichess.volatility_max) == (
        0.75,
        45,
        500,
        0.1,
    )
    assert (lichess.rating_min, lichess.rating_max, lichess.max_change_per_game) == (
        400,
        4000,
        700,
    )
    assert lichess.idle_periods_per_day == 0.21436
    assert (GLICKMAN.initial_rd, GLICKMAN.tau, GLICKMAN.period) == (350, 0.5, "month")
    assert GLICKMAN.rd_max is None


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match="unknown Glicko preset 'fide'"):
        get_preset("fide")


def test_presets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        LICHESS.tau = 0.5  # type: ignore[misc]
    with pytest.raises(TypeError):
        PRESETS["mine"] = LICHESS  # type: ignore[index]


def test_preset_validation() -> None:
    with pytest.raises(ValueError, match="tau"):
        dataclasses.replace(LICHESS, tau=0)
    with pytest.raises(ValueError, match="inverted"):
        dataclasses.replace(LICHESS, rd_min=600)
    with pytest.raises(ValueError, match="idle_periods_per_day"):
        dataclasses.replace(LICHESS, idle_periods_per_day=None)
    with pytest.raises(ValueError, match="per-game"):
        dataclasses.replace(GLICKMAN, max_change_per_game=700)


def test_state_validation() -> None:
    with pytest.raises(ValueError, match="RD"):
        GlickoState(1500, 0, 0.06)
    with pytest.raises(ValueError, match="volatility"):
        GlickoState(1500, 50, -0.06)
    with pytest.raises(ValueError, match="rating"):
        GlickoState(math.nan, 50, 0.06)


def test_wrong_call_for_the_preset() -> None:
    player = GlickoState(1500, 200, 0.06)
    with pytest.raises(ValueError, match="rate_period"):
        rate_game(player, player, 1.0, GLICKMAN)
    with pytest.raises(ValueError, match="rate_game"):
        rate_period(player, [(player, 1.0)], LICHESS)
    with pytest.raises(ValueError, match="score"):
        rate_game(player, player, 1.5, LICHESS)
    with pytest.raises(ValueError, match="score"):
        rate_period(player, [(player, -0.5)], GLICKMAN)
    with pytest.raises(ValueError, match="days"):
        idle(player, GLICKMAN, days=30)
    with pytest.raises(ValueError, match="periods"):
        idle(player, LICHESS, periods=1)
    with pytest.raises(ValueError, match="negative"):
        idle(player, LICHESS, days=-1)


# --------------------------------------------------------------------- properties

ratings = st.floats(min_value=400, max_value=4000)
scores = st.sampled_from([0.0, 0.5, 1.0])


def states(preset: GlickoPreset) -> st.SearchStrategy[GlickoState]:
    """States inside the preset's bounds (what our own updates can produce)."""
    rd_low = preset.rd_min if preset.rd_min is not None else 30.0
    rd_high = preset.rd_max if preset.rd_max is not None else 500.0
    sigma_high = preset.volatility_max if preset.volatility_max is not None else 0.2
    return st.builds(
        GlickoState,
        ratings,
        st.floats(min_value=rd_low, max_value=rd_high),
        st.floats(min_value=0.02, max_value=sigma_high),
    )


def one_game(
    player: GlickoState, opponent: GlickoState, score: float, preset: GlickoPreset
) -> GlickoState:
    if preset.period == "game":
        return rate_game(player, opponent, score, preset)
    return rate_period(player, [(opponent, score)], preset)


ALL_PRESETS = [LICHESS, GLICKMAN, CHESSCOM]


@pytest.mark.parametrize("preset", ALL_PRESETS, ids=lambda p: p.name)
@given(data=st.data())
def test_a_win_never_lowers_and_a_loss_never_raises(
    preset: GlickoPreset, data: st.DataObject
) -> None:
    player = data.draw(states(preset))
    opponent = data.draw(states(preset))
    assert one_game(player, opponent, 1.0, preset).rating >= player.rating
    assert one_game(player, opponent, 0.0, preset).rating <= player.rating


@pytest.mark.parametrize("preset", [LICHESS, CHESSCOM], ids=lambda p: p.name)
@given(data=st.data())
def test_rd_never_grows_within_a_game(preset: GlickoPreset, data: st.DataObject) -> None:
    player = data.draw(states(preset))
    new = rate_game(player, data.draw(states(preset)), data.draw(scores), preset)
    assert new.rd <= player.rd


@pytest.mark.parametrize("preset", ALL_PRESETS, ids=lambda p: p.name)
@given(data=st.data())
def test_idle_time_never_shrinks_rd(preset: GlickoPreset, data: st.DataObject) -> None:
    state = data.draw(states(preset))
    if preset.period == "month":
        grown = idle(state, preset, periods=data.draw(st.integers(0, 500)))
    else:
        grown = idle(state, preset, days=data.draw(st.floats(0, 20_000)))
    assert grown.rd >= state.rd
    assert (grown.rating, grown.volatility) == (state.rating, state.volatility)


@pytest.mark.parametrize("preset", [LICHESS, CHESSCOM], ids=lambda p: p.name)
@given(data=st.data())
def test_swapping_colours_mirrors_the_result(preset: GlickoPreset, data: st.DataObject) -> None:
    """A beating B (A has White) gives the same two states as B losing to A (B has White)."""
    a = data.draw(states(preset))
    b = data.draw(states(preset))
    s = data.draw(scores)
    a_after, b_after = rate_pair(a, b, s, preset)
    assert rate_pair(b, a, 1.0 - s, preset) == (b_after, a_after)
    assert a_after == rate_game(a, b, s, preset)
    assert b_after == rate_game(b, a, 1.0 - s, preset)


@pytest.mark.parametrize("preset", [LICHESS, GLICKMAN], ids=lambda p: p.name)
@given(
    a=st.floats(min_value=1200, max_value=2800),
    b=st.floats(min_value=1200, max_value=2800),
    rd=st.floats(min_value=45, max_value=500),
    sigma=st.floats(min_value=0.03, max_value=0.1),
    s=scores,
)
def test_equal_uncertainty_games_are_zero_sum(
    preset: GlickoPreset, a: float, b: float, rd: float, sigma: float, s: float
) -> None:
    pa, pb = GlickoState(a, rd, sigma), GlickoState(b, rd, sigma)
    a_after = one_game(pa, pb, s, preset)
    b_after = one_game(pb, pa, 1.0 - s, preset)
    assert a_after.rating - a == pytest.approx(-(b_after.rating - b), abs=1e-6)
    assert a_after.rd == pytest.approx(b_after.rd)
    assert expected_score(pa, pb, preset) + expected_score(pb, pa, preset) == pytest.approx(1)


@given(
    base=st.floats(min_value=600, max_value=2800),
    shift=st.floats(min_value=-1000, max_value=1000),
    gaps=st.lists(st.floats(min_value=-800, max_value=800), min_size=1, max_size=25),
    outcomes=st.lists(scores, min_size=25, max_size=25),
)
@settings(max_examples=60)
def test_glicko2_is_translation_invariant(
    base: float, shift: float, gaps: list[float], outcomes: list[float]
) -> None:
    """Glickman's algorithm depends only on rating differences (the package's mu^2 does not)."""

    def period(offset: float) -> GlickoState:
        player = GlickoState(base + offset, 80, 0.06)
        results = [
            (GlickoState(base + offset + gap, 60, 0.06), score)
            for gap, score in zip(gaps, outcomes, strict=False)
        ]
        return rate_period(player, results, GLICKMAN)

    here, there = period(0.0), period(shift)
    assert there.rating - shift == pytest.approx(here.rating, abs=1e-3)
    assert there.rd == pytest.approx(here.rd, rel=1e-6)
    assert there.volatility == pytest.approx(here.volatility, rel=1e-5)


@pytest.mark.parametrize("preset", [LICHESS, CHESSCOM], ids=lambda p: p.name)
@given(data=st.data())
@settings(max_examples=60)
def test_one_rater_for_many_games_rates_each_as_a_fresh_one(
    preset: GlickoPreset, data: st.DataObject
) -> None:
    """A month's close rates game after game through one GameRater (one package player,
    reloaded): each game comes out bit for bit as rate_game and idle alone give it."""
    rater = GameRater(preset)
    for _ in range(data.draw(st.integers(1, 8))):
        player, opponent = data.draw(states(preset)), data.draw(states(preset))
        s = data.draw(scores)
        days = data.draw(st.integers(0, 400))
        alone = rate_game(player, opponent, s, preset)
        rated = rater.rate(
            player.rating, player.rd, player.volatility, opponent.rating, opponent.rd, s
        )
        assert rated == (alone.rating, alone.rd, alone.volatility)
        grown = idle(player, preset, days=days)
        assert rater.grown_rd(player.rd, player.volatility, days) == grown.rd


@pytest.mark.parametrize("preset", ALL_PRESETS, ids=lambda p: p.name)
@given(data=st.data())
def test_updates_are_deterministic(preset: GlickoPreset, data: st.DataObject) -> None:
    player = data.draw(states(preset))
    opponent = data.draw(states(preset))
    s = data.draw(scores)
    first = one_game(player, opponent, s, preset)
    # Another tau in between must not leak into later calls.
    if preset.period == "game":
        rate_game(player, opponent, s, preset, tau=0.2)
    else:
        rate_period(player, [(opponent, s)], preset, tau=1.2)
    assert one_game(player, opponent, s, preset) == first


class _NoRootPlayer(_CorrectedPlayer):
    """f < 0 everywhere: the step 5.2 search for k would never end without a cap."""

    calls = 0

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        self.calls += 1
        return -1.0


def test_volatility_search_is_capped() -> None:
    engine = _NoRootPlayer(
        GlickoState(1500, 200, 0.06), tau=0.5, elapsed_periods=1, volatility_max=None
    )
    sigma = engine._newVol([0.0], [0.0], [0.5], 1.0)
    assert engine.calls <= MAX_ITERATIONS + 2
    assert sigma == pytest.approx(0.06)
