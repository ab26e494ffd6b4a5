"""One result vocabulary: every spelling CSV accepts, `game add` and `game edit` accept too,
forfeits written `-+` included (which click would otherwise take for an option)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Cli, games, ok
from tracker.vocabulary import RESULT_ALIASES


@pytest.fixture
def club(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    return cli


def test_game_add_takes_every_spelling_csv_takes(club: Cli, tmp_path: Path) -> None:
    spellings = sorted(RESULT_ALIASES)
    assert {"1:0", "0.5-0.5", "draw", "½-½", "=", "-+", "-:+"} <= set(spellings)
    for n, spelling in enumerate([*spellings, "DRAW", "Draw"], start=1):
        r = ok(
            club("game", "add", "Hart", "Sato", spelling, "--date", "2026-11-02", "--round", str(n))
        )
        assert "added game" in r.stderr
    typed = [g["result"] for g in games(club)]
    expected = [RESULT_ALIASES[s] for s in spellings] + ["1/2-1/2", "1/2-1/2"]
    assert typed == expected
    # the same spellings in a CSV file give the same results
    rows = "\n".join(
        f'2026-11-03,"Hart, Daniel","Sato, Yuki",{s},Rounds,,{n}'
        for n, s in enumerate([*spellings, "DRAW", "Draw"], start=1)
    )
    path = tmp_path / "results.csv"
    path.write_text(f"date,white,black,result,event,site,round\n{rows}\n", encoding="utf-8")
    ok(club("import", str(path), "--tc", "standard"))
    imported = [g["result"] for g in games(club) if g["event"] == "Rounds"]
    assert imported == typed


def test_a_black_forfeit_is_a_result_not_an_option(club: Cli) -> None:
    r = ok(club("game", "add", "Hart", "Sato", "-+", "--date", "2026-11-02"))
    assert r.stderr.strip() == (
        "added game 1: Hart, Daniel -+ Sato, Yuki, 2026-11-02, standard (forfeit, not rated)"
    )
    ok(club("game", "add", "Sato", "Hart", "-:+", "--date", "2026-11-02", "--tc", "rapid"))
    ok(club("game", "add", "Hart", "Sato", "--date", "2026-11-03", "--", "-+"))
    ok(club("game", "edit", "3", "--result", "-+", "--round", "2"))
    assert [(g["result"], g["rated"]) for g in games(club)] == [("-+", False)] * 3


def test_the_command_reference_documents_exactly_the_vocabulary() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text("utf-8")
    table = page.split("| result | also written |", 1)[1].split("\n\n", 1)[0]
    documented: dict[str, str] = {}
    for row in table.strip().splitlines()[1:]:
        canonical_cell, also = row.strip("|").split("|")
        canonical = canonical_cell.split("`")[1]
        for spelling in [canonical, *also.split("`")[1::2]]:
            documented[spelling] = canonical
    assert documented == RESULT_ALIASES
