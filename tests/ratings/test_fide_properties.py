"""Properties of the FIDE rules (hypothesis) and multi-period folds through close_period."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tracker.ratings.fide.arithmetic import round_half_away
from tracker.ratings.fide.game import (
    apply_700_rule,
    expected_score,
    game_change,
    table_expected,
)
from tracker.ratings.fide.initial import initial_rating
from tracker.ratings.fide.period import RatedGame, period_change
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.rules import RAPID_BLITZ_2024_12, STANDARD_2024, STANDARD_2025_10, RuleSet
from tracker.ratings.fide.state import k_factor, seed_state

D = Decimal
WIN, DRAW, LOSS = D(1), D("0.5"), D(0)
SCORES = st.sampled_from([LOSS, DRAW, WIN])
RATINGS = st.integers(min_value=1000, max_value=3000)
BELOW_2650 = st.integers(min_value=1000, max_value=2649)
ALL_RULES = st.sampled_from([STANDARD_2024, STANDARD_2025_10, RAPID_BLITZ_2024_12])
NOW = date(2026, 1, 10)


def month(year: int, m: int) -> date:
    return date(year, m, 1)


def add_months(start: date, n: int) -> date:
    index = start.year * 12 + start.month - 1 + n
    return date(index // 12, index % 12 + 1, 1)


def fold(
    state: PlayerState, periods: Sequence[tuple[date, Sequence[PeriodGame]]]
) -> tuple[PlayerState, list[PeriodOutcome]]:
    outcomes = []
    for m, games in periods:
        state, out = close_period(state, games, month=m, tc="standard")
        outcomes.append(out)
    return state, outcomes


def games_at(m: date, opponent: int, scores: Sequence[Decimal], key: str = "e") -> list[PeriodGame]:
    start = m.replace(day=5)
    return [PeriodGame(opponent, s, start, key) for s in scores]


# ---------------------------------------------------------------------------------------------
# Expected score and one game
# ---------------------------------------------------------------------------------------------


@given(d=st.integers(min_value=-400, max_value=400), rules=ALL_RULES)
def test_pd_complements_within_the_cap(d: int, rules: RuleSet) -> None:
    own = 2000
    assert expected_score(own, own - d, rules) + expected_score(own - d, own, rules) == 1


@given(own=RATINGS, opp=RATINGS)
def test_pd_complements_when_everybody_is_capped(own: int, opp: int) -> None:
    assert expected_score(own, opp, STANDARD_2024) + expected_score(opp, own, STANDARD_2024) == 1


@given(own=BELOW_2650, opp=BELOW_2650)
def test_pd_complements_below_2650_under_the_2025_rules(own: int, opp: int) -> None:
    total = expected_score(own, opp, STANDARD_2025_10) + expected_score(opp, own, STANDARD_2025_10)
    assert total == 1


@given(
    own=st.integers(min_value=2650, max_value=3000), gap=st.integers(min_value=401, max_value=1500)
)
def test_2650_player_uses_full_difference_opponent_capped(own: int, gap: int) -> None:
    opp = own - gap
    assert expected_score(own, opp, STANDARD_2025_10) == table_expected(gap)
    assert expected_score(opp, own, STANDARD_2025_10) == D("0.08")


@given(
    a=st.integers(min_value=-1000, max_value=1000), b=st.integers(min_value=-1000, max_value=1000)
)
def test_pd_is_monotone_and_bounded(a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    assert D(0) <= table_expected(lo) <= table_expected(hi) <= D(1)
    assert table_expected(hi).as_tuple().exponent == -2


@given(own=BELOW_2650, opp=BELOW_2650, score=SCORES, k=st.sampled_from([10, 20, 40]))
def test_equal_k_games_below_2650_are_zero_sum(own: int, opp: int, score: Decimal, k: int) -> None:
    mine = game_change(own, opp, score, k, STANDARD_2025_10)
    theirs = game_change(opp, own, 1 - score, k, STANDARD_2025_10)
    assert mine + theirs == 0


@given(own=RATINGS, opp=RATINGS, k=st.sampled_from([10, 20, 40]), rules=ALL_RULES)
def test_a_win_never_lowers_and_a_loss_never_raises(
    own: int, opp: int, k: int, rules: RuleSet
) -> None:
    assert game_change(own, opp, WIN, k, rules) >= 0
    assert game_change(own, opp, LOSS, k, rules) <= 0
    assert game_change(own, opp, WIN, k, rules) - game_change(own, opp, LOSS, k, rules) == k


# ---------------------------------------------------------------------------------------------
# Rounding, K, 700 rule
# ---------------------------------------------------------------------------------------------


@given(hundredths=st.integers(min_value=-(10**6), max_value=10**6))
def test_round_half_away_is_symmetric_and_nearest(hundredths: int) -> None:
    x = D(hundredths).scaleb(-2)
    r = round_half_away(x)
    assert round_half_away(-x) == -r
    assert abs(x - r) <= D("0.5")
    if abs(x - r) == D("0.5"):
        assert abs(r) > abs(x)  # ties go away from zero


@given(k=st.sampled_from([10, 20, 40]), n=st.integers(min_value=0, max_value=200))
def test_700_rule_is_the_largest_allowed_k(k: int, n: int) -> None:
    k_eff = apply_700_rule(k, n)
    assert k_eff <= k
    assert k_eff * n <= 700
    assert k_eff == k or (k_eff + 1) * n > 700


@given(
    games=st.integers(min_value=0, max_value=1000),
    ever_2400=st.booleans(),
    ever_2300=st.booleans(),
    birth_year=st.none() | st.integers(min_value=1940, max_value=2020),
    list_year=st.integers(min_value=2024, max_value=2040),
)
def test_k_is_one_of_the_three_values(
    games: int, ever_2400: bool, ever_2300: bool, birth_year: int | None, list_year: int
) -> None:
    k = k_factor(
        rated_games=games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=birth_year,
        list_year=list_year,
    )
    assert k in (10, 20, 40)
    if ever_2400:
        assert k == 10
    elif games < 30:
        assert k == 40
    elif birth_year is None or list_year - birth_year > 18 or ever_2300:
        assert k == 20


# ---------------------------------------------------------------------------------------------
# Period change
# ---------------------------------------------------------------------------------------------

PERIOD_GAMES = st.lists(st.tuples(RATINGS, SCORES), min_size=1, max_size=40)


@given(own=RATINGS, games=PERIOD_GAMES, k=st.sampled_from([10, 20, 40]), data=st.data())
def test_more_score_never_gives_less_change(
    own: int, games: list[tuple[int, Decimal]], k: int, data: st.DataObject
) -> None:
    i = data.draw(st.integers(min_value=0, max_value=len(games) - 1))
    opp, score = games[i]
    better = list(games)
    better[i] = (opp, min(WIN, score + DRAW))
    k_eff = apply_700_rule(k, len(games))
    base = period_change([RatedGame(own, o, s, NOW) for o, s in games], k_eff)
    more = period_change([RatedGame(own, o, s, NOW) for o, s in better], k_eff)
    assert more.change_exact >= base.change_exact
    assert more.change >= base.change


@given(own=RATINGS, games=PERIOD_GAMES, k=st.sampled_from([10, 20, 40]))
def test_period_change_is_k_times_score_minus_expected(
    own: int, games: list[tuple[int, Decimal]], k: int
) -> None:
    pc = period_change([RatedGame(own, o, s, NOW) for o, s in games], k)
    assert pc.change_exact == k * (pc.score - pc.expected)
    assert pc.change_exact == sum((d.change for d in pc.details if d.change is not None), D(0))
    assert pc.change == round_half_away(pc.change_exact)
    assert abs(pc.change_exact - pc.change) <= D("0.5")


@given(rating=st.integers(min_value=1400, max_value=2900), opponents=st.lists(RATINGS, max_size=40))
def test_a_period_of_wins_never_lowers_a_rating(rating: int, opponents: list[int]) -> None:
    state = seed_state(rating, 100, False, False, None, month(2026, 1))
    games = [PeriodGame(o, WIN, NOW) for o in opponents]
    new, out = close_period(state, games, month=month(2026, 1), tc="standard")
    assert new.rating is not None
    assert new.rating >= rating
    assert out.games == len(opponents)


# ---------------------------------------------------------------------------------------------
# Initial rating
# ---------------------------------------------------------------------------------------------


@given(results=st.lists(st.tuples(RATINGS, SCORES), min_size=1, max_size=30), data=st.data())
def test_initial_rating_is_monotone_in_score_and_bounded(
    results: list[tuple[int, Decimal]], data: st.DataObject
) -> None:
    ir = initial_rating(results)
    assert ir.ru <= 2200
    assert ir.published == (len(results) >= 5 and ir.ru >= 1400)
    i = data.draw(st.integers(min_value=0, max_value=len(results) - 1))
    better = list(results)
    better[i] = (results[i][0], min(WIN, results[i][1] + DRAW))
    assert initial_rating(better).ru >= ir.ru


# ---------------------------------------------------------------------------------------------
# Folds over several periods: K
# ---------------------------------------------------------------------------------------------


def test_reaching_2400_gives_k10_for_ever() -> None:
    start = month(2026, 1)
    state = seed_state(2390, 200, False, True, 1990, start)
    assert state.k == 20
    # +20 x (2 - 1.00) = +20 -> 2410 (two wins against equals)
    state, outs = fold(
        state,
        [
            (start, games_at(start, 2390, [WIN, WIN])),
            (add_months(start, 1), games_at(add_months(start, 1), 2410, [LOSS] * 6)),
            (add_months(start, 2), games_at(add_months(start, 2), 2380, [LOSS])),
        ],
    )
    assert [o.k for o in outs] == [20, 10, 10]
    assert [o.rating_after for o in outs] == [2410, 2380, 2375]
    assert [o.next_k for o in outs] == [10, 10, 10]
    assert state.ever_2400
    assert state.k == 10


def test_junior_once_published_2300_gets_20() -> None:
    start = month(2026, 1)
    state = seed_state(2290, 100, False, False, 2012, start)  # 14 years old on the 2026 lists
    assert state.k == 40
    state, outs = fold(
        state,
        [
            (start, games_at(start, 2290, [WIN])),  # +20 -> 2310
            (add_months(start, 1), games_at(add_months(start, 1), 2310, [LOSS] * 3)),
            (add_months(start, 2), games_at(add_months(start, 2), 2250, [WIN])),
        ],
    )
    assert [o.k for o in outs] == [40, 20, 20]
    assert [o.rating_after for o in outs] == [2310, 2280, 2289]
    assert [o.next_k for o in outs] == [20, 20, 20]
    assert state.ever_2300
    assert not state.ever_2400


def test_thirtieth_game_switches_k_from_the_next_list() -> None:
    start = month(2026, 3)
    state = seed_state(1600, 25, False, False, 1980, start)
    assert state.k == 40
    state, outs = fold(
        state,
        [
            (start, games_at(start, 1600, [DRAW] * 4)),  # 29 games
            (add_months(start, 1), games_at(add_months(start, 1), 1600, [WIN, DRAW, DRAW])),
            (add_months(start, 2), games_at(add_months(start, 2), 1620, [WIN])),
        ],
    )
    assert [o.rated_games_after for o in outs] == [29, 32, 33]
    # the period that brings him to 30+ games is still rated with K 40
    assert [o.k for o in outs] == [40, 40, 20]
    assert [o.next_k for o in outs] == [40, 20, 20]
    assert [o.rating_after for o in outs] == [1600, 1620, 1630]


def test_junior_k_lasts_until_the_january_list_after_the_18th_birthday_year() -> None:
    birth = 2008  # 18th birthday in 2026
    december = month(2026, 12)
    state = seed_state(1800, 300, False, False, birth, month(2026, 11))
    assert state.k == 40
    state, outs = fold(
        state,
        [
            (month(2026, 11), games_at(month(2026, 11), 1800, [WIN])),
            # December of B+18: rated on the January list of B+19, still K 40
            (december, games_at(december, 1820, [WIN])),
            # January of B+19: rated on the February list, K 20
            (month(2027, 1), games_at(month(2027, 1), 1840, [WIN])),
        ],
    )
    assert [o.list_date for o in outs] == [month(2026, 12), month(2027, 1), month(2027, 2)]
    assert [o.k for o in outs] == [40, 40, 20]
    assert [o.next_k for o in outs] == [40, 20, 20]
    assert [o.rating_after for o in outs] == [1820, 1840, 1850]


def test_seeded_rating_counts_as_published() -> None:
    adult = seed_state(2450, 500, False, False, 1980, month(2026, 1))
    assert (adult.ever_2400, adult.ever_2300, adult.k) == (True, True, 10)
    junior = seed_state(2350, 500, False, False, 2012, month(2026, 1))
    assert (junior.ever_2400, junior.ever_2300, junior.k) == (False, True, 20)
    newcomer = seed_state(None, 0, False, False, 2012, month(2026, 1))
    assert newcomer.k is None
    assert newcomer.rating is None
    flagged = seed_state(2000, 500, True, True, None, month(2026, 1))
    assert flagged.k == 10  # "ever 2400" given by the caller is kept


# ---------------------------------------------------------------------------------------------
# Folds: newcomers, the pool, the floor
# ---------------------------------------------------------------------------------------------


def test_newcomer_publishes_after_five_games_f_n01() -> None:
    start = month(2025, 10)
    state = seed_state(None, 0, False, False, 1995, start)
    first = [
        PeriodGame(1900, WIN, date(2025, 10, 4), "a"),
        PeriodGame(1901, WIN, date(2025, 10, 4), "a"),
        PeriodGame(1902, LOSS, date(2025, 10, 4), "a"),
        PeriodGame(None, WIN, date(2025, 10, 4), "a"),  # unrated opponent: not counted
    ]
    state, out1 = close_period(state, first, month=start, tc="standard")
    assert out1.rating_after is None
    assert out1.initial is None
    assert out1.pool_size == 3
    assert out1.games == 3
    assert [d.status for d in out1.details] == ["pooled", "pooled", "pooled", "unrated_opponent"]
    second = [
        PeriodGame(1902, WIN, date(2025, 11, 8), "b"),
        PeriodGame(1902, LOSS, date(2025, 11, 8), "b"),
    ]
    state, out2 = close_period(state, second, month=month(2025, 11), tc="standard")
    assert out2.became_rated
    assert out2.initial is not None
    assert out2.initial.ru == 1922
    assert out2.rating_after == 1922
    assert out2.list_date == month(2025, 12)
    assert out2.next_k == 40
    assert (state.rating, state.rated_games, state.pool, state.k) == (1922, 5, (), 40)
    # the next period rates him as a rated player with K 40
    state, out3 = close_period(
        state, games_at(month(2025, 12), 1922, [WIN]), month=month(2025, 12), tc="standard"
    )
    assert (out3.k, out3.rating_after) == (40, 1942)


def test_zero_score_in_the_first_event_is_disregarded() -> None:
    start = month(2026, 1)
    state = seed_state(None, 0, False, False, None, start)
    period = [
        PeriodGame(1700, LOSS, date(2026, 1, 3), "first"),
        PeriodGame(1700, LOSS, date(2026, 1, 3), "first"),
        PeriodGame(1800, WIN, date(2026, 1, 20), "second"),
        PeriodGame(1800, LOSS, date(2026, 1, 20), "second"),
    ]
    state, out = close_period(state, period, month=start, tc="standard")
    assert [d.status for d in out.details] == ["disregarded", "disregarded", "pooled", "pooled"]
    assert out.pool_size == 2
    assert any("§8.2.1" in note for note in out.notes)
    # a later zero-score event is not his first event: it counts
    later = games_at(add_months(start, 1), 1600, [LOSS, LOSS, LOSS], "third")
    state, out2 = close_period(state, later, month=add_months(start, 1), tc="standard")
    assert [d.status for d in out2.details] == ["pooled"] * 3
    assert out2.initial is not None
    assert out2.initial.n == 5
    # Ra = (1800 * 2 + 1600 * 3 + 3600) / 7 = 1714.29; p = 2/7 -> .29 -> -158 -> 1556
    assert out2.initial.ru == 1556
    assert state.rating == 1556


def test_only_the_first_event_is_disregarded_for_a_zero_score() -> None:
    """§8.2.1 speaks of the first event: a zero in a later event counts like any result."""
    start = month(2026, 1)
    state = seed_state(None, 0, False, False, None, start)
    state, out = close_period(state, games_at(start, 1700, [LOSS] * 4), month=start, tc="standard")
    assert out.pool_size == 0
    assert state.pool == () and state.first_event_settled
    nxt = add_months(start, 1)
    state, out = close_period(state, games_at(nxt, 1700, [LOSS] * 3), month=nxt, tc="standard")
    assert [d.status for d in out.details] == ["pooled"] * 3
    assert len(state.pool) == 3


def test_pool_is_a_26_month_sliding_window() -> None:
    start = month(2024, 4)
    fresh = seed_state(None, 0, False, False, None, start)
    state, _ = close_period(
        fresh, games_at(start, 1800, [WIN, DRAW, LOSS]), month=start, tc="standard"
    )
    assert len(state.pool) == 3
    # 25 months later the first results are still in the window: 5 games -> rated
    m25 = add_months(start, 25)
    rated, out = close_period(state, games_at(m25, 1800, [WIN, LOSS]), month=m25, tc="standard")
    assert out.initial is not None
    assert out.initial.n == 5
    assert rated.rating == 1800  # Ra 1800; 2.5 points: p = 3.5 / 7 = .50 -> dp 0
    # 26 months later they have dropped out: only 2 games in the pool
    m26 = add_months(start, 26)
    later, out = close_period(state, games_at(m26, 1800, [WIN, LOSS]), month=m26, tc="standard")
    assert out.initial is None
    assert later.rating is None
    assert [pg.month for pg in later.pool] == [m26, m26]
    assert any("older than 26 months" in note for note in out.notes)


def test_sub_1400_initial_rating_keeps_the_pool() -> None:
    start = month(2026, 1)
    state = seed_state(None, 0, False, False, None, start)
    state, out = close_period(
        state, games_at(start, 1400, [DRAW, LOSS, LOSS, LOSS, LOSS]), month=start, tc="standard"
    )
    assert out.initial is not None
    assert out.initial.ru == 1284
    assert out.rating_after is None
    assert len(state.pool) == 5
    nxt = add_months(start, 1)
    state, out = close_period(state, games_at(nxt, 1600, [WIN] * 5), month=nxt, tc="standard")
    assert out.initial is not None
    assert out.initial.n == 10
    # Ra = (7000 + 8000 + 3600) / 12 = 1550; p = 6.5/12 = .5417 -> .54 -> 29 -> 1579
    assert out.initial.ru == 1579
    assert state.rating == 1579
    assert state.rated_games == 10


def test_drop_below_1400_makes_the_player_unrated() -> None:
    start = month(2026, 1)
    state = seed_state(1405, 80, False, False, None, start)
    state, out = close_period(state, games_at(start, 1405, [LOSS]), month=start, tc="standard")
    assert out.rating_before == 1405
    assert out.rating_after is None
    assert out.dropped_to_unrated
    assert out.change == -10
    assert out.next_k is None
    assert (state.rating, state.rated_games, state.pool, state.k) == (None, 81, (), None)
    assert any("below 1400" in note for note in out.notes)
    # from now on he is treated like any other unrated player; his zero-score event is no
    # longer a "first event" (his game count is kept)
    nxt = add_months(start, 1)
    state, out = close_period(state, games_at(nxt, 1500, [LOSS, LOSS]), month=nxt, tc="standard")
    assert [d.status for d in out.details] == ["pooled", "pooled"]
    assert out.k is None
    assert out.change == 0
    assert len(state.pool) == 2


@given(
    offsets=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=30),
    scores=st.lists(SCORES, min_size=30, max_size=30),
)
def test_pool_never_holds_results_older_than_26_months(
    offsets: list[int], scores: list[Decimal]
) -> None:
    state = seed_state(None, 0, False, False, None, month(2024, 3))
    m = month(2024, 3)
    # opponents far below keep Ru under 1400 for losses, so the pool may stay open a long time
    for i, gap in enumerate(offsets):
        m = add_months(m, gap)
        game = PeriodGame(1000, scores[i] if scores[i] != WIN else LOSS, m.replace(day=2), i)
        state, _ = close_period(state, [game], month=m, tc="standard")
        now = m.year * 12 + m.month
        assert all(now - (pg.month.year * 12 + pg.month.month) < 26 for pg in state.pool)
        assert state.rating is None or state.rating >= 1400
