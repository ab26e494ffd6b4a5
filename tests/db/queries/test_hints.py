"""Hints for query planners (tracker.db.queries.hints)."""

from __future__ import annotations

from tests.helpers import Services, external, game, unrated
from tracker.db.queries.hints import not_indexed


def test_not_indexed_is_the_same_value_in_an_expression() -> None:
    assert not_indexed("g.tc") == "coalesce(g.tc, g.tc)"


def test_a_hinted_condition_selects_the_same_rows(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        external(s, "Guest")
        game(s, "Hart", "Guest", "1-0", "2026-01-05")
        game(s, "Guest", "Hart", "1-0", "2026-01-06", tc="rapid")
        plain = s.scalars("SELECT id FROM games WHERE tc = 'rapid' ORDER BY id")
        hinted = s.scalars(f"SELECT id FROM games WHERE {not_indexed('tc')} = 'rapid' ORDER BY id")
    assert list(hinted) == list(plain) and len(list(plain)) == 1
