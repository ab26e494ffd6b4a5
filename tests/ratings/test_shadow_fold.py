"""The shadow fold (tracker/ratings/shadow.py): a month's games into the players' shadows.

Every expected value is built by hand from the engine's pure functions
(tracker.ratings.glicko, tested on their own in tests/ratings), step by step in the
order the issue prescribes, so these tests pin the fold: which states enter each game, in
which order, with how much idle growth.
"""

from __future__ import annotations

import datetime as dt
import math

import pytest

from tracker.ratings.glicko.api import expected_score, idle, new_player, rate_game, rate_period
from tracker.ratings.glicko.engine import SCALE
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState, get_preset
from tracker.ratings.shadow import (
    GameUpdate,
    NewPlayer,
    ShadowGame,
    ShadowPlayer,
    as_of,
    rate_month,
)

LICHESS = get_preset("lichess")
GLICKMAN = get_preset("glickman")
CHESSCOM = get_preset("chesscom")

D = dt.date


def fresh(preset: GlickoPreset = LICHESS) -> NewPlayer:
    """new_player callback: every new player starts at the preset's values."""

    def start(pid: int, day: dt.date) -> GlickoState:
        return new_player(preset)

    return start


class Seeded:
    """new_player callback seeding each player at a given rating (like seed=elo)."""

    def __init__(self, ratings: dict[int, float], preset: GlickoPreset = LICHESS) -> None:
        self.ratings = ratings
        self.preset = preset
        self.calls: list[tuple[int, dt.date]] = []

    def __call__(self, pid: int, day: dt.date) -> GlickoState:
        self.calls.append((pid, day))
        return new_player(self.preset, self.ratings[pid])


def never(pid: int, day: dt.date) -> GlickoState:
    raise AssertionError(f"player {pid} should already have a shadow")


# --------------------------------------------------------------------------- per game order


def test_games_are_rated_by_date_then_game_id_whatever_order_they_come_in() -> None:
    a0 = GlickoState(1800.0, 120.0, 0.06)
    b0 = GlickoState(1700.0, 200.0, 0.07)
    players = {1: ShadowPlayer(a0, D(2026, 1, 1), 10), 2: ShadowPlayer(b0, D(2026, 1, 1), 10)}
    # Given out of order: game 9 (Jan 5), game 3 (Jan 7, A wins), game 5 (Jan 7, B wins).
    games = [
        ShadowGame(5, D(2026, 1, 7), 2, 1, 1.0),
        ShadowGame(3, D(2026, 1, 7), 1, 2, 1.0),
        ShadowGame(9, D(2026, 1, 5), 1, 2, 0.5),
    ]
    out, updates = rate_month(players, games, LICHESS, never)

    # By hand: game 9 on Jan 5 (4 idle days each), then two more days, game 3, then game 5
    # (same day, no idle time between them).
    a = idle(a0, LICHESS, days=4)
    b = idle(b0, LICHESS, days=4)
    a, b = rate_game(a, b, 0.5, LICHESS), rate_game(b, a, 0.5, LICHESS)
    a, b = idle(a, LICHESS, days=2), idle(b, LICHESS, days=2)
    a, b = rate_game(a, b, 1.0, LICHESS), rate_game(b, a, 0.0, LICHESS)  # game 3
    a, b = rate_game(a, b, 0.0, LICHESS), rate_game(b, a, 1.0, LICHESS)  # game 5

    assert out[1] == ShadowPlayer(a, D(2026, 1, 7), 13)
    assert out[2] == ShadowPlayer(b, D(2026, 1, 7), 13)
    order = [(u.game_id, u.player_id) for u in updates]
    assert order == [(9, 1), (9, 2), (3, 1), (3, 2), (5, 2), (5, 1)]

    # The order really matters here: game 5 before game 3 ends somewhere else.
    a2 = idle(a0, LICHESS, days=4)
    b2 = idle(b0, LICHESS, days=4)
    a2, b2 = rate_game(a2, b2, 0.5, LICHESS), rate_game(b2, a2, 0.5, LICHESS)
    a2, b2 = idle(a2, LICHESS, days=2), idle(b2, LICHESS, days=2)
    a2, b2 = rate_game(a2, b2, 0.0, LICHESS), rate_game(b2, a2, 1.0, LICHESS)
    a2, b2 = rate_game(a2, b2, 1.0, LICHESS), rate_game(b2, a2, 0.0, LICHESS)
    assert abs(a2.rating - a.rating) > 0.5


