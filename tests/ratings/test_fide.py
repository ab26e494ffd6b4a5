"""Reference numbers for the FIDE Elo rules (tests/ratings/data/worked-examples.md: FIDE Rating
Regulations 2024 as amended 1 October 2025, FIDE's online calculator and published calculations)."""

from __future__ import annotations

import itertools
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from tracker.ratings.fide import tables as fide_tables
from tracker.ratings.fide.arithmetic import quantize_half_away, round_half_away
from tracker.ratings.fide.game import (
    apply_700_rule,
    expected_score,
    game_change,
    game_is_rated,
    logistic_expected,
    table_expected,
)
from tracker.ratings.fide.initial import dp_for_percentage, initial_rating
from tracker.ratings.fide.period import RatedGame, period_change
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame
from tracker.ratings.fide.rules import (
    RAPID_BLITZ_2024,
    RAPID_BLITZ_2024_12,
    STANDARD_2024,
    STANDARD_2025_10,
    RuleSet,
    rules_for,
    rules_note,
    select_rules,
)
from tracker.ratings.fide.state import k_factor, seed_state

D = Decimal
WIN, DRAW, LOSS = D(1), D("0.5"), D(0)
NOW = date(2026, 1, 10)  # an event start under the current (2025-10-01) standard rules
JAN = date(2026, 1, 1)

#: FIDE's tables 8.1.1 and 8.1.2 as published (source: tests/ratings/data/README.md).
REFERENCE_JSON = Path(__file__).parent / "data" / "fide_tables.json"


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------


def test_table_literals_match_reference_json() -> None:
    data = json.loads(REFERENCE_JSON.read_text(encoding="utf-8"))
    rows = data["table_8_1_2_difference_to_probability"]["rows"]
    expected_rows = tuple((lo, hi, int(D(h) * 100), int(D(low) * 100)) for lo, hi, h, low in rows)
    assert expected_rows == fide_tables.PD_ROWS
    assert tuple(data["table_8_1_1_percentage_to_dp"]["dp"]) == fide_tables.DP_BY_PERCENT


def test_pd_table_shape() -> None:
    rows = fide_tables.PD_ROWS
    assert len(rows) == 51
    assert rows[0][0] == 0
    assert rows[-1] == (736, None, 100, 0)
    for (_, hi, _, _), (lo, _, _, _) in itertools.pairwise(rows):
        assert hi is not None
        assert lo == hi + 1
    assert all(h + low == 100 for _, _, h, low in rows)


def test_dp_table_shape() -> None:
    dp = fide_tables.DP_BY_PERCENT
    assert len(dp) == 101
    assert dp[50] == 0
    assert all(dp[i] == -dp[100 - i] for i in range(101))
    assert list(dp) == sorted(dp)


@pytest.mark.parametrize(
    ("d", "pd"),
    [
        (0, "0.50"),
        (3, "0.50"),
        (4, "0.51"),
        (-4, "0.49"),
        (100, "0.64"),
        (200, "0.76"),
        (300, "0.85"),
        (350, "0.89"),
        (400, "0.92"),
        (-400, "0.08"),
        (413, "0.93"),
        (450, "0.94"),
        (500, "0.96"),
        (600, "0.98"),
        (735, "0.99"),
        (736, "1.00"),
        (-736, "0.00"),
        (5000, "1.00"),
    ],
)
def test_table_lookup(d: int, pd: str) -> None:
    assert table_expected(d) == D(pd)
    assert str(table_expected(d)) == pd


@pytest.mark.parametrize(
    ("p", "dp"),
    [("0.57", 50), ("0.86", 309), ("0.50", 0), ("0.21", -230), ("0.565", 50), ("0.555", 43)],
)
def test_dp_for_percentage(p: str, dp: int) -> None:
    assert dp_for_percentage(D(p)) == dp


# ---------------------------------------------------------------------------------------------
# Rounding (§8.3.4, V14)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "n"),
    [
        ("1.40", 1),
        ("2.50", 3),
        ("-2.50", -3),
        ("-0.20", 0),
        ("92.48", 92),
        ("0.5", 1),
        ("-0.5", -1),
        ("1.5", 2),
        ("5.40", 5),
        ("-1.49", -1),
        ("-1.51", -2),
    ],
)
def test_round_half_away(x: str, n: int) -> None:
    assert round_half_away(D(x)) == n


