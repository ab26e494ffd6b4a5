"""``compare --all``'s standings, service by service: both ranks and which players are flagged.

The CLI end to end (JSON and table) is in tests/cli/test_shadow.py.
"""

from __future__ import annotations

from tests.helpers import Services, close, game, seeded
from tracker.services import shadow
from tracker.services.compare import everyone


def test_compare_all_flags_only_the_widest_gap(db: Services) -> None:
    with db.transaction() as s:
        for name, rating in (("A", 2300), ("B", 2200), ("C", 2100), ("D", 2000)):
            seeded(s, name, rating)
        shadow.set_config(s, seed_rd="500")  # new-account RDs: a shadow that moves a lot
        game(s, "D", "A", "1-0", "2026-01-05")
        game(s, "A", "D", "0-1", "2026-01-06")
        game(s, "B", "C", "1/2-1/2", "2026-01-07")
    db(close, "2026-01")
    players = db(everyone.compare_all, "standard").rows
    gaps = {p.name: abs(p.elo_rank - p.glicko_rank) for p in players}
    widest = max(gaps.values())
    assert widest >= 2
    assert {p.name for p in players if p.flagged} == {n for n, g in gaps.items() if g == widest}
    assert not all(p.flagged for p in players)


def test_compare_all_without_periods_is_empty(db: Services) -> None:
    db(seeded, "A", 2300)
    out = db(everyone.compare_all, "standard")
    assert out.rows == () and out.list_date is None
