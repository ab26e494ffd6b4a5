"""An import's files and its report (tracker.services.imports.report): a file given or read a
block at a time, and the totals over the files written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.errors import InvalidInputError
from tracker.services.imports import report
from tracker.services.imports.report import FileReport, ImportReport, SourceFile


def test_a_file_given_or_read_a_block_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(b"0123456789")
    monkeypatch.setattr(report, "BLOCK", 4)
    read = SourceFile("games.csv", path=path)
    assert list(read.blocks()) == [b"0123", b"4567", b"89"]
    assert (read.head(3), read.read()) == (b"012", b"0123456789")
    given = SourceFile("x", data=b"abc")
    assert (list(given.blocks()), given.head(10)) == ([b"abc"], b"abc")
    with pytest.raises(ValueError, match="either data or a path"):
        SourceFile("x")
    with pytest.raises(InvalidInputError, match="cannot read"):
        SourceFile("gone", path=tmp_path / "gone.csv").read()


def _file(status: str, added: int, **more: object) -> FileReport:
    return FileReport(
        f"{status}.csv", "csv", "0" * 64, status, added, (), (), (), (), added=added, **more
    )  # type: ignore[arg-type]


def test_the_totals_are_of_the_files_written() -> None:
    files = (
        _file("imported", 5, skipped_unfinished=1, skipped_bullet=2),
        _file("dry-run", 3),
        _file("rejected", 7),
        _file("skipped", 0),
    )
    out = ImportReport(files, dry_run=False)
    assert out.total("added") == 8  # the rejected file's 7 are not written
    assert [f.file for f in out.rejected] == ["rejected.csv"]
    assert [f.file for f in out.skipped] == ["skipped.csv"]
    assert files[0].skipped == 3 and files[0].written and not files[2].written
