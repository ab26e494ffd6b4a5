"""Small seasons the periods' readers are tested on."""

from __future__ import annotations

import pytest

from tests.helpers import Services, close, game, seeded, unrated
from tracker.services.players import roster
from tracker.services.players.roster import Seed


@pytest.fixture
def season(db: Services) -> Services:
    """Hart (2000) and Sato (1900), seeded after 100 games (K 20), and Berg, unrated. Hart
    beats Sato in January and loses to him in March; January to March are closed; Hart
    beats Sato again in November, the open month (TRACKER_TODAY is 2026-11-29)."""
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 1900)
        unrated(s, "Berg")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Sato", "Hart", "1-0", "2026-03-05")
    db(close, "2026-03")
    with db.transaction() as s:
        game(s, "Hart", "Sato", "1-0", "2026-11-05")
    return db


@pytest.fixture
def october(db: Services) -> Services:
    """Five players of whom four have FIDE ids (Nilsen unrated with us) and October closed:
    what FIDE's list of 2026-11 (tests/importers/data/standard_rating_list.txt) lists."""
    with db.transaction() as s:
        roster.add_player(s, name="Lindgren, Axel", fide_id=1700101, seed=Seed(2215, 40))
        roster.add_player(s, name="Haugen, Kari", fide_id=1500202, seed=Seed(2010, 40))
        roster.add_player(s, name="Varga, Eszter", fide_id=700404, birth_year=2009,
                          seed=Seed(1904, 12))  # fmt: skip
        roster.add_player(s, name="Okafor, Grace", seed=Seed(1900, 50))
        roster.add_player(s, name="Nilsen, Ingrid", fide_id=1500999)  # unrated with us
        for white, black, result, on in (
            ("Lindgren, Axel", "Haugen, Kari", "1-0", "2026-10-03"),
            ("Varga, Eszter", "Lindgren, Axel", "1/2-1/2", "2026-10-10"),
            ("Haugen, Kari", "Okafor, Grace", "0-1", "2026-10-17"),
        ):
            game(s, white, black, result, on)
    db(close, "2026-10")
    return db
