"""CSV import: documented header, sniffed delimiter, row-by-row problems."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.helpers import read_file
from tracker.importers.csvfile import ALLOWED_COLUMNS, parse_result
from tracker.importers.records import NOT_A_NUMBER, ParseResult

DATA = Path(__file__).parent / "data"
HEADER = "date,white,black,result\n"


def parse_text(text: str) -> ParseResult:
    return read_file("csv", text.encode(), "t.csv")


def test_bom_crlf_file() -> None:
    result = read_file("csv", (DATA / "games_bom_crlf.csv").read_bytes(), "games_bom_crlf.csv")
    assert result.format == "csv"
    assert result.problems == ()
    assert result.skipped_unfinished == 1
    assert [g.line for g in result.games] == [2, 3, 5, 6]  # line 4 is blank
    first, second, third, fourth = result.games
    assert (first.white.name, first.black.name) == ("Lindqvist, Tomas", "Brennan, Patrick")
    assert (first.white.rating, first.black.rating) == (2287, 2214)
    assert (first.white.fide_id, first.black.fide_id) == (1504211, 2503719)
    assert (first.event, first.round, first.tc) == ("Winter League", "1", "standard")
    assert second.played_on == date(2026, 1, 17)  # written 2026.01.17
    assert second.result == "1/2-1/2"  # written ½-½
    assert third.white.name == "Žofie Dvořáková"
    assert third.white.rating is None and third.tc is None
    assert fourth.result == "+-" and fourth.is_forfeit


def test_semicolon_file() -> None:
    result = read_file("csv", (DATA / "games_semicolon.csv").read_bytes(), "games_semicolon.csv")
    assert result.problems == ()
    assert [g.result for g in result.games] == ["1-0", "1/2-1/2", "0-1", "-+"]
    assert [g.tc for g in result.games] == ["blitz", "blitz", "rapid", None]
    assert {g.site for g in result.games} == {"Porto"}
    assert result.games[0].white.name == "Ferreira, Joao"


def test_latin1_file_is_refused_by_default() -> None:
    result = read_file("csv", (DATA / "games_latin1.csv").read_bytes(), "games_latin1.csv")
    assert result.games == ()
    assert len(result.problems) == 1
    assert str(result.problems[0]).startswith(
        "games_latin1.csv: not valid UTF-8 (byte 0xe9 at line 3); re-save the file as UTF-8"
    )


def test_latin1_file_with_explicit_encoding() -> None:
    raw = (DATA / "games_latin1.csv").read_bytes()
    result = read_file("csv", raw, "games_latin1.csv", encoding="latin-1")
    assert result.problems == ()
    assert [g.white.name for g in result.games] == [
        "Brennan Patrick",
        "Hélène Marchand",
        "Jörg Müller",
    ]


def test_header_is_case_insensitive_and_spaces_count_as_underscores() -> None:
    text = "DATE,White,BLACK,Result,White Rating,black-fide-id\n2026-01-01,A,B,1-0,1900,42\n"
    (only,) = parse_text(text).games
    assert only.white.rating == 1900 and only.black.fide_id == 42


def test_unknown_columns_are_an_error_listing_allowed_names() -> None:
    result = parse_text("date,white,black,result,colour,elo\n2026-01-01,A,B,1-0,w,1\n")
    assert result.games == ()
    (problem,) = result.problems
    assert problem.line == 1
    assert "unknown columns 'colour', 'elo'" in problem.reason
    assert ", ".join(ALLOWED_COLUMNS) in problem.reason


def test_missing_required_columns() -> None:
    (problem,) = parse_text("date,white,result\n2026-01-01,A,1-0\n").problems
    assert "missing required column black" in problem.reason


def test_repeated_column() -> None:
    (problem,) = parse_text("date,white,black,result,white\n").problems
    assert "column 'white' appears twice" in problem.reason


def test_empty_file() -> None:
    assert [str(p) for p in parse_text("\n \n").problems] == ["t.csv: empty file: no header line"]


def test_header_only_is_fine() -> None:
    result = parse_text(HEADER)
    assert result.ok and result.games == ()


def test_tab_delimiter() -> None:
    (only,) = parse_text("date\twhite\tblack\tresult\n2026-01-01\tA, B\tC\t0-1\n").games
    assert only.white.name == "A, B"


def test_quoted_field_with_newline_keeps_line_numbers() -> None:
    text = HEADER + '2026-01-01,"A\nB",C,1-0\n2026-01-02,D,E,9-9\n'
    result = parse_text(text)
    assert result.games[0].white.name == "A B"
    assert [p.line for p in result.problems] == [4]


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("2026-13-01,A,B,1-0", "invalid date '2026-13-01'"),
        ("01/03/2026,A,B,1-0", "invalid date '01/03/2026': use YYYY-MM-DD"),
        (",A,B,1-0", "missing date"),
        ("2026-01-01,,B,1-0", "missing white player name"),
        ("2026-01-01,A, ,1-0", "missing black player name"),
        ("2026-01-01,A,B,2-0", "invalid result '2-0'"),
        ("2026-01-01,A,a,1-0", "A cannot play themselves: white and black are one player"),
        ("2026-01-01,A,B", "row has 3 fields, the header has 4"),
        ("2026-01-01,A,B,1-0,x", "row has 5 fields, the header has 4"),
    ],
)
def test_invalid_rows(row: str, reason: str) -> None:
    result = parse_text(HEADER + row + "\n")
    assert result.games == ()
    assert [p.line for p in result.problems] == [2]
    assert reason in result.problems[0].reason


def test_rating_id_and_tc_checks() -> None:
    text = (
        "date,white,black,result,white_rating,black_rating,white_fide_id,tc\n"
        "2026-01-01,A,B,1-0,4001,-1,abc,bullet\n"
    )
    result = parse_text(text)
    # 4001 and -1 are whole numbers and 'abc' no FIDE id: whether each is a rating or a FIDE
    # id is the intake's rule, not the reader's; bullet is a class the intake refuses
    assert result.problems == ()
    (game,) = result.games
    assert (game.white.rating, game.black.rating, game.white.fide_id) == (4001, -1, NOT_A_NUMBER)


def test_repeated_cells_give_the_same_values_and_the_same_problems_on_every_row() -> None:
    # Distinct cells are parsed once and remembered: a repeat must not lose its problem, and
    # the same name in another colour must be judged with that colour's column names.
    text = (
        "date,white,black,result,white_rating,black_rating,tc\n"
        "2026-01-01,A,B,1-0,99x9,1500,rapid\n"
        "2026-01-01,A,B,0-1,99x9,1500,rapid\n"
        "2026-01-02,B,A,1-0,1500,99x9,rapid\n"
        "2026-01-02,C,A,1-0,1500,,rapid\n"
        "2026-13-01,C,A,1-0,1500,,rapid\n"
        "2026-13-01,C,A,1-0,1500,,rapid\n"
    )
    result = parse_text(text)
    reasons = [(p.line, p.reason) for p in result.problems]
    assert reasons == [
        (2, "white_rating '99x9' is not a whole number"),
        (3, "white_rating '99x9' is not a whole number"),
        (4, "black_rating '99x9' is not a whole number"),
        (6, "invalid date '2026-13-01': use YYYY-MM-DD"),
        (7, "invalid date '2026-13-01': use YYYY-MM-DD"),
    ]
    (game,) = result.games
    assert (game.line, game.white.name, game.white.rating) == (5, "C", 1500)
    assert game.black.rating is None
    assert game.played_on == date(2026, 1, 2) and game.tc == "rapid"


def test_same_fide_id_on_both_sides() -> None:
    text = "date,white,black,result,white_fide_id,black_fide_id\n2026-01-01,A,B,1-0,7,7\n"
    (problem,) = parse_text(text).problems
    assert "cannot play themselves" in problem.reason


def test_every_bad_row_is_reported_and_good_rows_kept() -> None:
    text = HEADER + "2026-01-01,A,B,1-0\n2026-01-02,A,B,x\n2026-01-03,A,B,0-1\nbad\n"
    result = parse_text(text)
    assert [g.line for g in result.games] == [2, 4]
    assert [p.line for p in result.problems] == [3, 5]


def test_trailing_empty_columns_from_spreadsheets() -> None:
    text = "date;white;black;result;;\n2026-01-01;A;B;1-0;;\n2026-01-02;A;B;1-0;;;\n"
    result = parse_text(text)
    assert result.problems == () and len(result.games) == 2
    stray = parse_text("date;white;black;result;\n2026-01-01;A;B;1-0;oops\n")
    assert "no name in the header" in stray.problems[0].reason


def test_a_tc_cell_is_read_as_a_pgn_time_control() -> None:
    """A list's name, a PGN value or free text; the words are kept for messages, and a cell
    that tells no class is None (the intake applies --tc, or says the file does not tell).
    Numbers are seconds, as in a PGN's TimeControl (one reading at every door); with
    ``tc_minutes`` (``import --tc-minutes``) minutes and the increment's seconds."""
    cells = ["blitz", "junk", "", "G/90+30", "1+0", "3+2", "90+30", "180+2", "60+0", "30+0"]
    text = "date,white,black,result,tc\n" + "".join(
        f"2026-01-{day:02},A,B,1-0,{cell}\n" for day, cell in enumerate(cells, start=1)
    )
    seconds = read_file("csv", text.encode(), "t.csv")
    minutes = read_file("csv", text.encode(), "t.csv", tc_minutes=True)
    assert seconds.problems == minutes.problems == ()
    assert [(g.tc_text, g.tc, m.tc) for g, m in zip(seconds.games, minutes.games, strict=True)] == [
        ("blitz", "blitz", "blitz"),
        ("junk", None, None),
        (None, None, None),
        ("G/90+30", "standard", "standard"),  # free text: minutes whatever the reading
        ("1+0", "bullet", "bullet"),
        ("3+2", "bullet", "blitz"),  # 3 s + 2 s a move, or 3 minutes + 2 s a move
        ("90+30", "rapid", "standard"),
        ("180+2", "blitz", "standard"),
        ("60+0", "bullet", "standard"),  # Lichess's bullet, or an hour
        ("30+0", "bullet", "rapid"),
    ]


