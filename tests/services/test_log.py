"""The change log (tracker.services.log): notes gathered in a transaction's journal, written
as one entry, read back with the filters. The commands' entries end to end are in
tests/cli/test_log.py."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, month
from tracker.services import log

AT = dt.datetime(2026, 11, 29, 12, 30)


def test_notes_become_one_entry_and_are_read_back(db: Services) -> None:
    with db.transaction() as s:
        s.journal.clear()  # what the command's own services noted: not this test's
        assert log.write_entry(s, "nothing", AT) is None  # no notes: no entry
        log.note(s, "added", "player Hart", players=[3, None])
        log.note_stale(s, "standard", [month("2026-02"), month("2026-01")])
        log.note_stale(s, "standard", [month("2026-02"), month("2026-01")])  # one note
        log.note_stale(s, "rapid", [])  # nothing stale: no note
        first = log.write_entry(s, "player add Hart", AT)
        assert first is not None and s.journal == []
        log.note(s, "closed", "standard 2026-03", tc="standard", months=[month("2026-03")])
        log.note(s, "added", "game 7", players=[4, 3], events=[9])
        second = log.write_entry(s, "period close", AT + dt.timedelta(days=2))
    with db.transaction() as s:
        entries = log.read_log(s)
        assert [(e.id, e.command) for e in entries] == [
            (first, "player add Hart"),
            (second, "period close"),
        ]
        assert entries[0].notes == (
            {"did": "added", "what": "player Hart", "players": [3]},
            {
                "did": "stale",
                "what": "standard periods made stale: 2026-01, 2026-02",
                "tc": "standard",
                "months": ["2026-01", "2026-02"],
            },
        )
        assert [e.id for e in log.read_log(s, player=4)] == [second]
        assert [e.id for e in log.read_log(s, player=3)] == [first, second]
        assert [e.id for e in log.read_log(s, event=9)] == [second]
        assert [e.id for e in log.read_log(s, since=dt.date(2026, 11, 30))] == [second]
        assert [e.id for e in log.read_log(s, until=dt.date(2026, 11, 30))] == [first]
        assert [e.id for e in log.read_log(s, after=first)] == [second]
        assert log.settled_since(s, first, "standard", month("2026-03"))  # closed since
        assert not log.settled_since(s, first, "rapid", month("2026-03"))
        assert not log.settled_since(s, second, "standard", month("2026-03"))


def test_a_removed_games_row_is_kept_with_its_entry(db: Services) -> None:
    with db.transaction() as s:
        s.journal.clear()
        game = {"id": 41, "result": "1-0"}
        log.note(s, "removed", "game 41", months=[month("2026-02")], removed_game=game)
        entry = log.write_entry(s, "game remove 41", AT)
        kept = s.first("SELECT log_id, month FROM removed_games WHERE id = 41")
        notes = log.read_log(s)[0].notes
    assert kept is not None and kept[0] == entry and str(kept[1])[:10] == "2026-02-01"
    assert notes == ({"did": "removed", "what": "game 41", "months": ["2026-02"]},)