def test_quantize_half_away_for_display() -> None:
    assert quantize_half_away(D("1.25"), 1) == D("1.3")
    assert quantize_half_away(D("-1.25"), 1) == D("-1.3")
    assert str(quantize_half_away(D("0.9090909"), 2)) == "0.91"


# ---------------------------------------------------------------------------------------------
# Rule selection
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tc", "start", "rules"),
    [
        ("standard", date(2024, 3, 1), STANDARD_2024),
        ("standard", date(2025, 9, 30), STANDARD_2024),
        ("standard", date(2025, 10, 1), STANDARD_2025_10),
        ("standard", date(2023, 5, 10), STANDARD_2024),
        ("rapid", date(2024, 11, 30), RAPID_BLITZ_2024),
        ("rapid", date(2024, 12, 1), RAPID_BLITZ_2024_12),
        ("blitz", date(2026, 1, 1), RAPID_BLITZ_2024_12),
        ("blitz", date(2020, 1, 1), RAPID_BLITZ_2024),
    ],
)
def test_rules_for(tc: str, start: date, rules: RuleSet) -> None:
    assert rules_for(tc, start) is rules  # type: ignore[arg-type]


def test_rules_note_for_events_before_2024() -> None:
    sel = select_rules("standard", date(2023, 5, 10))
    assert sel.predates_rules
    assert sel.note == (
        "rules of 2024-03-01 applied to an event starting 2023-05-10, before that date"
    )
    assert rules_note("standard", date(2024, 3, 1)) is None
    assert rules_note("blitz", date(2024, 2, 29)) is not None
    assert not select_rules("standard", NOW).predates_rules


def test_unknown_time_control_is_refused() -> None:
    with pytest.raises(ValueError, match="time control"):
        rules_for("bullet", NOW)  # type: ignore[arg-type]


def test_rapid_has_no_2650_exemption() -> None:
    assert RAPID_BLITZ_2024_12.cap_exempt_from is None
    assert STANDARD_2025_10.cap_exempt_from == 2650
    assert STANDARD_2024.cap_exempt_from is None
    # 2700 vs 2100: the standard list uses D = 600 (.98), rapid caps at 400 (.92)
    assert expected_score(2700, 2100, rules_for("standard", NOW)) == D("0.98")
    assert expected_score(2700, 2100, rules_for("rapid", NOW)) == D("0.92")


# ---------------------------------------------------------------------------------------------
# One game (worked examples, V01, V03, V04, V07-V13, V15)
# ---------------------------------------------------------------------------------------------


def change(
    own: int, opp: int, score: Decimal, k: int, rules: RuleSet = STANDARD_2025_10
) -> Decimal:
    return game_change(own, opp, score, k, rules)


def test_v01_1500_vs_1700() -> None:
    assert expected_score(1500, 1700, STANDARD_2025_10) == D("0.24")
    assert change(1500, 1700, WIN, 20) == D("15.2")
    assert change(1500, 1700, DRAW, 20) == D("5.2")
    assert change(1500, 1700, LOSS, 20) == D("-4.8")


def test_1500_vs_1600() -> None:
    assert expected_score(1500, 1600, STANDARD_2025_10) == D("0.36")
    assert change(1500, 1600, WIN, 20) == D("12.8")
    assert change(1500, 1600, DRAW, 20) == D("2.8")


def test_v03_400_cap_1500_vs_1000() -> None:
    assert expected_score(1500, 1000, STANDARD_2025_10) == D("0.92")
    assert change(1500, 1000, WIN, 20) == D("1.6")
    assert change(1500, 1000, LOSS, 20) == D("-18.4")
    assert change(1500, 1000, DRAW, 20) == D("-8.4")
    # without the cap the table would give .96 (never applies to a 1500 player)
    uncapped = expected_score(1500, 1000, STANDARD_2025_10, apply_cap=False)
    assert uncapped == D("0.96")
    assert 20 * (WIN - uncapped) == D("0.8")
    assert 20 * (LOSS - uncapped) == D("-19.2")


def test_v04_1892_beats_2026() -> None:
    assert expected_score(1892, 2026, STANDARD_2025_10) == D("0.32")
    c = change(1892, 2026, WIN, 40)
    assert c == D("27.2")
    assert 1892 + round_half_away(c) == 1919


