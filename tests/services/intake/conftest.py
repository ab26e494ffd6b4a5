"""A file's games read into the intake's columns and planned step by step, as an import
plans them (tracker.services.imports.game_file.plan_file): each module's tests run the steps
before its own."""

from __future__ import annotations

from tracker.importers import detect
from tracker.services.intake.columns import FileGames
from tracker.services.intake.plan import Plan
from tracker.vocabulary import TimeControl

HEADER = (
    "date,white,black,result,event,round,white_rating,black_rating,white_fide_id,black_fide_id\n"
)


def file_games(
    rows: str, tc: TimeControl | None = "standard", name: str = "club.csv", header: str = HEADER
) -> FileGames:
    """The CSV ``rows`` (after ``header``) as the intake's columns."""
    data = (header + rows).encode()
    return FileGames.read(detect.stream((data,), name, "csv"), tc)


def plan_of(rows: str, tc: TimeControl | None = "standard") -> Plan:
    return Plan(file_games(rows, tc))
