"""``tracker list --live``: the list closing every open month now would publish, equal to the
list ``period close`` then publishes; ``player show``'s live line is the same close's."""

from __future__ import annotations

import pytest

from tests import helpers
from tests.helpers import Cli, fingerprint, js, ok, one_line_error, query
from tracker.cli.history import live_label

LIST_KEYS = ("rank", "id", "name", "rating", "k")


def season(cli: Cli) -> None:
    """September closed; October and November open: a newcomer's first event, a player losing
    below the 1400 floor, a player passing 30 rated games (K 40 -> 20), an event running
    from October into November (held from October's close), one stated to be rated in
    December (held from both)."""
    for args in (
        ("Hart, Daniel", "--rating", "2318", "--games", "240", "--born", "1988"),
        ("Okafor, Grace", "--rating", "2105", "--games", "95", "--born", "2001"),
        ("Patel, Arjun", "--rating", "1876", "--games", "28", "--born", "1990"),
        ("Low, Ben", "--rating", "1403", "--games", "10", "--born", "1990"),
        ("Sato, Yuki", "--born", "2012"),
    ):
        ok(cli("player", "add", *args))
    for white, black, result, day, event in (
        ("Hart", "Okafor", "1-0", "2026-09-05", None),
        ("Patel", "Low", "1-0", "2026-09-06", None),
        ("Sato", "Hart", "1/2-1/2", "2026-10-03", "Autumn Open"),
        ("Okafor", "Sato", "0-1", "2026-10-03", "Autumn Open"),
        ("Sato", "Patel", "1-0", "2026-10-04", "Autumn Open"),
        ("Low", "Sato", "0-1", "2026-10-04", "Autumn Open"),
        ("Sato", "Hart", "0-1", "2026-10-05", "Autumn Open"),
        ("Patel", "Okafor", "1/2-1/2", "2026-10-05", "Autumn Open"),
        ("Hart", "Low", "1-0", "2026-10-10", None),
        ("Low", "Hart", "0-1", "2026-10-11", None),
        ("Patel", "Hart", "0-1", "2026-10-25", "Winter Cup"),
        ("Okafor", "Patel", "1-0", "2026-11-08", "Winter Cup"),
        ("Hart", "Okafor", "1/2-1/2", "2026-11-14", "Late Open"),
        ("Patel", "Sato", "0-1", "2026-11-15", "Late Open"),
    ):
        ok(
            cli(
                "game",
                "add",
                white,
                black,
                result,
                "--date",
                day,
                *(["--event", event] if event else []),
            )
        )
    ok(cli("period", "close", "2026-09"))
    ok(cli("event", "edit", "Late Open", "--rated-in", "2026-12"))


def counters(url: str) -> list[tuple[object, ...]]:
    """PostgreSQL's id sequences (a rollback does not undo them); none on SQLite."""
    if not url.startswith("postgresql"):
        return []
    return query(url, "SELECT sequencename, last_value FROM pg_sequences ORDER BY 1")


