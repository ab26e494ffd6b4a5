"""The least-squares line between FIDE and an online rating (tracker.services.online.fit):
each linked player's Elo beside his rating in the perf that stands beside the list."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, seeded
from tracker.db.queries.online import PerfPoint, add_points
from tracker.services.online.fit import online_fit
from tracker.services.players import roster


def test_the_line_through_the_linked_players(db: Services) -> None:
    with db.transaction() as s:
        ids = {}
        for name, elo in (("Ames", 1800), ("Berg", 2000), ("Cruz", 2200), ("Dahl", 2100)):
            ids[name] = seeded(s, name, elo).id
            roster.edit_player(s, name, changes={"lichess": name.lower()})
        roster.add_player(s, name="Eze", lichess="eze")  # no Elo
        points = [
            PerfPoint(ids["Ames"], "lichess", "classical", day("2026-10-01"), 1900),
            PerfPoint(ids["Berg"], "lichess", "classical", day("2026-11-01"), 2100),
            PerfPoint(ids["Cruz"], "lichess", "classical", day("2026-11-20"), 2300),
            PerfPoint(ids["Dahl"], "lichess", "blitz", day("2026-11-20"), 2500),  # not classical
        ]
        add_points(s, points)
    out = db(online_fit, "standard", "Lichess")
    assert (out.platform, out.perf, out.from_list, out.list_date) == (
        "lichess", "classical", False, day("2026-11-29"),  # no list yet: the seeds, today
    )  # fmt: skip
    assert [(r.name, r.elo, r.online) for r in out.rows] == [
        ("Cruz", 2200, 2300), ("Berg", 2000, 2100), ("Ames", 1800, 1900),
    ]  # fmt: skip
    assert out.fit is not None and out.fit.n == 3
    assert (out.fit.slope, out.fit.intercept) == (pytest.approx(1.0), pytest.approx(100.0))
    assert all(r.residual == pytest.approx(0.0, abs=1e-9) for r in out.rows)
    assert dict(out.left_out) == {
        "Dahl": "no Lichess classical rating by then",
        "Eze": "no Elo on the list",
    }
    nothing = db(online_fit, "blitz", "chesscom")
    assert nothing.rows == () and nothing.fit is None
