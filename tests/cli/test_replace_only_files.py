"""``export --out`` and ``db backup`` write a temporary file of their own beside the target
and rename it over the target: a file of the user's with the temporary's usual name is never
touched, a failure (a full disk) leaves the target as it was and nothing beside it, and only
a regular file is ever replaced (``--force`` or not): never a folder, a pipe or a link."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Cli, ok, one_line_error

#: ``what``'s command line writing to ``target``.
Writer = Callable[[Path], list[str]]
WRITERS: dict[str, Writer] = {
    "export": lambda target: ["export", "games", "--out", str(target)],
    "backup": lambda target: ["db", "backup", str(target)],
}


@pytest.fixture(params=WRITERS)
def what(request: pytest.FixtureRequest, backend: str) -> str:
    """The writer: export on every backend, db backup on SQLite (it copies SQLite files)."""
    if request.param == "backup" and backend != "sqlite":
        pytest.skip("db backup copies SQLite files: PostgreSQL's is pg_dump")
    return str(request.param)


@pytest.fixture
def season(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel"))
    ok(cli("player", "add", "Berg, Ola"))
    ok(cli("game", "add", "Hart", "Berg", "1-0", "--date", "2026-09-05"))
    return cli


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_named_like_a_temporary_is_left_alone(
    season: Cli, tmp_path: Path, what: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for name in ("bk.db.partial", "bk.db.partial-journal", "bk.db.tmp", ".bk.db.tmp"):
        (out / name).write_text("mine")
    ok(season(*WRITERS[what](out / "bk.db")))
    assert listing(out) == sorted(
        ["bk.db", "bk.db.partial", "bk.db.partial-journal", "bk.db.tmp", ".bk.db.tmp"]
    )
    assert all((out / n).read_text() == "mine" for n in listing(out) if n != "bk.db")


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("mine")


def make_link(path: Path) -> None:
    victim = path.with_name("victim.txt")
    victim.write_text("mine")
    path.symlink_to(victim.name)


@pytest.mark.parametrize(
    ("make", "kind"),
    [(make_fifo, "a pipe"), (make_folder, "a folder"), (make_link, "a symbolic link")],
)
@pytest.mark.parametrize("force", [False, True])
def test_only_a_regular_file_is_replaced(
    season: Cli, tmp_path: Path, what: str, make: Callable[[Path], None], kind: str, force: bool
) -> None:
    target = tmp_path / "out" / "target"
    target.parent.mkdir()
    make(target)
    before = {p.name: p.lstat().st_mode for p in target.parent.iterdir()}
    args = WRITERS[what](target) + (["--force"] if force else [])
    line = one_line_error(season(*args), 1)
    assert line == f"error: {target} is {kind}: tracker replaces only regular files"
    assert {p.name: p.lstat().st_mode for p in target.parent.iterdir()} == before
    for mine in (target / "inside.txt", target.with_name("victim.txt")):
        assert not mine.exists() or mine.read_text() == "mine"


def test_a_full_disk_leaves_the_target_as_it_was(
    season: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    target = tmp_path / "out" / "target"
    target.parent.mkdir()
    target.write_text("the old copy")

    def write_bytes(self: Path, data: bytes) -> int:
        with self.open("wb") as handle:
            handle.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    class FullDisk(sqlite3.Connection):
        def backup(self, target: sqlite3.Connection, **options: Any) -> None:
            target.execute("BEGIN")
            target.execute("CREATE TABLE half (x)")  # a journal beside the copy
            raise sqlite3.OperationalError("database or disk is full")

    connect = sqlite3.connect
    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: connect(*a, factory=FullDisk, **k))
    line = one_line_error(season(*WRITERS[what](target), "--force"), 1)
    assert line in (
        f"error: cannot write {target}: No space left on device",
        "error: backup failed: database or disk is full",
    )
    assert listing(target.parent) == ["target"]
    assert target.read_text() == "the old copy"


def test_a_missing_folder_is_one_line(season: Cli, tmp_path: Path, what: str) -> None:
    target = tmp_path / "nowhere" / "target"
    line = one_line_error(season(*WRITERS[what](target)), 1)
    assert line.startswith("error: folder ") and line.endswith(f"{target.parent} does not exist")
    assert not target.parent.exists()


def test_an_empty_out_is_one_line(season: Cli) -> None:
    line = one_line_error(season("export", "games", "--out", ""), 1)
    assert line == "error: . is a folder: tracker replaces only regular files"
