"""The players (tracker.services.players.roster): added, listed, edited, seeded and removed;
names checked; a changed seed marks the closed lists stale."""

from __future__ import annotations

import pytest

from tests.helpers import Services, game, hart_beats_sato, month, seeded, unrated
from tracker.errors import ConflictError, InvalidInputError
from tracker.services.players import roster
from tracker.services.players.roster import Seed


def test_a_player_added_with_a_seed(db: Services) -> None:
    view = db(roster.add_player, name="  Hart,  Daniel ", fide_id=4100123, birth_year=1990,
              title="FM", seed=Seed(2450, 300))  # fmt: skip
    assert (view.name, view.fide_id, view.birth_year, view.title, view.external) == (
        "Hart, Daniel", 4100123, 1990, "FM", False,
    )  # fmt: skip
    (seed,) = view.seeds
    assert (seed.rating, seed.games, seed.ever_2400, seed.ever_2300) == (2450, 300, True, True)
    with pytest.raises(ConflictError, match='"Hart, Daniel" is already a player'):
        db(roster.add_player, name="Hart, Daniel")
    with pytest.raises(
        ConflictError, match='differs from the player "Hart, Daniel" \\(id:1\\) only in case'
    ):
        db(roster.add_player, name="hart, daniel")
    assert db(roster.add_player, name="Hart, Daniel", force=True).id == 2


def test_names_checked() -> None:
    assert roster.clean_name("  Hart,   Daniel ") == "Hart, Daniel"
    with pytest.raises(InvalidInputError, match="a player needs a name"):
        roster.clean_name("   ")
    with pytest.raises(InvalidInputError, match="a name cannot start with '#' or 'id:'"):
        roster.clean_name("#12")
    with pytest.raises(InvalidInputError, match="limited to 200 characters"):
        roster.clean_name("x" * 201)
    assert (
        roster.seed_row(Seed(2310, 10)).ever_2300 and not roster.seed_row(Seed(2310, 10)).ever_2400
    )


def test_listed_edited_and_removed(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        unrated(s, "Sato")
        roster.add_player(s, name="Guest", external=True)
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
    assert [p.name for p in db(roster.list_players, external=False)] == ["Hart", "Sato"]
    assert [p.name for p in db(roster.list_players, external=True)] == ["Guest"]
    edited = db(roster.edit_player, "Sato", changes={"federation": "JPN", "birth_year": 2001})
    assert (edited.federation, edited.birth_year, edited.changed) == ("JPN", 2001, True)
    same = db(roster.edit_player, "Sato", changes={"federation": "JPN"})
    assert not same.changed
    cleared = db(roster.edit_player, "Sato", changes={}, clear=("federation",))
    assert cleared.federation is None
    removed = db(roster.remove_player, "Guest")
    assert removed.name == "Guest"
    assert [p.name for p in db(roster.list_players)] == ["Hart", "Sato"]


def test_a_changed_seed_marks_every_closed_list_stale(db: Services) -> None:
    hart_beats_sato(db, "2026-01-05", "2026-02")
    seeded_again = db(roster.seed_player, "Sato", tc="standard", rating=1950, games=100)
    assert seeded_again.stale == (("standard", (month("2026-01"), month("2026-02"))),)
    assert [(x.rating, x.games) for x in seeded_again.seeds] == [(1950, 100)]
    unchanged = db(roster.seed_player, "Sato", tc="standard", rating=1950, games=100)
    assert unchanged.stale == ()
    db(roster.add_player, name="Guest", external=True)
    with pytest.raises(InvalidInputError, match="Guest is external"):
        db(roster.seed_player, "Guest", tc="standard", rating=1800, games=10)
