"""What an import may and may not do: all or nothing, idempotence, players, events, staleness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, games, ok, summary

DATA = Path(__file__).parent / "data"

TRF = DATA / "autumn_swiss.trf"
PGN = DATA / "season.pgn"
HEADER = (
    "date,white,black,result,event,round,white_rating,black_rating,white_fide_id,black_fide_id,tc"
)


def csv_file(tmp_path: Path, name: str, *rows: str, header: str = HEADER) -> Path:
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------
# Idempotence


def test_importing_the_same_file_again_adds_nothing(cli: Cli) -> None:
    first = summary(ok(cli("import", str(TRF), "--json")))
    assert (first["added"], first["already_present"], first["players_created"]) == (8, 0, 6)
    n = len(games(cli))
    again = summary(ok(cli("import", str(TRF), "--json")))
    assert (again["added"], again["already_present"], again["players_created"]) == (0, 8, 0)
    assert again["files"][0]["notes"][0].startswith(
        "the same file (same SHA-256) was imported before as #1 on "
    )
    assert len(games(cli)) == n
    listed = json.loads(ok(cli("import", "list", "--json")).stdout)
    assert [
        (i["id"], i["format"], i["added"], i["already_present"], i["games"]) for i in listed
    ] == [
        (1, "trf", 8, 0, 8),
        (2, "trf", 0, 8, 0),
    ]
    assert listed[0]["sha256"] == listed[1]["sha256"] and len(listed[0]["sha256"]) == 64
    assert listed[0]["file"] == str(TRF)
    assert (listed[0]["byes"], listed[0]["skipped"], listed[0]["players_created"]) == (2, 0, 6)
    assert set(listed[0]) == {
        "id",
        "file",
        "sha256",
        "format",
        "imported_at",
        "added",
        "already_present",
        "skipped",
        "invalid",
        "byes",
        "players_created",
        "games",
    }
    table = ok(cli("import", "list")).stdout
    assert "autumn_swiss.trf" in table and "present" in table


def test_an_overlapping_file_adds_only_the_new_games(cli: Cli, tmp_path: Path) -> None:
    ok(cli("import", str(TRF)))
    overlap = csv_file(
        tmp_path,
        "overlap.csv",
        # two games the TRF already brought (same date, players, event and round)...
        '2026-10-03,"Aalto, Eero","Dahl, Ola",1-0,Autumn Swiss 2026,1,'
        "2105,1910,500001,500004,standard",
        '2026-10-05,"Aalto, Eero","Costa, Rui",=,Autumn Swiss 2026,3,'
        "2105,1980,500001,500003,standard",
        # ...and one it did not
        '2026-10-20,"Costa, Rui","Dahl, Ola",0-1,,,1980,1910,500003,500004,standard',
    )
    f = summary(ok(cli("import", str(overlap), "--json")))["files"][0]
    assert (f["added"], f["already_present"], f["players_created"]) == (1, 2, [])
    assert len(games(cli)) == 9


def test_import_list_when_empty(cli: Cli) -> None:
    r = ok(cli("import", "list"))
    assert r.stdout == "" and "no imports yet" in r.stderr
    assert json.loads(ok(cli("import", "list", "--json")).stdout) == []


# ---------------------------------------------------------------------------------------
# All or nothing, --skip-invalid, --dry-run


def bad_csv(tmp_path: Path) -> Path:
    return csv_file(
        tmp_path,
        "bad.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,1900,1800,700001,700002,standard',
        '2026-05-03,"Boyd, Al","Ahn, Mi",2-0,,,1800,1900,700002,700001,standard',
        '2026-02-30,"Ahn, Mi","Cruz, Bo",0-1,,,1900,1700,700001,700003,standard',
        '2026-05-04,"Cruz, Bo","Ahn, Mi",1-0,,,1700,1900,700003,700001,standard',
    )


def test_a_file_with_one_bad_record_is_rejected_whole(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    path = bad_csv(tmp_path)
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    lines = r.stderr.strip().splitlines()
    assert lines[0].startswith(f"{path}:3: invalid result '2-0'")
    assert lines[1] == f"{path}:4: invalid date '2026-02-30': use YYYY-MM-DD"
    assert lines[2] == (
        f"{path}: rejected (csv), nothing written: 2 invalid, 2 problems; "
        "--skip-invalid would import its 2 valid new games"
    )
    assert lines[3] == (
        f"error: 1 of 1 file(s) rejected ({path}); nothing was written: fix the file(s), or "
        "import with --skip-invalid"
    )
    assert r.stdout == ""
    assert fingerprint(db_url) == before
    f = summary(cli("import", str(path), "--json"))["files"][0]
    assert (f["status"], f["added"], f["valid"], f["invalid"]) == ("rejected", 0, 2, 2)
    assert fingerprint(db_url) == before


def test_skip_invalid_writes_the_valid_games_and_reports_the_rest(cli: Cli, tmp_path: Path) -> None:
    path = bad_csv(tmp_path)
    r = ok(cli("import", str(path), "--skip-invalid", "--json"))
    f = summary(r)["files"][0]
    assert (f["status"], f["added"], f["invalid"], len(f["problems"])) == ("imported", 2, 2, 2)
    assert f"{path}:3: invalid result '2-0'" in r.stderr
    assert [(g["date"], g["white"]) for g in games(cli)] == [
        ("2026-05-02", "Ahn, Mi"),
        ("2026-05-04", "Cruz, Bo"),
    ]
    listed = json.loads(ok(cli("import", "list", "--json")).stdout)
    assert (listed[0]["added"], listed[0]["invalid"]) == (2, 2)


def test_skip_invalid_again_with_nothing_new_succeeds(cli: Cli, tmp_path: Path) -> None:
    path = bad_csv(tmp_path)
    ok(cli("import", str(path), "--skip-invalid"))
    r = ok(cli("import", str(path), "--skip-invalid", "--json"))
    f = summary(r)["files"][0]
    assert (f["status"], f["added"], f["already_present"], f["invalid"]) == ("imported", 0, 2, 2)
    assert f"{path}: imported as #2 (csv), nothing new: 0 games added, 2 already present" in (
        r.stderr
    )
    assert len(games(cli)) == 2
    # without --skip-invalid the file is still rejected for its problems
    r = cli("import", str(path))
    assert r.exit_code == 1 and "rejected (csv), nothing written: 2 invalid" in r.stderr


def test_skip_invalid_still_rejects_a_file_with_nothing_valid(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "junk.pgn"
    path.write_bytes(b"\x00\x01 this is not PGN \xff")
    before = fingerprint(db_url)
    r = cli("import", str(path), "--skip-invalid")
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines()[-1] == (
        "error: no valid game in the file: nothing was written"
    )
    assert fingerprint(db_url) == before


def test_a_file_without_any_game_is_refused_not_recorded(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "junk.pgn"
    path.write_text("These are my notes on the club's autumn season.\n")
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert f"{path}: no game in this file: is it a PGN file?" in r.stderr.splitlines()
    assert r.stderr.strip().splitlines()[-1] == (
        f"error: 1 of 1 file(s) rejected ({path}); nothing was written: fix the file(s)"
    )
    assert fingerprint(db_url) == before
    assert ok(cli("import", "list")).stderr.strip() == "no imports yet"


def test_skip_invalid_skips_a_file_with_nothing_valid_and_imports_the_others(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.pgn"
    junk.write_text("nothing\n")
    r = cli("import", str(junk), str(TRF), "--skip-invalid", "--json")
    assert r.exit_code == 0, r.stderr
    assert [f["status"] for f in summary(r)["files"]] == ["skipped", "imported"]
    assert f"{junk}: skipped (pgn), nothing written: 0 invalid, 1 problem" in r.stderr
    assert len(games(cli)) == 8


def test_dry_run_reports_exactly_and_writes_nothing(cli: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    r = ok(cli("import", str(TRF), str(PGN), "--dry-run", "--json"))
    dry = summary(r)
    assert "dry run: nothing was written" in r.stderr
    assert fingerprint(db_url) == before
    assert dry["dry_run"] is True and {f["status"] for f in dry["files"]} == {"dry-run"}
    assert {f["import_id"] for f in dry["files"]} == {None}
    real = summary(ok(cli("import", str(TRF), str(PGN), "--json")))
    for key in ("added", "already_present", "skipped", "invalid", "byes", "players_created"):
        assert dry[key] == real[key], key
    # The PGN's players were created by the TRF before it: the dry run saw that too.
    assert [len(f["players_created"]) for f in dry["files"]] == [6, 0]


def test_problems_are_capped_in_the_text_output_not_in_json(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    rows = [
        f'2026-05-{(i % 28) + 1:02d},"Ahn, Mi","Boyd, Al",9-9,,{i},1900,1800,700001,700002,standard'
        for i in range(1, 61)
    ]
    path = csv_file(tmp_path, "many.csv", *rows)
    r = cli("import", str(path))
    assert r.exit_code == 1
    lines = r.stderr.strip().splitlines()
    assert sum(line.startswith(f"{path}:") and "invalid result" in line for line in lines) == 50
    assert f"{path}: ... and 10 more problems" in lines
    f = summary(cli("import", str(path), "--json"))["files"][0]
    assert len(f["problems"]) == 60 and f["invalid"] == 60


def test_one_rejected_file_holds_back_the_others(cli: Cli, db_url: str, tmp_path: Path) -> None:
    bad = bad_csv(tmp_path)
    before = fingerprint(db_url)
    r = cli("import", str(TRF), str(bad), "--json")
    assert r.exit_code == 1
    s = summary(r)
    assert [f["status"] for f in s["files"]] == ["held", "rejected"]
    assert s["files"][0]["added"] == 8 and s["files"][0]["import_id"] is None
    assert (s["added"], s["rejected"]) == (0, 1)
    assert r.stderr.strip().splitlines()[-1] == (
        f"error: 1 of 2 file(s) rejected ({bad}); nothing was written: fix the file(s), or "
        "import with --skip-invalid"
    )
    assert f"{TRF}: valid (trf), 8 games held back" in r.stderr
    assert len(games(cli)) == 0
    assert fingerprint(db_url) == before
    r = cli("import", str(TRF), str(bad), "--skip-invalid", "--json")
    assert r.exit_code == 0, r.stderr
    assert len(games(cli)) == 8 + 2


def test_unknown_format_and_missing_file(cli: Cli, db_url: str, tmp_path: Path) -> None:
    before = fingerprint(db_url)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a tournament\n")
    r = cli("import", str(TRF), str(notes))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {notes}: a .txt file is read as a FIDE TRF, but this one has no TRF records "
        "(001/012 lines); give the format explicitly"
    ]
    r = cli("import", str(tmp_path / "missing.pgn"))
    assert r.exit_code == 2
    assert fingerprint(db_url) == before


# ---------------------------------------------------------------------------------------
# Players


def test_unknown_players_without_id_or_rating_are_listed(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    path = csv_file(
        tmp_path,
        "names.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,,,,,standard',
        '2026-05-03,"Boyd, Al","Cruz, Bo",1-0,,,,1700,,,standard',
    )
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines()[:2] == [
        f"{path}:2: unknown player 'Ahn, Mi' (in 1 game) and the file gives no FIDE id or "
        "rating for them: add them first (`tracker player add`) or use --create-players "
        "by-rating|tracked|external",
        f"{path}:2: unknown player 'Boyd, Al' (in 2 games) and the file gives no FIDE id or "
        "rating for them: add them first (`tracker player add`) or use --create-players "
        "by-rating|tracked|external",
    ]  # Cruz has a recorded rating: he would be created external
    assert fingerprint(db_url) == before
    r = cli("import", str(path), "--create-players", "no")
    assert r.exit_code == 1 and "unknown player 'Cruz, Bo' (in 1 game): add them first" in r.stderr
    assert fingerprint(db_url) == before
    f = summary(ok(cli("import", str(path), "--create-players", "tracked", "--json")))["files"][0]
    assert [(p["name"], p["external"]) for p in f["players_created"]] == [
        ("Ahn, Mi", False),
        ("Boyd, Al", False),
        ("Cruz, Bo", False),
    ]
    assert any("start unrated" in n for n in f["notes"])


def test_by_rating_creates_rated_opponents_external_and_the_others_tracked(
    cli: Cli, tmp_path: Path
) -> None:
    """One unrated newcomer no longer forces every rated opponent to be created tracked."""
    path = csv_file(
        tmp_path,
        "open.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,,2150,,,standard',
        '2026-05-03,"Cruz, Bo","Ahn, Mi",0-1,,,1980,,,,standard',
        '2026-05-04,"Diaz, Eva","Ahn, Mi",1/2-1/2,,,471,,,,standard',  # a national rating
    )
    f = summary(ok(cli("import", str(path), "--create-players", "by-rating", "--json")))
    created = f["files"][0]["players_created"]
    assert [(p["name"], p["external"]) for p in created] == [
        ("Ahn, Mi", False),  # no rating: ours to rate
        ("Boyd, Al", True),
        ("Cruz, Bo", True),
        ("Diaz, Eva", False),  # 471 is no FIDE rating
    ]


def test_a_game_against_an_external_player_without_a_rating_is_stored_unrated_for_the_other_side(
    cli: Cli, tmp_path: Path
) -> None:
    ok(cli("player", "add", "Ahn, Mi", "--rating", "1900", "--games", "40"))
    path = csv_file(
        tmp_path,
        "ext.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,1900,1800,,,standard',
        '2026-05-03,"Boyd, Al","Ahn, Mi",1-0,,,,1900,,,standard',
        '2026-05-04,"Boyd, Al","Ahn, Mi",+-,,,,1900,,,standard',
    )
    f = summary(ok(cli("import", str(path), "--create-players", "external", "--json")))["files"][0]
    assert (f["added"], f["invalid"], f["problems"]) == (3, 0, [])
    assert [(p["name"], p["external"]) for p in f["players_created"]] == [("Boyd, Al", True)]
    assert f["warnings"] == [  # the forfeit on line 4 is never rated: no rating needed
        f"{path}:3: Boyd, Al is an external player and the file records no FIDE rating for "
        "them: stored, not rated for the opponent (FIDE does not rate games against unrated "
        "opponents)"
    ]
    assert [(g["white_rating"], g["black_rating"]) for g in games(cli)] == [
        (1900, 1800),
        (None, 1900),
        (None, 1900),
    ]
    ok(cli("shadow", "set", "--seed-rd", "500"))  # the shadow starts at RD 500 (below)
    ok(cli("period", "close", "2026-05"))
    (may,) = json.loads(ok(cli("history", "Ahn, Mi", "--json")).stdout)
    # only the game against the rated Boyd counts: 20 x (1 - 0.64)
    assert (may["games"], may["change_exact"], may["note"]) == (
        1,
        7.2,
        "1 game(s) against unrated opponents not rated (§8.3.1)",
    )
    # The shadow rates both games, the unrated opponent as a new online player (1500, RD 500)
    first = json.loads(
        ok(cli("calc", "glicko", "1900", "500", "0.09", "1800/60:1", "--json")).stdout
    )
    second = json.loads(
        ok(
            cli(
                "calc",
                "glicko",
                str(first["rating"]),
                str(first["rd"]),
                str(first["volatility"]),
                "1500/500:0",
                "--idle-days",
                "1",
                "--json",
            )
        ).stdout
    )
    assert may["glicko"] == pytest.approx(second["rating"], abs=1e-6)


def test_new_opponents_with_a_recorded_rating_are_created_external_by_default(
    cli: Cli, tmp_path: Path
) -> None:
    ok(cli("player", "add", "Ahn, Mi", "--fide-id", "700001", "--rating", "1900", "--games", "40"))
    path = csv_file(
        tmp_path,
        "open.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,May Open,1,1900,1800,700001,700002,standard',
        '2026-05-03,"Cruz, Bo","Ahn, Mi",0-1,May Open,2,,1900,700003,700001,standard',
    )
    f = summary(ok(cli("import", str(path), "--json")))["files"][0]
    # Boyd has an Elo in the file: external, rated from it; Cruz only a FIDE id: tracked
    assert [(p["name"], p["external"]) for p in f["players_created"]] == [
        ("Boyd, Al", True),
        ("Cruz, Bo", False),
    ]
    assert any(
        n.startswith("new players with a recorded rating were created external") for n in f["notes"]
    )
    ok(cli("period", "close", "2026-05"))
    (may,) = json.loads(ok(cli("history", "Ahn, Mi", "--json")).stdout)
    assert (may["games"], may["rating"]) == (1, 1907)  # the game against Boyd is rated


def test_players_match_by_fide_id_then_by_exact_name(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Ahn, Mi-rae", "--fide-id", "700001"))
    ok(cli("player", "add", "Boyd, Al"))
    ok(cli("player", "add", "Cruz, Bo", "--external"))
    path = csv_file(
        tmp_path,
        "match.csv",
        # "Ahn, Mi" is Ahn, Mi-rae by FIDE id; Boyd has no id in the file nor in the database
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,1900,,700001,,standard',
        '2026-05-03,"Cruz, Bo","Boyd, Al",1-0,,,1650,,,,standard',
    )
    f = summary(ok(cli("import", str(path), "--json")))["files"][0]
    assert (f["added"], f["players_created"]) == (2, [])
    assert [(g["white_id"], g["black_id"]) for g in games(cli)] == [(1, 2), (3, 2)]


def test_an_ambiguous_name_is_a_problem(cli: Cli, db_url: str, tmp_path: Path) -> None:
    ok(cli("player", "add", "Boyd, Al"))
    ok(cli("player", "add", "Boyd, Al", "--born", "1970", "--force"))
    ok(cli("player", "add", "Ahn, Mi"))
    path = csv_file(tmp_path, "amb.csv", '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,,,,,standard')
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert (
        f"{path}:2: player 'Boyd, Al' matches 2 players (#1 Boyd, Al, #2 Boyd, Al); give FIDE "
        "ids in the file, or rename one of them"
    ) in r.stderr.splitlines()
    assert fingerprint(db_url) == before


def test_a_namesake_with_another_fide_id_is_another_player(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Boyd, Al", "--fide-id", "700002"))
    path = csv_file(
        tmp_path,
        "namesake.csv",
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,1900,1800,700001,700099,standard',
    )
    f = summary(ok(cli("import", str(path), "--json")))["files"][0]
    assert [(p["name"], p["fide_id"]) for p in f["players_created"]] == [
        ("Ahn, Mi", 700001),
        ("Boyd, Al", 700099),
    ]


# ---------------------------------------------------------------------------------------
# Games and events


def test_a_stored_game_with_another_result_is_a_problem(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    ok(cli("import", str(TRF)))
    path = csv_file(
        tmp_path,
        "fix.csv",
        '2026-10-03,"Aalto, Eero","Dahl, Ola",0-1,Autumn Swiss 2026,1,'
        "2105,1910,500001,500004,standard",
    )
    before = fingerprint(db_url)
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert (
        f"{path}:2: this game is already recorded as game 1 with result 1-0 (standard); the file "
        "says 0-1 (standard): if the file is right, remove game 1 first (`tracker game remove 1`)"
    ) in r.stderr.splitlines()
    assert fingerprint(db_url) == before


def test_two_games_with_the_same_key_in_a_file_are_both_kept(cli: Cli, tmp_path: Path) -> None:
    row = '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,,,1900,1800,700001,700002,standard'
    other = '2026-05-02,"Ahn, Mi","Boyd, Al",0-1,,,1900,1800,700001,700002,standard'
    path = csv_file(tmp_path, "twice.csv", row, other, row)
    f = summary(ok(cli("import", str(path), "--json")))["files"][0]
    assert (f["added"], f["already_present"], f["problems"]) == (3, 0, [])
    assert (
        "3 games share their date, players, event and round with another game of the file "
        "(lines 2, 3, 4): kept as distinct games (games with the same moves would be one)"
    ) in f["notes"]
    assert [g["result"] for g in games(cli)] == ["1-0", "0-1", "1-0"]
    # judged by content: the same file again, or its rows in another order, adds nothing
    again = summary(ok(cli("import", str(path), "--json")))["files"][0]
    assert (again["added"], again["already_present"]) == (0, 3)
    shuffled = csv_file(tmp_path, "shuffled.csv", other, row, row)
    f = summary(ok(cli("import", str(shuffled), "--json")))["files"][0]
    assert (f["added"], f["already_present"]) == (0, 3)
    # one more game of that evening adds one; a contradiction is refused
    more = csv_file(tmp_path, "more.csv", row, other, row, other)
    f = summary(ok(cli("import", str(more), "--json")))["files"][0]
    assert (f["added"], f["already_present"]) == (1, 3)
    draw = '2026-05-02,"Ahn, Mi","Boyd, Al",=,,,1900,1800,700001,700002,standard'
    wrong = csv_file(tmp_path, "wrong.csv", draw)
    r = cli("import", str(wrong))
    assert r.exit_code == 1
    assert (
        f"{wrong}:2: this game is already recorded as game 1 with result 1-0 (standard); the "
        "file says 1/2-1/2 (standard): if the file is right, remove game 1 first (`tracker "
        "game remove 1`)"
    ) in r.stderr.splitlines()


def test_event_start_dates(cli: Cli, tmp_path: Path) -> None:
    # A hand-entered event whose start follows its games...
    ok(cli("player", "add", "Ahn, Mi", "--fide-id", "700001"))
    ok(cli("player", "add", "Boyd, Al", "--fide-id", "700002"))
    ok(
        cli(
            "game",
            "add",
            "Ahn, Mi",
            "Boyd, Al",
            "1-0",
            "--date",
            "2026-05-09",
            "--event",
            "May Open",
        )
    )
    # ...moves back to an earlier imported game
    path = csv_file(
        tmp_path,
        "may.csv",
        '2026-05-02,"Boyd, Al","Ahn, Mi",1-0,May Open,1,,,700002,700001,standard',
    )
    ok(cli("import", str(path)))
    starts = {
        g["event"]: g["event_start"]
        for g in json.loads(cli("export", "games", "--format", "json").stdout)
    }
    assert starts == {"May Open": "2026-05-02"}

    def may_pgn(name: str, event_date: str, day: str) -> Path:
        path = tmp_path / name
        path.write_text(
            f'[Event "May Open"]\n[Date "{day}"]\n[Round "9"]\n[White "Ahn, Mi"]\n'
            f'[Black "Boyd, Al"]\n[Result "1-0"]\n[WhiteFideId "700001"]\n'
            f'[BlackFideId "700002"]\n[EventDate "{event_date}"]\n\n1-0\n',
            encoding="utf-8",
        )
        return path

    # A file's start after the stored games would leave them outside the event...
    late = may_pgn("late.pgn", "2026.05.05", "2026.05.10")
    r = cli("import", str(late), "--tc", "standard")
    assert r.exit_code == 1
    assert (
        f"{late}:1: event 'May Open' has games from 2026-05-02 in the database; the file says "
        "it starts on 2026-05-05"
    ) in r.stderr.splitlines()
    # ...one before them fixes the start
    early = may_pgn("early.pgn", "2026.05.01", "2026.05.10")
    ok(cli("import", str(early), "--tc", "standard"))
    exported = json.loads(cli("export", "games", "--format", "json").stdout)
    assert {g["event_start"] for g in exported} == {"2026-05-01"}
    # A fixed start (a TRF's 042) conflicting with another fixed start is a problem.
    ok(cli("import", str(TRF)))
    other = tmp_path / "other.trf"
    other.write_text(TRF.read_text().replace("042 2026/10/03", "042 2026/10/02"))
    r = cli("import", str(other))
    assert r.exit_code == 1
    assert (
        f"{other}:12: event 'Autumn Swiss 2026' starts on 2026-10-03 in the database; the file "
        "says 2026-10-02"
    ) in r.stderr.splitlines()


def test_games_landing_in_a_closed_period_mark_it_stale(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Ahn, Mi", "--fide-id", "700001", "--rating", "1900", "--games", "40"))
    ok(cli("player", "add", "Boyd, Al", "--fide-id", "700002", "--rating", "1800", "--games", "40"))
    ok(cli("game", "add", "Ahn, Mi", "Boyd, Al", "1-0", "--date", "2026-04-10"))
    ok(cli("period", "close", "2026-05"))
    path = csv_file(
        tmp_path, "late.csv", '2026-04-20,"Boyd, Al","Ahn, Mi",1-0,,,,,700002,700001,standard'
    )
    r = ok(cli("import", str(path), "--json"))
    assert summary(r)["files"][0]["stale"] == [{"tc": "standard", "from": "2026-04"}]
    assert "closed standard periods from 2026-04 are now stale: run `tracker rerate`" in r.stderr
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert {p["month"]: p["status"] for p in periods if p["month"] in ("2026-04", "2026-05")} == {
        "2026-04": "stale",
        "2026-05": "stale",
    }


def test_import_provenance_is_kept_on_each_game(cli: Cli) -> None:
    ok(cli("import", str(TRF)))
    ok(cli("import", str(PGN)))
    exported = json.loads(ok(cli("export", "games", "--format", "json")).stdout)
    by_import: dict[int, int] = {}
    for g in exported:
        by_import[g["import_id"]] = by_import.get(g["import_id"], 0) + 1
    assert by_import == {1: 8, 2: 5}


@pytest.mark.parametrize("bad", ["#7", "id:12", "\x00evil"])  # ("12345" is a name: user names)
def test_unusable_names_are_problems(cli: Cli, db_url: str, tmp_path: Path, bad: str) -> None:
    path = tmp_path / "names.pgn"
    path.write_text(
        f'[Event "X"]\n[Date "2026.05.02"]\n[White "{bad}"]\n[Black "Boyd, Al"]\n'
        '[Result "1-0"]\n[WhiteElo "1900"]\n[BlackElo "1800"]\n\n1-0\n',
        encoding="utf-8",
    )
    before = fingerprint(db_url)
    r = cli("import", str(path), "--tc", "standard")
    assert r.exit_code == 1, r.stderr
    assert any(line.startswith(f"{path}:1: ") for line in r.stderr.splitlines()), r.stderr
    assert fingerprint(db_url) == before


def test_a_game_repeated_in_its_file_is_counted_once_and_the_repeats_are_counted(
    cli: Cli, tmp_path: Path
) -> None:
    """The same game (players, day, round and moves) three times in one file: stored once,
    one note for its repeats, which counts the others as games."""
    game = (
        '[Event "Club"]\n[Site "?"]\n[Date "2026.03.01"]\n[Round "1"]\n'
        '[White "Hart, Daniel"]\n[Black "Sato, Yuki"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
    )
    path = tmp_path / "g.pgn"
    path.write_text(game * 3)
    said = ok(cli("import", str(path), "--create-players", "tracked", "--tc", "standard")).stderr
    assert "1 game added, 2 already present" in said
    assert (
        f"note: {path}:11 repeats the game of line 1 (same players, day, round and moves): "
        "counted once, as already present (and 1 more game)"
    ) in said
