"""A file's people matched to the stored players (tracker.services.imports.people): by FIDE
id, else by name; the new ones decided by ``--create-players``."""

from __future__ import annotations

import pytest

from tests.helpers import Services
from tests.services.intake.conftest import plan_of
from tracker.services.imports.people import match_people
from tracker.services.players import roster

ROWS = (
    "2026-01-05,Daniel Hart,Sato,1-0,,,,,4100123,\n"  # another spelling, his FIDE id
    "2026-01-12,Sato,Berg,0-1,,,,1800,,\n"  # Berg: new, with a recorded rating
    "2026-01-19,Cruz,Sato,1-0,,,,,4100999,\n"  # Cruz: new, with a FIDE id
    "2026-01-26,Dahl,Sato,1-0,,,,,,\n"  # Dahl: new, nothing to go by
)


def _people(db: Services, create: str) -> dict[str, tuple[int | None, bool, bool, str | None]]:
    with db.transaction() as s:
        plan = plan_of(ROWS)
        match_people(s, plan, create)  # type: ignore[arg-type]
    return {i.name: (i.player_id, i.new, i.external, i.problem) for i in plan.side_identity}


@pytest.fixture
def club(db: Services) -> Services:
    with db.transaction() as s:
        roster.add_player(s, name="Hart, Daniel", fide_id=4100123)
        roster.add_player(s, name="Sato")
    return db


def test_auto_creates_whom_the_file_says_enough_of(club: Services) -> None:
    people = _people(club, "auto")
    assert people["Daniel Hart"][:2] == (1, False)  # matched by his FIDE id
    assert people["Sato"][:2] == (2, False)
    assert people["Berg"][1:3] == (True, True)  # a recorded rating: an external opponent
    assert people["Cruz"][1:3] == (True, False)  # a FIDE id: tracked
    dahl = people["Dahl"]
    assert dahl[0] is None and dahl[3] is not None and "unknown player 'Dahl'" in dahl[3]


def test_every_new_player_external_or_none(club: Services) -> None:
    external = _people(club, "external")
    assert all(external[n][1:3] == (True, True) for n in ("Berg", "Cruz", "Dahl"))
    none = _people(club, "no")
    assert all(none[n][0] is None and none[n][3] is not None for n in ("Berg", "Cruz", "Dahl"))
