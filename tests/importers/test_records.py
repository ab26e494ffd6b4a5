"""Records and the helpers every parser shares (decoding, value checks)."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from tracker.importers.dates import parse_calendar_date
from tracker.importers.records import (
    NOT_A_NUMBER,
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    clean_name,
    decode_input,
    parse_fide_id,
    parse_rating,
    same_player,
    split_lines,
)


def test_problem_str_has_file_and_line() -> None:
    assert str(Problem("a.pgn", 12, "missing Result tag")) == "a.pgn:12: missing Result tag"


def test_file_level_problem_str_has_no_line() -> None:
    assert str(Problem("a.pgn", 0, "no games found")) == "a.pgn: no games found"


def test_records_are_frozen() -> None:
    player = PlayerInfo("Ito, Yuki")
    with pytest.raises(dataclasses.FrozenInstanceError):
        player.name = "x"  # type: ignore[misc]


def test_game_record_forfeit_flag() -> None:
    white, black = PlayerInfo("A"), PlayerInfo("B")
    game = GameRecord("f", 1, white, black, "+-", date(2026, 1, 1))
    assert game.is_forfeit
    assert not game._replace(result="1-0").is_forfeit


def test_parse_result_ok_flag() -> None:
    assert ParseResult(format="pgn").ok
    assert not ParseResult(format="pgn", problems=(Problem("f", 1, "x"),)).ok


def test_decode_strips_utf8_bom_and_normalises_newlines() -> None:
    assert decode_input(b"\xef\xbb\xbfa\r\nb\rc\n", "f", "utf-8") == "a\nb\nc\n"


def test_utf8_bom_wins_over_declared_encoding() -> None:
    assert decode_input("\ufeffMüller".encode(), "f", "latin-1") == "Müller"


def test_invalid_utf8_names_byte_and_line() -> None:
    problem = decode_input(b"a\nb\nH\xe9l\xe8ne\n", "x.csv", "utf-8")
    assert isinstance(problem, Problem)
    assert problem.line == 0
    assert "not valid UTF-8 (byte 0xe9 at line 3)" in problem.reason
    assert "re-save the file as UTF-8" in problem.reason
    assert str(problem).startswith("x.csv: not valid UTF-8")


def test_invalid_utf8_line_with_cr_only_line_endings() -> None:
    problem = decode_input(b"a\rb\r\xff", "x", "utf-8")
    assert isinstance(problem, Problem)
    assert "at line 3" in problem.reason


def test_latin1_on_request() -> None:
    assert decode_input(b"H\xe9l\xe8ne", "f", "latin-1") == "Hélène"


def test_utf16_is_rejected_clearly() -> None:
    problem = decode_input("abc".encode("utf-16"), "f", "utf-8")
    assert isinstance(problem, Problem)
    assert "UTF-16" in problem.reason


def test_unknown_encoding_is_a_problem_not_an_exception() -> None:
    problem = decode_input(b"abc", "f", "no-such-codec")
    assert isinstance(problem, Problem)
    assert "unknown text encoding" in problem.reason


def test_split_lines() -> None:
    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("a\n\nb") == ["a", "", "b"]
    assert split_lines("") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", (None, None)), ("0", (None, None)), (" 2287 ", (2287, None)), ("4000", (4000, None))],
)
def test_parse_rating_valid(text: str, expected: tuple[int | None, str | None]) -> None:
    assert parse_rating(text, "rating") == expected


@pytest.mark.parametrize("text", ["22x", "2287.5", "²", "--5"])
def test_parse_rating_invalid(text: str) -> None:
    value, reason = parse_rating(text, "WhiteElo")
    assert value is None
    assert reason is not None and reason.startswith("WhiteElo")


def test_parse_fide_id() -> None:
    assert parse_fide_id("1504211") == 1504211
    assert parse_fide_id("0") is None
    assert parse_fide_id("") is None
    assert parse_fide_id("-3") == NOT_A_NUMBER  # the intake's: not an id
    assert parse_fide_id("\x00\x01") == NOT_A_NUMBER
    assert parse_rating("-5", "WhiteElo") == (-5, None)  # the intake refuses it
    assert parse_fide_id("123456789012") == 123456789012  # the intake judges it


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-07", date(2026, 3, 7)),
        ("2026.03.07", date(2026, 3, 7)),
        ("2026/3/7", date(2026, 3, 7)),
        ("2026-02-30", None),
        ("2026-03.07", None),
        ("07.03.2026", None),
        ("0000-01-01", None),
    ],
)
def test_parse_calendar_date(text: str, expected: date | None) -> None:
    assert parse_calendar_date(text) == expected


def test_clean_name_collapses_blanks() -> None:
    assert clean_name("  Ito,\t Yuki ") == "Ito, Yuki"
    assert clean_name(None) == ""


def test_same_player_by_name_or_id() -> None:
    assert same_player(PlayerInfo("Ito, Yuki"), PlayerInfo("ITO, YUKI"))
    assert same_player(PlayerInfo("A", fide_id=5), PlayerInfo("B", fide_id=5))
    assert not same_player(PlayerInfo("A", fide_id=5), PlayerInfo("B", fide_id=6))


def test_utf16_asked_for_without_its_byte_order_mark_is_a_problem() -> None:
    """Python's utf-16 codec refuses a text without a BOM as a whole (a UnicodeError that is
    no UnicodeDecodeError): one problem, not a traceback."""
    problem = decode_input(b"\x00\x00", "f.csv", "utf-16")
    assert isinstance(problem, Problem)
    assert problem.reason == (
        "not valid utf-16 text (UTF-16 stream does not start with BOM); re-save it as UTF-8"
    )
