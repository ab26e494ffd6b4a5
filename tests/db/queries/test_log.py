"""The change log and the removed games (tracker.db.queries.log)."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, game, unrated
from tracker.db.queries import log as q

AT = dt.datetime(2026, 11, 29, 12, 30)


def test_entries_are_read_after_a_number_oldest_first(db: Services) -> None:
    with db.transaction() as s:
        assert q.log_rows(s) == []
        first = q.insert_log(s, AT, "game add", '[{"what": "a"}]')
        second = q.insert_log(s, AT + dt.timedelta(minutes=1), "player add", "[]")
        assert second > first
        rows = q.log_rows(s)
        assert [(r.id, r.command, r.entries) for r in rows] == [
            (first, "game add", '[{"what": "a"}]'),
            (second, "player add", "[]"),
        ]
        assert [r.id for r in q.log_rows(s, since=first)] == [second]


def test_a_removed_game_is_kept_and_put_back_with_its_id(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        kept = game(s, "Hart", "Sato", "1-0", "2026-01-05").id
        columns = dict(
            zip(
                ("white_id", "black_id", "result", "played_on", "tc", "natural_key"),
                s.first(
                    "SELECT white_id, black_id, result, played_on, tc, natural_key"
                    " FROM games WHERE id = :id",
                    {"id": kept},
                ),
                strict=True,
            )
        )
        log_id = q.insert_log(s, AT, "game remove", "[]")
        s.run("DELETE FROM games WHERE id = :id", {"id": kept})
        removed = q.RemovedGameRow(kept, log_id, '{"result": "1-0"}', dt.date(2026, 1, 1))
        q.insert_removed_game(s, removed)
        assert q.removed_game(s, kept) == removed
        q.insert_game_with_id(s, kept, columns)
        q.delete_removed_game(s, kept)
        assert q.removed_game(s, kept) is None
        assert s.scalar("SELECT result FROM games WHERE id = :id", {"id": kept}) == "1-0"
