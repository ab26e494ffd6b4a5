"""What seeding from FIDE's lists reads and writes (tracker.db.queries.fide_list)."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, external, game, unrated
from tracker.db import driver
from tracker.db.queries import fide_list as q
from tracker.db.queries.players import player_by_id
from tracker.services.players import roster


@pytest.mark.parametrize("in_chunk", [500, 1])
def test_fide_ids_and_the_games_before_a_list(
    db: Services, in_chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(driver, "IN_CHUNK", in_chunk)  # a game of two chunks is read once
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart", fide_id=4100123).id
        sato = roster.add_player(s, name="Sato", fide_id=4100456).id
        berg = unrated(s, "Berg").id
        external(s, "Guest")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup")
        game(s, "Sato", "Hart", "1-0", "2026-02-05")
        game(s, "Hart", "Guest", "1-0", "2026-02-06", tc="rapid")
        assert q.fide_ids(s) == {4100123: hart, 4100456: sato}
        before = q.games_before(s, [hart, sato], "standard", day("2026-02-01"))
        assert [(g.white_id, g.black_id, g.played_on) for g in before] == [
            (hart, sato, day("2026-01-05"))
        ]
        assert before[0].event_id is not None
        assert len(q.games_before(s, [hart, sato], "standard", None)) == 2
        assert q.any_games(s, [berg, sato])
        assert not q.any_games(s, [berg])


def test_the_latest_earlier_list_and_a_listed_players_columns(db: Services) -> None:
    with db.transaction() as s:
        hart = unrated(s, "Hart").id
        for on, rating in (("2025-11-01", 2010), ("2025-12-01", 2020)):
            s.run(
                "INSERT INTO official_ratings (player_id, tc, list_date, rating)"
                " VALUES (:p, 'standard', :d, :r)",
                {"p": hart, "d": day(on), "r": rating},
            )
        assert q.latest_official(s, [hart], "standard") == {hart: day("2025-12-01")}
        assert q.latest_official(s, [hart], "rapid") == {}
        q.update_player(s, hart, {"fide_id": 4100999, "federation": "SWE", "title": "IM"})
        q.update_player(s, hart, {})
        with pytest.raises(ValueError, match="not a listed column: name"):
            q.update_player(s, hart, {"name": "Someone"})
        row = player_by_id(s, hart)
        assert row is not None
        assert (row.name, row.fide_id, row.federation, row.title) == ("Hart", 4100999, "SWE", "IM")