def test_game_id_breaks_ties_even_when_the_later_id_comes_first() -> None:
    """Two games the same day against different opponents: id order, not list order."""
    players = {
        1: ShadowPlayer(GlickoState(1600.0, 80.0, 0.06), D(2026, 3, 1), 5),
        2: ShadowPlayer(GlickoState(1900.0, 60.0, 0.06), D(2026, 3, 1), 5),
        3: ShadowPlayer(GlickoState(1300.0, 60.0, 0.06), D(2026, 3, 1), 5),
    }
    games = [
        ShadowGame(20, D(2026, 3, 4), 1, 3, 0.0),  # then loses to the weak one
        ShadowGame(11, D(2026, 3, 4), 2, 1, 0.0),  # first beats the strong one (as Black)
    ]
    out, updates = rate_month(players, games, LICHESS, never)
    p1 = idle(players[1].state, LICHESS, days=3)
    p2 = idle(players[2].state, LICHESS, days=3)
    p3 = idle(players[3].state, LICHESS, days=3)
    p1_after_11 = rate_game(p1, p2, 1.0, LICHESS)
    p1_after_20 = rate_game(p1_after_11, p3, 0.0, LICHESS)
    assert out[1].state == p1_after_20
    assert out[3].state == rate_game(p3, p1_after_11, 1.0, LICHESS)
    assert [u.game_id for u in updates] == [11, 11, 20, 20]
    # the expected score of game 20 was computed from player 1's state after game 11
    assert updates[2].expected == expected_score(p1_after_11, p3, LICHESS)


# ----------------------------------------------------------- both sides from pre-game values


def test_both_players_are_rated_from_their_pre_game_values() -> None:
    a0 = GlickoState(1700.0, 200.0, 0.06)
    b0 = GlickoState(1500.0, 300.0, 0.07)
    day = D(2026, 2, 10)
    players = {1: ShadowPlayer(a0, day, 3), 2: ShadowPlayer(b0, day, 3)}
    out, updates = rate_month(players, [ShadowGame(1, day, 1, 2, 1.0)], LICHESS, never)

    a1 = rate_game(a0, b0, 1.0, LICHESS)
    b1 = rate_game(b0, a0, 0.0, LICHESS)
    assert out[1].state == a1
    assert out[2].state == b1
    # Black computed against White's *new* state would be different (so this can fail).
    assert rate_game(b0, a1, 0.0, LICHESS).rating != pytest.approx(b1.rating, abs=0.1)

    white, black = updates
    assert (white.game_id, white.player_id, black.player_id) == (1, 1, 2)
    assert white.expected == expected_score(a0, b0, LICHESS)
    assert black.expected == expected_score(b0, a0, LICHESS)
    assert white.after == out[1] and black.after == out[2]


# ------------------------------------------------------------------------- idle growth


def test_first_game_applies_no_idle_growth() -> None:
    start = Seeded({1: 2318.0, 2: 1500.0})
    out, updates = rate_month({}, [ShadowGame(7, D(2026, 1, 25), 1, 2, 0.5)], LICHESS, start)
    a0 = GlickoState(2318.0, 500.0, 0.09)
    b0 = GlickoState(1500.0, 500.0, 0.09)
    assert out[1] == ShadowPlayer(rate_game(a0, b0, 0.5, LICHESS), D(2026, 1, 25), 1)
    assert out[2] == ShadowPlayer(rate_game(b0, a0, 0.5, LICHESS), D(2026, 1, 25), 1)
    assert updates[0].expected == expected_score(a0, b0, LICHESS)
    # new players are created from the game's date
    assert start.calls == [(1, D(2026, 1, 25)), (2, D(2026, 1, 25))]


def test_a_known_player_without_a_last_game_gets_no_growth_either() -> None:
    state = GlickoState(1600.0, 70.0, 0.06)
    opp = GlickoState(1600.0, 70.0, 0.06)
    players = {1: ShadowPlayer(state, None, 0), 2: ShadowPlayer(opp, None, 0)}
    out, _ = rate_month(players, [ShadowGame(1, D(2026, 6, 30), 1, 2, 1.0)], LICHESS, never)
    assert out[1].state == rate_game(state, opp, 1.0, LICHESS)


