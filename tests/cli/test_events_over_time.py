"""FIDE events over time, through the CLI on both databases: when an event is rated (the
period it ends in; a league month by month), the §8.2.1 first-event rule judged on the whole
first event, recorded ratings below 1400, history rows and stale marks (issue 11)."""

from __future__ import annotations

from typing import Any

from tests.helpers import Cli, js, ok

RATED = ("R1", "R2", "R3", "R4", "R5", "R6")


def club(cli: Cli, *newcomers: str) -> None:
    """Six rated players at 1800 (K 20) and the unrated newcomers."""
    for name in RATED:
        ok(cli("player", "add", name, "--rating", "1800", "--games", "100", "--born", "1980"))
    for name in newcomers:
        ok(cli("player", "add", name, "--born", "1990"))


def play(cli: Cli, white: str, black: str, result: str, day: str, event: str | None,
         rnd: str | None = None, *extra: str) -> None:  # fmt: skip
    args = ["game", "add", white, black, result, "--date", day, *extra]
    if event is not None:
        args += ["--event", event]
    if rnd is not None:
        args += ["--round", rnd]
    ok(cli(*args))


def history(cli: Cli, name: str) -> dict[str, dict[str, Any]]:
    return {row["month"]: row for row in js(cli, "history", name)}


def pending(cli: Cli, name: str) -> int:
    """The newcomer's results waiting in the pool (standard)."""
    ratings = js(cli, "player", "show", name)["ratings"]
    return int(next(r["pending_games"] for r in ratings if r["tc"] == "standard"))


# ---------------------------------------------------------------------------------------
# §8.2.1: the first event only, the event as a whole, the event of the first game, its score


def test_a_zero_in_a_later_event_counts_only_the_first_is_disregarded(cli: Cli) -> None:
    club(cli, "N")
    play(cli, "N", "R1", "0-1", "2026-01-10", "Jan Open", "1")
    play(cli, "R2", "N", "1-0", "2026-01-11", "Jan Open", "2")
    play(cli, "N", "R3", "0-1", "2026-02-14", "Feb Open", "1")
    play(cli, "R4", "N", "1-0", "2026-02-15", "Feb Open", "2")
    ok(cli("period", "close", "2026-02"))
    rows = history(cli, "N")
    assert rows["2026-01"]["games"] == 0
    assert "zero score in the first event disregarded (§8.2.1)" in rows["2026-01"]["note"]
    # the second event's zero is a result like any other: pooled
    assert rows["2026-02"]["games"] == 2 and rows["2026-02"]["note"] is None
    assert pending(cli, "N") == 2


def test_a_first_event_across_a_month_end_is_judged_as_a_whole(cli: Cli) -> None:
    """An open from 28 September to 3 October is rated in October, as one event: its
    September losses are not a zero first event, since the player scores in October."""
    club(cli, "N")
    play(cli, "N", "R1", "0-1", "2026-09-28", "Autumn Open", "1")
    play(cli, "R2", "N", "1-0", "2026-09-29", "Autumn Open", "2")
    play(cli, "N", "R3", "1-0", "2026-10-02", "Autumn Open", "3")
    play(cli, "R4", "N", "1/2-1/2", "2026-10-03", "Autumn Open", "4")
    ok(cli("period", "close", "2026-10"))
    periods = {p["month"]: p["games"] for p in js(cli, "period", "list")}
    assert periods == {"2026-09": 0, "2026-10": 4}
    rows = history(cli, "N")
    # September has a row (he played in it), nothing rated there: the open is, in October
    assert rows["2026-09"]["games"] == 0
    assert rows["2026-09"]["note"] == "2 game(s) rated with their event in 2026-10"
    assert rows["2026-10"]["games"] == 4 and rows["2026-10"]["score"] == 1.5
    assert pending(cli, "N") == 4


def league(cli: Cli, august: str) -> None:
    """A league from 1 June to 19 September (more than 90 days): N plays in July and
    August; the others fill the months around."""
    ok(cli("event", "add", "League", "--start", "2026-06-01", "--type", "league"))
    play(cli, "R5", "R6", "1/2-1/2", "2026-06-01", "League", "1")
    play(cli, "N", "R1", "0-1", "2026-07-04", "League", "2")
    play(cli, "R2", "N", "1-0", "2026-07-18", "League", "3")
    play(cli, "N", "R3", august, "2026-08-01", "League", "4")
    play(cli, "R6", "R5", "1/2-1/2", "2026-09-19", "League", "5")


