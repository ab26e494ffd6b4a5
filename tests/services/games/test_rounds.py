"""A whole round at once (tracker.services.games.rounds): every game checked as ``game add``
checks it, nobody twice in the round, all or nothing."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, unrated
from tracker.db.queries import status
from tracker.errors import InvalidInputError
from tracker.importers.rounds import Pairing
from tracker.services.games.rounds import add_round


@pytest.fixture
def club(db: Services) -> Services:
    with db.transaction() as s:
        for name in ("Ames", "Berg", "Cruz", "Dahl", "Eze"):
            unrated(s, name)
    return db


def test_a_round_with_its_games_and_a_bye(club: Services) -> None:
    pairings = [
        Pairing(1, "Ames", "Berg", "1-0"),
        Pairing(2, "Cruz", "Dahl", "1/2-1/2", black_rating=None),
        Pairing(3, "Eze", "", "", bye="U"),
    ]
    out = club(add_round, event="Spring Swiss", played_on=day("2026-03-07"), round_="1",
               pairings=pairings)  # fmt: skip
    assert [(g.white, g.black, g.result, g.round, g.event) for g in out.games] == [
        ("Ames", "Berg", "1-0", "1", "Spring Swiss"),
        ("Cruz", "Dahl", "1/2-1/2", "1", "Spring Swiss"),
    ]
    assert [(b.player, b.code, b.round) for b in out.byes] == [("Eze", "U", "1")]


def test_a_player_twice_in_a_round_writes_nothing(club: Services) -> None:
    pairings = [Pairing(1, "Ames", "Berg", "1-0"), Pairing(2, "Cruz", "Ames", "0-1")]
    with pytest.raises(InvalidInputError) as refused:  # the transaction is rolled back
        club(add_round, event="Spring Swiss", played_on=day("2026-03-07"), round_="1",
             pairings=pairings, source="round.txt")  # fmt: skip
    assert str(refused.value) == (
        "round 1 of 'Spring Swiss' not added: 1 of 2 line(s) have problems; nothing was written"
    )
    assert refused.value.problems == ("round.txt:2: Ames already plays in line 1 of this round",)
    with club.transaction() as s:
        assert status.game_count(s) == 0
    with pytest.raises(InvalidInputError, match="a round needs a number"):
        club(add_round, event="Spring Swiss", played_on=day("2026-03-07"), round_=" ",
             pairings=pairings)  # fmt: skip
