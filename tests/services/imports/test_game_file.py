"""One file of games (tracker.services.imports.game_file): planned (reads only) and run, all
or nothing; its report."""

from __future__ import annotations

import hashlib

from tests.helpers import Services, unrated
from tests.services.intake.conftest import HEADER, plan_of
from tracker.db.queries.status import game_count
from tracker.services.imports.game_file import GameFile, plan_file
from tracker.services.imports.report import ImportOptions, SourceFile

ROWS = (
    "2026-01-05,Hart,Sato,1-0,Winter Cup,1,,,,\n"
    "2026-01-12,Sato,Hart,0-1,Winter Cup,2,,,,\n"
    "2026-01-19,Hart,Berg,1-0,,,,1800,,\n"  # Berg: a recorded rating, created external
)


def test_a_file_planned_without_writing(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        plan = plan_of(ROWS)
        plan_file(s, "club.csv", ImportOptions(tc="standard"), plan)
        assert game_count(s) == 0
    assert (plan.added, plan.refused, plan.problems) == (3, 0, [])
    berg = plan.side_identity[plan.games.black[2]]
    assert (berg.name, berg.new, berg.external) == ("Berg", True, True)
    assert [e.name for e in plan.events] == ["Winter Cup"]


def test_a_file_run_and_reported(db: Services) -> None:
    data = (HEADER + ROWS).encode()
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        out = GameFile(
            s, SourceFile("club.csv", data), "csv", ImportOptions(tc="standard"), None
        ).run()
        assert game_count(s) == 3
    assert (out.file, out.format, out.status, out.added, out.invalid) == (
        "club.csv",
        "csv",
        "imported",
        3,
        0,
    )
    assert out.sha256 == hashlib.sha256(data).hexdigest()
    assert [(p.name, p.external) for p in out.players_created] == [("Berg", True)]
    assert out.events_created == ("Winter Cup",)
    assert out.import_id is not None