def test_rd_grows_with_the_days_since_each_players_previous_game() -> None:
    # Player 1 last played 365 days before, player 2 30 days before.
    a0 = GlickoState(1500.0, 60.0, 0.06)
    b0 = GlickoState(1650.0, 45.0, 0.09)
    players = {1: ShadowPlayer(a0, D(2025, 3, 1), 50), 2: ShadowPlayer(b0, D(2026, 1, 30), 50)}
    day = D(2026, 3, 1)
    out, updates = rate_month(players, [ShadowGame(4, day, 1, 2, 0.0)], LICHESS, never)

    a = idle(a0, LICHESS, days=365)
    b = idle(b0, LICHESS, days=30)
    # Lichess's constant: 60 -> 110 in a year at volatility 0.06; 45 -> 60.0 in 30 days at 0.09
    assert a.rd == pytest.approx(110.0, abs=0.01)
    assert b.rd == pytest.approx(60.0, abs=0.05)
    assert out[1].state == rate_game(a, b, 0.0, LICHESS)
    assert out[2].state == rate_game(b, a, 1.0, LICHESS)
    # the grown RD of each side is what the other side's expectation used
    assert updates[1].expected == expected_score(b, a, LICHESS)
    assert updates[1].expected != expected_score(b0, a0, LICHESS)


def test_idle_growth_between_two_games_of_the_same_month() -> None:
    a0 = GlickoState(1500.0, 50.0, 0.06)
    ext = GlickoState(1500.0, 60.0, 0.09)
    players = {1: ShadowPlayer(a0, D(2026, 4, 1), 1)}
    games = [
        ShadowGame(1, D(2026, 4, 1), 1, None, 0.5, black_fixed=ext),
        ShadowGame(2, D(2026, 4, 21), 1, None, 0.5, black_fixed=ext),
    ]
    out, updates = rate_month(players, games, LICHESS, never)
    first = rate_game(a0, ext, 0.5, LICHESS)  # same day as the last game: no growth
    before_second = idle(first, LICHESS, days=20)
    # by hand: phi^2 + 20 * 0.21436 * sigma^2 on the Glicko-2 scale
    by_hand = SCALE * math.sqrt((first.rd / SCALE) ** 2 + 20 * 0.21436 * first.volatility**2)
    assert before_second.rd == pytest.approx(max(by_hand, 45.0), rel=1e-12)
    assert updates[0].after.state == first
    assert out[1].state == rate_game(before_second, ext, 0.5, LICHESS)
    assert out[1].last_played == D(2026, 4, 21) and out[1].games == 3


def test_chesscom_idle_growth_is_glicko1_per_day() -> None:
    a0 = GlickoState(1500.0, 50.0, 0.06)
    b0 = GlickoState(1500.0, 350.0, 0.06)
    players = {1: ShadowPlayer(a0, D(2026, 1, 1), 9), 2: ShadowPlayer(b0, D(2026, 1, 31), 0)}
    out, _ = rate_month(players, [ShadowGame(1, D(2026, 1, 31), 1, 2, 1.0)], CHESSCOM, never)
    grown = math.sqrt(50.0**2 + 8.1**2 * 30)  # 30 days at c = 8.1 per day
    a = GlickoState(1500.0, grown, 0.06)
    assert idle(a0, CHESSCOM, days=30).rd == pytest.approx(grown, rel=1e-12)
    assert out[1].state.rating == pytest.approx(rate_game(a, b0, 1.0, CHESSCOM).rating)
    assert out[1].state == rate_game(idle(a0, CHESSCOM, days=30), b0, 1.0, CHESSCOM)


# --------------------------------------------------------------------- external opponents


