"""A players file imported (tracker.services.imports.players_file): all of it, or rejected
and none of it; a dry run writes nothing."""

from __future__ import annotations

from typing import Any

from tests.helpers import Services, hart_beats_sato, month
from tracker.db.queries.status import player_counts
from tracker.services.imports.players_file import import_players_file
from tracker.services.imports.report import FileReport, ImportOptions, SourceFile

HEADER = "name,fide_id,birth_year,kind,standard_rating,standard_games\n"


def _import(db: Services, rows: str, **options: Any) -> FileReport:
    with db.transaction() as s:
        return import_players_file(s, SourceFile("players.csv", (HEADER + rows).encode()),
                                   ImportOptions(**options))  # fmt: skip


def test_a_players_file_imported(db: Services) -> None:
    hart_beats_sato(db, "2026-01-05", "2026-01")
    out = _import(
        db, "Hart,,1980,tracked,2000,100\nBerg,4100999,1990,tracked,1850,40\nGuest,,,external,,\n"
    )
    assert (out.format, out.status, out.valid, out.problems) == ("players", "imported", 3, ())
    assert [(p.name, p.external) for p in out.players_created] == [("Berg", False), ("Guest", True)]
    assert out.players_unchanged == 1 and out.notes == ("1 player already as the file says",)
    assert [(t.tc, t.month) for t in out.stale] == [("standard", month("2026-01"))]
    with db.transaction() as s:
        assert player_counts(s) == (3, 1)


def test_a_file_with_a_problem_is_rejected_whole(db: Services) -> None:
    out = _import(db, "Berg,,1990,tracked,1850,40\nBerg,,1990,tracked,1850,40\n")
    assert out.status == "rejected"
    assert out.problems == ("players.csv:3: the same player as line 2",)
    with db.transaction() as s:
        assert player_counts(s) == (0, 0)
    kept = _import(
        db, "Berg,,1990,tracked,1850,40\nBerg,,1990,tracked,1850,40\n", skip_invalid=True
    )
    assert kept.status == "imported" and len(kept.players_created) == 1
