"""``tracker player ...`` end to end on a real database."""

from __future__ import annotations

import json

from tests.helpers import Cli, ok


def test_add_list_show_as_table_and_json(cli: Cli) -> None:
    ok(
        cli(
            "player",
            "add",
            "Hart, Daniel",
            "--fide-id",
            "400101",
            "--born",
            "1988",
            "--federation",
            "eng",
            "--sex",
            "m",
            "--title",
            "fm",
            "--rating",
            "2318",
            "--games",
            "240",
        )
    )
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    players = json.loads(ok(cli("player", "list", "--json")).stdout)
    assert [p["name"] for p in players] == ["Hart, Daniel", "Kim, Ji-ho"]
    hart = players[0]
    assert hart == {
        "id": 1,
        "name": "Hart, Daniel",
        "fide_id": 400101,
        "federation": "ENG",
        "birth_year": 1988,
        "sex": "m",
        "title": "FM",
        "external": False,
        "lichess": None,
        "chesscom": None,
        "games": 0,
        "earlier_lists": [],
        "seeds": [
            {"tc": "standard", "rating": 2318, "games": 240, "ever_2400": False, "ever_2300": True}
        ],
    }
    assert players[1]["external"] is True and players[1]["seeds"] == []
    table = ok(cli("player", "list")).stdout
    assert "Hart, Daniel" in table and "2318/240" in table and "external" in table
    shown = json.loads(ok(cli("player", "show", "400101", "--json")).stdout)
    assert shown["id"] == 1
    assert json.loads(ok(cli("player", "show", "#2", "--json")).stdout)["name"] == "Kim, Ji-ho"
    assert "FM" in ok(cli("player", "show", "Hart, Daniel")).stdout


def test_seed_flags_follow_the_rating(cli: Cli) -> None:
    out = ok(
        cli("player", "add", "Kowalski, Piotr", "--rating", "2402", "--games", "310", "--json")
    ).stdout
    seed = json.loads(out)["seeds"][0]
    assert seed["ever_2400"] is True and seed["ever_2300"] is True
    out = ok(
        cli(
            "player",
            "add",
            "Old Master",
            "--rating",
            "2250",
            "--games",
            "400",
            "--ever-2400",
            "--json",
        )
    ).stdout
    seed = json.loads(out)["seeds"][0]
    assert seed == {
        "tc": "standard",
        "rating": 2250,
        "games": 400,
        "ever_2400": True,
        "ever_2300": False,
    }


def test_edit_and_remove(cli: Cli) -> None:
    ok(cli("player", "add", "Moreau, Claire", "--fide-id", "600104"))
    edited = json.loads(
        ok(
            cli(
                "player",
                "edit",
                "600104",
                "--name",
                "Moreau, Claire A.",
                "--born",
                "1995",
                "--json",
            )
        ).stdout
    )
    assert edited["name"] == "Moreau, Claire A." and edited["birth_year"] == 1995
    seeded = json.loads(
        ok(cli("player", "seed", "600104", "--rating", "1754", "--games", "22", "--json")).stdout
    )
    assert seeded["seeds"][0]["rating"] == 1754
    cleared = json.loads(ok(cli("player", "edit", "#1", "--clear", "fide-id", "--json")).stdout)
    assert cleared["fide_id"] is None
    removed = cli("player", "remove", "Moreau, Claire A.")
    assert removed.exit_code == 0 and "removed #1" in removed.stderr
    assert json.loads(ok(cli("player", "list", "--json")).stdout) == []


def test_remove_refused_while_games_reference_the_player(cli: Cli) -> None:
    ok(cli("player", "add", "A"))
    ok(cli("player", "add", "B"))
    ok(cli("game", "add", "A", "B", "1-0", "--date", "2026-01-10"))
    result = cli("player", "remove", "A")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: A (#1) plays in 1 game(s); remove those games first")


def test_unknown_and_ambiguous_references_list_closest_matches(cli: Cli) -> None:
    ok(cli("player", "add", "Smith, John"))
    ok(cli("player", "add", "Smith, John", "--fide-id", "123456", "--force"))
    ok(cli("player", "add", "Smythe, Jane"))
    result = cli("player", "show", "Smith, John")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: 'Smith, John' matches 2 players: \"Smith, John\" (id:1), "
        '"Smith, John" (id:2, FIDE 123456); name one by id:ID'
    )
    result = cli("player", "show", "Smyth, Jane")
    assert result.exit_code == 1
    assert 'did you mean "Smythe, Jane"' in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert cli("player", "show", "#99").stderr.strip() == "error: no player #99"
    assert cli("player", "show", "999").stderr.strip() == (
        "error: no player with FIDE id or name 999"  # a user name may be a number
    )


def test_namesake_is_allowed_with_a_note(cli: Cli) -> None:
    ok(cli("player", "add", "Lee, Ann"))
    result = cli("player", "add", "Lee, Ann", "--force")
    assert result.exit_code == 0
    assert "note: #1 has the same name" in result.stderr


def test_duplicate_fide_id_is_refused(cli: Cli) -> None:
    ok(cli("player", "add", "A", "--fide-id", "500005"))
    result = cli("player", "add", "B", "--fide-id", "500005")
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: FIDE id 500005 already belongs to A (#1)"


def test_seed_options_go_together(cli: Cli) -> None:
    result = cli("player", "add", "A", "--rating", "2000")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --rating and --games go together: give both"
    result = cli("player", "add", "A", "--external", "--rating", "2000", "--games", "3")
    assert result.exit_code == 1
    assert "external player is not rated by us" in result.stderr


def test_a_time_control_in_capitals_is_parsed_at_the_door(cli: Cli) -> None:
    """``--tc Blitz`` is blitz from the command line on: the seed's confirmation found it
    (it once compared the typed word with the stored one, and failed with a traceback)."""
    ok(cli("player", "add", "Hart, Daniel"))
    result = ok(cli("player", "seed", "Hart", "--tc", "Blitz", "--rating", "2000", "--games", "10"))
    assert "seeded 2000 after 10 games (blitz)" in result.output
