"""A season's directory of real-looking files (tests/cli/data/season_2026: FIDE's example
style, two-digit years, a date range, a chess-results export without dates and with unknown
codes, a TRF-2026 with US-style dates, a league PGN with comments and blank lines before the
moves, a partial date, a Chess960 game, a forfeit without moves, a forfeit notation, a blitz
night, an opponent without a rating, a chess-results CSV of forfeits, the club's players
file, and a README) imports in one command, on both databases."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from tests.helpers import Cli, fingerprint, games, ok, summary

SEASON = Path(__file__).parent / "data" / "season_2026"
COMMAND = ("import", str(SEASON), "--event-start", "2026-10-24")


def test_the_season_imports_in_one_command(cli: Cli) -> None:
    r = ok(cli(*COMMAND, "--json"))
    s = summary(r)
    assert f"{SEASON / 'README.txt'}: skipped (not a PGN, CSV or TRF file)" in r.stderr
    files = {Path(f["file"]).name: f for f in s["files"]}
    assert {name: (f["format"], f["status"], f["added"]) for name, f in files.items()} == {
        "01-midsummer-open.trf": ("trf", "imported", 9),
        "02-seaside-weekender.trf": ("trf", "imported", 9),
        "03-harvest-open.trf": ("trf", "imported", 9),
        "04-autumn-cup.trf": ("trf", "imported", 9),
        "05-october-blitz.trf": ("trf", "imported", 9),
        "league.pgn": ("pgn", "imported", 7),
        "players.csv": ("players", "imported", 0),
        "winter-cup.csv": ("csv", "imported", 6),
    }
    assert (s["added"], s["invalid"], s["rejected"]) == (58, 0, 0)
    assert all(f["problems"] == [] for f in s["files"])
    assert len(files["players.csv"]["players_created"]) == 4  # read before the games
    created = [p["name"] for f in s["files"] for p in f["players_created"] if p["external"]]
    assert sorted(created) == [
        "Dahl, Ola",
        "Ek, Sven",
        "Kowalczyk, Jan",
        "Moe, Anna",
        "Nowak, Piotr",
    ]
    assert files["league.pgn"]["skipped_variant"] == 1
    # the heading, the forfeit without moves, an external opponent without a FIDE rating
    assert len(files["league.pgn"]["warnings"]) == 3

    rows = games(cli)
    assert len(rows) == 58
    # dates as each file wrote them, or the given start for the file without any
    starts = {
        g["event"]: g["event_start"]
        for g in json.loads(ok(cli("export", "games", "--format", "json")).stdout)
    }
    assert starts == {
        "Midsummer Open 2026": "2026-07-28",  # 28. 07. 2026
        "Seaside Weekender 2026": "2026-08-28",  # 28.08.26
        "Harvest Open 2026": "2026-09-11",  # 2026/09/11 - 2026/09/13
        "Autumn Cup 2026": "2026-10-24",  # no date: --event-start
        "October Blitz 2026": "2026-10-02",  # Oct 2, 2026
        "Uppsala League 2026": "2026-10-04",
        "Club blitz night": "2026-11-12",
        "Winter Cup 2026": "2026-11-06",  # the CSV's event_start column
    }
    assert Counter(g["tc"] for g in rows) == {"standard": 47, "blitz": 11}
    # forfeits: one per TRF, the PGN's two, the CSV's five; never rated
    assert sum(not g["rated"] for g in rows) == 5 + 2 + 5
    # the blitz night's two games between the same players are both kept
    night = [g["result"] for g in rows if g["event"] == "Club blitz night"]
    assert night == ["1-0", "0-1"]

    # the season closes, and importing the directory again adds nothing
    ok(cli("period", "close"))
    ok(cli("period", "close", "--tc", "blitz"))
    history = json.loads(ok(cli("history", "Lindgren, Axel", "--json")).stdout)
    assert [h["month"] for h in history] == ["2026-07", "2026-08", "2026-09", "2026-10"]
    again = summary(ok(cli(*COMMAND, "--json")))
    assert (again["added"], again["already_present"]) == (0, 58)
    assert [f["players_unchanged"] for f in again["files"] if f["format"] == "players"] == [4]


def test_a_broken_season_is_refused_with_one_line_per_problem(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    broken = tmp_path / "season"
    shutil.copytree(SEASON, broken)
    trf = broken / "01-midsummer-open.trf"
    trf.write_text(trf.read_text().replace("042 28. 07. 2026", "042 sometime in July"))
    pgn = broken / "league.pgn"
    pgn.write_text(pgn.read_text().replace('[Date "2026.11.??"]', '[Date "2027.11.02"]'))
    before = fingerprint(db_url)
    r = cli("import", str(broken), "--event-start", "2026-10-24")
    assert r.exit_code == 1
    problems = [
        line
        for line in r.stderr.splitlines()
        if line.startswith(f"{broken}/") and "skipped (not" not in line and "held back" not in line
    ]
    assert problems == [
        # the given start stands in for the unreadable 042, and contradicts the file's dates
        f"{trf}:5: the file's dates disagree: the end date 2026-07-30 is before the given event "
        "start 2026-10-24; no game is dated",
        f"{trf}: rejected (trf), nothing written: 9 invalid, 1 problem",
        f"{pgn}:76: the date 2027-11-02 is in the future (today is 2026-11-29): check the "
        "file's dates",
        f"{pgn}: rejected (pgn), nothing written: 1 invalid, 1 problem; --skip-invalid would "
        "import its 6 valid new games",
    ]
    assert (
        f"  warning: {trf}:4: unreadable start date 'sometime in July' (042); the given event "
        "start 2026-10-24 used"
    ) in r.stderr.splitlines()
    assert fingerprint(db_url) == before
