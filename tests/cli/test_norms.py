"""``tracker event show EVENT --norms``: the title norms of an event's players through the
CLI, on the Arbiters' Manual's worked example (FIDE Arbiters' Commission, Arbiters' Manual
2016, Spanish edition p. 183, example 3: an IM of Armenia before the last round of a 9-round
Swiss)."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, js, ok, one_line_error

FIELD = [  # name, federation, title, rating, the IM's result
    ("Berg, Nils", "NOR", "GM", 2470, "0-1"),
    ("Beridze, Giorgi", "GEO", None, 2150, "1-0"),
    ("Braun, Felix", "GER", None, 2410, "1-0"),
    ("Sargsyan, Tigran", "ARM", "IM", 2570, "0-1"),
    ("Kapanadze, Levan", "GEO", None, 2340, "1-0"),
    ("Gelashvili, Dato", "GEO", "FM", 2380, "1-0"),
    ("Petrosyan, Karen", "ARM", "GM", 2675, "1/2-1/2"),
    ("Clarke, James", "ENG", "IM", 2540, "1-0"),
]
LAST = ("Harris, Sam", "USA", "GM", 2695)


def play(
    cli: Cli, name: str, fed: str, title: str | None, rating: int, result: str, rnd: int
) -> None:
    ok(
        cli(
            "player",
            "add",
            name,
            "--external",
            "--federation",
            fed,
            *(["--title", title] if title else []),
        )
    )
    ok(
        cli(
            "game", "add", "Avetisyan, Aram", name, result, "--date", f"2026-07-0{rnd}",
            "--event", "Yerevan Open", "--round", str(rnd), "--black-rating", str(rating), "--yes",
        )
    )  # fmt: skip


@pytest.fixture
def open_(cli: Cli) -> Cli:
    ok(cli("player", "add", "Avetisyan, Aram", "--federation", "ARM", "--title", "IM"))
    for rnd, entry in enumerate(FIELD, 1):
        play(cli, *entry, rnd)
    return cli


def norm(data: dict, title: str) -> dict:  # type: ignore[type-arg]
    (player,) = data["players"]
    return next(n for n in player["norms"] if n["norm"] == title)


def test_before_the_last_round(open_: Cli) -> None:
    data = js(open_, "event", "show", "Yerevan Open", "--norms", "--rounds", "9")
    assert [p["name"] for p in data["players"]] == ["Avetisyan, Aram"]  # tracked players
    gm = norm(data, "GM")
    assert (gm["games"], gm["score"], gm["achieved"]) == (8, 5.5, False)
    needs = {n["points"]: n["average"] for n in gm["outlook"]["needs"]}
    assert needs == {0: None, 0.5: 2686, 1: 2317}  # a draw with the GM of 2695 is enough
    assert data["list"] == "2026-07-01" and data["rounds"] == 9
    assert [n["norm"] for n in data["players"][0]["norms"]] == ["GM", "IM"]  # not a woman


@pytest.mark.parametrize(
    ("result", "rp", "achieved"), [("1/2-1/2", 2601, True), ("0-1", 2556, False)]
)
def test_after_the_last_round(open_: Cli, result: str, rp: int, achieved: bool) -> None:
    play(open_, *LAST, result, 9)
    gm = norm(js(open_, "event", "show", "Yerevan Open", "--norms"), "GM")
    assert (gm["games"], gm["raised"], gm["ra"], gm["rp"], gm["achieved"]) == (
        9,
        2150,
        2476,
        rp,
        achieved,
    )
    assert gm["outlook"] is None
    checks = {(c["article"], c["found"]) for c in gm["checks"]}
    assert {("1.4.1a", "9"), ("1.4.5a", "6"), ("1.4.5b", "3"), ("1.4.3", "5")} <= checks


def test_the_table_fits_and_cites(open_: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    play(open_, *LAST, "1/2-1/2", 9)
    monkeypatch.setenv("COLUMNS", "80")
    result = ok(open_("event", "show", "Yerevan Open", "--norms", "--player", "Avetisyan"))
    assert max(len(line) for line in result.stdout.splitlines()) <= 80, result.stdout
    lines = result.stdout.splitlines()
    assert "Avetisyan, Aram  GM        9    6.0  2476  2601  norm" in lines
    assert "Avetisyan, Aram, GM norm: p 0.67, dp 125; 2150 raised to the floor" in lines
    assert "§1.4.8   Rp at least 2600                        2601   yes" in lines
    assert "not checked (not stored): §1.1" in result.stderr


def test_unknown_federations_are_not_checked(open_: Cli) -> None:
    ok(open_("player", "add", "Doe, John", "--external", "--title", "GM"))
    ok(
        open_(
            "game", "add", "Doe, John", "Avetisyan, Aram", "1/2-1/2", "--date", "2026-07-09",
            "--event", "Yerevan Open", "--round", "9", "--white-rating", "2695", "--yes",
        )
    )  # fmt: skip
    gm = norm(js(open_, "event", "show", "Yerevan Open", "--norms"), "GM")
    fed = [c for c in gm["checks"] if c["article"] in ("1.4.3", "1.4.4")]
    assert [c["ok"] for c in fed] == [None, None, None]
    assert gm["rp"] == 2601 and gm["achieved"] is False  # not all checked: no norm claimed


def test_a_forfeit_is_no_game(open_: Cli) -> None:
    ok(open_("player", "add", "Harris, Sam", "--external", "--federation", "USA", "--title", "GM"))
    ok(
        open_(
            "game", "add", "Avetisyan, Aram", "Harris, Sam", "+-", "--date", "2026-07-09",
            "--event", "Yerevan Open", "--round", "9", "--yes",
        )
    )  # fmt: skip
    (player,) = js(open_, "event", "show", "Yerevan Open", "--norms")["players"]
    assert (player["games"], player["forfeits"], player["score"]) == (8, 1, 5.5)


def test_errors(open_: Cli) -> None:
    assert "no event" in one_line_error(open_("event", "show", "Nowhere", "--norms"), 1)
    assert "more than --rounds 5" in one_line_error(
        open_("event", "show", "Yerevan Open", "--norms", "--rounds", "5"), 1
    )
    ok(open_("player", "add", "Idle, Ivan"))
    assert "plays no game" in one_line_error(
        open_("event", "show", "Yerevan Open", "--norms", "--player", "Idle"), 1
    )
    ok(
        open_(
            "game",
            "add",
            "Idle",
            "Avetisyan",
            "1-0",
            "--tc",
            "rapid",
            "--event",
            "Blitz Cup",
            "--date",
            "2026-07-01",
        )
    )
    assert "no standard games" in one_line_error(open_("event", "show", "Blitz Cup", "--norms"), 1)