def test_a_pgn_time_control_is_read_as_a_csv_cell() -> None:
    """The same value, the same class, in a PGN as in a CSV (and --tc-minutes for both)."""
    cells = ["60+0", "30+0", "180+2", "90+30", "5400+30"]
    for minutes in (False, True):
        pgn = "".join(
            f'[White "A"]\n[Black "B"]\n[Result "1-0"]\n[Date "2026.01.{day:02}"]\n'
            f'[TimeControl "{cell}"]\n\n1-0\n\n'
            for day, cell in enumerate(cells, start=1)
        )
        csv = "date,white,black,result,tc\n" + "".join(
            f"2026-01-{day:02},A,B,1-0,{cell}\n" for day, cell in enumerate(cells, start=1)
        )
        from_pgn = read_file("pgn", pgn.encode(), "t.pgn", tc_minutes=minutes)
        from_csv = read_file("csv", csv.encode(), "t.csv", tc_minutes=minutes)
        assert [g.tc for g in from_pgn.games] == [g.tc for g in from_csv.games]
        assert len(from_csv.games) == len(cells)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1-0", "1-0"),
        ("1:0", "1-0"),
        ("0-1", "0-1"),
        ("0:1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
        ("½:½", "1/2-1/2"),
        ("=", "1/2-1/2"),
        (" 1 - 0 ", "1-0"),
        ("+-", "+-"),
        ("+:-", "+-"),
        ("-+", "-+"),
        ("-:+", "-+"),
        ("*", "*"),
        ("1-1", None),
        ("", None),
        ("draw", "1/2-1/2"),
        ("Draw", "1/2-1/2"),
        ("0.5-0.5", "1/2-1/2"),
        ("win", None),
    ],
)
def test_result_spellings(text: str, expected: str | None) -> None:
    assert parse_result(text) == expected


