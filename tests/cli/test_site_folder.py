"""``tracker site build DIR`` touches only what is its own: the files its manifest
(``DIR/.tracker-site``) says the last build wrote. A folder holding any other file is refused
unless --force (and even then no such file is removed), a link where a page or a page folder
goes is refused always (nothing is written through it, out of the folder), and each page is
written whole: a full disk leaves every page as it was or as it should be."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tests.helpers import Cli, js, ok, one_line_error

MANIFEST = ".tracker-site"


@pytest.fixture
def season(cli: Cli) -> Cli:
    for name in ("Hart, Daniel", "Okafor, Grace", "Silva, Ana"):
        ok(cli("player", "add", name, "--rating", "1800", "--games", "40"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-05", "--event", "Open"))
    ok(cli("period", "close", "2026-09"))
    return cli


def tree(folder: Path) -> dict[str, bytes | str]:
    """Everything under ``folder``: a file's bytes, a link's target, a folder as "/"."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_dir():
            out[rel] = "/"
        else:
            out[rel] = path.read_bytes()
    return out


def built(cli: Cli, folder: Path, *extra: str) -> str:
    return ok(cli("site", "build", str(folder), *extra)).stderr


def manifest(folder: Path) -> list[str]:
    return (folder / MANIFEST).read_text().splitlines()[1:]


def test_the_manifest_lists_every_file_the_build_wrote(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    # index, lists, compare, 3 players, 1 event, and each list's page and CSV
    err = built(season, site)
    pages = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and p.name != MANIFEST
    )
    assert f"{len(pages)} files, {len(pages)} written" in err
    assert {"index.html", "lists.html", "compare.html", "events/1.html"} <= set(pages)
    assert len([p for p in pages if p.startswith("lists/")]) >= 2
    assert manifest(site) == pages
    assert (site / MANIFEST).read_text().startswith("# tracker site build wrote these files")


