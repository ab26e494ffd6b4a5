"""Players with their seeds out (`export players`) and back in (`tracker import players.csv`):
a database rebuilt from files alone."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.cli.test_export_import_round_trip import build_season, ratings
from tests.helpers import Cli, comparable, fingerprint, games, ok, summary
from tracker.importers.players import PLAYER_COLUMNS


def test_export_players_writes_every_player_with_his_seeds(cli: Cli) -> None:
    build_season(cli)
    text = ok(cli("export", "players")).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(PLAYER_COLUMNS)
    by_name = {r["name"]: r for r in rows}
    assert len(rows) == 6
    hart = by_name["Hart, Daniel"]
    assert (hart["fide_id"], hart["birth_year"], hart["kind"]) == ("400101", "1988", "tracked")
    assert (hart["standard_rating"], hart["standard_games"], hart["standard_ever_2300"]) == (
        "2318",
        "240",
        "true",
    )
    assert hart["rapid_rating"] == ""
    assert by_name["Lund, Erik"]["standard_ever_2400"] == "true"  # a seed at 2405
    assert by_name["Kim, Ji-ho"]["kind"] == "external"
    as_json = json.loads(ok(cli("export", "players", "--format", "json")).stdout)
    assert as_json == json.loads(ok(cli("player", "list", "--json")).stdout)
    r = cli("export", "players", "--tc", "rapid")
    assert r.exit_code == 2


def test_a_database_rebuilt_from_its_players_and_games_files(
    cli: Cli, other_cli: Cli, tmp_path: Path
) -> None:
    build_season(cli)
    players, season = tmp_path / "players.csv", tmp_path / "season.csv"
    ok(cli("export", "players", "--out", str(players)))
    ok(cli("export", "games", "--out", str(season)))
    # one command, in any order: the players file is read first
    r = ok(other_cli("import", str(season), str(players), "--json"))
    s = summary(r)
    assert [(f["file"], f["format"], f["status"]) for f in s["files"]] == [
        (str(season), "csv", "imported"),
        (str(players), "players", "imported"),
    ]
    assert len(s["files"][1]["players_created"]) == 6
    assert s["files"][0]["players_created"] == []  # every game's players were in the file
    assert f"{players}: imported (players): 6 players added, 0 updated, 0 unchanged" in r.stderr
    assert sorted(map(comparable, games(other_cli))) == sorted(map(comparable, games(cli)))
    assert ratings(other_cli) == ratings(cli)
    # again: nothing changes
    again = summary(ok(other_cli("import", str(players), str(season), "--json")))
    assert [(f["players_unchanged"], f["added"]) for f in again["files"]] == [(6, 0), (0, 0)]


def test_a_players_file_updates_players_and_their_seeds(cli: Cli, tmp_path: Path) -> None:
    ok(
        cli(
            "player",
            "add",
            "Hart, Daniel",
            "--fide-id",
            "400101",
            "--rating",
            "2318",
            "--games",
            "240",
        )
    )
    ok(cli("player", "add", "Sato, Yuki", "--born", "2012"))
    ok(cli("game", "add", "Hart, Daniel", "Sato, Yuki", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-09"))
    path = tmp_path / "players.csv"
    path.write_text(
        "name,fide_id,federation,sex,standard_rating,standard_games,rapid_rating,rapid_games\n"
        "Hart Daniel,400101,eng,,2320,240,2250,31\n"  # by FIDE id, renamed
        '"Sato, Yuki",400177,,w,,,,\n'  # by name; gets an id and a sex
        '"Kim, Ji-ho",,KOR,,,,,\n',
        encoding="utf-8",
    )
    r = ok(cli("import", str(path), "--json"))
    f = summary(r)["files"][0]
    assert (f["players_updated"], f["players_unchanged"]) == (["Hart Daniel", "Sato, Yuki"], 0)
    assert [p["name"] for p in f["players_created"]] == ["Kim, Ji-ho"]
    assert f["stale"] == [{"tc": "standard", "from": "2026-09"}]
    assert "closed standard periods from 2026-09 are now stale: run `tracker rerate`" in r.stderr
    hart = json.loads(ok(cli("player", "show", "400101", "--json")).stdout)
    assert (hart["name"], hart["federation"]) == ("Hart Daniel", "ENG")
    assert [(s["tc"], s["rating"], s["games"]) for s in hart["seeds"]] == [
        ("rapid", 2250, 31),
        ("standard", 2320, 240),
    ]
    sato = json.loads(ok(cli("player", "show", "Sato, Yuki", "--json")).stdout)
    assert (sato["fide_id"], sato["sex"], sato["birth_year"]) == (400177, "f", 2012)


def test_bad_rows_are_refused_with_their_line_and_nothing_is_written(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    ok(cli("player", "add", "Boyd, Al"))
    ok(cli("player", "add", "Boyd, Al", "--born", "1970", "--force"))
    path = tmp_path / "players.csv"
    path.write_text(
        "name,kind,birth_year,standard_rating,standard_games\n"
        '"Ahn, Mi",tracked,1990,1900,40\n'
        '"Cruz, Bo",external,,1800,10\n'  # an external player has no seed
        '"Diaz, Eva",tracked,1850,1700,\n'  # rating without games
        '"Boyd, Al",,,,\n'  # two players of that name
        '"Ahn, Mi",,,,\n',  # twice in the file
        encoding="utf-8",
    )
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"{path}:3: an external player is not rated by us: their rating comes from each game, so "
        "--rating/--games do not apply",
        f"{path}:4: standard_rating and standard_games go together: give both",
        f"{path}:5: 'Boyd, Al' matches 2 players (#1, #2); give their FIDE id",
        f"{path}:6: the same player as line 2",
        f"{path}: rejected (players), nothing written: 4 problems",
        f"error: 1 of 1 file(s) rejected ({path}); nothing was written: fix the file(s), or "
        "import with --skip-invalid",
    ]
    assert fingerprint(db_url) == before
    # --skip-invalid adds the valid rows and reports the others
    f = summary(ok(cli("import", str(path), "--skip-invalid", "--json")))["files"][0]
    assert [p["name"] for p in f["players_created"]] == ["Ahn, Mi"]
    assert (f["status"], len(f["problems"])) == ("imported", 4)
