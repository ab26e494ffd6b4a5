"""``tracker export games|history|list``: formats, filters, files and refusals."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, ok, read_file
from tracker.importers.csvfile import ALLOWED_COLUMNS

DATA = Path(__file__).parent / "data"

TRF = DATA / "autumn_swiss.trf"
PGN = DATA / "season.pgn"


@pytest.fixture
def season(cli: Cli) -> Cli:
    ok(cli("import", str(TRF)))
    ok(cli("import", str(PGN)))
    return cli


def test_csv_uses_exactly_the_import_header(season: Cli) -> None:
    r = ok(season("export", "games"))
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert tuple(rows[0]) == ALLOWED_COLUMNS
    assert rows[0] == [
        "date",
        "white",
        "black",
        "result",
        "event",
        "site",
        "round",
        "white_rating",
        "black_rating",
        "white_fide_id",
        "black_fide_id",
        "tc",
        "event_start",
    ]
    assert len(rows) == 1 + 13
    assert rows[1] == [
        "2026-10-03",
        "Aalto, Eero",
        "Dahl, Ola",
        "1-0",
        "Autumn Swiss 2026",
        "Bergen",
        "1",
        "2105",
        "1910",
        "500001",
        "500004",
        "standard",
        "2026-10-03",  # the event's start date
    ]
    assert rows[2][3] == "+-"  # forfeits keep their result
    assert rows[-1][-2:] == ["blitz", "2026-10-15"]


def test_pgn_has_the_seven_tag_roster_and_the_rest(season: Cli) -> None:
    text = ok(season("export", "games", "--format", "pgn", "--player", "Dahl, Ola")).stdout
    first = text.split("\n\n")[0].splitlines()
    assert first == [
        '[Event "Autumn Swiss 2026"]',
        '[Site "Bergen"]',
        '[Date "2026.10.03"]',
        '[Round "1"]',
        '[White "Aalto, Eero"]',
        '[Black "Dahl, Ola"]',
        '[Result "1-0"]',
        '[WhiteElo "2105"]',
        '[BlackElo "1910"]',
        '[WhiteFideId "500001"]',
        '[BlackFideId "500004"]',
        '[WhiteTitle "FM"]',
        '[TimeControl "standard"]',  # the class the database keeps, nothing invented
        '[EventDate "2026.10.03"]',
    ]
    assert '[Termination "forfeit"]' in text
    parsed = read_file("pgn", text.encode(), "export.pgn")
    assert parsed.problems == ()
    assert [(g.white.name, g.black.name, g.result, g.tc) for g in parsed.games] == [
        ("Aalto, Eero", "Dahl, Ola", "1-0", "standard"),
        ("Dahl, Ola", "Berg, Lina", "0-1", "standard"),
        ("Dahl, Ola", "Egger, Max", "-+", "standard"),
        ("Dahl, Ola", "Aalto, Eero", "-+", "standard"),
        ("Aalto, Eero", "Dahl, Ola", "1/2-1/2", "blitz"),
    ]


def test_json_and_filters(season: Cli) -> None:
    data = json.loads(
        ok(
            season("export", "games", "--format", "json", "--month", "2026-10", "--tc", "blitz")
        ).stdout
    )
    assert data == [
        {
            "id": 13,
            "date": "2026-10-15",
            "white": "Aalto, Eero",
            "white_id": 1,
            "white_fide_id": 500001,
            "black": "Dahl, Ola",
            "black_id": 2,
            "black_fide_id": 500004,
            "result": "1/2-1/2",
            "rated": True,
            "tc": "blitz",
            "event": "Club Blitz Night",
            "event_start": "2026-10-15",
            "site": "Oslo NOR",
            "round": "1",
            "white_rating": None,
            "black_rating": None,
            "import_id": 2,
        }
    ]
    assert (
        json.loads(ok(season("export", "games", "--format", "json", "--month", "2026-09")).stdout)
        == []
    )
    by_event = json.loads(
        ok(season("export", "games", "--format", "json", "--event", "Oslo Autumn Open 2026")).stdout
    )
    assert len(by_event) == 4


def test_out_writes_a_file_and_nothing_to_stdout(season: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "games.csv"
    r = ok(season("export", "games", "--out", str(target)))
    assert r.stdout == ""
    assert r.stderr.strip() == f"wrote 13 games to {target} (csv)"
    assert target.read_text(encoding="utf-8") == ok(season("export", "games")).stdout
    assert [p.name for p in folder.iterdir()] == ["games.csv"]  # no temporary file left


def test_out_gets_the_umask_and_replaces_a_file_only_with_force(
    season: Cli, tmp_path: Path
) -> None:
    target = tmp_path / "games.csv"
    old = os.umask(0o027)
    try:
        ok(season("export", "games", "--out", str(target)))
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # 0666 less the umask, not 0600
        target.write_text("my own notes\n", encoding="utf-8")
        r = season("export", "games", "--out", str(target))
        assert r.exit_code == 1
        assert r.stderr.strip() == f"error: {target} already exists (use --force to replace it)"
        assert target.read_text(encoding="utf-8") == "my own notes\n"
        os.umask(0o002)
        r = ok(season("export", "games", "--out", str(target), "--force"))
        assert r.stderr.strip() == f"wrote 13 games to {target} (csv)"
        assert stat.S_IMODE(target.stat().st_mode) == 0o664
        assert target.read_text(encoding="utf-8") == ok(season("export", "games")).stdout
    finally:
        os.umask(old)
    r = season("export", "games", "--force")
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: --force replaces an --out file: give --out FILE"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("export", "history"), 2, "error: export history needs --player"),
        (
            ("export", "history", "--player", "#1", "--format", "pgn"),
            2,
            "error: export history writes csv or json, not pgn",
        ),
        (
            ("export", "list", "--player", "#1"),
            2,
            "error: export list takes no --player (a list holds everyone)",
        ),
        (("export", "list", "--event", "X"), 2, "error: --event applies to export games only"),
        (("export", "games", "--format", "xml"), 2, None),
        (("export", "teams"), 2, None),
        (
            ("export", "players", "--month", "2026-10"),
            2,
            "error: export players takes no --player, --month or --tc (it holds everyone)",
        ),
        (("export", "games", "--player", "Nobody, At All"), 1, None),
        (("export", "games", "--month", "2026-13"), 1, "error: impossible month '2026-13'"),
        (("export", "games", "--event", "No Such Cup"), 1, "error: no event named 'No Such Cup'"),
        (
            ("export", "games", "--format", "trf"),
            1,
            "error: cannot write a TRF: a TRF holds one event: choose one (its games must all "
            "have it)",
        ),
    ],
)
def test_refusals_are_one_line_and_change_nothing(
    season: Cli, db_url: str, args: tuple[str, ...], code: int, message: str | None
) -> None:
    before = fingerprint(db_url)
    r = season(*args)
    assert r.exit_code == code
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    if message is not None:
        assert lines[0] == message
    assert r.stdout == ""
    assert fingerprint(db_url) == before


def test_trf_needs_numbered_rounds(season: Cli) -> None:
    ok(season("player", "add", "Ahn, Mi"))
    ok(season("player", "add", "Boyd, Al"))
    ok(
        season(
            "game",
            "add",
            "Ahn, Mi",
            "Boyd, Al",
            "1-0",
            "--date",
            "2026-11-01",
            "--event",
            "Cup",
            "--round",
            "final",
        )
    )
    r = season("export", "games", "--event", "Cup", "--format", "trf")
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        "error: cannot write a TRF: round 'final' is not a round number 1..999: a TRF needs "
        "numbered rounds"
    )


def test_history_and_list_exports(season: Cli) -> None:
    for fide_id, rating in (("500001", "2105"), ("500004", "1910"), ("500003", "1980")):
        ok(season("player", "edit", fide_id, "--tracked"))
        ok(season("player", "seed", fide_id, "--rating", rating, "--games", "60"))
    ok(season("period", "close", "2026-10"))
    history = json.loads(
        ok(season("export", "history", "--player", "500001", "--format", "json")).stdout
    )
    shown = json.loads(ok(season("history", "500001", "--json")).stdout)
    # the same rows, keys and values as `tracker history --json`
    assert history == shown
    assert list(history[0])[:12] == [
        "month",
        "list",
        "rating_before",
        "rating",
        "k",
        "games",
        "score",
        "expected",
        "change_exact",
        "change",
        "stale",
        "note",
    ]
    rows = list(
        csv.DictReader(io.StringIO(ok(season("export", "history", "--player", "500001")).stdout))
    )
    assert len(rows) == len(history) == 1
    assert rows[0]["month"] == "2026-10" and rows[0]["list"] == "2026-11-01"
    assert int(rows[0]["rating"]) == history[0]["rating"]
    assert rows[0]["change_exact"] == str(history[0]["change_exact"])
    assert rows[0]["stale"] == "false"
    month_only = ok(season("export", "history", "--player", "500001", "--month", "2026-09")).stdout
    assert month_only.splitlines()[1:] == []
    listed = json.loads(ok(season("export", "list", "--format", "json")).stdout)
    assert listed == json.loads(ok(season("list", "--json")).stdout)
    assert listed["list"] == "2026-11-01"
    table = list(
        csv.DictReader(io.StringIO(ok(season("export", "list", "--month", "2026-11")).stdout))
    )
    assert [r["name"] for r in table] == [p["name"] for p in listed["players"]]
    assert list(table[0]) == [
        "rank",
        "id",
        "name",
        "title",
        "federation",
        "fide_id",
        "born",
        "rating",
        "games",
        "k",
    ]


def test_out_into_a_missing_folder_is_a_clean_error(season: Cli, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "games.csv"
    r = season("export", "games", "--out", str(target))
    assert r.exit_code == 1
    assert r.stderr.strip() == f"error: folder {target.parent} does not exist"
    assert not target.parent.exists()