def test_2400_vs_2400_k10() -> None:
    assert change(2400, 2400, WIN, 10) == D("5")


@pytest.mark.parametrize(
    ("own", "opp", "score", "expected"),
    [
        # V07: row edges, wins
        (2003, 2000, WIN, "5.0"),
        (2004, 2000, WIN, "4.9"),
        (2010, 2000, WIN, "4.9"),
        (2011, 2000, WIN, "4.8"),
        (2206, 2000, WIN, "2.4"),
        (2207, 2000, WIN, "2.3"),
        (2391, 2000, WIN, "0.9"),
        (2392, 2000, WIN, "0.8"),
        # V08: row edges, losses
        (2000, 2003, LOSS, "-5.0"),
        (2000, 2004, LOSS, "-4.9"),
        (1656, 2000, LOSS, "-1.2"),
        (1655, 2000, LOSS, "-1.1"),
    ],
)
def test_v07_v08_row_edges_k10(own: int, opp: int, score: Decimal, expected: str) -> None:
    assert change(own, opp, score, 10) == D(expected)
    assert change(own, opp, score, 10, STANDARD_2024) == D(expected)


def test_v09_1500_draws_2000() -> None:
    assert expected_score(1500, 2000, STANDARD_2025_10) == D("0.08")
    assert change(1500, 2000, DRAW, 20) == D("8.4")


def test_v10_old_k_values() -> None:
    assert change(2092, 2000, WIN, 15) == D("5.55")
    assert change(2000, 2092, DRAW, 30) == D("3.9")


@pytest.mark.parametrize(
    ("own", "opp", "score", "new_rules", "old_rules"),
    [
        (2649, 2149, WIN, "0.8", "0.8"),
        (2650, 2150, WIN, "0.4", "0.8"),
        (2700, 2100, WIN, "0.2", "0.8"),
        (2700, 2100, DRAW, "-4.8", "-4.2"),
        (2700, 2100, LOSS, "-9.8", "-9.2"),
        (2700, 1964, WIN, "0.0", "0.8"),
        (2700, 1900, LOSS, "-10.0", "-9.2"),
    ],
)
def test_v11_2650_rule(own: int, opp: int, score: Decimal, new_rules: str, old_rules: str) -> None:
    assert change(own, opp, score, 10, rules_for("standard", date(2025, 10, 1))) == D(new_rules)
    # before 2025-10-01 every player was capped, 2650+ included
    assert change(own, opp, score, 10, rules_for("standard", date(2025, 9, 30))) == D(old_rules)


def test_v11_pd_at_2650_boundary() -> None:
    assert expected_score(2650, 2150, STANDARD_2025_10) == D("0.96")
    assert expected_score(2649, 2149, STANDARD_2025_10) == D("0.92")
    assert expected_score(2700, 1964, STANDARD_2025_10) == D("1.00")
    assert expected_score(2700, 1964, STANDARD_2024) == D("0.92")


@pytest.mark.parametrize("rules", [STANDARD_2024, STANDARD_2025_10])
def test_v12_weaker_side_stays_capped(rules: RuleSet) -> None:
    assert change(2100, 2700, LOSS, 20, rules) == D("-1.6")
    assert change(2200, 2700, LOSS, 20, rules) == D("-1.6")


def test_v13_one_sided_2650_rule_2813_vs_2400() -> None:
    high = expected_score(2813, 2400, STANDARD_2025_10)
    low = expected_score(2400, 2813, STANDARD_2025_10)
    assert high == D("0.93")
    assert low == D("0.08")
    assert high + low == D("1.01")  # the expectations no longer sum to 1
    assert change(2813, 2400, WIN, 10) == D("0.7")
    # under the previous rules both were capped
    assert expected_score(2813, 2400, STANDARD_2024) == D("0.92")


def test_v15_1900_k20_vs_1500_k40() -> None:
    assert [change(1900, 1500, s, 20) for s in (WIN, DRAW, LOSS)] == [
        D("1.6"),
        D("-8.4"),
        D("-18.4"),
    ]
    assert [change(1500, 1900, s, 40) for s in (LOSS, DRAW, WIN)] == [
        D("-3.2"),
        D("16.8"),
        D("36.8"),
    ]


def test_invalid_score_is_refused() -> None:
    with pytest.raises(ValueError, match="score"):
        change(1500, 1500, D("0.25"), 20)