def test_the_live_list_is_the_list_the_close_publishes(
    cli: Cli, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    season(cli)
    before = fingerprint(db_url), counters(db_url)
    live = js(cli, "list", "--live")
    js(cli, "player", "show", "Patel")
    assert (fingerprint(db_url), counters(db_url)) == before  # a read: its close is undone
    assert live["list"] == "2026-12-01"
    assert live["months"] == ["2026-10", "2026-11"]
    assert live["published"] == "2026-10-01"
    got = {
        p["name"]: (p["rank"], p["rating"], p["change"], p["games"], p["k"])
        for p in live["players"]
    }
    assert got == {
        "Hart, Daniel": (1, 2328, 5, 3, 20),  # his games with Sato (unrated) are not rated
        "Okafor, Grace": (2, 2098, -2, 2, 20),
        "Sato, Yuki": (3, 2048, None, 5, 40),  # a first rating from the Autumn Open
        "Patel, Arjun": (4, 1884, 5, 3, 20),  # 32 rated games: K 20 on the new list
    }
    assert [p["percentile"] for p in live["players"]] == [75.0, 50.0, 25.0, 0.0]
    assert live["dropped"] == [{"id": 4, "name": "Low, Ben", "published_rating": 1400}]

    # today is 2026-11-29: the close publishes October's list; on 1 December, November's
    monkeypatch.setenv("TRACKER_TODAY", "2026-12-01")
    closed = js(cli, "period", "close")
    assert [c["month"] for c in closed["closed"]] == ["2026-10", "2026-11"]
    published = js(cli, "list")
    assert published["list"] == live["list"]
    assert [tuple(p[k] for k in LIST_KEYS) for p in published["players"]] == [
        tuple(p[k] for k in LIST_KEYS) for p in live["players"]
    ]
    # the Winter Cup was held from October's close into November's, the Late Open from both
    assert published["players"][0]["games"] == 1  # Hart's Winter Cup game, in November
    late = js(cli, "history", "Hart")
    assert [(r["month"], r["games"]) for r in late] == [
        ("2026-09", 1),
        ("2026-10", 2),
        ("2026-11", 1),
    ]
    # now December is open, and the Late Open stated to be rated in it comes in
    again = js(cli, "list", "--live")
    assert (again["months"], again["list"], again["published"]) == (
        ["2026-12"],
        "2027-01-01",
        "2026-12-01",
    )
    assert {p["name"]: p["games"] for p in again["players"]} == {
        "Hart, Daniel": 1,
        "Okafor, Grace": 1,
        "Sato, Yuki": 1,
        "Patel, Arjun": 1,
    }


def test_the_live_list_in_text(cli: Cli) -> None:
    season(cli)
    r = ok(cli("list", "--live"))
    assert r.stdout.splitlines() == [
        "Standard live list of 2026-12-01 (published: 2026-10-01)",
        "rank  name           title  fed  FIDE id   rating   change  published  games  born   K",
        "   1  Hart, Daniel                           2328       +5       2323      3  1988  20",
        "   2  Okafor, Grace                          2098       -2       2100      2  2001  20",
        "   3  Sato, Yuki                             2048      new                 5  2012  40",
        "   4  Patel, Arjun                           1884       +5       1879      3  1990  20",
        "   -  Low, Ben                            unrated  dropped       1400      2  1990",
    ]
    assert r.stderr == (
        "live: closes 2026-10 to 2026-11 so far as `tracker period close` would; nothing is "
        "published\n"
    )


def test_player_show_gives_the_live_line_of_the_live_list(cli: Cli, db_url: str) -> None:
    season(cli)
    before = fingerprint(db_url)
    live = {p["name"]: p for p in js(cli, "list", "--live")["players"]}
    for name in ("Hart, Daniel", "Okafor, Grace", "Sato, Yuki", "Patel, Arjun", "Low, Ben"):
        (card,) = js(cli, "player", "show", name)["ratings"]
        on_live = live.get(name)
        assert card["live"]["rating"] == (on_live["rating"] if on_live else None), name
        assert card["live"]["rank"] == (on_live["rank"] if on_live else None), name
        assert card["live"]["list"] == "2026-12-01"
    assert fingerprint(db_url) == before
    patel = js(cli, "player", "show", "Patel")["ratings"][0]
    assert patel["live"] | {"change_exact": float(patel["live"]["change_exact"])} == {
        "list": "2026-12-01",
        "months": ["2026-10", "2026-11"],
        "games": 3,
        "change_exact": 5.2,
        "change": 5,
        "rating": 1884,
        "rank": 4,
        "of": 4,
        "percentile": 0.0,
    }
    assert (patel["rank"], patel["of"], patel["percentile"]) == (3, 4, 25.0)
    assert patel["peak"] == {"rating": 1879, "list": "2026-10-01"}
    assert patel["games_per_month"] == [
        {"month": "2026-09", "games": 1},
        {"month": "2026-10", "games": 3},
        {"month": "2026-11", "games": 2},
    ]
    text = ok(cli("player", "show", "Low")).stdout
    assert "standard place    rank 4 of 4, percentile 0\n" in text
    assert "standard peak     1400 on the 2026-10-01 list\n" in text
    assert "standard games    4 in 2 month(s); 2026-09: 1, 2026-10: 3\n" in text
    assert "live rating unrated" in text  # below the floor on the live list


def test_history_ranks_each_list(cli: Cli) -> None:
    season(cli)
    ok(cli("period", "close", "2026-10"))
    rows = js(cli, "history", "Sato")
    assert [(r["month"], r["rating"], r["rank"], r["of"], r["percentile"]) for r in rows] == [
        ("2026-10", 2048, 3, 4, 25.0),  # Low dropped below the floor: 4 rated
    ]
    rows = js(cli, "history", "Low")
    assert [(r["month"], r["rank"], r["of"], r["percentile"]) for r in rows] == [
        ("2026-09", 4, 4, 0.0),
        ("2026-10", None, None, None),  # dropped below the floor
    ]


def test_the_live_list_refuses_a_month_and_needs_games(cli: Cli) -> None:
    assert one_line_error(cli("list", "--live", "2026-10"), 2) == (
        "error: --live is the list of today: leave out MONTH, --against, --player"
    )
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    assert one_line_error(cli("list", "--live", "--tc", "rapid"), 1) == (
        "error: no rapid games yet: nothing to rate"
    )


def test_the_live_label() -> None:
    assert live_label((), helpers.TODAY) == "no open month"
    assert (
        live_label((helpers.month("2026-10"), helpers.month("2026-11")), helpers.TODAY)
        == "2026-10 to 2026-11 so far"
    )
    assert live_label((helpers.month("2026-10"),), helpers.day("2026-12-05")) == "2026-10"
