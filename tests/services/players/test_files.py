"""Players in and out (tracker.services.players.files): a players file's rows added or
updated, each refused row leaving nothing behind; every player as a file's row."""

from __future__ import annotations

from tests.helpers import Services, seeded
from tracker.importers.players import parse_players_csv, write_players_csv
from tracker.services.players import files, refs


def test_a_files_players_added_updated_or_left(db: Services) -> None:
    db(seeded, "Hart, Daniel", 2300)
    data = (
        b"name,fide_id,federation,birth_year,kind,standard_rating,standard_games\n"
        b'"Hart, Daniel",4100123,nor,1988,tracked,2300,100\n'  # gains his FIDE id and more
        b'"Sato, Yuki",,JPN,,tracked,1900,20\n'  # new
        b'"Sato, Yuki",,JPN,,tracked,1900,20\n'  # twice in the file
        b'"Kim, Ji-ho",,,,external,,\n'
    )
    parsed = parse_players_csv(data, "players.csv")
    assert parsed.problems == ()
    out = db(files.read_players, "players.csv", parsed.players)
    assert [(name, external) for _, name, _, external in out.created] == [
        ("Sato, Yuki", False), ("Kim, Ji-ho", True),
    ]  # fmt: skip
    assert out.updated == ("Hart, Daniel",)
    assert [str(p) for p in out.problems] == ["players.csv:4: the same player as line 3"]
    assert out.seeds_changed  # Sato's new seed, Hart's birth year: the lists change
    hart = db(refs.show_player, "Hart")
    assert (hart.fide_id, hart.federation, hart.birth_year) == (4100123, "NOR", 1988)
    again = db(files.read_players, "players.csv", parsed.players[:1])
    assert (again.created, again.updated, again.unchanged) == ((), (), 1)


def test_every_player_as_a_files_row_and_back(db: Services) -> None:
    db(seeded, "Hart, Daniel", 2405, games=240)
    rows = db(files.players_rows)
    assert rows == [{
        "name": "Hart, Daniel", "fide_id": None, "federation": None, "birth_year": 1980,
        "sex": None, "title": None, "kind": "tracked", "standard_rating": 2405,
        "standard_games": 240, "standard_ever_2400": True, "standard_ever_2300": True,
    }]  # fmt: skip
    back = parse_players_csv(write_players_csv(rows).encode(), "out.csv")
    (player,) = back.players
    assert (player.name, player.birth_year, player.external) == ("Hart, Daniel", 1980, False)
    assert [(s.rating, s.games, s.ever_2400) for s in player.seeds] == [(2405, 240, True)]