# ---------------------------------------------------------------------------------------------
# Logistic option (calculator pages)
# ---------------------------------------------------------------------------------------------


def test_logistic_1500_vs_1000_capped() -> None:
    e = expected_score(1500, 1000, STANDARD_2025_10, formula="logistic")
    assert quantize_half_away(e, 2) == D("0.91")
    assert quantize_half_away(e, 6) == D("0.909091")
    win = 20 * (WIN - e)
    assert quantize_half_away(win, 1) == D("1.8")
    assert quantize_half_away(20 * (LOSS - e), 1) == D("-18.2")
    assert game_change(1500, 1000, WIN, 20, STANDARD_2025_10, "logistic") == win


def test_logistic_1500_vs_1000_uncapped() -> None:
    e = expected_score(1500, 1000, STANDARD_2025_10, formula="logistic", apply_cap=False)
    assert quantize_half_away(e, 2) == D("0.95")
    assert quantize_half_away(20 * (WIN - e), 1) == D("1.1")
    assert quantize_half_away(20 * (LOSS - e), 1) == D("-18.9")


def test_logistic_1892_vs_2026() -> None:
    e = expected_score(1892, 2026, STANDARD_2025_10, formula="logistic")
    assert quantize_half_away(e, 3) == D("0.316")
    c = game_change(1892, 2026, WIN, 40, STANDARD_2025_10, formula="logistic")
    assert quantize_half_away(c, 1) == D("27.4")
    assert 1892 + round_half_away(c) == 1919


@pytest.mark.parametrize(
    ("d", "value"),
    [(0, "0.500"), (100, "0.640"), (200, "0.760"), (300, "0.849"), (350, "0.882"),
     (400, "0.909"), (450, "0.930"), (500, "0.947"), (600, "0.969"), (736, "0.986")],
)  # fmt: skip
def test_logistic_values_from_reference_table(d: int, value: str) -> None:
    assert quantize_half_away(logistic_expected(d), 3) == D(value)


def test_unknown_formula_is_refused() -> None:
    with pytest.raises(ValueError, match="formula"):
        expected_score(1500, 1500, STANDARD_2025_10, formula="normal")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Rapid/blitz 600-point rule
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "opp", "rated"),
    [
        (2601, 2001, False),
        (2001, 2601, False),
        (2700, 2000, False),
        (2600, 2000, True),  # nobody above 2600
        (2700, 2101, True),  # 599 apart
        (2700, 2100, False),  # exactly 600 apart
        (2000, None, False),
        (None, 2700, True),  # an unrated player's game counts towards his pool
    ],
)
def test_rapid_600_rule(own: int | None, opp: int | None, rated: bool) -> None:
    assert game_is_rated(own, opp, rules_for("rapid", date(2024, 12, 1))) is rated


def test_600_rule_only_from_december_2024_and_not_standard() -> None:
    assert game_is_rated(2700, 2000, rules_for("blitz", date(2024, 11, 30)))
    assert not game_is_rated(2700, 2000, rules_for("blitz", date(2024, 12, 1)))
    assert game_is_rated(2700, 2000, rules_for("standard", date(2026, 1, 1)))
    assert not game_is_rated(2700, None, rules_for("standard", date(2026, 1, 1)))


# ---------------------------------------------------------------------------------------------
# K and the 700 rule (V05)
# ---------------------------------------------------------------------------------------------


def k(
    games: int = 100,
    ever_2400: bool = False,
    ever_2300: bool = False,
    birth_year: int | None = None,
    list_year: int = 2026,
) -> int:
    return k_factor(
        rated_games=games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=birth_year,
        list_year=list_year,
    )


def test_k_precedence() -> None:
    assert k() == 20
    assert k(games=29) == 40
    assert k(games=30) == 20
    assert k(ever_2400=True, ever_2300=True) == 10
    # ever 2400 beats both the junior rule and the newcomer rule
    assert k(games=3, ever_2400=True, ever_2300=True, birth_year=2012) == 10
    # junior who never published 2300+
    assert k(games=500, birth_year=2008) == 40
    assert k(games=500, birth_year=2008, list_year=2027) == 20
    # junior once published 2300+: 20, but a junior with few games still gets 40
    assert k(games=500, birth_year=2010, ever_2300=True) == 20
    assert k(games=10, birth_year=2010, ever_2300=True) == 40
    # an adult once published 2300 (never 2400) is 20
    assert k(ever_2300=True) == 20


