"""Closing periods and rerating through the CLI: messages, JSON and the rerate paths end to
end (FIDE's numbers on stored games, service by service:
tests/services/periods/test_fide_elo.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.helpers import Cli, fingerprint, ok, one_line_error
from tracker.cli.app import app


def history(cli: Cli, player: str, *extra: str) -> list[dict[str, Any]]:
    return json.loads(ok(cli("history", player, "--json", *extra)).stdout)  # type: ignore[no-any-return]


def add(cli: Cli, *args: str) -> None:
    ok(cli(*args))


def test_one_period_from_the_pages(cli: Cli) -> None:
    add(cli, "player", "add", "Player", "--rating", "1500", "--games", "100", "--born", "1980")
    for name, rating in (("A", "1400"), ("B", "1600"), ("C", "1550")):
        add(cli, "player", "add", name, "--rating", rating, "--games", "100", "--born", "1980")
    add(cli, "game", "add", "Player", "A", "1-0", "--date", "2026-01-10", "--event", "Open")
    add(cli, "game", "add", "B", "Player", "1/2-1/2", "--date", "2026-01-11", "--event", "Open")
    add(cli, "game", "add", "Player", "C", "0-1", "--date", "2026-01-12", "--event", "Open")
    r = cli("period", "close", "2026-01")
    assert r.exit_code == 0, r.stderr
    assert "closed 2026-01 (standard): 3 games" in r.stderr
    (row,) = history(cli, "Player")
    shadow = {key: row.pop(key) for key in ("glicko", "rd", "volatility", "provisional")}
    # seeded after 100 games: the shadow starts at the RD floor of 45, not as a new account
    assert shadow["provisional"] is False and 45 <= shadow["rd"] < 110
    assert row == {
        "month": "2026-01",
        "list": "2026-02-01",
        "rating_before": 1500,
        "rating": 1501,
        "k": 20,
        "games": 3,
        "score": 1.5,
        "expected": 1.43,
        "change_exact": 1.4,
        "change": 1,
        "stale": False,
        "note": None,
        "rank": 3,  # of the 3 rated on the list (A dropped below the floor), none below him
        "of": 3,
        "percentile": 0.0,
    }
    # Opponents: A lost to a 1500 (PD .36 for him): -7.2 -> 1393 is below 1400 -> unrated.
    (a_row,) = history(cli, "A")
    assert a_row["change_exact"] == -7.2 and a_row["rating"] is None
    assert "below 1400" in a_row["note"]


def test_fides_published_first_rating_1922(cli: Cli) -> None:
    add(cli, "player", "add", "Newcomer", "--born", "1990")
    add(cli, "player", "add", "Ext", "--external")
    ratings = [1901, 1901, 1901, 1902, 1902]  # sum 9507
    results = ["1-0", "1-0", "1-0", "0-1", "0-1"]
    for i, (rating, result) in enumerate(zip(ratings, results, strict=True), start=1):
        add(
            cli,
            "game",
            "add",
            "Newcomer",
            "Ext",
            result,
            "--date",
            f"2026-03-{i:02d}",
            "--black-rating",
            str(rating),
            "--event",
            "Weekend",
            "--round",
            str(i),
        )
    r = cli("period", "close", "2026-03")
    assert "first rating for Newcomer" in r.stderr
    (row,) = history(cli, "Newcomer")
    assert row["rating_before"] is None and row["rating"] == 1922 and row["games"] == 5
    card = json.loads(ok(cli("player", "show", "Newcomer", "--json")).stdout)
    standard = card["ratings"][0]
    assert standard["rating"] == 1922 and standard["k"] == 40 and standard["rated_games"] == 5


def test_close_is_idempotent_and_refuses_the_current_month(cli: Cli) -> None:
    add(cli, "player", "add", "A", "--rating", "1800", "--games", "50")
    add(cli, "player", "add", "B", "--rating", "1700", "--games", "50")
    add(cli, "game", "add", "A", "B", "1-0", "--date", "2026-09-10")
    add(cli, "game", "add", "B", "A", "1-0", "--date", "2026-10-10")
    r = cli("period", "close")  # every month before November 2026 (TRACKER_TODAY)
    assert r.exit_code == 0 and "closed 2026-09" in r.stderr and "closed 2026-10" in r.stderr
    r = cli("period", "close", "2026-09")
    assert r.exit_code == 0 and "2026-09 (standard) is already closed" in r.stderr
    r = cli("period", "close", "2026-11")
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        "error: 2026-11 is not over yet: only months before 2026-11 can be closed"
    )
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert [(p["month"], p["status"], p["games"], p["players"]) for p in periods] == [
        ("2026-09", "closed", 1, 2),
        ("2026-10", "closed", 1, 2),
    ]


def _season(cli: Cli, skip_forgotten: bool = False) -> None:
    add(cli, "player", "add", "Ann", "--rating", "1850", "--games", "20", "--born", "2011")
    add(cli, "player", "add", "Bob", "--rating", "2050", "--games", "80", "--born", "1975")
    add(cli, "player", "add", "Cid", "--born", "2000")
    add(cli, "player", "add", "Ext", "--external")
    games = [
        ("Ann", "Bob", "1-0", "2026-01-10", None, None),
        ("Cid", "Ext", "1-0", "2026-01-11", None, "1700"),
        ("Cid", "Ann", "1/2-1/2", "2026-01-12", None, None),
        ("Bob", "Cid", "0-1", "2026-02-03", None, None),
        ("Cid", "Ext", "1-0", "2026-02-04", None, "1750"),
        ("Ann", "Cid", "0-1", "2026-02-05", None, None),
        ("Bob", "Ann", "1/2-1/2", "2026-03-01", None, None),
        ("Cid", "Bob", "1-0", "2026-03-02", None, None),
    ]
    for white, black, result, date, wr, br in games:
        if skip_forgotten and date == "2026-01-12":
            continue
        extra = [*(["--white-rating", wr] if wr else []), *(["--black-rating", br] if br else [])]
        add(cli, "game", "add", white, black, result, "--date", date, *extra)


def _all_history(cli: Cli) -> dict[str, Any]:
    return {name: history(cli, name) for name in ("Ann", "Bob", "Cid")}


def test_a_forgotten_game_then_rerate_equals_logging_it_on_time(cli: Cli, tmp_path: Path) -> None:
    reference_db = str(tmp_path / "reference.db")
    runner = CliRunner()

    def reference(*args: str) -> Any:
        return runner.invoke(app, ["--db", reference_db, *args])

    _season(reference)
    assert reference("period", "close", "2026-03").exit_code == 0
    on_time = _all_history(reference)

    _season(cli, skip_forgotten=True)
    ok(cli("period", "close", "2026-03"))
    before = _all_history(cli)
    assert before != on_time
    add(cli, "game", "add", "Cid", "Ann", "1/2-1/2", "--date", "2026-01-12")
    stale = cli("history", "Ann", "--json")
    assert "warning: ratings from 2026-01 are stale" in stale.stderr
    assert all(row["stale"] for row in json.loads(stale.stdout))
    assert [p["status"] for p in json.loads(ok(cli("period", "list", "--json")).stdout)] == [
        "stale",
        "stale",
        "stale",
    ]
    r = cli("rerate")
    assert r.exit_code == 0 and "rerated 2026-01 to 2026-03" in r.stderr
    assert _all_history(cli) == on_time


def test_rerating_an_unchanged_database_reproduces_it_exactly(cli: Cli) -> None:
    _season(cli)
    ok(cli("period", "close", "2026-03"))
    first = _all_history(cli)
    lists = [
        json.loads(ok(cli("list", m, "--json")).stdout) for m in ("2026-02", "2026-03", "2026-04")
    ]
    r = cli("rerate")
    assert "nothing is stale" in r.stderr
    ok(cli("rerate", "--from", "2026-01"))
    assert _all_history(cli) == first
    assert [
        json.loads(ok(cli("list", m, "--json")).stdout) for m in ("2026-02", "2026-03", "2026-04")
    ] == lists


def test_stale_only_from_the_changed_month_and_close_rerates_first(cli: Cli) -> None:
    _season(cli)
    ok(cli("period", "close", "2026-03"))
    r = cli("game", "remove", "8")  # Cid-Bob, March
    assert r.exit_code == 0
    statuses = [p["status"] for p in json.loads(ok(cli("period", "list", "--json")).stdout)]
    assert statuses == ["closed", "closed", "stale"]
    add(cli, "game", "add", "Ann", "Bob", "1-0", "--date", "2026-04-02")
    r = cli("period", "close", "2026-04")
    assert "rerated the stale period 2026-03 first" in r.stderr
    assert "closed 2026-04" in r.stderr
    assert all(not row["stale"] for row in history(cli, "Bob"))


def test_period_rerate_and_rerate_are_one_command(cli: Cli) -> None:
    _season(cli)
    ok(cli("period", "close", "2026-03"))
    ok(cli("game", "edit", "8", "--result", "0-1"))  # Cid-Bob, March
    r = cli("period", "rerate", "--tc", "standard", "--json")
    assert r.exit_code == 0 and "standard: rerated 2026-03" in r.stderr
    assert json.loads(r.stdout) == [{"tc": "standard", "months": ["2026-03"], "dropped": []}]
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert {p["status"] for p in periods} == {"closed"}
    after_period_rerate = _all_history(cli)
    for words in (["rerate"], ["period", "rerate"]):
        r = cli(*words, "--from", "2026-02", "--json")
        expected = [{"tc": "standard", "months": ["2026-02", "2026-03"], "dropped": []}]
        assert json.loads(ok(r).stdout) == expected
        assert _all_history(cli) == after_period_rerate
    assert cli("period", "rerate", "--from", "2026-13").exit_code == 1


def test_rating_list_and_player_show(cli: Cli) -> None:
    _season(cli)
    ok(cli("period", "close", "2026-02"))
    rl = json.loads(ok(cli("list", "--json")).stdout)
    assert rl["list"] == "2026-03-01" and rl["tc"] == "standard"
    names = [p["name"] for p in rl["players"]]
    assert [p["rank"] for p in rl["players"]] == list(range(1, len(names) + 1))
    ratings = [p["rating"] for p in rl["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert {p["name"]: p["k"] for p in rl["players"]}["Ann"] == 40
    table = ok(cli("list", "2026-02")).stdout
    assert "Standard list of 2026-02-01" in table
    r = cli("list", "2025-01")
    assert r.exit_code == 1 and "lists run from 2026-02 to 2026-03" in r.stderr
    card = json.loads(ok(cli("player", "show", "Bob", "--json")).stdout)
    (std,) = card["ratings"]
    assert std["live"]["months"] == ["2026-03"] and std["live"]["games"] == 2
    assert std["rating"] == rl["players"][names.index("Bob")]["rating"]
    assert isinstance(std["live"]["change"], int)
    assert "live" in ok(cli("player", "show", "Bob")).stdout


def test_close_message_names_a_few_players_and_counts_the_rest() -> None:
    from tracker.cli.period import name_list

    assert name_list(["Sato, Yuki"]) == "Sato, Yuki"
    assert name_list(["Sato, Yuki", "Kim, Ji-ho"]) == "2 players: Sato, Yuki / Kim, Ji-ho"
    many = [f"Player {i:02d}, Club" for i in range(25)]
    text = name_list(many)
    assert text.startswith("25 players: Player 00, Club / Player 01, Club / ")
    assert "Player 09, Club and 15 more (--json lists every one)" in text
    assert "Player 10, Club" not in text
    # the events a close assumed ended are counted as events
    assert name_list(["York Open", "Leeds Open"], "event") == "2 events: York Open / Leeds Open"


def test_rerate_drops_the_empty_periods_a_mistyped_year_left_behind(cli: Cli) -> None:
    """A game dated 2020 instead of 2026 makes six years of closed periods; once the game is
    gone, rerate drops them and tracking starts again with the first remaining game."""
    add(cli, "player", "add", "X", "--rating", "2000", "--games", "100", "--born", "1980")
    add(cli, "player", "add", "Y", "--rating", "2000", "--games", "100", "--born", "1980")
    add(cli, "game", "add", "X", "Y", "1-0", "--date", "2020-01-05")  # meant 2026
    add(cli, "game", "add", "Y", "X", "1-0", "--date", "2026-02-07")
    ok(cli("period", "close", "2026-03"))
    assert len(json.loads(ok(cli("period", "list", "--json")).stdout)) == 75
    ok(cli("game", "remove", "1"))
    r = cli("rerate", "--json")
    assert r.exit_code == 0, r.stderr
    assert "standard: dropped 73 empty closed periods 2020-01 to 2026-01" in r.stderr
    (report,) = json.loads(r.stdout)
    assert report["months"] == ["2026-02", "2026-03"] and len(report["dropped"]) == 73
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert [(p["month"], p["status"]) for p in periods] == [
        ("2026-02", "closed"),
        ("2026-03", "closed"),
    ]
    feb, mar = history(cli, "X")
    assert (feb["rating_before"], feb["rating"], mar["rating"]) == (2000, 1990, 1990)


def test_rerate_from_a_month_after_the_last_closed_is_one_line(cli: Cli, db_url: str) -> None:
    _season(cli)
    ok(cli("period", "close", "2026-03"))
    before = fingerprint(db_url)
    for words in (["rerate"], ["rerate", "--tc", "standard"], ["period", "rerate"]):
        line = one_line_error(cli(*words, "--from", "2026-04"), 1)
        assert line == (
            "error: nothing to rerate: no period is closed from 2026-04 on (the last closed: "
            "standard 2026-03)"
        )
    line = one_line_error(cli("rerate", "--from", "2026-11", "--tc", "rapid"), 1)
    assert line.endswith("(the last closed: rapid none)")
    assert fingerprint(db_url) == before
