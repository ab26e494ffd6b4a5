"""A player's history (tracker.services.periods.history): a row per closed period with his
Elo, the shadow beside it and his place on the list."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.helpers import Services, month
from tracker.errors import NotFoundError
from tracker.services.periods.history import history
from tracker.services.periods.standing import Standing
from tracker.services.players import roster

D = Decimal


def test_a_row_per_closed_period(season: Services) -> None:
    out = season(history, "Hart", "standard")
    assert (out.name, out.seed_rating, out.seed_games, out.stale_months) == ("Hart", 2000, 100, ())
    # January: a win over 1900 (PD .64, +7.2); February: no games; March: a loss to 1893 (PD .66)
    rows = [
        (r.month, r.rating_before, r.rating, r.games, r.score, r.expected, r.change)
        for r in out.rows
    ]
    assert rows == [
        (month("2026-01"), 2000, 2007, 1, D(1), D("0.64"), 7),
        (month("2026-02"), 2007, 2007, 0, D(0), D(0), 0),
        (month("2026-03"), 2007, 1994, 1, D(0), D("0.66"), -13),
    ]
    assert [r.list_date for r in out.rows] == [month("2026-02"), month("2026-03"), month("2026-04")]
    assert [r.standing for r in out.rows] == [Standing(1, 2, 50.0)] * 3
    assert all(r.glicko is not None and r.rd is not None for r in out.rows)
    assert out.peak is not None and (out.peak.rating, out.peak.list_date) == (
        2007,
        month("2026-02"),
    )


def test_who_has_no_history(season: Services) -> None:
    assert season(history, "Hart", "rapid").rows == ()
    season(roster.add_player, name="Guest", external=True)
    with pytest.raises(NotFoundError):
        season(history, "Guest", "standard")