def test_a_leagues_zero_first_part_is_held_until_the_player_scores(cli: Cli) -> None:
    club(cli, "N")
    league(cli, "1-0")
    ok(cli("period", "close", "2026-07"))
    july = history(cli, "N")["2026-07"]
    assert july["games"] == 2 and "held until it ends" in july["note"]
    ok(cli("period", "close", "2026-08"))
    # August scores: the July results count after all, with August's
    assert history(cli, "N")["2026-08"]["games"] == 1
    assert pending(cli, "N") == 3


def test_a_league_with_zero_overall_is_disregarded_whole(cli: Cli) -> None:
    club(cli, "N")
    league(cli, "0-1")
    ok(cli("period", "close", "2026-09"))
    rows = history(cli, "N")
    assert "held until it ends" in rows["2026-07"]["note"]
    assert "held until it ends" in rows["2026-08"]["note"]  # the league goes on
    # it ends in September, where N has no game: all of it disregarded
    assert "3 held result(s) of the first event disregarded" in rows["2026-09"]["note"]
    assert pending(cli, "N") == 0


def test_the_first_event_is_the_event_of_the_first_game(cli: Cli) -> None:
    """The Club Cup started first (August), but N's first game was in the September Open."""
    club(cli, "N")
    play(cli, "R5", "R6", "1-0", "2026-08-22", "Club Cup", "1")
    play(cli, "N", "R1", "0-1", "2026-09-05", "September Open", "1")
    play(cli, "R2", "N", "1-0", "2026-09-06", "September Open", "2")
    play(cli, "N", "R3", "0-1", "2026-09-12", "Club Cup", "2")
    play(cli, "R4", "N", "1-0", "2026-09-19", "Club Cup", "3")
    ok(cli("period", "close", "2026-09"))
    sept = history(cli, "N")["2026-09"]
    assert "zero score in the first event disregarded" in sept["note"]
    assert sept["games"] == 2  # the Club Cup's two losses are pooled
    assert pending(cli, "N") == 2


def test_the_first_events_score_counts_games_against_unrated_opponents(cli: Cli) -> None:
    """A win against an unrated player is a score in the event: its losses count."""
    club(cli, "N", "U")
    play(cli, "N", "R1", "0-1", "2026-09-05", "Open", "1")
    play(cli, "N", "U", "1-0", "2026-09-06", "Open", "2")
    play(cli, "R2", "N", "1-0", "2026-09-06", "Open", "3")
    ok(cli("period", "close", "2026-09"))
    sept = history(cli, "N")["2026-09"]
    assert sept["games"] == 2 and "disregarded" not in (sept["note"] or "")
    assert pending(cli, "N") == 2


# ---------------------------------------------------------------------------------------
# When an event is rated, and with which list


def test_an_open_across_a_month_end_is_rated_in_the_month_it_ends(cli: Cli) -> None:
    """30 July to 2 August: nothing of it on the August list, all of it (with the July list)
    on the September one, as FIDE rated an event from 31 October to 2 November 2025 on the
    December list with October ratings (F-P02/F-P03)."""
    club(cli)
    play(cli, "R2", "R3", "1-0", "2026-07-10", None)  # July: R2 1810, R3 1790 in August
    play(cli, "R1", "R2", "1-0", "2026-07-30", "Summer Open", "1")
    play(cli, "R1", "R3", "1-0", "2026-07-31", "Summer Open", "2")
    play(cli, "R4", "R1", "0-1", "2026-08-01", "Summer Open", "3")
    play(cli, "R1", "R5", "1-0", "2026-08-02", "Summer Open", "4")
    ok(cli("period", "close", "2026-07"))
    assert history(cli, "R1")["2026-07"]["games"] == 0
    ok(cli("period", "close", "2026-08"))
    aug = history(cli, "R1")["2026-08"]
    assert aug["games"] == 4 and aug["expected"] == 2.0  # the July list: every one at 1800
    assert aug["change_exact"] == 40.0 and aug["rating"] == 1840