def test_only_newlines_end_lines_and_the_last_line_needs_none() -> None:
    # Other Unicode line separators stay inside their cell (names then count them as blanks).
    text = HEADER + '2026-01-01,"A\u2028x",B\x1cC,1-0\n2026-01-02,A,B,0-1'
    result = parse_text(text)
    assert result.problems == ()
    assert [(g.line, g.white.name, g.black.name) for g in result.games] == [
        (2, "A x", "B C"),
        (3, "A", "B"),
    ]


def test_forfeit_notations_and_the_event_start_column() -> None:
    result = read_file(
        "csv", (DATA / "chessresults_forfeits.csv").read_bytes(), "chessresults_forfeits.csv"
    )
    assert result.problems == ()
    assert [g.result for g in result.games] == ["+-", "-+", "+-", "+-", "-+", "1-0"]
    assert {g.event_start for g in result.games} == {date(2026, 11, 6)}


def test_an_empty_date_takes_the_given_event_start() -> None:
    text = HEADER + "2026-05-02,A,B,1-0\n,C,D,0-1\n"
    assert [p.reason for p in parse_text(text).problems] == ["missing date"]
    result = read_file("csv", text.encode(), "t.csv", event_start=date(2026, 5, 9))
    assert [(g.played_on, g.date_note) for g in result.games] == [
        (date(2026, 5, 2), None),
        (date(2026, 5, 9), "no date; the given event start 2026-05-09 used"),
    ]


def test_invalid_counts_games() -> None:
    text = HEADER + "2026-05-02,A,B,9-9\n2026-05-03,A,B\n2026-05-04,A,B,1-0\n"
    result = parse_text(text)
    assert (len(result.games), len(result.problems), result.invalid) == (1, 2, 2)
