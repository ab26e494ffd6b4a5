"""The live list (tracker.services.periods.live): the open months closed as of today, beside
the last published list, and nothing of it kept."""

from __future__ import annotations

import pytest

from tests.helpers import TODAY, Services, month
from tracker.db.queries.lists import closed_months
from tracker.errors import NotFoundError
from tracker.services.periods.live import live_list


def test_the_live_list_beside_the_published_one(season: Services) -> None:
    out = season(live_list, "standard", TODAY)
    assert (out.list_date, out.published_date, out.stale) == (
        month("2026-12"),
        month("2026-04"),
        False,
    )
    assert out.months[0] == month("2026-04") and out.months[-1] == month("2026-11")
    entries = [
        (e.entry.rank, e.entry.name, e.entry.rating, e.published, e.change, e.entry.games)
        for e in out.entries
    ]
    # November: Hart (1994) beats Sato (1906): PD .62, +7.6 and -7.6
    assert entries == [(1, "Hart", 2002, 1994, 8, 1), (2, "Sato", 1898, 1906, -8, 1)]
    with season.transaction() as s:  # worked out, not kept
        assert closed_months(s, "standard")[-1].month == month("2026-03")
    with pytest.raises(NotFoundError, match="no rapid games yet"):
        season(live_list, "rapid", TODAY)