def test_an_external_side_is_a_fixed_state_and_gets_no_update() -> None:
    ext = GlickoState(2200.0, 60.0, 0.09)
    me0 = GlickoState(2318.0, 500.0, 0.09)
    games = [
        ShadowGame(1, D(2026, 1, 10), None, 1, 1.0, white_fixed=ext),  # external White wins
        ShadowGame(2, D(2026, 1, 30), 1, None, 0.5, black_fixed=ext),
    ]
    out, updates = rate_month({}, games, LICHESS, Seeded({1: 2318.0}))
    assert set(out) == {1}
    assert [(u.game_id, u.player_id) for u in updates] == [(1, 1), (2, 1)]
    me1 = rate_game(me0, ext, 0.0, LICHESS)
    # the external opponent's RD stays 60 after 20 days; only our player's RD grows
    me1_grown = idle(me1, LICHESS, days=20)
    assert out[1].state == rate_game(me1_grown, ext, 0.5, LICHESS)
    assert updates[0].expected == expected_score(me0, ext, LICHESS)
    assert updates[1].expected == expected_score(me1_grown, ext, LICHESS)


def test_external_rd_enters_the_update() -> None:
    me0 = GlickoState(1800.0, 100.0, 0.06)
    players = {1: ShadowPlayer(me0, D(2026, 5, 1), 3)}

    def one(ext_rd: float) -> GlickoState:
        ext = GlickoState(2000.0, ext_rd, 0.09)
        game = ShadowGame(1, D(2026, 5, 1), 1, None, 1.0, black_fixed=ext)
        return rate_month(players, [game], LICHESS, never)[0][1].state

    assert one(60.0) == rate_game(me0, GlickoState(2000.0, 60.0, 0.09), 1.0, LICHESS)
    assert one(100.0) == rate_game(me0, GlickoState(2000.0, 100.0, 0.09), 1.0, LICHESS)
    assert one(60.0).rating > one(100.0).rating + 0.5  # a surer opponent counts for more


def test_players_without_games_are_unchanged_by_a_per_game_month() -> None:
    idle_one = ShadowPlayer(GlickoState(1900.0, 80.0, 0.06), D(2025, 12, 3), 40)
    players = {1: ShadowPlayer(new_player(LICHESS), None, 0), 5: idle_one}
    ext = GlickoState(1500.0, 60.0, 0.09)
    game = ShadowGame(1, D(2026, 1, 2), 1, None, 1.0, black_fixed=ext)
    out, _ = rate_month(players, [game], LICHESS, never)
    assert out[5] is idle_one


# -------------------------------------------------------------------- glickman: one period


def test_glickman_month_is_one_rating_period_from_pre_month_values() -> None:
    a0 = GlickoState(1500.0, 200.0, 0.06)
    b0 = GlickoState(1400.0, 30.0, 0.06)
    c0 = GlickoState(1550.0, 100.0, 0.06)
    d0 = GlickoState(1700.0, 300.0, 0.06)
    old = D(2025, 12, 20)
    players = {
        1: ShadowPlayer(a0, old, 10),
        2: ShadowPlayer(b0, old, 10),
        3: ShadowPlayer(c0, old, 10),
        4: ShadowPlayer(d0, old, 10),
    }
    # Glickman's example, spread over the month: player 1 beats 2, loses to 3 and 4.
    games = [
        ShadowGame(1, D(2026, 1, 3), 1, 2, 1.0),
        ShadowGame(2, D(2026, 1, 17), 3, 1, 1.0),
        ShadowGame(3, D(2026, 1, 29), 1, 4, 0.0),
    ]
    out, updates = rate_month(players, games, GLICKMAN, never)

    a1 = rate_period(a0, [(b0, 1.0), (c0, 0.0), (d0, 0.0)], GLICKMAN)
    assert out[1].state == a1
    # Glickman's published answer, no matter that the games are days apart
    assert a1.rating == pytest.approx(1464.06, abs=0.01)
    assert a1.rd == pytest.approx(151.52, abs=0.01)
    assert a1.volatility == pytest.approx(0.05999, abs=1e-5)
    # opponents too are rated from everyone's values before the month
    assert out[3].state == rate_period(c0, [(a0, 1.0)], GLICKMAN)
    assert out[4].state == rate_period(d0, [(a0, 1.0)], GLICKMAN)
    assert out[1].last_played == D(2026, 1, 29) and out[1].games == 13
    # predictions: each game from the pre-month states; the update carries the month's end
    by_game = {(u.game_id, u.player_id): u for u in updates}
    assert by_game[(3, 1)].expected == expected_score(a0, d0, GLICKMAN)
    assert by_game[(2, 3)].expected == expected_score(c0, a0, GLICKMAN)
    assert by_game[(1, 1)].after.state == a1