@pytest.mark.parametrize(
    ("k_in", "n", "k_out"),
    [(40, 20, 35), (20, 40, 17), (40, 17, 40), (40, 18, 38), (20, 35, 20), (20, 36, 19),
     (10, 71, 9), (10, 70, 10), (20, 39, 17), (40, 0, 40)],
)  # fmt: skip
def test_v05_700_rule(k_in: int, n: int, k_out: int) -> None:
    assert apply_700_rule(k_in, n) == k_out


# ---------------------------------------------------------------------------------------------
# A period (V02, V06, V14)
# ---------------------------------------------------------------------------------------------


def test_v02_one_event_period() -> None:
    games = [
        RatedGame(1500, 1400, WIN, NOW),
        RatedGame(1500, 1600, DRAW, NOW),
        RatedGame(1500, 1550, LOSS, NOW),
    ]
    pc = period_change(games, 20)
    assert [d.expected for d in pc.details] == [D("0.64"), D("0.36"), D("0.43")]
    assert [d.change for d in pc.details] == [D("7.2"), D("2.8"), D("-8.6")]
    assert pc.score == D("1.5")
    assert pc.expected == D("1.43")
    assert pc.change_exact == D("1.40")
    assert pc.change == 1
    assert pc.games == 3
    assert 1500 + pc.change == 1501


def test_v02_through_close_period() -> None:
    state = seed_state(1500, 100, False, False, None, JAN)
    games = [
        PeriodGame(1400, WIN, NOW, "open"),
        PeriodGame(1600, DRAW, NOW, "open"),
        PeriodGame(1550, LOSS, NOW, "open"),
    ]
    new, out = close_period(state, games, month=JAN, tc="standard")
    assert (out.rating_before, out.rating_after, out.k, out.games) == (1500, 1501, 20, 3)
    assert out.change_exact == D("1.40")
    assert new.rating == 1501
    assert new.rated_games == 103


def _v06_games() -> list[PeriodGame]:
    """39 games for a 2054 player over 5 events with Sigma Delta R = +5.44 (F-P05 total)."""
    games: list[PeriodGame] = []
    # 33 games against equal opponents (PD .50, Sigma PD 16.50): 9 wins and 24 draws = 21
    for i in range(33):
        score = WIN if i < 9 else DRAW
        games.append(PeriodGame(2054, score, date(2025, 11, 1 + 7 * (i % 3)), f"event{i % 3}"))
    # 4 games against 2104 (PD .43): 2 wins, 2 losses
    for i in range(4):
        games.append(PeriodGame(2104, WIN if i < 2 else LOSS, date(2025, 11, 24), "event3"))
    # 2 games against 2112 (PD .42): a win and a draw
    games.append(PeriodGame(2112, WIN, date(2025, 11, 27), "event4"))
    games.append(PeriodGame(2112, DRAW, date(2025, 11, 27), "event4"))
    return games


def test_v06_700_rule_period_f_p05() -> None:
    games = _v06_games()
    assert len(games) == 39
    state = seed_state(2054, 300, False, False, None, date(2025, 11, 1))
    assert state.k == 20
    new, out = close_period(state, games, month=date(2025, 11, 1), tc="standard")
    assert out.k_in_force == 20
    assert out.k == 17
    assert all(d.change == 17 * d.delta for d in out.details if d.delta is not None)
    assert out.expected == D("19.06")
    assert out.score == D("24.5")
    assert out.change_exact == D("92.48")
    assert out.change == 92
    assert (out.rating_before, out.rating_after) == (2054, 2146)
    assert new.rating == 2146
    assert any("700 rule" in note for note in out.notes)
    # K in force for the next period is 20 again (the 700 rule is per period)
    assert out.next_k == 20


def test_v14_f_p01_minus_2_50_published_as_minus_3() -> None:
    state = seed_state(2813, 1000, True, True, 1990, date(2025, 10, 1))
    assert state.k == 10
    # a draw against a player 190 lower: .5 - .75 = -.25, x K10 = -2.50
    new, out = close_period(
        state, [PeriodGame(2623, DRAW, date(2025, 10, 5))], month=date(2025, 10, 1), tc="standard"
    )
    assert out.change_exact == D("-2.50")
    assert out.change == -3
    assert new.rating == 2810


