"""``tracker import`` with each format's awkward real-world files, on both databases."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import Cli, fingerprint, games, ok, summary

DATA = Path(__file__).parent / "data"

PGN = DATA / "season.pgn"
TRF = DATA / "autumn_swiss.trf"
CSV = DATA / "nordic_bom_crlf.csv"
LATIN1 = DATA / "club_latin1.csv"


def test_pgn_with_comments_variations_partial_date_and_forfeit(cli: Cli) -> None:
    r = ok(cli("import", str(PGN), "--json"))
    s = summary(r)
    f = s["files"][0]
    assert (f["status"], f["format"], f["added"], f["already_present"]) == ("imported", "pgn", 5, 0)
    assert (f["skipped_unfinished"], f["skipped_other"], f["invalid"], f["problems"]) == (
        1,
        0,
        0,
        [],
    )
    # Everyone has a recorded rating (an Elo tag), so the default creates them external:
    # rated from that rating, as FIDE rates the opponents of an open tournament.
    assert [(p["name"], p["fide_id"], p["external"]) for p in f["players_created"]] == [
        ("Aalto, Eero", 500001, True),
        ("Berg, Lina", 500002, True),
        ("Costa, Rui", 500003, True),
        ("Dahl, Ola", 500004, True),
    ]
    assert f["events_created"] == ["Oslo Autumn Open 2026", "Club Blitz Night"]
    assert any(
        "Date '2026.10.??' is incomplete; EventDate 2026-10-10 used" in n for n in f["notes"]
    )
    got = {
        (g["date"], g["white"], g["black"], g["result"], g["tc"], g["round"]) for g in games(cli)
    }
    assert got == {
        ("2026-10-10", "Aalto, Eero", "Berg, Lina", "1-0", "standard", "1"),
        ("2026-10-11", "Berg, Lina", "Costa, Rui", "1/2-1/2", "standard", "2"),
        # partial Date: the EventDate stands in
        ("2026-10-10", "Costa, Rui", "Aalto, Eero", "0-1", "standard", "3"),
        # [Termination "forfeit"]: stored as a forfeit, never rated
        ("2026-10-13", "Dahl, Ola", "Aalto, Eero", "-+", "standard", "4"),
        # TimeControl 180+2 is blitz
        ("2026-10-15", "Aalto, Eero", "Dahl, Ola", "1/2-1/2", "blitz", "1"),
    }
    recorded = {(g["round"], g["white_rating"], g["black_rating"]) for g in games(cli)}
    assert ("1", 2105, 2040) in recorded and ("1", None, None) in recorded  # blitz: no Elo tags
    title = json.loads(ok(cli("player", "show", "500001", "--json")).stdout)["title"]
    assert title == "FM"


def test_pgn_with_bom_and_windows_line_ends_reads_the_same(cli: Cli, tmp_path: Path) -> None:
    plain = PGN.read_bytes()
    assert b"\r" not in plain
    variant = tmp_path / "season-windows.pgn"
    variant.write_bytes(b"\xef\xbb\xbf" + plain.replace(b"\n", b"\r\n"))
    first = summary(ok(cli("import", str(variant), "--json")))["files"][0]
    assert first["added"] == 5 and first["problems"] == []
    # The plain file holds exactly the same games: all already present.
    again = summary(ok(cli("import", str(PGN), "--json")))["files"][0]
    assert (again["added"], again["already_present"], again["players_created"]) == (0, 5, [])


def test_csv_with_bom_crlf_and_diacritics(cli: Cli) -> None:
    data = CSV.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    f = summary(ok(cli("import", str(CSV), "--json")))["files"][0]
    assert (f["format"], f["added"], f["problems"]) == ("csv", 3, [])
    rows = games(cli)
    assert [(g["white"], g["black"], g["result"], g["tc"]) for g in rows] == [
        ("Müller, Jörg", "Øverby, Åse", "1-0", "rapid"),
        ("Øverby, Åse", "Šťastný, Petr", "1/2-1/2", "rapid"),
        ("Šťastný, Petr", "Müller, Jörg", "0-1", "rapid"),
    ]
    assert [(g["white_rating"], g["black_rating"]) for g in rows] == [
        (2012, 1876),
        (1876, 1755),
        (1755, 2012),
    ]
    # The event starts on its earliest game (the CSV gives no start date).
    exported = json.loads(ok(cli("export", "games", "--format", "json")).stdout)
    assert {g["event_start"] for g in exported} == {"2026-09-05"}


def test_latin1_is_rejected_unless_the_encoding_is_given(cli: Cli, db_url: str) -> None:
    assert "Müller".encode("latin-1") in LATIN1.read_bytes()
    before = fingerprint(db_url)
    r = cli("import", str(LATIN1))
    assert r.exit_code == 1
    assert f"{LATIN1}: not valid UTF-8 (byte 0xfc at line 2)" in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("error: 1 of 1 file(s) rejected")
    assert fingerprint(db_url) == before
    r = ok(cli("import", str(LATIN1), "--encoding", "latin-1", "--create-players", "tracked"))
    assert [(g["white"], g["black"]) for g in games(cli)] == [
        ("Müller, Jörg", "Lefèvre, Amélie"),
        ("Lefèvre, Amélie", "Müller, Jörg"),
    ]


def test_trf_with_byes_forfeits_and_a_double_forfeit(cli: Cli) -> None:
    s = summary(ok(cli("import", str(TRF), "--json")))
    f = s["files"][0]
    assert (f["format"], f["added"], f["byes"], f["skipped_other"], f["problems"]) == (
        "trf",
        8,  # the double forfeit too
        2,  # Costa's pairing-allocated bye and Egger's half-point bye
        0,
        [],
    )
    assert s["byes"] == 2
    assert any("2 byes stored (never rated)" in n for n in f["notes"])
    rows = games(cli)
    assert [(g["date"], g["white"], g["black"], g["result"], g["rated"]) for g in rows] == [
        ("2026-10-03", "Aalto, Eero", "Dahl, Ola", "1-0", True),
        ("2026-10-03", "Berg, Lina", "Egger, Max", "+-", False),
        ("2026-10-03", "Costa, Rui", "Fabbri, Sara", "1/2-1/2", True),
        ("2026-10-04", "Dahl, Ola", "Berg, Lina", "0-1", True),
        ("2026-10-04", "Fabbri, Sara", "Aalto, Eero", "0-1", True),
        ("2026-10-05", "Aalto, Eero", "Costa, Rui", "1/2-1/2", True),
        ("2026-10-05", "Berg, Lina", "Fabbri, Sara", "0-0", False),  # both forfeited
        ("2026-10-05", "Dahl, Ola", "Egger, Max", "-+", False),
    ]
    # the header declares the event: 042 start, 052 end, 092 type, the 132 rounds, 222
    (event,) = json.loads(ok(cli("event", "list", "--json")).stdout)
    assert (
        event["start"],
        event["end"],
        event["end_declared"],
        event["type"],
        event["rounds"],
        event["rounds_played"],
        event["tc"],
    ) == ("2026-10-03", "2026-10-05", True, "swiss", 3, 3, "standard")
    # 222 says 5400+30: standard; the 001 ratings are recorded on every game
    assert {g["tc"] for g in rows} == {"standard"}
    assert (rows[0]["white_rating"], rows[0]["black_rating"]) == (2105, 1910)
    # The players come with what the 001 records say about them.
    fabbri = json.loads(ok(cli("player", "show", "500006", "--json")).stdout)
    assert (fabbri["name"], fabbri["federation"], fabbri["birth_year"], fabbri["sex"]) == (
        "Fabbri, Sara",
        "ITA",
        2008,
        "f",
    )
    exported = json.loads(ok(cli("export", "games", "--format", "json")).stdout)
    assert {(g["event"], g["event_start"], g["site"]) for g in exported} == {
        ("Autumn Swiss 2026", "2026-10-03", "Bergen")  # 042 and 022
    }


def test_a_file_that_does_not_say_the_time_control_needs_tc(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "no-tc.csv"
    path.write_text(
        "date,white,black,result,white_fide_id,black_fide_id\n"
        '2026-05-02,"Ahn, Mi","Boyd, Al",1-0,700001,700002\n'
        '2026-05-03,"Boyd, Al","Ahn, Mi",0-1,700002,700001\n',
        encoding="utf-8",
    )
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert (
        f"{path}:2: no time control for this game (and 1 more): the file does not say; "
        "give --tc standard|rapid|blitz"
    ) in r.stderr
    r = ok(cli("import", str(path), "--tc", "rapid"))
    assert {g["tc"] for g in games(cli)} == {"rapid"}


def test_format_option_overrides_the_extension(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "swiss.dat"
    path.write_bytes(TRF.read_bytes())
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {path}: cannot tell the format from extension '.dat'; use .pgn, .csv, .trf "
        "(or .txt for a TRF) or give one of pgn, csv, trf"
    ]
    f = summary(ok(cli("import", str(path), "--format", "trf", "--json")))["files"][0]
    assert (f["format"], f["added"]) == ("trf", 8)
