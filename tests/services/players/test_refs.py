"""Finding a player (tracker.services.players.refs): by id, FIDE id, exact name, another case,
a surname only one has, the start of one name; errors name the candidates or the closest."""

from __future__ import annotations

import pytest

from tests.helpers import Services, game, unrated
from tracker.errors import AmbiguousError, NotFoundError
from tracker.services.players import refs, roster
from tracker.services.players.roster import Seed


@pytest.fixture
def club(db: Services) -> Services:
    with db.transaction() as s:
        roster.add_player(s, name="Hart, Daniel", fide_id=4100123)
        roster.add_player(s, name="Müller, Anna")
        roster.add_player(s, name="Hartley, Ben")
        roster.add_player(s, name="800")  # a name that is a number
    return db


@pytest.mark.parametrize(
    ("ref", "name"),
    [
        ("#1", "Hart, Daniel"),
        ("id:2", "Müller, Anna"),
        ("4100123", "Hart, Daniel"),
        ("800", "800"),
        ("hart,   DANIEL", "Hart, Daniel"),
        ("müller", "Müller, Anna"),  # a surname only one player has
        ("hartl", "Hartley, Ben"),  # the start of one name
        ("hart", "Hart, Daniel"),  # a surname before the start of a name (Hartley)
    ],
)
def test_a_player_by_each_kind_of_reference(club: Services, ref: str, name: str) -> None:
    assert club(refs.find, ref).name == name


def test_what_finds_nobody_or_several(club: Services) -> None:
    club(roster.add_player, name="Hart, Eva")
    with pytest.raises(AmbiguousError) as two:
        club(refs.find, "hart")
    assert str(two.value) == (
        '\'hart\' matches 2 players: "Hart, Daniel" (id:1, FIDE 4100123), "Hart, Eva" (id:5); '
        "name one by id:ID"
    )
    with pytest.raises(NotFoundError, match="no player id:99"):
        club(refs.find, "id:99")
    with pytest.raises(NotFoundError, match="no player with FIDE id or name 123"):
        club(refs.find, "123")
    with pytest.raises(NotFoundError) as typo:
        club(refs.find, "Mueller, Ana")
    assert str(typo.value) == "no player named 'Mueller, Ana'; did you mean \"Müller, Anna\"?"


def test_pure_helpers() -> None:
    assert refs.name_key("  Hart,   DANIEL ") == "hart, daniel"
    assert refs.id_ref("ID:12") == "12" and refs.id_ref("#7") == "7" and refs.id_ref("12") is None
    assert refs.spellings("Müller, Anna") == ("muller anna", "mueller anna")
    seed = Seed(2100, 40, True, False, "rapid")
    assert refs.seed_of(refs.stored_seed(5, seed)) == seed


def test_a_players_view(club: Services) -> None:
    with club.transaction() as s:
        unrated(s, "Sato")
        game(s, "Hart, Daniel", "Sato", "1-0", "2026-01-05")
        roster.add_player(s, name="Hart, Daniel", force=True)
        view = refs.show_player(s, "#1")
    assert (view.name, view.fide_id, view.games, view.namesakes, view.ref) == (
        "Hart, Daniel", 4100123, 1, (6,), "#1",
    )  # fmt: skip
