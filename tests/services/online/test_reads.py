"""Reading the stored online ratings (tracker.services.online.reads): a player's series in
the perf beside a list, and what is stored of each of his perfs."""

from __future__ import annotations

from tests.helpers import Services, day, unrated
from tracker.db.queries.online import PerfPoint, add_points
from tracker.services.online.reads import OnlineSeries, series_for, show
from tracker.services.players import roster


def test_a_players_series_and_perfs(db: Services) -> None:
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart", lichess="dhart", chesscom="DHart").id
        sato = unrated(s, "Sato").id
        add_points(s, [
            PerfPoint(hart, "lichess", "classical", day("2026-01-03"), 2010),
            PerfPoint(hart, "lichess", "classical", day("2026-02-03"), 2030),
            PerfPoint(hart, "lichess", "blitz", day("2026-02-10"), 1950),
            PerfPoint(hart, "chesscom", "rapid", day("2026-01-20"), 1800),
        ])  # fmt: skip
        standard = series_for(s, [hart, sato], "standard")
        rapid = series_for(s, [hart], "rapid")
        assert series_for(s, [], "standard") == {}
    assert sato not in standard
    lichess = next(x for x in standard[hart] if x.platform == "lichess")
    assert lichess == OnlineSeries(
        "lichess", "dhart", "classical",
        ((day("2026-01-03"), 2010), (day("2026-02-03"), 2030)),
    )  # fmt: skip
    assert lichess.on(day("2026-02-02")) == (day("2026-01-03"), 2010)
    assert lichess.on(day("2026-01-02")) is None
    assert lichess.label == "Lichess classical"
    chesscom = next(x for x in rapid[hart] if x.platform == "chesscom")
    assert chesscom.points == ((day("2026-01-20"), 1800),)
    view = db(show, "Hart")
    assert (view.name, view.lichess, view.chesscom) == ("Hart", "dhart", "DHart")
    # by platform, then in the platform's order of perfs (classical first)
    assert [(p.platform, p.perf, p.points, p.first, p.last, p.rating) for p in view.perfs] == [
        ("lichess", "classical", 2, day("2026-01-03"), day("2026-02-03"), 2030),
        ("lichess", "blitz", 1, day("2026-02-10"), day("2026-02-10"), 1950),
        ("chesscom", "rapid", 1, day("2026-01-20"), day("2026-01-20"), 1800),
    ]
