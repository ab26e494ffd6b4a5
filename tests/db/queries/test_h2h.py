"""The games between two players (tracker.db.queries.h2h)."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, external, game, unrated
from tracker.db.queries.h2h import games_between


def test_the_games_between_two_players_oldest_first(db: Services) -> None:
    with db.transaction() as s:
        hart, sato, guest = unrated(s, "Hart").id, unrated(s, "Sato").id, external(s, "Guest").id
        late = game(s, "Sato", "Hart", "0-1", "2026-03-01", event="Spring Open", round_="2").id
        early = game(s, "Hart", "Sato", "1/2-1/2", "2026-01-05").id
        forfeit = game(s, "Hart", "Sato", "+-", "2026-02-01", tc="blitz").id
        other = game(s, "Hart", "Guest", "1-0", "2026-01-06").id
        both = games_between(s, hart, sato, None)
        assert [g.id for g in both] == [early, forfeit, late]  # forfeits included
        assert both[2].event == "Spring Open" and both[2].round == "2"
        assert (both[2].white_id, both[2].black_id, both[2].result) == (sato, hart, "0-1")
        assert both[0].played_on == dt.date(2026, 1, 5) and both[0].event is None
        assert [g.id for g in games_between(s, sato, hart, "blitz")] == [forfeit]
        assert [g.id for g in games_between(s, hart, None, "standard")] == [early, other, late]
        assert games_between(s, guest, sato, None) == []
