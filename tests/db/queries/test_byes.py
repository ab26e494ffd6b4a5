"""Byes (tracker.db.queries.byes): stored, found by their round, moved, deleted."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, game, unrated
from tracker.db.queries import byes as q

ON = dt.date(2026, 3, 7)


def test_byes_stored_and_read_back(db: Services) -> None:
    with db.transaction() as s:
        hart, sato = unrated(s, "Hart").id, unrated(s, "Sato").id
        game(s, "Hart", "Sato", "1-0", "2026-03-07", event="Spring Swiss", round_="1")
        event = int(s.scalar("SELECT id FROM events"))
        q.insert_byes(
            s,
            [
                q.ByeFields(event, hart, "2", ON, "standard", "H"),
                q.ByeFields(event, sato, "3", ON, "standard", "U"),
            ],
        )
        one = q.insert_bye(s, q.ByeFields(event, hart, "3", ON, "standard", "Z"))
        stored = q.event_byes(s, event)
        assert sorted((b.player_id, b.round, b.code) for b in stored) == sorted(
            [(hart, "2", "H"), (sato, "3", "U"), (hart, "3", "Z")]
        )
        found = q.bye_of(s, event, hart, "3")
        assert found is not None and (found.id, found.code, found.played_on) == (one, "Z", ON)
        assert q.bye_of(s, event, sato, "2") is None
        assert q.byes_present(s, [event]) == {
            (event, hart, "2"),
            (event, sato, "3"),
            (event, hart, "3"),
        }
        assert q.byes_present(s, [event + 1]) == set()
        q.delete_bye(s, one)
        assert q.bye_of(s, event, hart, "3") is None
        assert len(q.event_byes(s, event)) == 2
