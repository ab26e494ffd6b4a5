"""The import service (tracker.services.imports): straight through ``import_files``, without
the command line."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.test_import_streaming import season
from tests.helpers import Services, read_file
from tracker.errors import TrackerError
from tracker.services import imports
from tracker.services.imports import report as import_report
from tracker.services.imports import write as import_write
from tracker.services.imports.report import ImportOptions, SourceFile

ROUND_ROBIN = Path(__file__).parents[2] / "importers" / "data" / "roundrobin10.trf"
EXAMPLES = int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.binary(max_size=400), fmt=st.sampled_from(["pgn", "csv", "trf"]))
def test_the_service_raises_only_user_errors(
    db_url: str, tmp_path_factory: pytest.TempPathFactory, data: bytes, fmt: str
) -> None:
    """Straight through the service, every policy: a report or a TrackerError, nothing else."""
    for policy in ("auto", "tracked", "external", "no"):
        options = ImportOptions(create_players=policy, tc="blitz")  # type: ignore[arg-type]
        with Services(db_url).trial() as db:
            try:
                report = imports.import_files(db, [SourceFile(f"x.{fmt}", data)], options)
            except TrackerError:
                pass
            else:
                assert len(report.files) == 1


def test_the_service_reports_progress_per_chunk(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_write, "CHUNK", 20)
    seen: list[tuple[str, int, int]] = []
    with Services(db_url).trial() as db:
        imports.import_files(
            db,
            [SourceFile("rr.trf", ROUND_ROBIN.read_bytes())],
            ImportOptions(tc="standard"),
            progress=lambda *step: seen.append(step),
        )
    assert seen == [("rr.trf", 0, 45), ("rr.trf", 20, 45), ("rr.trf", 40, 45), ("rr.trf", 45, 45)]


def _import_peak(url: str, path: Path) -> int:
    """The most memory Python held while importing ``path`` in a dry run (bytes, as
    tracemalloc sees them): all the work, and the database left as it was."""
    with Services(url).trial() as db:
        tracemalloc.start()
        try:
            report = imports.import_files(
                db,
                [SourceFile(path.name, path=path)],
                ImportOptions(create_players="external", dry_run=True),
            )
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert report.files[0].added > 0 and not report.files[0].problems
    return peak


def test_memory_grows_by_a_few_dozen_bytes_a_game_not_by_a_record(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six times as many games cost each some 40 bytes more (compact columns), where
    holding the parsed records would cost each some 190 bytes: a federation's million games
    take tens of megabytes, not hundreds."""
    monkeypatch.setattr(import_report, "BLOCK", 1 << 16)  # less of the file in flight

    def clean(games: int, name: str) -> Path:
        rows = season(games, players=300, seed=11).replace("2025-13-01", "2025-12-01")
        rows = rows.replace("a round far too long to keep", "9").replace(",*,", ",1-0,")
        path = tmp_path / name
        path.write_text(rows)
        return path

    small, big = clean(3000, "small.csv"), clean(18000, "big.csv")
    _import_peak(db_url, small)  # the first import warms caches up
    per_game = (_import_peak(db_url, big) - _import_peak(db_url, small)) / 15000
    tracemalloc.start()
    try:
        records = read_file("csv", big.read_bytes(), big.name)
        held = tracemalloc.get_traced_memory()[0] / len(records.games)
    finally:
        tracemalloc.stop()
    assert held > 150  # what holding every record costs, a game
    assert per_game < held / 3, (per_game, held)