def test_a_folder_with_files_of_the_user_is_refused_unchanged(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    for name in ("players/123.html", "players/07.html", "events/2025.html", "index.html"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(f"my own {name}")
    before = tree(site)
    line = one_line_error(season("site", "build", str(site)), 1)
    assert line == (
        f"error: {site} holds files tracker did not write (index.html, players/07.html, "
        "players/123.html, ...): build the site in a new or empty folder, or give --force to "
        "build beside them (tracker never removes them; one where a page goes is replaced)"
    )
    assert tree(site) == before


def test_force_builds_beside_the_user_files_and_never_removes_them(
    season: Cli, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    mine = {"players/123.html", "players/07.html", "events/2025.html", "notes/a.txt", "x.css"}
    for name in mine | {"index.html"}:
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(f"my own {name}")
    built(season, site, "--force")
    assert (site / "index.html").read_text().startswith("<!DOCTYPE html>")  # where a page goes
    assert all((site / name).read_text() == f"my own {name}" for name in mine)
    assert not set(manifest(site)) & mine
    # still not the site's: the next build is refused again, and with --force leaves them
    one_line_error(season("site", "build", str(site)), 1)
    ok(season("player", "remove", "Silva, Ana"))
    assert "1 removed" in built(season, site, "--force")
    assert all((site / name).read_text() == f"my own {name}" for name in mine)


def test_site_build_dot_in_a_folder_of_the_user(
    season: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / "players").mkdir(parents=True)
    (home / "players" / "4242.html").write_text("mine")
    before = tree(home)
    monkeypatch.chdir(home)
    one_line_error(season("site", "build", "."), 1)
    assert tree(home) == before


def test_only_pages_the_manifest_lists_are_removed(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    built(season, site)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    # a manifest edited by hand: lines that cannot be pages of the site are never removed
    with (site / MANIFEST).open("a") as f:
        f.write("../victim.txt\nplayers/../../victim.txt\n/etc/passwd\nplayers/99.html\n")
    silva = js(season, "player", "show", "Silva")["id"]
    ok(season("player", "remove", "Silva, Ana"))
    assert "1 removed" in built(season, site)  # players/99.html is listed but not there
    assert not (site / "players" / f"{silva}.html").exists()
    assert victim.read_text() == "mine"
    assert "players/99.html" not in manifest(site)


def test_a_manifest_that_is_not_tracker_is_not_trusted(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "players").mkdir(parents=True)
    (site / "players" / "5.html").write_text("mine")
    (site / MANIFEST).write_text("players/5.html\n")  # no header of tracker's
    one_line_error(season("site", "build", str(site)), 1)
    assert (site / "players" / "5.html").read_text() == "mine"


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_link_where_a_page_goes_is_refused(season: Cli, tmp_path: Path, force: list[str]) -> None:
    site = tmp_path / "site"
    built(season, site)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (site / "index.html").unlink()
    (site / "index.html").symlink_to("../victim.txt")
    before = tree(site)
    line = one_line_error(season("site", "build", str(site), *force), 1)
    assert line.startswith(f"error: {site / 'index.html'} is a symbolic link where a page")
    assert victim.read_text() == "mine" and tree(site) == before


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_linked_page_folder_is_refused(season: Cli, tmp_path: Path, force: list[str]) -> None:
    site = tmp_path / "site"
    built(season, site)
    elsewhere = tmp_path / "victimdir"
    elsewhere.mkdir()
    (elsewhere / "99.html").write_text("mine")
    for page in (site / "players").iterdir():
        page.unlink()
    (site / "players").rmdir()
    (site / "players").symlink_to("../victimdir")
    line = one_line_error(season("site", "build", str(site), *force), 1)
    assert line.startswith(f"error: {site / 'players'} is a symbolic link")
    assert tree(elsewhere) == {"99.html": b"mine"}


def test_a_folder_where_a_page_goes_is_refused(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "players" / "1.html").mkdir(parents=True)
    line = one_line_error(season("site", "build", str(site), "--force"), 1)
    assert line.startswith(f"error: {site / 'players' / '1.html'} is a folder where a page")
    assert tree(site) == {"players": "/", "players/1.html": "/"}


def test_the_folder_itself_may_be_a_link(season: Cli, tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "public").symlink_to("real")
    built(season, tmp_path / "public")
    assert (tmp_path / "real" / "index.html").is_file()


def test_a_full_disk_leaves_each_page_whole_and_the_next_build_finishes(
    season: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site, clean = tmp_path / "site", tmp_path / "clean"
    built(season, site)
    before = tree(site)
    ok(season("game", "add", "Silva", "Hart", "1-0", "--date", "2026-10-03"))
    ok(season("period", "close", "2026-10"))  # every page changes
    real = Path.write_bytes
    calls: list[Path] = []

    def full_after_two(self: Path, data: bytes) -> int:
        calls.append(self)
        if len(calls) > 3:  # the manifest, then two pages
            with self.open("wb") as f:
                f.write(data[:100])  # what a full disk lets through
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_after_two)
    line = one_line_error(season("site", "build", str(site)), 1)
    assert line.startswith("error: cannot write ") and line.endswith(": No space left on device")
    monkeypatch.undo()
    after = tree(site)
    assert set(after) == set(before)  # no temporary file left
    for name, data in after.items():
        if name.endswith(".html"):  # each page the old one, or the new one whole
            assert data == before[name] or bytes(data).rstrip().endswith(b"</html>"), name
    built(season, site)
    built(season, clean)
    assert tree(site) == tree(clean)


def test_temporary_files_of_an_interrupted_build_are_cleared(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    built(season, site)
    left = site / "players" / ".1.html.0123abcd.tracker-tmp"
    left.write_text("<!DOCTYPE html> half a pa")
    built(season, site)
    assert not left.exists()


def test_a_name_too_long_is_one_line(season: Cli, tmp_path: Path) -> None:
    line = one_line_error(season("site", "build", str(tmp_path / ("a" * 300))), 1)
    assert line.endswith(": File name too long")
