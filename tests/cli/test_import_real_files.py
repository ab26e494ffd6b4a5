"""``tracker import`` of what pairing programs, Lichess and PGN archives actually write, end
to end on both databases (the files are small ones of our own reproducing each variation)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import Cli, fingerprint, games, ok, summary

FILES = Path(__file__).parents[1] / "importers" / "data"


def imported(cli: Cli, *args: str) -> dict[str, object]:
    data: dict[str, object] = summary(ok(cli("import", *args, "--json")))["files"][0]
    return data


def test_a_lichess_swiss_imports_with_its_date_and_a_time_control(cli: Cli) -> None:
    path = FILES / "lichess_swiss.trf"
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert f"{path}:11: no time control for this game (and 8 more)" in r.stderr
    f = imported(cli, str(path), "--tc", "blitz")
    assert (f["added"], f["invalid"], f["problems"]) == (9, 0, [])
    # usernames with Lichess ratings: external opponents, rated from those ratings
    assert {p["external"] for p in f["players_created"]} == {True}  # type: ignore[attr-defined]
    assert {(g["date"], g["tc"]) for g in games(cli)} == {("2026-06-26", "blitz")}


def test_a_file_without_dates_needs_the_event_start(cli: Cli, db_url: str) -> None:
    path = FILES / "pairing_engine_nodates.trf"
    before = fingerprint(db_url)
    r = cli("import", str(path), "--tc", "standard")
    assert r.exit_code == 1
    lines = r.stderr.strip().splitlines()
    assert lines[:2] == [
        f"{path}: no dates: the file has no 042 start date and no 132 round dates; give the "
        "event's start with --event-start YYYY-MM-DD",
        f"{path}: rejected (trf), nothing written: 9 invalid, 1 problem",
    ]  # one problem, and invalid counts the games
    assert fingerprint(db_url) == before
    f = imported(cli, str(path), "--tc", "standard", "--event-start", "2026-10-17")
    assert (f["added"], f["problems"]) == (9, [])
    assert (
        f"9 games without a full date of its own, dated as {path}:5 says: no date for round 1 "
        "in the 132 record; the given event start 2026-10-17 used"
    ) in f["notes"]
    exported = json.loads(ok(cli("export", "games", "--format", "json")).stdout)
    assert {(g["date"], g["event_start"]) for g in exported} == {("2026-10-17", "2026-10-17")}


def test_the_event_start_does_not_replace_a_files_own_dates(cli: Cli) -> None:
    path = FILES / "fide_style_dots.trf"
    f = imported(cli, str(path), "--tc", "standard", "--event-start", "2026-10-17")
    notes = f["notes"]
    assert isinstance(notes, list)
    assert (
        "--event-start 2026-10-17 was not used: the file gives its games' dates (the option is "
        "for files without any)"
    ) in notes
    assert {g["date"] for g in games(cli)} == {"2026-07-28", "2026-07-29", "2026-07-30"}


def test_one_bad_042_is_one_line(cli: Cli, tmp_path: Path) -> None:
    text = (FILES / "lichess_swiss.trf").read_text().replace("042 Jun 26, 2026", "042 26 juin 2026")
    path = tmp_path / "bad042.trf"
    path.write_text(text)
    r = cli("import", str(path), "--tc", "blitz")
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"{path}:4: invalid start date '26 juin 2026' (042): write it YYYY/MM/DD, or give the "
        "event's start with --event-start",
        f"{path}: rejected (trf), nothing written: 9 invalid, 1 problem",
        # --skip-invalid is not offered: it would import nothing of this file
        f"error: 1 of 1 file(s) rejected ({path}); nothing was written: fix the file(s)",
    ]
    f = imported(cli, str(path), "--tc", "blitz", "--event-start", "2026-06-26")
    assert f["added"] == 9
    assert f["warnings"] == [
        f"{path}:4: unreadable start date '26 juin 2026' (042); the given event start "
        "2026-06-26 used"
    ]


def test_unknown_codes_are_warnings_and_unknown_players_are_reported_at_their_record(
    cli: Cli,
) -> None:
    path = FILES / "chessresults_nodates.trf"
    r = cli(
        "import",
        str(path),
        "--tc",
        "rapid",
        "--event-start",
        "2026-10-24",
        "--create-players",
        "no",
    )
    assert r.exit_code == 1
    problems = [
        line
        for line in r.stderr.splitlines()
        if line.startswith(f"{path}:") and line.split(":")[1].isdigit()
    ]
    # each player at his own 001 line (7..12), not at the line of his first game
    assert [line.split(":")[1] for line in problems] == ["7", "8", "9", "10", "11", "12"]
    assert problems[2] == (
        f"{path}:9: unknown player 'Nowak, Piotr' (in 3 games): add them first (`tracker player "
        "add`) or use --create-players tracked|external"
    )
    r = ok(cli("import", str(path), "--tc", "rapid", "--event-start", "2026-10-24"))
    assert f"  warning: {path}:9: unknown sex code 'u' (2 player records): left empty" in (
        r.stderr.splitlines()
    )
    players = {p["name"]: p for p in json.loads(ok(cli("player", "list", "--json")).stdout)}
    assert (players["Nowak, Piotr"]["sex"], players["Berg, Ola"]["title"]) == (None, None)
    assert players["Haugen, Kari"]["title"] == "WFM"


def test_other_variants_are_counted_as_skipped(cli: Cli) -> None:
    f = imported(cli, str(FILES / "variants.pgn"))
    assert (f["added"], f["skipped"], f["skipped_variant"], f["invalid"]) == (1, 3, 3, 0)
    assert (
        "3 games of other chess variants skipped (Chess960 1, Crazyhouse 1, From Position 1): "
        "FIDE rates standard chess only"
    ) in f["notes"]  # type: ignore[operator]
    listed = json.loads(ok(cli("import", "list", "--json")).stdout)
    assert listed[0]["skipped"] == 3


def test_a_forfeit_recorded_as_a_win_without_moves_is_never_rated(cli: Cli) -> None:
    f = imported(cli, str(FILES / "forfeit_without_moves.pgn"), "--tc", "standard")
    assert (f["added"], f["problems"]) == (3, [])
    assert len(f["warnings"]) == 1  # type: ignore[arg-type]
    rows = {(g["white"], g["result"], g["rated"]) for g in games(cli)}
    assert ("Visser, Daan", "+-", False) in rows


def test_a_blitz_night_keeps_both_games_and_counts_a_repeat_once(cli: Cli) -> None:
    f = imported(cli, str(FILES / "blitz_night.pgn"))
    assert (f["added"], f["already_present"], f["problems"]) == (2, 1, [])
    assert [(g["result"], g["tc"]) for g in games(cli)] == [("1-0", "blitz"), ("0-1", "blitz")]
    again = imported(cli, str(FILES / "blitz_night.pgn"))
    assert (again["added"], again["already_present"]) == (0, 3)


def test_partial_pgn_dates_and_the_event_start(cli: Cli) -> None:
    path = FILES / "partial_dates.pgn"
    r = cli("import", str(path), "--create-players", "tracked")
    assert r.exit_code == 1
    assert "(and 1 more game like it)" in r.stderr
    f = imported(cli, str(path), "--create-players", "tracked", "--event-start", "2026-08-15")
    assert (f["added"], f["problems"]) == (6, [])
    assert sorted(g["date"] for g in games(cli)) == [
        "2026-03-14",
        "2026-04-01",
        "2026-05-01",
        "2026-07-02",
        "2026-08-15",
        "2026-08-15",
    ]


def test_a_date_in_the_future_is_refused_once(cli: Cli, db_url: str, tmp_path: Path) -> None:
    text = (FILES / "fide_style_dots.trf").read_text()
    path = tmp_path / "future.trf"
    path.write_text(text.replace("2026", "2027").replace("26/07", "27/07"))
    before = fingerprint(db_url)
    r = cli("import", str(path), "--tc", "standard")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (
        f"{path}:12: the date 2027-07-28 is in the future (today is 2026-11-29) (and 8 more "
        "games): check the file's dates"
    )
    assert f"{path}: rejected (trf), nothing written: 9 invalid, 1 problem" in r.stderr
    assert fingerprint(db_url) == before


def test_a_fide_list_given_to_import_names_the_right_command(cli: Cli) -> None:
    path = FILES / "standard_rating_list.txt"
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: {path}: this is a FIDE rating list, not games: read it with `tracker player "
        "import-fide-list`"
    )


def test_a_results_export_of_tag_pairs_only_imports_every_record(cli: Cli) -> None:
    """A broadcast's results export (no moves): six records, six played games, none merged
    and none taken for a forfeit."""
    f = imported(cli, str(FILES / "results_export.pgn"))
    assert (f["added"], f["invalid"], f["problems"], f["warnings"]) == (6, 0, [], [])
    stored = games(cli)
    assert [(g["white"], g["result"], g["round"]) for g in stored] == [
        ("Moreau, Luc", "1-0", "1.1"),
        ("Novak, Jan", "0-1", "1.2"),
        ("Rossi, Marco", "1/2-1/2", "1.3"),
        ("Keller, Anna", "1-0", "2.1"),
        ("Berg, Ola", "0-1", "2.2"),
        ("Silva, Ines", "0-1", "2.3"),
    ]
    assert {g["rated"] for g in stored} == {True}
    f = imported(cli, str(FILES / "tag_run.pgn"), "--tc", "standard")
    # the same games (by players, day and result) are new here: other rounds and no event
    assert (f["added"], f["warnings"]) == (
        6,
        [
            f"{FILES / 'tag_run.pgn'}:10: 5 games have no Event tag while 1 name theirs: stored "
            "without an event (a record takes nothing from the one before it)"
        ],
    )


def test_a_lichess_database_export_is_dated_by_its_utc_date(cli: Cli) -> None:
    """Lichess's exports write ``Date "????.??.??"`` (or none) and the day in UTCDate; user
    names may be numbers ("800"); its bullet game is on no FIDE list."""
    path = FILES / "lichess_db.pgn"
    f = imported(cli, str(path))
    assert (f["added"], f["skipped_bullet"], f["problems"]) == (2, 1, [])
    stored = games(cli)
    assert [(g["date"], g["white"], g["black"], g["tc"]) for g in stored] == [
        ("2026-09-03", "800", "harbour_kid", "rapid"),  # 30 + 20 minutes: FIDE rapid
        ("2026-09-10", "harbour_kid", "800", "rapid"),
    ]
    assert json.loads(ok(cli("player", "show", "800", "--json")).stdout)["name"] == "800"


def test_swissperfect_round_dates_written_yy_dd_mm_are_read(cli: Cli, tmp_path: Path) -> None:
    path = FILES / "swissperfect_ydm.trf"
    f = imported(cli, str(path), "--tc", "standard")
    assert (f["added"], f["problems"]) == (9, [])
    assert f["warnings"] == [
        f"{path}:4: 042 start date '26.14.02' read as 2026-02-14 (a two-digit year)",
        f"{path}:5: 052 end date '26.16.02' read as 2026-02-16 (a two-digit year)",
        f"{path}:7: the 132 round dates, from '26.14.02' read as 2026-02-14 (a two-digit year)",
    ]
    assert sorted({g["date"] for g in games(cli)}) == ["2026-02-14", "2026-02-15", "2026-02-16"]
    # where the order cannot be told from the dates themselves, --date-order says it
    ambiguous = tmp_path / "ambiguous.trf"
    ambiguous.write_text(
        path.read_text()
        .replace("26.14.02", "26.04.03")
        .replace("26.15.02", "26.05.03")
        .replace("26.16.02", "26.06.03")
        .replace("Bunratty Masters", "Spring Masters")
    )
    f = imported(cli, str(ambiguous), "--tc", "standard", "--date-order", "ydm")
    assert f["added"] == 9
    spring = [g["date"] for g in games(cli) if g["event"] == "Spring Masters 2026"]
    assert sorted(set(spring)) == ["2026-03-04", "2026-03-05", "2026-03-06"]
    r = cli("import", str(ambiguous), "--date-order", "ymdx")
    assert r.stderr.strip() == "error: --date-order 'ymdx': use one of ymd, dmy, mdy, ydm"


def test_the_event_start_given_for_a_file_without_a_start_is_used_and_not_said_unused(
    cli: Cli, tmp_path: Path
) -> None:
    """A TRF with round dates (132) but no start date (042): --event-start is its start, the
    list its games are rated with; the report must not call it unused."""
    text = (FILES / "quad_trf2026.trf").read_text()
    path = tmp_path / "no042.trf"
    path.write_text("".join(line for line in text.splitlines(True) if not line.startswith("042")))
    f = imported(cli, str(path), "--event-start", "2026-04-17")
    notes = f["notes"]
    assert isinstance(notes, list)
    assert not any("was not used" in note for note in notes), notes
    assert {g["date"] for g in games(cli)} == {"2026-04-18"}


def test_a_national_trf_with_its_own_ids_and_ratings_imports_them_as_no_fide_values(
    cli: Cli, tmp_path: Path
) -> None:
    """An Irish junior TRF writes national ids (9, 6897) in the FIDE-id column and national
    ratings (471) in the rating column: not FIDE's, so not stored as such, with a warning
    each; the players are matched and created by name."""
    text = (FILES / "quad_trf2026.trf").read_text()
    text = text.replace("2398 SWE     1712345", " 471 IRL           9")
    text = text.replace("2310 JPN     7654321", " 612 IRL        6897")
    path = tmp_path / "junior.trf"
    path.write_text(text)
    f = imported(cli, str(path), "--create-players", "by-rating")
    assert (f["added"], f["problems"]) == (6, [])
    assert f["warnings"] == [
        f"{path}:24: recorded rating 471 is not a FIDE rating (FIDE's lie within 1000..3000; a "
        "national rating?): stored as no rating (and 5 more recorded ratings like it)",
        f"{path}:24: FIDE id 9 is not a FIDE id (FIDE's have six to eleven digits; a national "
        "id?): not stored as one (and 5 more FIDE ids like it)",
    ]
    players = {p["name"]: p for p in json.loads(ok(cli("player", "list", "--json")).stdout)}
    assert (players["Berglund, Oskar"]["fide_id"], players["Berglund, Oskar"]["external"]) == (
        None,
        False,  # no FIDE rating: tracked, to earn one
    )
    assert players["Mbeki, Sipho"]["fide_id"] == 14301234
    assert {g["white_rating"] for g in games(cli) if g["white"] == "Berglund, Oskar"} == {None}


def test_a_team_leagues_blank_rounds_are_no_byes(cli: Cli, tmp_path: Path) -> None:
    """In a team league's TRF most players sit most rounds out: their blank entries are
    nothing, not byes (the report counted 716 of them)."""
    text = (FILES / "quad_trf2026.trf").read_text()
    reserves = "".join(
        f"001 {rank:>4} m    {f'Reserve {rank}, Team':<33} 1850 IRL\n" for rank in (5, 6, 7)
    )  # in the squad, in no round: every entry blank
    path = tmp_path / "league.trf"
    path.write_text(text + reserves)
    f = imported(cli, str(path))
    assert f["byes"] == 0
    assert not any("bye" in str(note) for note in f["notes"])  # type: ignore[attr-defined]


def test_correspondence_games_are_skipped_whatever_the_tc(cli: Cli) -> None:
    """A Chess.com archive: its daily games (``1/259200``, ``1/86400``, ``1/604800``) are
    correspondence, on no FIDE list: skipped and counted, never stored as --tc says; its
    live games keep their own controls and no event ("Live Chess")."""
    path = FILES / "chesscom_archive.pgn"
    f = imported(cli, str(path))
    assert (f["added"], f["skipped"], f["skipped_correspondence"], f["problems"]) == (3, 3, 3, [])
    assert f"3 correspondence games skipped ({path}:1: '1/259200'): no FIDE list rates" in " ".join(
        f["notes"]  # type: ignore[arg-type]
    )
    assert [(g["date"], g["tc"], g["event"]) for g in games(cli)] == [
        ("2026-02-03", "blitz", None),
        ("2026-02-07", "rapid", None),
        ("2026-02-12", "blitz", None),
    ]
    r = cli("import", str(path), "--tc", "standard", "--skip-invalid", "--json")
    assert "the file says '600' (blitz) (and 2 more games) and --tc says standard" in r.stderr
    assert {g["tc"] for g in games(cli)} == {"blitz", "rapid"}  # no daily game as standard


def test_a_lichess_export_reads_each_game_by_its_own_control(cli: Cli) -> None:
    """Lichess names a game's kind in Event ("Rated Rapid game" over a FIDE blitz and a
    rapid game): no event, each game by its own control; its correspondence games
    (TimeControl "-") are skipped, with --tc standard too; an arena stays an event."""
    path = FILES / "lichess_export.pgn"
    f = imported(cli, str(path))
    assert (f["added"], f["skipped_correspondence"], f["events_created"]) == (
        5, 2, ["Hourly Rapid Arena"]
    )  # fmt: skip
    assert [(g["date"], g["tc"], g["event"]) for g in games(cli)] == [
        ("2026-09-01", "blitz", None),
        ("2026-09-02", "rapid", None),
        ("2026-09-03", "rapid", None),
        ("2026-09-05", "standard", None),
        ("2026-09-08", "blitz", "Hourly Rapid Arena"),
    ]


def test_tc_standard_stores_no_lichess_correspondence_game(cli: Cli) -> None:
    f = imported(cli, str(FILES / "lichess_export.pgn"), "--tc", "standard", "--skip-invalid")
    assert (f["added"], f["invalid"], f["skipped_correspondence"]) == (1, 4, 2)
    assert [(g["date"], g["tc"]) for g in games(cli)] == [("2026-09-05", "standard")]  # 3600+0
