"""A player change says what it did: an edit that changes nothing says so and leaves every
period as it was; one that makes closed periods stale says which; the intake's rules hold for
birth years, seeds and FIDE ids whether typed or read from a players file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, js, ok, one_line_error, query


@pytest.fixture
def club(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel", "--born", "1988", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--born", "2012"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-10"))
    return cli


def stale(url: str) -> list[tuple[object, ...]]:
    return query(url, "SELECT month, stale FROM rating_periods ORDER BY month")


@pytest.mark.parametrize(
    "args",
    [
        ("--born", "1988"),
        ("seed", "--rating", "2318", "--games", "240"),
        ("--name", "Hart, Daniel"),
        ("--tracked",),
    ],
    ids=["born", "seed", "name", "tracked"],
)
def test_an_edit_to_the_stored_values_changes_nothing_and_says_so(
    club: Cli, db_url: str, args: tuple[str, ...]
) -> None:
    before = fingerprint(db_url)
    seed = args[0] == "seed"
    r = ok(club("player", *(args[:1] if seed else ["edit"]), "Hart", *args[seed:]))
    assert r.stderr.splitlines() == [
        "unchanged (nothing differs): #1 Hart, Daniel"
        + (
            ": seeded 2318 after 240 games (standard)"
            if seed
            else " (tracked, seeded 2318 after 240 games)"
        )
    ]
    assert fingerprint(db_url) == before


def test_an_edit_that_makes_periods_stale_says_so(club: Cli, db_url: str) -> None:
    r = ok(club("player", "edit", "Hart", "--born", "1987"))
    assert r.stderr.splitlines()[-1] == (
        "closed standard periods 2026-09 to 2026-10 are now stale: run `tracker rerate`"
    )
    ok(club("rerate"))
    r = ok(club("player", "edit", "Hart", "--clear", "born"))
    assert "are now stale" in r.stderr
    ok(club("rerate"))
    r = ok(club("player", "edit", "Hart", "--federation", "ENG"))  # no rating input
    assert "stale" not in r.stderr
    assert all(not s for _, s in stale(db_url))


def test_a_birth_year_is_checked_against_the_games_and_the_seed(club: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    assert one_line_error(club("player", "edit", "Sato", "--born", "2025"), 1) == (
        "error: Sato, Yuki was born in 2025: a game in 2026 is at the age of 1: check the "
        "birth year"
    )
    assert one_line_error(club("player", "edit", "Hart", "--born", "2027"), 1) == (
        "error: implausible birth year 2027: it is in the future"
    )
    assert one_line_error(
        club("player", "add", "Lund, Eva", "--born", "2026", "--rating", "2150", "--games", "30"),
        1,
    ) == (
        "error: Lund, Eva was born in 2026: a FIDE rating in 2026 is at the age of 0: check the "
        "birth year"
    )
    assert fingerprint(db_url) == before
    ok(club("player", "add", "Lund, Eva", "--born", "2026"))  # no rating, no game: fine
    ok(club("player", "add", "Berg, Ola", "--born", "2023", "--rating", "1450", "--games", "9"))


def test_a_number_that_is_no_fide_id_is_not_stored_as_one_at_any_door(
    club: Cli, tmp_path: Path
) -> None:
    r = ok(club("player", "add", "Byrne, Sean", "--fide-id", "6897"))
    assert r.stderr.splitlines()[-1] == (
        "  warning: FIDE id 6897 is not a FIDE id (FIDE's have six to eleven digits; a national "
        "id?): not stored as one"
    )
    assert js(club, "player", "show", "Byrne")["fide_id"] is None
    path = tmp_path / "players.csv"
    path.write_text('name,fide_id,birth_year\n"Byrne, Sean",6897,1990\n')
    r = ok(club("import", str(path), "--json"))
    (f,) = js_report(r.stdout)["files"]
    assert f["warnings"] == [
        f"{path}:2: fide_id 6897 is not a FIDE id (FIDE's have six to eleven digits; a national "
        "id?): not stored as one"
    ]
    player = js(club, "player", "show", "Byrne")
    assert (player["fide_id"], player["birth_year"]) == (None, 1990)


def js_report(stdout: str) -> dict[str, list[dict[str, object]]]:
    import json

    data: dict[str, list[dict[str, object]]] = json.loads(stdout)
    return data


def test_messages_wrap_at_the_terminal_width(club: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    r = ok(
        club(
            "game",
            "add",
            "Hart",
            "Sato",
            "1/2-1/2",
            "--date",
            "2026-11-05",
            "--event",
            "Vachier-Lagrave Memorial Open",
            "--round",
            "12",
        )
    )
    lines = r.stderr.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines == [
        "added game 2: Hart, Daniel 1/2-1/2 Sato, Yuki, 2026-11-05, standard,",
        "  Vachier-Lagrave Memorial Open round 12",
    ]
    monkeypatch.setenv("COLUMNS", "1000")
    r = ok(club("game", "edit", "2", "--round", "13"))
    assert len(r.stderr.splitlines()) == 1