def test_a_league_rates_each_month_with_that_months_list(cli: Cli) -> None:
    """N gets a first rating on the August list from a July open; the league (since June)
    then meets him in September: he is rated, not 'unrated since the league began'."""
    club(cli, "N")
    ok(cli("event", "add", "League", "--start", "2026-06-06", "--type", "league"))
    play(cli, "R5", "R6", "1/2-1/2", "2026-06-06", "League", "1")
    for i, opponent in enumerate(("R1", "R2", "R3", "R4", "R5"), start=1):
        play(cli, "N", opponent, "1/2-1/2", f"2026-07-{10 + i:02d}", "July Open", str(i))
    play(cli, "R6", "N", "1/2-1/2", "2026-09-05", "League", "2")
    play(cli, "R5", "R6", "1/2-1/2", "2026-10-10", "League", "3")
    ok(cli("period", "close", "2026-10"))
    assert history(cli, "N")["2026-07"]["rating"] == 1800  # five draws against 1800s
    sept = history(cli, "R6")["2026-09"]
    assert sept["games"] == 1 and sept["note"] is None  # N counts as rated (1800)
    assert sept["expected"] == 0.5


def test_a_league_keeps_the_rules_of_the_day_it_began(cli: Cli) -> None:
    """A league from 6 September 2025 (over 90 days) rates its October games with the
    October list by the rules of September: the 2650 exception (1 October 2025) does not
    apply, 2700 against 2100 expects .92 (400 cap), where an October open expects .98."""
    for name, rating in (("Elite", "2700"), ("Club", "2100"), ("Other", "2100")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "900"))
    ok(cli("event", "add", "League", "--start", "2025-09-06", "--type", "league"))
    play(cli, "Club", "Other", "1-0", "2025-09-06", "League", "1")
    play(cli, "Elite", "Club", "1-0", "2025-10-12", "League", "2")
    play(cli, "Other", "Club", "1-0", "2026-01-10", "League", "3")
    play(cli, "Elite", "Other", "1-0", "2025-10-20", "October Open")
    ok(cli("period", "close", "2025-10"))
    d = js(cli, "history", "Elite", "--month", "2025-10")
    assert [(g["opponent"], g["expected"]) for g in d["games"]] == [
        ("Club", 0.92),
        ("Other", 0.98),
    ]
    assert (d["change_exact"], d["rating"]) == (1.0, 2701)


def test_a_recorded_rating_below_1400_is_unrated_from_march_2024(cli: Cli) -> None:
    club(cli)
    ok(cli("player", "add", "Visitor", "--external"))
    play(cli, "R1", "Visitor", "1-0", "2024-01-20", None, None, "--black-rating", "1300")
    play(cli, "R1", "Visitor", "1-0", "2024-05-18", None, None, "--black-rating", "1300")
    ok(cli("period", "close", "2024-05"))
    rows = history(cli, "R1")
    assert rows["2024-01"]["games"] == 1  # a 1000 floor then: a rated opponent
    assert rows["2024-05"]["games"] == 0
    assert "1 game(s) against unrated opponents not rated" in rows["2024-05"]["note"]


def test_history_shows_the_periods_where_nothing_counted(cli: Cli) -> None:
    club(cli, "N", "M", "U")
    play(cli, "N", "R1", "0-1", "2026-01-10", "Open", "1")  # a zero first event
    play(cli, "M", "U", "1-0", "2026-01-10", "Open", "2")  # only an unrated opponent
    ok(cli("period", "close", "2026-01"))
    (n,) = js(cli, "history", "N")
    assert n["games"] == 0 and "disregarded" in n["note"]
    (m,) = js(cli, "history", "M")
    assert m["games"] == 0 and "against unrated opponents" in m["note"]


def test_history_shows_a_month_whose_games_its_event_rates_later(cli: Cli) -> None:
    """A never-rated newcomer plays only rounds of an open rated the next month: the month he
    played in has a row all the same (nothing rated, the note says where his games went)."""
    club(cli, "N")
    play(cli, "N", "R1", "1-0", "2026-09-28", "Autumn Open", "1")
    play(cli, "R2", "N", "1/2-1/2", "2026-09-29", "Autumn Open", "2")
    play(cli, "N", "R3", "0-1", "2026-10-03", "Autumn Open", "3")
    ok(cli("period", "close", "2026-09"))
    (sept,) = js(cli, "history", "N")
    assert (sept["month"], sept["games"], sept["rating"]) == ("2026-09", 0, None)
    assert sept["note"] == "2 game(s) rated with their event in 2026-10"
    assert sept["glicko"] is not None  # the shadow rated them in September
    ok(cli("period", "close", "2026-10"))
    rows = history(cli, "N")
    assert rows["2026-09"]["note"] == "2 game(s) rated with their event in 2026-10"
    assert rows["2026-10"]["games"] == 3 and rows["2026-10"]["score"] == 1.5
    table = ok(cli("history", "N")).stdout
    assert "2 game(s) rated with their event in 2026-10" in table