def test_only_the_period_total_is_rounded() -> None:
    # two events each worth +0.4 (2650 beats 2150, K10): per event 0 + 0, per period +1
    state = seed_state(2650, 1000, True, True, None, JAN)
    games = [
        PeriodGame(2150, WIN, date(2026, 1, 3), "a"),
        PeriodGame(2150, WIN, date(2026, 1, 20), "b"),
    ]
    _, out = close_period(state, games, month=JAN, tc="standard")
    assert [d.change for d in out.details] == [D("0.4"), D("0.4")]
    assert out.change_exact == D("0.8")
    assert out.change == 1
    assert out.rating_after == 2651


def test_late_rated_event_uses_its_own_ro() -> None:
    # F-P02/F-P03 style: an event that started under an older list uses that list's Ro
    state = seed_state(1600, 100, False, False, None, JAN)
    games = [
        PeriodGame(1700, WIN, date(2025, 12, 28), "late", own_rating=1500),
        PeriodGame(1700, WIN, date(2026, 1, 10), "current"),
    ]
    _, out = close_period(state, games, month=JAN, tc="standard")
    assert [d.own for d in out.details] == [1500, 1600]
    assert [d.expected for d in out.details] == [D("0.24"), D("0.36")]
    assert out.change_exact == D("28.0")  # 20 x (0.76 + 0.64)
    assert out.rating_after == 1628


def test_games_against_unrated_opponents_are_not_rated() -> None:
    state = seed_state(1800, 100, False, False, None, JAN)
    games = [PeriodGame(None, WIN, NOW), PeriodGame(1800, WIN, NOW)]
    new, out = close_period(state, games, month=JAN, tc="standard")
    assert out.games == 1
    assert [d.status for d in out.details] == ["unrated_opponent", "rated"]
    assert out.change == 10
    assert new.rated_games == 101


def test_rapid_600_rule_in_a_period() -> None:
    state = seed_state(2700, 500, True, True, None, JAN)
    games = [PeriodGame(2050, WIN, NOW), PeriodGame(2150, WIN, NOW)]
    new, out = close_period(state, games, month=JAN, tc="rapid")
    assert [d.status for d in out.details] == ["not_rated_600", "rated"]
    assert out.games == 1
    assert out.change_exact == D("0.8")  # rapid caps at 400 for everyone: 10 x (1 - .92)
    assert new.rating == 2701
    assert new.rated_games == 501


def test_event_before_2024_gets_a_note() -> None:
    state = seed_state(1800, 100, False, False, None, date(2023, 6, 1))
    _, out = close_period(
        state, [PeriodGame(1800, WIN, date(2023, 6, 3))], month=date(2023, 6, 1), tc="standard"
    )
    assert out.notes == (
        "rules of 2024-03-01 applied to an event starting 2023-06-03, before that date",
    )
    assert out.change == 10


def test_logistic_period_option() -> None:
    state = seed_state(1892, 10, False, False, None, JAN)
    _, out = close_period(
        state, [PeriodGame(2026, WIN, NOW)], month=JAN, tc="standard", formula="logistic"
    )
    assert quantize_half_away(out.change_exact, 1) == D("27.4")
    assert out.rating_after == 1919


def test_close_period_validates_input() -> None:
    state = seed_state(1800, 100, False, False, None, JAN)
    with pytest.raises(ValueError, match="first day"):
        close_period(state, [], month=date(2026, 1, 2), tc="standard")
    with pytest.raises(ValueError, match="blitz"):
        close_period(state, [PeriodGame(1800, WIN, NOW, tc="blitz")], month=JAN, tc="standard")
    with pytest.raises(ValueError, match="score"):
        close_period(state, [PeriodGame(1800, D(2), NOW)], month=JAN, tc="standard")


def test_period_without_games_keeps_rating_and_republishes_k() -> None:
    state = seed_state(1800, 100, False, False, 2008, date(2026, 12, 1))
    assert state.k == 40
    new, out = close_period(state, [], month=date(2026, 12, 1), tc="standard")
    assert (out.rating_after, out.k, out.games, out.change) == (1800, None, 0, 0)
    assert out.next_k == 20  # the 2027 list: no longer a junior
    assert new.k == 20


# ---------------------------------------------------------------------------------------------
# Initial rating (V16-V20)
# ---------------------------------------------------------------------------------------------


