"""``tracker status``: the open month, games not yet rated, stale periods, the last import and
the latest list's biggest movers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Cli, js, ok


def season(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95"))
    ok(cli("player", "add", "Patel, Arjun", "--rating", "1876", "--games", "41", "--born", "2010"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-05"))
    ok(cli("game", "add", "Patel", "Okafor", "1-0", "--date", "2026-09-06"))
    ok(cli("game", "add", "Hart", "Patel", "=", "--date", "2026-09-07"))
    ok(cli("period", "close", "2026-09"))


def test_an_empty_database(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    data = js(cli, "status")
    assert data["players"] == {"tracked": 1, "external": 0}
    assert (data["games"], data["last_import"], data["lists"]) == (0, None, [])


def test_status_after_a_close(cli: Cli, tmp_path: Path) -> None:
    season(cli)
    ok(cli("game", "add", "Okafor", "Kim", "1-0", "--date", "2026-10-03", "--black-rating", "1803"))
    ok(cli("game", "add", "Okafor", "Patel", "0-1", "--date", "2026-11-03"))
    ok(cli("game", "add", "Hart", "Patel", "1-0", "--date", "2026-10-04", "--tc", "rapid"))
    data = js(cli, "status")
    assert data["players"] == {"tracked": 3, "external": 1}
    assert data["games"] == 6
    standard, rapid = data["lists"]
    assert standard == {
        "tc": "standard",
        "list": "2026-10-01",
        "last_closed": "2026-09",
        "open_month": "2026-10",
        "games_waiting": 2,
        "waiting_months": ["2026-10", "2026-11"],
        "closable": ["2026-10"],  # November is not over (today is 2026-11-29)
        "stale_months": [],
        "games_to_rerate": 0,
        # Table 8.1.2: Hart-Okafor (213 apart) PD .77, Patel-Okafor (229) .21 for Patel,
        # Hart-Patel (442, counted as 400) .92 for Hart. Patel, a junior with K 40:
        # 40 x (.79 + .42) = +48.4; Okafor: 20 x (-.23 - .79) = -20.4; Hart: 20 x (.23 - .42)
        # = -3.8.
        "movers": [
            {"id": 3, "name": "Patel, Arjun", "before": 1876, "rating": 1924, "change": 48},
            {"id": 2, "name": "Okafor, Grace", "before": 2105, "rating": 2085, "change": -20},
            {"id": 1, "name": "Hart, Daniel", "before": 2318, "rating": 2314, "change": -4},
        ],
    }
    assert (rapid["list"], rapid["open_month"], rapid["games_waiting"]) == (None, "2026-10", 1)
    r = ok(cli("status"))
    assert "standard open    2026-10; 2 games not yet rated (2026-10..2026-11)" in r.stdout
    assert "standard movers  Patel, Arjun +48 (1876 -> 1924)" in r.stdout
    assert "rapid list       none yet (no period closed)" in r.stdout
    assert "standard: 2026-10 can be closed: run `tracker period close --tc standard`" in r.stderr
    # a late game makes September stale; an import shows up
    ok(cli("game", "add", "Okafor", "Hart", "=", "--date", "2026-09-20"))
    csv = tmp_path / "more.csv"
    csv.write_text(
        'date,white,black,result,tc\n2026-11-05,"Hart, Daniel","Okafor, Grace",0-1,standard\n',
        encoding="utf-8",
    )
    ok(cli("import", str(csv)))
    data = js(cli, "status")
    assert data["lists"][0]["stale_months"] == ["2026-09"]
    assert data["lists"][0]["games_waiting"] == 3
    assert data["lists"][0]["games_to_rerate"] == 4  # September's three and the late one
    last = data["last_import"]
    assert (last["id"], last["file"], last["added"]) == (1, str(csv), 1)
    r = ok(cli("status"))
    assert "standard stale   2026-09; 4 games to rate by `tracker rerate`" in r.stdout
    assert "standard: stale periods from 2026-09: run `tracker rerate`" in r.stderr


def test_status_counts_what_a_close_and_a_rerate_rate(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running event's games wait for its end, whatever month they were played in; games
    dated before the first closed period wait for a rerate: status counts them as the close
    does, and closing proves it."""
    season(cli)
    for day, white, black in (
        ("2026-10-02", "Hart", "Okafor"),
        ("2026-10-09", "Patel", "Hart"),
        ("2026-11-06", "Okafor", "Patel"),
    ):
        ok(cli("game", "add", white, black, "1-0", "--date", day, "--event", "Club Cup"))
    ok(cli("game", "add", "Okafor", "Hart", "0-1", "--date", "2026-10-20"))
    ok(cli("period", "close", "2026-10"))  # the cup goes on: October rates none of it
    ok(cli("game", "add", "Okafor", "Hart", "0-1", "--date", "2026-11-07"))
    standard = js(cli, "status")["lists"][0]
    assert (standard["open_month"], standard["games_waiting"]) == ("2026-11", 4)
    assert standard["waiting_months"] == ["2026-11"]
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-02")
    closed = js(cli, "period", "close", "2026-11")
    assert [p["games"] for p in closed["closed"]] == [4]
    # a game dated before tracking began: a rerate rates it, from its month
    ok(cli("game", "add", "Patel", "Okafor", "1-0", "--date", "2026-08-30"))
    standard = js(cli, "status")["lists"][0]
    assert (standard["games_waiting"], standard["games_to_rerate"]) == (0, 9)
    rerated = js(cli, "rerate")
    assert rerated[0]["months"][0] == "2026-08"
