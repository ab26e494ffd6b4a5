"""Garbage and failures: clean one-line errors, never a traceback, never a partial write."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers import Cli, fingerprint, games, ok, summary
from tracker.cli import importing
from tracker.db.queries import imports as import_queries
from tracker.services.imports import write as import_write

DATA = Path(__file__).parent / "data"
ROUND_ROBIN = Path(__file__).parents[1] / "importers" / "data" / "roundrobin10.trf"

SAMPLES = {
    "pgn": (DATA / "season.pgn").read_bytes(),
    "csv": (DATA / "nordic_bom_crlf.csv").read_bytes(),
    "trf": (DATA / "autumn_swiss.trf").read_bytes(),
}
EXAMPLES = int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def check_clean(result: Any, path: Path) -> None:
    """Exit 0 or 1; no traceback; every stderr line a problem, a summary or one error line."""
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == (result.exit_code == 1)
    assert not any(line.startswith("error: database error") for line in errors), errors
    for line in result.stderr.splitlines():
        assert line.startswith((str(path), "  ", "error: ")), line


@FUZZ
@given(fmt=st.sampled_from(["pgn", "csv", "trf", "txt"]), data=st.binary(max_size=600))
@example(fmt="pgn", data=b"")
@example(fmt="trf", data=b"\xff\xfe0\x00\x000\x00")
@example(fmt="csv", data=b"date,white,black,result\n2026-01-01,A\x00,B,1-0\n")
def test_random_bytes_give_clean_errors_and_change_nothing(
    cli: Cli, db_url: str, tmp_path_factory: pytest.TempPathFactory, fmt: str, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"garbage.{fmt}"
    path.write_bytes(data)
    before = fingerprint(db_url)
    result = cli("import", str(path), "--create-players", "tracked", "--tc", "standard")
    check_clean(result, path)
    if result.exit_code == 1:
        assert fingerprint(db_url) == before


@FUZZ
@given(
    fmt=st.sampled_from(sorted(SAMPLES)),
    cut=st.floats(min_value=0, max_value=1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
    skip=st.booleans(),
)
def test_truncated_and_mangled_files_are_all_or_nothing(
    cli: Cli,
    db_url: str,
    tmp_path_factory: pytest.TempPathFactory,
    fmt: str,
    cut: float,
    flips: list[tuple[float, int]],
    skip: bool,
) -> None:
    data = bytearray(SAMPLES[fmt][: int(len(SAMPLES[fmt]) * cut)])
    for where, value in flips:
        if data:
            data[int(where * (len(data) - 1))] = value
    path = tmp_path_factory.mktemp("mangled") / f"sample.{fmt}"
    path.write_bytes(bytes(data))
    before = fingerprint(db_url)
    count = len(games(cli))
    args = ["import", str(path), "--json", "--create-players", "external", "--tc", "standard"]
    result = cli(*([*args, "--skip-invalid"] if skip else args))
    check_clean(result, path)
    if result.exit_code == 1:
        assert fingerprint(db_url) == before
        return
    report = summary(result)["files"][0]
    assert report["status"] == "imported"
    assert len(games(cli)) == count + report["added"]
    if not skip:
        assert report["problems"] == [] and report["invalid"] == 0


def test_a_failure_half_way_through_the_writes_leaves_the_database_unchanged(
    cli: Cli, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two files; the first is written, the second fails in its second bulk insert: the
    command is one transaction, so nothing at all is kept."""
    monkeypatch.setattr(import_write, "CHUNK", 10)
    real_insert = import_queries.insert_games
    calls = {"games": 0}

    def failing_insert(db: Any, games: Any) -> None:
        calls["games"] += 1
        if calls["games"] == 3:  # file 1: one chunk (7 games); file 2: chunks of 10
            raise sqlite3.OperationalError("disk I/O error")
        real_insert(db, games)

    monkeypatch.setattr(import_queries, "insert_games", failing_insert)
    before = fingerprint(db_url)
    r = cli("import", str(DATA / "autumn_swiss.trf"), str(ROUND_ROBIN), "--tc", "standard")
    assert calls["games"] == 3
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == ["error: database error: disk I/O error"]
    assert fingerprint(db_url) == before
    monkeypatch.setattr(import_queries, "insert_games", real_insert)
    ok(cli("import", str(DATA / "autumn_swiss.trf"), str(ROUND_ROBIN), "--tc", "standard"))
    assert len(games(cli)) == 8 + 45


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    with importing._progress() as progress:
        assert progress is None  # pytest's stderr is not a terminal
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    with importing._progress() as progress:
        assert progress is not None
        progress("a.pgn", 0, 10)
        progress("a.pgn", 10, 10)
