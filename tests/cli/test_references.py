"""Naming a player quickly: ``id:ID`` (or a quoted ``'#ID'``), a FIDE id, the exact name, a
surname only one player has, or the start of only one player's name."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, js, ok, one_line_error


@pytest.fixture
def club(cli: Cli) -> Cli:
    for name in ("Novak, Jan", "Hart, Daniel", "Hartmann, Otto", "Sato, Yuki", "Magnus Berg"):
        ok(cli("player", "add", name))
    return cli


def name_of(cli: Cli, ref: str) -> str:
    return str(js(cli, "player", "show", ref)["name"])


def test_a_player_by_id_surname_or_unique_prefix(club: Cli) -> None:
    assert name_of(club, "id:2") == "Hart, Daniel"
    assert name_of(club, "ID:2") == "Hart, Daniel"
    assert name_of(club, "#2") == "Hart, Daniel"
    assert name_of(club, "Novak") == "Novak, Jan"  # the only Novak
    assert name_of(club, "novak") == "Novak, Jan"
    assert name_of(club, "Berg") == "Magnus Berg"  # no comma: the last word is the surname
    # "Hart" is Hart's surname only, although "Hartmann, Otto" starts with it too
    assert name_of(club, "Hart") == "Hart, Daniel"
    assert name_of(club, "Hartm") == "Hartmann, Otto"  # the only name starting so
    assert name_of(club, "sato y") == "Sato, Yuki"  # case, spacing and the comma do not count
    assert name_of(club, "hart,   daniel") == "Hart, Daniel"


def test_a_reference_two_players_share_lists_them_quoted(club: Cli) -> None:
    ok(club("player", "add", "Novak, Eva", "--fide-id", "770077"))
    line = one_line_error(club("player", "show", "Novak"), 1)
    assert line == (
        "error: 'Novak' matches 2 players: \"Novak, Eva\" (id:6, FIDE 770077), "
        '"Novak, Jan" (id:1); name one by id:ID'
    )
    assert name_of(club, "Hart,") == "Hart, Daniel"  # a surname, written with its comma
    assert one_line_error(club("player", "show", "id:99"), 1) == "error: no player id:99"
    assert one_line_error(club("player", "show", "id:x"), 1) == "error: no player id:x"


def test_games_are_entered_and_listed_by_surname(club: Cli) -> None:
    ok(club("game", "add", "Novak", "Sato", "1-0", "--date", "2026-11-02"))
    ok(club("game", "add", "id:5", "Hartm", "0-1", "--date", "2026-11-03"))
    games = js(club, "game", "list", "--player", "Novak")
    assert [(g["white"], g["black"], g["result"]) for g in games] == [
        ("Novak, Jan", "Sato, Yuki", "1-0")
    ]
    games = js(club, "game", "list", "--player", "Berg")
    assert [(g["white"], g["black"], g["result"]) for g in games] == [
        ("Magnus Berg", "Hartmann, Otto", "0-1")
    ]


def test_names_cannot_look_like_references(club: Cli) -> None:
    line = one_line_error(club("player", "add", "id:7"), 1)
    assert line == (
        "error: invalid name 'id:7': a name cannot start with '#' or 'id:' (those refer to "
        "player ids)"
    )


def test_a_name_may_be_a_number_as_online_user_names_are(club: Cli) -> None:
    """Lichess user names such as "800": a number that is nobody's FIDE id names a player."""
    ok(club("player", "add", "800", "--external"))
    assert js(club, "player", "show", "800")["name"] == "800"
    ok(club("player", "add", "Ruiz, Ana", "--fide-id", "800800"))
    assert js(club, "player", "show", "800800")["name"] == "Ruiz, Ana"  # a FIDE id first
