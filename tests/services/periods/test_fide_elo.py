"""Closing periods and rerating, service by service: FIDE's rules on stored games (the FIDE
Elo system, tracker.services.periods.fide_elo, as a close and a rerate run it).

Each step runs in a transaction of its own, as each CLI command does; the CLI end to end
(messages, JSON, exit codes) is in tests/cli/test_periods.py.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tests.helpers import Services, close, day, external, game, month, seeded, unrated
from tracker.services import games
from tracker.services.events.declare import Declaration, add_event
from tracker.services.lists import rated_games
from tracker.services.periods import closing, history

D = Decimal


def rows(db: Services, player: str, tc: str = "standard") -> tuple[history.HistoryRow, ...]:
    return db(history.history, player, tc).rows  # type: ignore[no-any-return]


def test_700_rule_over_a_period(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Busy", 2054, games=300, born=1970)
        external(s, "Opp")
        for d in range(1, 29):
            game(s, "Busy", "Opp", "1/2-1/2", f"2026-02-{d:02d}", black_rating=2054,
                 event="Marathon", round_=str(d))  # fmt: skip
        for d in range(1, 12):
            game(s, "Opp", "Busy", "0-1", f"2026-02-{d:02d}", white_rating=2054,
                 event="Marathon", round_=f"{d}b")  # fmt: skip
    db(close, "2026-02")
    (row,) = rows(db, "Busy")
    assert row.games == 39 and row.k == 17  # K 20 x 39 > 700 -> 700 // 39
    assert row.change_exact == D("93.5") and row.change == 94  # 17 x 11 x 0.5
    assert row.note is not None and "700 rule" in row.note


def test_2650_rule_follows_the_event_start_date(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Elite", 2700, games=900, born=None)
        external(s, "Ext")
        game(s, "Elite", "Ext", "1-0", "2025-09-20", black_rating=1964, event="September Open")
        game(s, "Elite", "Ext", "1-0", "2025-10-02", black_rating=1964, event="October Open")
    db(close, "2025-10")
    sept, octo = rows(db, "Elite")
    assert (sept.expected, sept.change_exact, sept.rating) == (D("0.92"), D("0.8"), 2701)
    assert (octo.expected, octo.change_exact, octo.rating) == (D("1.0"), D("0.0"), 2701)


def test_a_league_keeps_the_rules_of_its_start_and_takes_each_months_list(db: Services) -> None:
    """A league from 6 September 2025 to 10 January 2026 (over 90 days: rated month by
    month). Its October game is rated with the October list but by the rules in force when
    it began: 2700 against 2100 expects .92 (400 cap), not .98 (the 2650 exception of
    1 October 2025), as the October Open's game does."""
    with db.transaction() as s:
        seeded(s, "Elite", 2700, games=900, born=None)
        seeded(s, "Club", 2100, games=900, born=None)
        seeded(s, "Other", 2100, games=900, born=None)
        add_event(s, "League", Declaration(start=day("2025-09-06"), kind="league"))
        game(s, "Club", "Other", "1-0", "2025-09-06", event="League", round_="1")
        game(s, "Elite", "Club", "1-0", "2025-10-12", event="League", round_="2")
        game(s, "Other", "Club", "1-0", "2026-01-10", event="League", round_="3")
        game(s, "Elite", "Other", "1-0", "2025-10-20", event="October Open")
    with db.transaction() as s:
        played = rated_games.period_games(s, "standard", month("2025-10"))
    league = next(g for g in played if g.played_on == day("2025-10-12"))
    assert (league.event_start, league.rules_from) == (month("2025-10"), day("2025-09-06"))
    db(close, "2025-10")
    sept, octo = rows(db, "Elite")
    assert (sept.games, octo.games) == (0, 2)
    # the league: .92 (400 cap, September rules); the open: .98 (2650 exception)
    assert octo.expected == D("0.92") + D("0.98")
    assert (octo.change_exact, octo.rating) == (D("1.0"), 2701)


def test_history_has_a_row_for_a_month_of_games_rated_later(db: Services) -> None:
    """README: history has a row for every closed period the player played in, also when
    his games there are rated later with their event (and he is on no list yet)."""
    with db.transaction() as s:
        seeded(s, "R1", 1800)
        seeded(s, "R2", 1800)
        unrated(s, "N", born=1990)
        game(s, "N", "R1", "1-0", "2026-09-28", event="Autumn Open", round_="1")
        game(s, "N", "R2", "0-1", "2026-10-03", event="Autumn Open", round_="2")
    db(close, "2026-09")
    (sept,) = rows(db, "N")
    assert (sept.month, sept.games, sept.rating) == (month("2026-09"), 0, None)
    assert sept.note == "1 game(s) rated with their event in 2026-10"
    assert sept.glicko is not None
    db(close, "2026-10")
    sept, octo = rows(db, "N")
    assert sept.note == "1 game(s) rated with their event in 2026-10"
    assert (octo.games, octo.score, octo.note) == (2, D("1"), None)
    # a listed player's row of that month says so too
    r1 = {r.month: r for r in rows(db, "R1")}
    assert r1[month("2026-09")].games == 0
    assert r1[month("2026-09")].note == "1 game(s) rated with their event in 2026-10"


