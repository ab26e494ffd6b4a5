"""Implausible values typed by hand are refused with one clear line, and nothing changes."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, fingerprint, js, ok, one_line_error


@pytest.fixture
def club(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    return cli


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("player", "add", "Low, Al", "--rating", "999", "--games", "5"),
            "error: implausible seed rating 999: FIDE ratings lie within 1000..3000",
        ),
        (
            ("player", "add", "High, Al", "--rating", "3001", "--games", "5"),
            "error: implausible seed rating 3001: FIDE ratings lie within 1000..3000",
        ),
        (
            ("player", "seed", "Hart", "--rating", "23180", "--games", "240"),
            "error: implausible seed rating 23180: FIDE ratings lie within 1000..3000",
        ),
        (
            ("player", "add", "Young, Al", "--born", "2027"),
            "error: implausible birth year 2027: it is in the future",
        ),
        (
            ("player", "edit", "Hart", "--born", "2030"),
            "error: implausible birth year 2030: it is in the future",
        ),
        (
            ("player", "add", "hart,daniel"),
            "error: 'hart,daniel' differs from the player \"Hart, Daniel\" (id:1) only in case "
            "or spacing: use that player, or give --force to add a namesake anyway",
        ),
        (
            ("player", "add", "Hart, Daniel"),
            'error: "Hart, Daniel" is already a player (id:1): to add a namesake anyway, give '
            "--force (then refer to each by id:ID)",
        ),
        (
            ("player", "edit", "Kim", "--name", "HART, Daniel"),
            "error: 'HART, Daniel' differs from the player \"Hart, Daniel\" (id:1) only in case "
            "or spacing: use that player, or give --force to rename to it anyway",
        ),
        (
            ("player", "edit", "Kim", "--name", "Hart, Daniel"),
            'error: "Hart, Daniel" is already a player (id:1): to rename to it anyway, give '
            "--force (then refer to each by id:ID)",
        ),
    ],
)
def test_implausible_values_are_refused(
    club: Cli, db_url: str, args: tuple[str, ...], expected: str
) -> None:
    before = fingerprint(db_url)
    assert one_line_error(club(*args), 1) == expected
    assert fingerprint(db_url) == before


def test_the_bounds_themselves_are_accepted(club: Cli) -> None:
    ok(club("player", "add", "Low, Al", "--rating", "1000", "--games", "5", "--born", "2023"))
    ok(club("player", "add", "High, Al", "--rating", "3000", "--games", "5"))
    ok(club("game", "add", "Kim", "Hart", "0-1", "--date", "2026-11-02", "--white-rating", "1000"))
    seeds = {p["name"]: p["seeds"] for p in js(club, "player", "list")}
    assert seeds["Low, Al"][0]["rating"] == 1000 and seeds["High, Al"][0]["rating"] == 3000


def test_force_adds_a_namesake_and_renames_onto_a_name(club: Cli) -> None:
    # a player may change the case or spacing of their own name without --force
    ok(club("player", "edit", "Hart", "--name", "HART,  Daniel"))
    assert js(club, "player", "show", "id:1")["name"] == "HART, Daniel"
    ok(club("player", "edit", "id:1", "--name", "Hart, Daniel"))
    r = ok(club("player", "add", "hart, daniel", "--force"))
    assert r.stderr.startswith("added #3 hart, daniel")
    r = ok(club("player", "edit", "Kim", "--name", "Hart, Daniel", "--force"))
    assert "note" not in r.stderr
    names = sorted(p["name"] for p in js(club, "player", "list"))
    assert names == ["Hart, Daniel", "Hart, Daniel", "hart, daniel"]
