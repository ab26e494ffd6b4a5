"""Our list beside FIDE's (tracker.services.periods.reconcile): each player on both, on one,
the difference and its likely causes; read from FIDE's list of 2026-11 in
tests/importers/data (the October season: conftest.october). The command end to end is in
tests/cli/test_list_against.py."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from tests.helpers import Services, day
from tracker.errors import NotFoundError
from tracker.services.periods.reconcile import Reconciliation, reconcile
from tracker.services.players import roster

TXT = Path(__file__).parents[2] / "importers" / "data" / "standard_rating_list.txt"


def _against(db: Services, player: str | None = None) -> Reconciliation:
    with db.transaction() as s, TXT.open("rb") as stream:
        return reconcile(s, "standard", None, stream, "standard_rating_list.txt", player)


def test_our_list_beside_fides(october: Services) -> None:
    out = _against(october)
    assert (out.official_month, out.problems) == (day("2026-11-01"), ())
    assert out.notes == ("1 player(s) of our list have no FIDE id: nothing to compare",)
    side = [(p.rank, p.name, p.rating, p.k, p.official, p.official_k) for p in out.players]
    # Lindgren 2215 + 20 x (1.5 - (.76 + .86)) = 2213; Haugen 2010 + 20 x (0 - (.24 + .65))
    # = 1992; Varga (a junior, K 40) 1904 + 40 x (.5 - .14) = 1918; Okafor 1900 + 20 x .65
    assert side == [
        (1, "Lindgren, Axel", 2213, 20, 2221, 20),
        (2, "Haugen, Kari", 1992, 20, 2016, 40),
        (3, "Varga, Eszter", 1918, 40, 1911, 40),
        (4, "Okafor, Grace", 1913, 20, None, None),
        (None, "Nilsen, Ingrid", None, None, 1745, 40),
    ]
    assert [p.difference for p in out.compared] == [-8, -24, 7]
    assert [p.name for p in out.players if p.differs] == [
        "Lindgren, Axel",
        "Haugen, Kari",
        "Varga, Eszter",
    ]
    haugen = out.players[1].explanation
    assert haugen is not None
    assert (haugen.rating_before, haugen.k, haugen.games, haugen.official_games) == (2010, 20, 2, 9)
    assert (haugen.change_exact, haugen.change) == (Decimal("-17.80"), -18)
    assert [c.kind for c in haugen.causes] == ["missing_event", "k"]
    nilsen = out.players[-1].explanation
    assert nilsen is not None and [c.kind for c in nilsen.causes] == ["unrated_here"]


def test_one_player_only(october: Services) -> None:
    out = _against(october, "Varga")
    assert [p.name for p in out.players] == ["Varga, Eszter"]
    assert out.player == "Varga, Eszter"
    with october.transaction() as s:
        roster.add_player(s, name="Nobody, Else")
    with pytest.raises(NotFoundError, match="Nobody, Else is on neither list"):
        _against(october, "Nobody")