def test_v16_f_n01_first_rating() -> None:
    opponents = [1900, 1901, 1902, 1902, 1902]
    assert sum(opponents) == 9507
    scores = [WIN, WIN, WIN, LOSS, LOSS]
    ir = initial_rating(list(zip(opponents, scores, strict=True)))
    assert ir.n == 5
    assert ir.score == D(3)
    assert quantize_half_away(ir.ra, 2) == D("1872.43")
    assert ir.ra == D(13107) / D(7)
    assert ir.p == D("0.57")
    assert ir.dp == 50
    assert ir.ru == 1922
    assert ir.published
    assert not ir.capped


def test_v17_five_wins_against_1800s() -> None:
    ir = initial_rating([(1800, WIN)] * 5)
    assert (ir.ra, ir.p, ir.dp, ir.ru) == (D(1800), D("0.86"), 309, 2109)


def test_v18_five_wins_against_1000s_and_2500s() -> None:
    low = initial_rating([(1000, WIN)] * 5)
    assert quantize_half_away(low.ra, 2) == D("1228.57")
    assert low.ru == 1538
    high = initial_rating([(2500, WIN)] * 5)
    assert high.ru == 2200
    assert high.capped


@pytest.mark.parametrize(
    ("scores", "ru"),
    [
        ((WIN, WIN, WIN, LOSS, LOSS), 1993),
        ((WIN, WIN, DRAW, LOSS, LOSS), 1943),
        ((WIN, WIN, LOSS, LOSS, LOSS), 1893),
        ((DRAW, DRAW, DRAW, DRAW, DRAW, DRAW), 1950),  # the two 1800s pull Ra down
    ],
)
def test_v19_average_2000(scores: tuple[Decimal, ...], ru: int) -> None:
    assert initial_rating([(2000, s) for s in scores]).ru == ru


def test_v19_average_2400_capped() -> None:
    results = [(2400, WIN)] * 3 + [(2400, LOSS)] * 2
    assert initial_rating(results).ru == 2200


def test_v20_low_initial_ratings() -> None:
    one_of_five = initial_rating([(1600, WIN)] + [(1600, LOSS)] * 4)
    assert (one_of_five.p, one_of_five.dp, one_of_five.ru) == (D("0.29"), -158, 1499)
    assert one_of_five.published
    four_of_seven = initial_rating([(1800, WIN)] * 4 + [(1800, LOSS)] * 3)
    assert (four_of_seven.p, four_of_seven.ru) == (D("0.56"), 1843)
    half_of_five = initial_rating([(1400, DRAW)] + [(1400, LOSS)] * 4)
    assert half_of_five.ru == 1284
    assert not half_of_five.published


def test_initial_rating_needs_five_games() -> None:
    ir = initial_rating([(1600, WIN), (1600, WIN), (1600, LOSS), (1600, LOSS)])
    assert ir.ru == 1667  # Ra 10000 / 6 = 1666.67, p .50, dp 0
    assert not ir.published


def test_initial_rating_ignores_the_400_rule() -> None:
    ir = initial_rating([(2600, LOSS), (1000, WIN), (1000, WIN), (1000, WIN), (1000, WIN)])
    assert ir.ra == D(10200) / D(7)  # (2600 + 4000 + 3600) / 7, no capping of 2600
    assert ir.p == D("0.71")  # 5 / 7
    assert ir.dp == 158
    assert ir.ru == 1615
    assert ir.ru == round_half_away(D(10200) / D(7) + 158)


def test_initial_rating_p_rounds_half_up() -> None:
    # n = 38, W = 4: p = 5/40 = 0.125 -> 0.13 (half-even would give 0.12)
    results = [(1800, WIN)] * 4 + [(1800, LOSS)] * 34
    ir = initial_rating(results)
    assert ir.p == D("0.13")
    assert ir.dp == -322  # table 8.1.1 at .13 (.12 would be -336)
    assert ir.ru == 1478


def test_initial_rating_ru_rounds_half_up() -> None:
    # n = 6, opponents sum 10804: Ra = 14404 / 8 = 1800.5, p = 4/8 -> dp 0 -> 1801
    results = [(1804, WIN)] + [(1800, WIN)] * 2 + [(1800, LOSS)] * 3
    ir = initial_rating(results)
    assert ir.ra == D("1800.5")
    assert ir.dp == 0
    assert ir.ru == 1801
