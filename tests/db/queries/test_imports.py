"""The import's named queries (tracker.db.queries.imports): players in bulk with their ids,
events and games by key, the imports themselves."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.helpers import Services, game, unrated
from tracker.db import driver
from tracker.db.queries import imports as q
from tracker.db.queries.players import PlayerRow, players_by_ids

AT = dt.datetime(2026, 11, 29, 18, 30, 5)


def _player(name: str) -> PlayerRow:
    return PlayerRow(0, name, None, None, None, None, None, True, None, None)


def test_players_in_bulk_get_the_ids_one_by_one_would(db: Services) -> None:
    with db.transaction() as s:
        first = unrated(s, "Hart").id
        s.run("DELETE FROM players WHERE id = :id", {"id": first})  # an id never given again
        ids = q.insert_players(s, [_player("Berg"), _player("Cruz")])
        assert q.insert_players(s, []) == []
        assert ids == [first + 1, first + 2]
        assert [p.name for p in players_by_ids(s, ids)] == ["Berg", "Cruz"]
        assert unrated(s, "Dahl").id == first + 3


@pytest.mark.parametrize("in_chunk", [500, 1])
def test_games_and_events_by_key(
    db: Services, in_chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(driver, "IN_CHUNK", in_chunk)  # a slice of keys at a time
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        b = game(s, "Sato", "Hart", "+-", "2026-01-12", event="Winter Cup", round_="2")
        game(s, "Sato", "Hart", "1-0", "2026-01-19", tc="blitz", event="Blitz Night")
        keys = dict(s.all("SELECT id, natural_key FROM games"))
        found = sorted(q.games_by_natural_key(s, [keys[a.id], keys[b.id], "no such key"]))
        assert [(g.id, g.result, g.tc) for g in found] == sorted(
            [(a.id, "1-0", "standard"), (b.id, "+-", "standard")]
        )
        event_id, name_key = s.first("SELECT id, name_key FROM events WHERE name = 'Winter Cup'")
        blitz = s.scalar("SELECT id FROM events WHERE name = 'Blitz Night'")
        ((key, event),) = q.events_by_key(s, [name_key, "nothing"])
        assert (key, event.id, event.name) == (name_key, event_id, "Winter Cup")
        tcs = q.event_time_controls(s, [event_id, blitz])
        assert sorted(tcs) == sorted([q.EventTc(event_id, "standard"), q.EventTc(blitz, "blitz")])


def test_imports_recorded_and_listed(db: Services) -> None:
    with db.transaction() as s:
        assert q.first_import_of(s, "abc") is None
        new = q.NewImport("club.pgn", "abc", "pgn", AT, 2, 1, 0, 1, 0, 2)
        first = q.insert_import(s, new)
        again = q.insert_import(s, new._replace(games_added=0, games_present=3))
        earlier = q.first_import_of(s, "abc")
        assert earlier is not None and earlier.id == first
        assert earlier.imported_at.replace(tzinfo=None) == AT
        rows = q.imports_with_games(s)
        assert [(r.id, r.file, r.added, r.already_present, r.games_now) for r in rows] == [
            (first, "club.pgn", 2, 1, 0),
            (again, "club.pgn", 0, 3, 0),
        ]
        assert q.first_periods(s) == []
