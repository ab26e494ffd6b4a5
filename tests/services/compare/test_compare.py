"""``compare`` at the service (tracker.services.compare): each closed month's published Elo
beside the shadow at the list date, stored or worked out on the fly for another preset. The
numbers of the shadow itself are checked by hand in tests/services/shadow/test_shadow.py."""

from __future__ import annotations

import pytest

from tests.helpers import Services, close, game, month, seeded, unrated
from tracker.errors import NotFoundError
from tracker.services.compare import compare


@pytest.fixture
def season(db: Services) -> Services:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 1900)
        unrated(s, "Berg")
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
        game(s, "Sato", "Hart", "1-0", "2026-03-05")
    db(close, "2026-03")
    return db


def test_each_closed_month_the_elo_beside_the_shadow(season: Services) -> None:
    out = season(compare, "Hart", "standard", None)
    assert (out.name, out.tc, out.stored, out.stale_months) == ("Hart", "standard", True, ())
    assert [(r.month, r.list_date) for r in out.rows] == [
        (month("2026-01"), month("2026-02")),
        (month("2026-02"), month("2026-03")),
        (month("2026-03"), month("2026-04")),
    ]
    # a win over a lower rated player (+7), no games, a loss to him (-13: PD .64 at K 20)
    assert [r.elo for r in out.rows] == [2007, 2007, 1994]
    assert out.elo_start == (month("2026-01"), 2000)
    jan, feb, mar = out.rows
    assert jan.glicko is not None and mar.glicko is not None and jan.glicko > mar.glicko
    for r in out.rows:
        assert r.glicko is not None and r.elo is not None
        assert r.difference == pytest.approx(r.glicko - r.elo)
    assert feb.rd is not None and jan.rd is not None and feb.rd >= jan.rd  # idle: RD grows
    assert [p.played_on.isoformat() for p in out.points] == ["2026-01-05", "2026-03-05"]


def test_another_preset_is_worked_out_not_read(season: Services) -> None:
    other = season(compare, "Hart", "standard", "glickman")
    assert (other.preset, other.stored) == ("glickman", False)
    assert [r.elo for r in other.rows] == [2007, 2007, 1994]
    assert all(r.volatility is not None for r in other.rows)
    chesscom = season(compare, "Hart", "standard", "chesscom")
    assert all(r.volatility is None for r in chesscom.rows)  # Glicko-1 has none


def test_an_unknown_player(season: Services) -> None:
    with pytest.raises(NotFoundError):
        season(compare, "Nobody", "standard", None)
