"""Writing a planned file (tracker.services.imports.write): new players and events first, the
games a chunk at a time, and the closed periods the games change marked stale."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, hart_beats_sato, month, seeded
from tests.services.intake.conftest import HEADER
from tracker.db.queries.games import GameFilter, listings
from tracker.db.queries.lists import closed_months
from tracker.services.events.lookup import find_event
from tracker.services.imports import write
from tracker.services.imports.game_file import GameFile
from tracker.services.imports.report import FileReport, ImportOptions, SourceFile

ROWS = "".join(
    f"2026-02-{d:02d},Hart,{opp},{res},Spring Open,{d},,{rating},,\n"
    for d, opp, res, rating in (
        (3, "Sato", "1-0", ""), (4, "Guest", "0-1", "2150"), (5, "Sato", "1/2-1/2", ""),
        (6, "Guest", "1-0", "2150"), (7, "Sato", "0-1", ""),
    )
)  # fmt: skip


def _run(db: Services) -> tuple[FileReport, list[tuple[object, ...]]]:
    with db.transaction() as s:
        out = GameFile(s, SourceFile("spring.csv", (HEADER + ROWS).encode()), "csv",
                       ImportOptions(tc="standard"), None).run()  # fmt: skip
        stored = [(g.played_on, g.white, g.black, g.result, g.round, g.black_rating)
                  for g in listings(s, GameFilter())]  # fmt: skip
    return out, stored


@pytest.mark.parametrize("chunk", [1000, 2])
def test_games_written_a_chunk_at_a_time(
    db: Services, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write, "CHUNK", chunk)
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
    out, stored = _run(db)
    assert out.added == 5 and [p.name for p in out.players_created] == ["Guest"]
    assert stored[1] == (day("2026-02-04"), "Hart", "Guest", "0-1", "4", 2150)
    assert [g[0] for g in stored] == [day(f"2026-02-0{d}") for d in range(3, 8)]
    with db.transaction() as s:
        spring = find_event(s, "Spring Open")
    assert (spring.start_date, spring.start_fixed) == (day("2026-02-03"), False)  # its first game


def test_games_of_a_closed_month_mark_it_stale(db: Services) -> None:
    hart_beats_sato(db, "2026-01-10", "2026-03")
    out, _ = _run(db)
    assert [(t.tc, t.month) for t in out.stale] == [("standard", month("2026-02"))]
    with db.transaction() as s:
        marks = [(c.month, c.stale) for c in closed_months(s, "standard")]
    assert marks == [(month("2026-01"), False), (month("2026-02"), True), (month("2026-03"), True)]
