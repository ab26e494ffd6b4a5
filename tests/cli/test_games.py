"""``tracker game ...`` end to end on a real database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, ok, one_line_error, query


@pytest.fixture
def club(cli: Cli) -> Cli:
    for args in (
        ("Hart, Daniel", "--rating", "2318", "--games", "240"),
        ("Okafor, Grace", "--fide-id", "400102"),
        ("Kim, Ji-ho", "--external"),
    ):
        assert cli("player", "add", *args).exit_code == 0
    return cli


def test_add_and_list_games(club: Cli) -> None:
    r = club(
        "game",
        "add",
        "Hart, Daniel",
        "400102",
        "1-0",
        "--date",
        "2026-01-08",
        "--event",
        "Club Championship",
        "--round",
        "1",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    game = json.loads(r.stdout)
    assert game == {
        "id": 1,
        "date": "2026-01-08",
        "white": "Hart, Daniel",
        "white_id": 1,
        "black": "Okafor, Grace",
        "black_id": 2,
        "result": "1-0",
        "rated": True,
        "tc": "standard",
        "event": "Club Championship",
        "round": "1",
        "white_rating": None,
        "black_rating": None,
    }
    assert "added game 1" in r.stderr
    for result, rnd in (("½-½", "2"), ("=", "3"), ("1/2-1/2", "4"), ("+-", "5")):
        r = club(
            "game",
            "add",
            "#2",
            "#1",
            result,
            "--date",
            "2026-02-01",
            "--event",
            "Club Championship",
            "--round",
            rnd,
        )
        assert r.exit_code == 0, r.stderr
    r = club(
        "game",
        "add",
        "Kim, Ji-ho",
        "Hart, Daniel",
        "0-1",
        "--white-rating",
        "1803",
        "--tc",
        "rapid",
        "--date",
        "2026-02-10",
    )
    assert r.exit_code == 0, r.stderr
    games = json.loads(club("game", "list", "--json").stdout)
    assert [g["result"] for g in games] == ["1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "+-", "0-1"]
    assert games[4]["rated"] is False
    assert games[5]["tc"] == "rapid" and games[5]["white_rating"] == 1803
    feb = json.loads(club("game", "list", "--month", "2026-02", "--json").stdout)
    assert len(feb) == 5
    kim = json.loads(club("game", "list", "--player", "Kim, Ji-ho", "--json").stdout)
    assert [g["id"] for g in kim] == [6]
    cc = json.loads(club("game", "list", "--event", "Club Championship", "--json").stdout)
    assert len(cc) == 5
    table = club("game", "list").stdout
    assert "+- (ff)" in table and "Club Championship" in table


def test_date_defaults_to_today(club: Cli) -> None:
    r = club("game", "add", "#1", "#2", "1-0", "--json")
    assert json.loads(r.stdout)["date"] == "2026-11-29"


def test_event_start_follows_earliest_game_unless_given(club: Cli, db_url: str) -> None:
    from sqlalchemy import create_engine, text

    assert (
        club("game", "add", "#1", "#2", "1-0", "--date", "2026-03-10", "--event", "Open").exit_code
        == 0
    )
    assert (
        club("game", "add", "#2", "#1", "1-0", "--date", "2026-03-08", "--event", "Open").exit_code
        == 0
    )
    ok(club("event", "add", "Late", "--start", "2026-03-30"))
    ok(club("game", "add", "#2", "#1", "0-1", "--date", "2026-04-02", "--event", "Late"))
    r = club("game", "add", "#1", "#2", "0-1", "--date", "2026-03-29", "--event", "Late")
    assert r.exit_code == 1
    assert "before 'Late' starts (2026-03-30)" in r.stderr
    engine = create_engine(db_url)
    with engine.connect() as conn:
        starts = dict(conn.execute(text("SELECT name, start_date FROM events")).all())
    engine.dispose()
    assert {k: str(v) for k, v in starts.items()} == {"Open": "2026-03-08", "Late": "2026-03-30"}


def test_remove_game(club: Cli) -> None:
    assert club("game", "add", "#1", "#2", "1-0", "--date", "2026-01-08").exit_code == 0
    r = club("game", "remove", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["id"] == 1
    assert json.loads(club("game", "list", "--json").stdout) == []
    r = club("game", "remove", "1")
    assert r.exit_code == 1 and r.stderr.strip() == "error: no game 1"


def test_edit_game_in_place(club: Cli) -> None:
    assert (
        club(
            "game",
            "add",
            "#1",
            "#2",
            "1-0",
            "--date",
            "2026-01-08",
            "--event",
            "Open",
            "--round",
            "1",
        ).exit_code
        == 0
    )
    r = club("game", "edit", "1", "--result", "0-1", "--round", "2", "--json")
    assert r.exit_code == 0, r.stderr
    g = json.loads(r.stdout)
    assert (g["id"], g["result"], g["round"], g["event"]) == (1, "0-1", "2", "Open")
    r = club("game", "edit", "1", "--black", "Kim, Ji-ho", "--date", "2026-01-09", "--json")
    assert r.exit_code == 0  # stored, not rated for White: the rule of every door
    assert (
        "warning: Kim, Ji-ho is an external player and the game records no FIDE rating for "
        "them: it is stored, not rated for Hart, Daniel"
    ) in r.stderr
    g = json.loads(
        club(
            "game",
            "edit",
            "1",
            "--black",
            "Kim, Ji-ho",
            "--black-rating",
            "1803",
            "--clear",
            "event",
            "--clear",
            "round",
            "--json",
        ).stdout
    )
    assert (g["black"], g["black_rating"], g["event"], g["round"]) == (
        "Kim, Ji-ho",
        1803,
        None,
        None,
    )
    assert club("game", "edit", "1", "--round", "3", "--clear", "round").exit_code == 2
    assert club("game", "edit", "9", "--result", "1-0").stderr.strip() == "error: no game 9"


def test_edit_cannot_create_a_duplicate(club: Cli, db_url: str) -> None:
    from tests.helpers import fingerprint

    for rnd in ("1", "2"):
        assert (
            club(
                "game",
                "add",
                "#1",
                "#2",
                "1-0",
                "--date",
                "2026-01-08",
                "--event",
                "Open",
                "--round",
                rnd,
            ).exit_code
            == 0
        )
    before = fingerprint(db_url)
    r = club("game", "edit", "2", "--round", "1")
    assert r.exit_code == 1 and "already recorded as game 1" in r.stderr
    assert fingerprint(db_url) == before


def test_an_edit_that_changes_nothing_changes_nothing(club: Cli, db_url: str) -> None:
    ok(club("game", "add", "#1", "#2", "1-0", "--date", "2026-01-28", "--event", "Open"))
    ok(club("game", "add", "#2", "#1", "1/2-1/2", "--date", "2026-02-08", "--event", "Open"))
    ok(club("period", "close", "2026-02"))
    before = fingerprint(db_url)
    line = one_line_error(club("game", "edit", "1"), 2)
    assert line.startswith("error: nothing to change: give what to correct (--result, --date")
    r = ok(club("game", "edit", "1", "--result", "1:0", "--event", "Open", "--date", "2026-01-28"))
    assert r.stderr.strip() == (
        "unchanged (nothing differs): game 1: Hart, Daniel 1-0 Okafor, Grace, 2026-01-28, "
        "standard, Open"
    )
    assert fingerprint(db_url) == before
    statuses = [p["status"] for p in json.loads(club("period", "list", "--json").stdout)]
    assert statuses == ["closed", "closed"]
    # a real correction still marks stale the period rating it (the Open ends in February,
    # where it is rated), the game's own month where the shadow rates it (January), and the
    # later ones
    ok(club("game", "edit", "1", "--result", "0-1"))
    statuses = [p["status"] for p in json.loads(club("period", "list", "--json").stdout)]
    assert statuses == ["stale", "stale"]


def test_a_correction_of_an_imported_game_keeps_its_import(
    club: Cli, db_url: str, tmp_path: Path
) -> None:
    """The import a game came in is not a field a correction changes: an edit that changes
    nothing of the game changes nothing, and a real one leaves the game in its import."""
    games = tmp_path / "club.csv"
    games.write_text(
        "date,white,black,result,event,round\n"
        '2026-01-10,"Hart, Daniel","Okafor, Grace",1-0,Club,1\n',
        encoding="utf-8",
    )
    ok(club("import", str(games), "--tc", "standard"))
    before = fingerprint(db_url)
    r = ok(club("game", "edit", "1", "--result", "1-0"))
    assert r.stderr.startswith("unchanged (nothing differs): game 1:")
    assert fingerprint(db_url) == before
    ok(club("game", "edit", "1", "--result", "0-1"))
    assert query(db_url, "SELECT result, import_id FROM games") == [("0-1", 1)]