# ---------------------------------------------------------------------------------------
# Stale marks follow the period in which the event is rated


def test_a_game_added_to_an_event_marks_stale_the_period_that_rates_it(cli: Cli) -> None:
    club(cli)
    play(cli, "R1", "R2", "1-0", "2026-08-10", None)
    play(cli, "R3", "R4", "1-0", "2026-09-28", "Autumn Open", "1")
    play(cli, "R4", "R3", "1-0", "2026-10-03", "Autumn Open", "2")
    ok(cli("period", "close", "2026-10"))
    r = cli("game", "add", "R3", "R5", "1-0", "--date", "2026-10-04", "--event", "Autumn Open",
            "--round", "3")  # fmt: skip
    ok(r)
    status = {p["month"]: p["status"] for p in js(cli, "period", "list")}
    # the open is rated in October: September (where it began) keeps its numbers
    assert status == {"2026-08": "closed", "2026-09": "closed", "2026-10": "stale"}
    assert "closed standard period 2026-10 is now stale" in r.stderr
    ok(cli("rerate"))
    assert history(cli, "R3")["2026-10"]["games"] == 3


def test_history_month_shows_the_period_game_by_game(cli: Cli) -> None:
    """V02 of the references: 1500 (K 20) beats a 1400, draws a 1600, loses to a 1550."""
    for name, rating in (("P", "1500"), ("A", "1400"), ("B", "1600"), ("C", "1550")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "100", "--born", "1980"))
    play(cli, "P", "A", "1-0", "2026-01-10", "January Open", "1")
    play(cli, "B", "P", "1/2-1/2", "2026-01-11", "January Open", "2")
    play(cli, "P", "C", "0-1", "2026-01-12", "January Open", "3")
    ok(cli("period", "close", "2026-01"))
    d = js(cli, "history", "P", "--month", "2026-01")
    assert (d["rating_before"], d["rating"], d["k"], d["performance"]) == (1500, 1501, 20, 1517)
    games = [(g["opponent"], g["opponent_rating"], g["expected"], g["change"]) for g in d["games"]]
    assert games == [("A", 1400, 0.64, 7.2), ("B", 1600, 0.36, 2.8), ("C", 1550, 0.43, -8.6)]
    assert (d["wins"], d["draws"], d["losses"], d["change_exact"]) == (1, 1, 1, 1.4)
    table = ok(cli("history", "P", "--month", "2026-01"))
    assert "P (standard), 2026-01: 1500 -> 1501 on the 2026-02-01 list, K 20" in table.stdout
    assert "+1 =1 -1: score 1.5, expected 1.43, change +1.40 -> +1, performance 1517" in (
        table.stdout
    )
    assert all(len(line) <= 80 for line in table.stdout.splitlines())
    bad = cli("history", "P", "--month", "2026-02")
    assert bad.exit_code == 1 and "2026-02 is not a closed standard period" in bad.stderr


def test_an_import_names_the_first_period_it_made_stale(cli: Cli, tmp_path: Any) -> None:
    """A game of February imported after March was closed makes February and March stale,
    not January (the month the message once named)."""
    club(cli)
    play(cli, "R1", "R2", "1-0", "2026-01-10", None)
    play(cli, "R3", "R4", "1-0", "2026-03-10", None)
    ok(cli("period", "close", "2026-03"))
    path = tmp_path / "late.csv"
    path.write_text("date,white,black,result\n2026-02-14,R5,R6,1-0\n", encoding="utf-8")
    r = ok(cli("import", str(path), "--tc", "standard"))
    assert "closed standard periods from 2026-02 are now stale" in r.stderr
    status = {p["month"]: p["status"] for p in js(cli, "period", "list")}
    assert status == {"2026-01": "closed", "2026-02": "stale", "2026-03": "stale"}
