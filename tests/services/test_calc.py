"""The rating calculators (tracker.services.calc), called directly: FIDE's Elo over a period,
Glicko by hand, a newcomer's first rating. No database on this path. The command end to end
(its JSON and text) is in tests/cli/test_calc.py and test_calc_glicko.py."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tracker.errors import InvalidInputError
from tracker.services import calc

D = Decimal
ON = dt.date(2026, 11, 29)
PAPER_GAMES = ["1400/30:1", "1550/100:0", "1700/300:0"]


def test_parse_game_takes_every_spelling_of_a_score() -> None:
    assert calc.parse_game("1700:1") == (1700, D(1))
    assert calc.parse_game("1700:½") == calc.parse_game("1700:=") == (1700, D("0.5"))
    assert calc.parse_game("1700:1/2") == (1700, D("0.5"))
    with pytest.raises(InvalidInputError, match="write OPPONENT_RATING:SCORE"):
        calc.parse_game("1700")
    with pytest.raises(InvalidInputError, match="invalid score in '1700:2'"):
        calc.parse_game("1700:2")


def test_a_period_of_three_games_worked_example_v02() -> None:
    """1500, K 20: beats 1400, draws 1600, loses to 1550: PD .64 / .36 / .43, +7.2 +2.8 -8.6."""
    out = calc.calc_elo(1500, ["1400:1", "1600:=", "1550:0"], k=20, on=ON)
    assert [g.expected for g in out.games] == [D("0.64"), D("0.36"), D("0.43")]
    assert [g.change for g in out.games] == [D("7.2"), D("2.8"), D("-8.6")]
    assert (out.score, out.expected) == (D("1.5"), D("1.43"))
    assert (out.change_exact, out.change, out.new_rating) == (D("1.4"), 1, 1501)
    assert (out.k, out.k_source) == (20, "given")


def test_k_follows_the_players_record_when_not_given() -> None:
    assert calc.calc_elo(2100, ["2000:1"], rated_games=200, born=2012, on=ON).k == 40
    assert calc.calc_elo(2100, ["2000:1"], rated_games=200, born=1990, on=ON).k == 20
    assert calc.calc_elo(2100, ["2000:1"], rated_games=200, ever_2400=True, on=ON).k == 10
    with pytest.raises(InvalidInputError, match="give at least one game"):
        calc.calc_elo(2100, [], k=20, on=ON)
    with pytest.raises(InvalidInputError, match="unknown formula 'elo'"):
        calc.calc_elo(2100, ["2000:1"], k=20, formula="elo", on=ON)


def test_glickmans_example_as_one_period() -> None:
    out = calc.calc_glicko(1500, 200, 0.06, PAPER_GAMES, preset="glickman")
    assert out.result.rating == pytest.approx(1464.0507, abs=1e-4)
    assert out.result.rd == pytest.approx(151.5165, abs=1e-4)
    assert out.result.volatility == pytest.approx(0.0599960, abs=1e-6)
    assert (out.provisional, out.display) == (False, "1464")
    with pytest.raises(InvalidInputError, match="OPPONENT_RATING/OPPONENT_RD:SCORE"):
        calc.parse_glicko_game("1400:1")
    assert calc.parse_glicko_game("1400/30:1") == (1400.0, 30.0, 1.0)


def test_a_newcomers_first_rating() -> None:
    """§8.2.2: Ra = (1600 + 1700 + 1500 + 1800 + 1650 + 2 x 1800) / 7 = 1692.86; p = 4 / 7 = .57,
    dp +50; Ru = 1743, published."""
    out = calc.calc_initial(["1600:1", "1700:0.5", "1500:1", "1800:0", "1650:="], ON)
    assert (out.rating.n, out.rating.dp, out.rating.ru) == (5, 50, 1743)
    assert out.missing == () and out.notes == ()
    short = calc.calc_initial(["1500:1", "1500:1", "1500:0"], ON)
    assert short.missing == (
        "3 of the 5 games against rated opponents a first rating needs (§7.1.4): 2 more",
    )
