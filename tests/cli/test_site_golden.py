"""The demo season's site, byte for byte: ``tests/cli/data/demo-site`` holds the pages
``tracker site build`` gives the demo's database. A change to the pages shows here as a
diff to review; ``TRACKER_UPDATE_GOLDEN=1 pytest tests/cli/test_site_golden.py`` writes the
new pages after review."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import cli_on, ok

GOLDEN = Path(__file__).parent / "data" / "demo-site"


def pages(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".tracker-site"
    }


@pytest.mark.slow
def test_the_demo_site_matches_its_golden_files(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    cli = cli_on(str(db))
    ok(cli("demo", "--file", str(db)))
    ok(cli("site", "build", str(tmp_path / "site")))
    built = pages(tmp_path / "site")
    if os.environ.get("TRACKER_UPDATE_GOLDEN") == "1":
        for name, text in built.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_text(text, encoding="utf-8")
        for name in set(pages(GOLDEN)) - set(built):
            (GOLDEN / name).unlink()
    golden = pages(GOLDEN)
    assert sorted(built) == sorted(golden)
    assert (
        len(built) == 17 + 6 * 2
    )  # style, script, index, lists, compare, 8 players, 4 events, 6 lists
    for name, text in built.items():
        assert text == golden[name], f"{name} differs from {GOLDEN / name}"


@pytest.mark.slow
def test_pages_drawn_in_small_batches_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Players' periods worked out three players at a time (their games read by their ids
    for two players, from the month's games for more), the events' one month at a time
    (memory holds a batch: tracker.services.site.BATCH), one published list held at a time:
    the same pages, byte for byte."""
    from tracker.db.queries import rated_games
    from tracker.services import site
    from tracker.services.lists import rated_games as rated_games_service
    from tracker.services.periods import detail

    monkeypatch.setattr(site, "BATCH", 3)
    monkeypatch.setattr(rated_games, "IN_CHUNK", 2)
    monkeypatch.setattr(rated_games_service, "IN_CHUNK", 2)
    monkeypatch.setattr(detail, "LISTS_KEPT", 1)
    monkeypatch.setattr(site, "EVENT_MONTHS", 1)
    db = tmp_path / "demo.db"
    cli = cli_on(str(db))
    ok(cli("demo", "--file", str(db)))
    ok(cli("site", "build", str(tmp_path / "site")))
    assert pages(tmp_path / "site") == pages(GOLDEN)