def test_glickman_idle_player_gets_step_6_once() -> None:
    idle0 = GlickoState(1800.0, 50.0, 0.06)
    players = {
        1: ShadowPlayer(GlickoState(1500.0, 350.0, 0.06), None, 0),
        9: ShadowPlayer(idle0, D(2025, 11, 4), 21),
    }
    ext = GlickoState(1500.0, 60.0, 0.06)
    out, updates = rate_month(
        players, [ShadowGame(1, D(2026, 1, 3), 1, None, 1.0, black_fixed=ext)], GLICKMAN, never
    )
    # step 6: phi' = sqrt(phi^2 + sigma^2); rating, volatility, last game and count unchanged
    rd = math.sqrt(50.0**2 + (0.06 * SCALE) ** 2)
    assert out[9].state.rd == pytest.approx(rd, rel=1e-12)
    assert out[9].state.rd == pytest.approx(51.0749, abs=1e-4)
    assert out[9].state == idle(idle0, GLICKMAN, periods=1)
    assert (out[9].state.rating, out[9].state.volatility) == (1800.0, 0.06)
    assert (out[9].last_played, out[9].games) == (D(2025, 11, 4), 21)
    assert all(u.player_id == 1 for u in updates)


def test_glickman_new_player_joins_for_his_first_month() -> None:
    start = Seeded({1: 2000.0, 2: 1800.0}, GLICKMAN)
    games = [
        ShadowGame(1, D(2026, 2, 2), 1, 2, 1.0),
        ShadowGame(2, D(2026, 2, 20), 2, 1, 1.0),
    ]
    out, _ = rate_month({}, games, GLICKMAN, start)
    a0 = GlickoState(2000.0, 350.0, 0.06)
    b0 = GlickoState(1800.0, 350.0, 0.06)
    assert out[1].state == rate_period(a0, [(b0, 1.0), (b0, 0.0)], GLICKMAN)
    assert out[2].state == rate_period(b0, [(a0, 0.0), (a0, 1.0)], GLICKMAN)
    assert start.calls[:2] == [(1, D(2026, 2, 2)), (2, D(2026, 2, 2))]


# --------------------------------------------------------------------------------- as_of


def test_as_of_adds_idle_growth_up_to_the_list_date() -> None:
    player = ShadowPlayer(GlickoState(1500.0, 60.0, 0.06), D(2025, 3, 1), 12)
    assert as_of(player, D(2026, 3, 1), LICHESS).rd == pytest.approx(110.0, abs=0.01)
    assert as_of(player, D(2025, 4, 1), LICHESS) == idle(player.state, LICHESS, days=31)
    assert as_of(player, D(2025, 3, 1), LICHESS) == player.state  # same day
    assert as_of(player, D(2025, 2, 1), LICHESS) == player.state  # before the last game


def test_as_of_is_the_stored_state_for_glickman_and_before_any_game() -> None:
    player = ShadowPlayer(GlickoState(1500.0, 60.0, 0.06), D(2025, 3, 1), 12)
    assert as_of(player, D(2026, 3, 1), GLICKMAN) == player.state
    never_played = ShadowPlayer(GlickoState(1500.0, 60.0, 0.06), None, 0)
    assert as_of(never_played, D(2026, 3, 1), LICHESS) == never_played.state


def test_game_update_records_the_state_after_each_game() -> None:
    ext = GlickoState(1500.0, 60.0, 0.09)
    games = [ShadowGame(i, D(2026, 1, i), 1, None, 1.0, black_fixed=ext) for i in (1, 2, 3)]
    out, updates = rate_month({}, games, LICHESS, fresh())
    assert all(isinstance(u, GameUpdate) for u in updates)
    assert [u.after.games for u in updates] == [1, 2, 3]
    assert [u.after.last_played for u in updates] == [D(2026, 1, 1), D(2026, 1, 2), D(2026, 1, 3)]
    ratings = [u.after.state.rating for u in updates]
    assert ratings == sorted(ratings) and ratings[0] > 1500.0
    assert updates[-1].after == out[1]
