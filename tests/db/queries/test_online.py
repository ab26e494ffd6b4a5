"""Online ratings' named queries (tracker.db.queries.online): linked accounts and the stored
points of each platform's rating categories."""

from __future__ import annotations

from tests.helpers import Services, day, external, unrated
from tracker.db.queries import online as q
from tracker.services.players import roster


def test_linked_accounts(db: Services) -> None:
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart", lichess="dhart", chesscom="DHart").id
        sato = roster.add_player(s, name="Sato", chesscom="yuki").id
        unrated(s, "Berg")
        external(s, "Guest")
        assert [p.id for p in q.linked_accounts(s)] == [hart, sato]
        assert [p.name for p in q.chesscom_accounts(s, ["dhart", "nobody"])] == ["Hart"]
        assert q.tracked_on(s, "lichess") == [(hart, "Hart")]
        assert [p.name for p in q.tracked_on(s, "chesscom")] == ["Hart", "Sato"]


def test_points_stored_corrected_and_read(db: Services) -> None:
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart", lichess="dhart").id
        sato = roster.add_player(s, name="Sato", lichess="yuki").id
        points = [
            q.PerfPoint(hart, "lichess", "classical", day("2026-01-03"), 2010),
            q.PerfPoint(hart, "lichess", "classical", day("2026-02-03"), 2030),
            q.PerfPoint(hart, "lichess", "blitz", day("2026-02-10"), 1950),
            q.PerfPoint(sato, "lichess", "classical", day("2026-01-20"), 1800),
        ]
        q.add_points(s, points)
        stored = q.stored_points(s, hart, "lichess")
        assert sorted((p.perf, p.day, p.rating) for p in stored) == sorted(
            (p.perf, p.day, p.rating) for p in points[:3]
        )
        assert q.stored_points(s, hart, "chesscom") == []
        first = min(stored, key=lambda p: p.day)
        q.set_rating(s, first.id, 2015)
        assert q.player_points(s, hart) == [
            points[2],
            points[0]._replace(rating=2015),
            points[1],
        ]  # by platform, perf, day
        assert q.last_days(s, [hart, sato]) == {
            (hart, "lichess"): day("2026-02-10"),
            (sato, "lichess"): day("2026-01-20"),
        }
        classical = q.perf_points(s, [hart, sato], [("lichess", "classical")])
        assert [(p.player_id, p.rating) for p in classical] == [
            (hart, 2015),
            (hart, 2030),
            (sato, 1800),
        ]
        assert q.perf_points(s, [hart], []) == []
