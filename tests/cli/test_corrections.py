"""Corrections keep their meaning (issue 33, points 7 and 8): a colour swap keeps who won; a
player without games is in no closed period; a forecast after an open month rates with the
rating the close will use."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, js, ok, one_line_error


@pytest.fixture
def club(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.setenv("TRACKER_TODAY", "2026-11-12")
    ok(cli("player", "add", "Ann", "--rating", "2000", "--games", "50"))
    ok(cli("player", "add", "Bob", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Ann", "Bob", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-09"))
    return cli


def statuses(cli: Cli) -> set[str]:
    return {p["status"] for p in js(cli, "period", "list")}


def test_swapping_the_colours_keeps_who_won(club: Cli) -> None:
    r = ok(club("game", "edit", "1", "--white", "Bob", "--black", "Ann"))
    (game,) = js(club, "game", "list")
    assert (game["white"], game["black"], game["result"]) == ("Bob", "Ann", "0-1")
    assert "colours swapped: the result is now 0-1, the same player winning" in r.stderr
    ok(club("game", "edit", "1", "--white", "Ann", "--black", "Bob", "--result", "0-1"))
    (game,) = js(club, "game", "list")
    assert (game["white"], game["result"]) == ("Ann", "0-1")  # as given: Bob won


def test_a_player_without_games_marks_nothing_stale(club: Cli) -> None:
    ok(club("player", "add", "Cid", "--rating", "1800", "--games", "30"))
    ok(club("player", "add", "Dee"))
    ok(club("player", "edit", "Cid", "--born", "2012"))
    ok(club("player", "seed", "Cid", "--rating", "1820", "--games", "31"))
    ok(club("player", "remove", "Dee"))
    assert statuses(club) == {"closed"}
    # his seed is on the lists as it is, with his junior K
    line = next(r for r in js(club, "list")["players"] if r["name"] == "Cid")
    assert (line["rating"], line["k"]) == (1820, 40)
    # a player with games: his birth year changes his K, the closed periods go stale
    ok(club("player", "edit", "Bob", "--born", "2012"))
    assert statuses(club) == {"stale"}


def test_a_forecast_after_an_open_month_rates_as_the_close_will(
    club: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann, 2000 on the list, wins five games in open October; a forecast for a November
    game against a 2092 expects from her November rating, as the close does."""
    for day in ("01", "02", "03", "04", "05"):
        ok(club("game", "add", "Ann", "Bob", "1-0", "--date", f"2026-10-{day}", "--event",
                f"Oct Open {day}"))  # fmt: skip
    f = js(club, "forecast", "Ann", "2092", "--date", "2026-11-10")
    win = next(r for r in f["scores"] if r["score"] == 1)["low"]
    ok(club("period", "close", "2026-10"))
    (ann,) = [r for r in js(club, "list")["players"] if r["name"] == "Ann"]
    assert f["rating"] == ann["rating"]  # the rating the November list gives her
    (opponent,) = f["opponents"]
    assert opponent["expected"] == pytest.approx(0.43)  # from 2041 against 2092, not 2000
    assert (win["change_exact"], win["rating"]) == (11.4, ann["rating"] + 11)
    # and the close gives it
    ok(club("player", "add", "Eve", "--external"))
    ok(club("game", "add", "Ann", "Eve", "1-0", "--date", "2026-11-10", "--black-rating", "2092"))
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-02")
    ok(club("period", "close", "2026-11"))
    november = js(club, "history", "Ann", "--month", "2026-11")
    assert (november["games"][0]["expected"], november["change_exact"]) == (0.43, 11.4)


def test_the_spellings_people_type(club: Cli) -> None:
    """½ and 1/2 for a draw, an en dash in 1-0 (U+2013), a double forfeit explained, a command or an
    umlaut spelt another way (issue 33, point 9)."""
    ok(club("player", "add", "Müller, Hans", "--rating", "1850", "--games", "40"))
    ok(club("player", "add", "Schröder, Jörg", "--rating", "1750", "--games", "40"))
    r = ok(club("game", "add-round", "Club Night", "--date", "2026-11-03", "--round", "1",
                input="Ann ½ Bob\nMüller 1\u20130 Schröder\n"))  # fmt: skip
    assert "Ann 1/2-1/2 Bob" in r.stderr and "Müller, Hans 1-0 Schröder, Jörg" in r.stderr
    r = ok(club("game", "add-round", "Club Night", "--date", "2026-11-03", "--round", "2",
                input="Bob 1/2 Schröder\nAnn 0-0 Müller\n"))  # fmt: skip
    assert "Bob 1/2-1/2 Schröder, Jörg" in r.stderr
    assert "Ann 0-0 Müller, Hans, 2026-11-03, standard, Club Night round 2 (a double forfeit: " \
        "neither played; not rated)" in " ".join(r.stderr.split())  # fmt: skip
    assert one_line_error(club("player", "show", "Mueller"), 1) == (
        "error: no player named 'Mueller'; did you mean \"Müller, Hans\"?"
    )
    assert 'did you mean "Schröder, Jörg"?' in one_line_error(club("history", "Schro"), 1)
    assert one_line_error(club("hist", "Ann"), 2) == (
        "error: No such command 'hist'. Did you mean 'history'?"
    )