def test_rounding_minus_two_and_a_half(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Master", 2000, games=500, born=None, ever_2400=True)
        external(s, "Ext")
        game(s, "Master", "Ext", "1/2-1/2", "2026-01-05", black_rating=1811)
    db(close, "2026-01")
    (row,) = rows(db, "Master")
    assert (row.k, row.change_exact, row.change, row.rating) == (10, D("-2.5"), -3, 1997)


def test_tracked_opponents_use_the_list_in_force_at_the_event_start(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "X", 2000)
        seeded(s, "Y", 2000)
        # January: X beats Y in a one-day open -> X 2010, Y 1990 on the February list.
        game(s, "X", "Y", "1-0", "2026-01-20", event="Jan Open")
        # The Club Cup starts on 10 January and ends on 7 February: rated as a whole in
        # February, with the January list (both 2000); the Feb Open with the February list.
        game(s, "X", "Y", "1-0", "2026-01-10", event="Club Cup", round_="1")
        game(s, "Y", "X", "1-0", "2026-02-07", event="Club Cup", round_="2")
        game(s, "Y", "X", "1-0", "2026-02-14", event="Feb Open")
    db(close, "2026-02")
    jan, feb = rows(db, "X")
    assert (jan.games, jan.rating) == (1, 2010)
    # Club Cup: 2000 v 2000 -> .50 twice; Feb Open: 2010 v 1990 (D=20) -> .53; K 20.
    assert feb.games == 3 and feb.expected == D("1.53")
    assert feb.change_exact == D("-10.6") and feb.rating == 1999


def test_a_forfeit_leaves_the_elo_unchanged(db: Services) -> None:
    """§5.1: a forfeit is no game. A month of nothing but a forfeit win rates nothing: the
    winner keeps his rating and his game count, the loser too; a played game the month after
    is rated from the unchanged ratings."""
    with db.transaction() as s:
        seeded(s, "Win", 2000, games=40)
        seeded(s, "Lose", 1900, games=40)
        game(s, "Win", "Lose", "+-", "2026-01-10")
        game(s, "Win", "Lose", "1-0", "2026-02-10")
    db(close, "2026-02")
    jan, feb = rows(db, "Win")
    assert (jan.rating_before, jan.games, jan.change_exact, jan.rating) == (2000, 0, D(0), 2000)
    assert (feb.rating_before, feb.games) == (2000, 1)
    assert (feb.expected, feb.change_exact, feb.rating) == (D("0.64"), D("7.2"), 2007)
    jan, feb = rows(db, "Lose")
    assert (jan.games, jan.rating) == (0, 1900)
    assert (feb.rating_before, feb.games, feb.rating) == (1900, 1, 1893)


SEASON = [
    ("Ann", "Bob", "1-0", "2026-01-10", None, None),
    ("Cid", "Ext", "1-0", "2026-01-11", None, 1700),
    ("Cid", "Ann", "1/2-1/2", "2026-01-12", None, None),
    ("Bob", "Cid", "0-1", "2026-02-03", None, None),
    ("Cid", "Ext", "1-0", "2026-02-04", None, 1750),
    ("Ann", "Cid", "0-1", "2026-02-05", None, None),
    ("Bob", "Ann", "1/2-1/2", "2026-03-01", None, None),
    ("Cid", "Bob", "1-0", "2026-03-02", None, None),
]


def season(db: Services) -> list[int]:
    """A junior, a seeded adult, an unrated newcomer and an external over three months;
    the games' ids."""
    with db.transaction() as s:
        seeded(s, "Ann", 1850, games=20, born=2011)
        seeded(s, "Bob", 2050, games=80, born=1975)
        unrated(s, "Cid", born=2000)
        external(s, "Ext")
        return [
            game(s, white, black, result, on, white_rating=wr, black_rating=br).id
            for white, black, result, on, wr, br in SEASON
        ]


def all_history(db: Services) -> dict[str, Any]:
    return {name: rows(db, name) for name in ("Ann", "Bob", "Cid")}


def test_a_typo_corrected_by_game_edit_then_rerate_equals_the_right_result(
    db: Services, other_db: Services
) -> None:
    season(other_db)
    other_db(close, "2026-03")
    right = all_history(other_db)

    ids = season(db)
    bob_cid = ids[3]  # February
    db(games.edit_game, bob_cid, result="1-0")  # a typo
    db(close, "2026-03")
    assert all_history(db) != right
    db(games.edit_game, bob_cid, result="0-1")
    statuses = [p.status for p in db(closing.list_periods, None)]
    assert statuses == ["closed", "stale", "stale"]
    db(closing.rerate, tc=None, from_month=None)
    assert all_history(db) == right
