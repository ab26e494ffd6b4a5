"""PGN import: tag pairs only, every problem reported with its game's first line."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.helpers import read_file
from tracker.importers.records import ParseResult

DATA = Path(__file__).parent / "data"


def game(*tags: str, moves: str = "1. e4 e5") -> str:
    """A PGN game from ``Name value`` tag strings; the Result tag ends the movetext too."""
    lines = []
    result = "*"
    for tag in tags:
        name, _, value = tag.partition(" ")
        lines.append(f'[{name} "{value}"]')
        if name == "Result":
            result = value
    return "\n".join(lines) + f"\n\n{moves} {result}\n\n"


BASIC = ("White Ito, Yuki", "Black Haddad, Karim", "Date 2026.03.01")


def parse_text(text: str) -> ParseResult:
    return read_file("pgn", text.encode(), "t.pgn")


@pytest.fixture(scope="module")
def club() -> ParseResult:
    return read_file("pgn", (DATA / "club.pgn").read_bytes(), "club.pgn")


def test_club_file_counts(club: ParseResult) -> None:
    assert club.format == "pgn"
    assert len(club.games) == 5
    assert club.skipped_unfinished == 1
    assert (club.problems, club.warnings, club.invalid) == ((), (), 0)


def test_a_date_without_a_day_is_the_first_of_its_month(club: ParseResult) -> None:
    no_day = club.games[2]
    assert (no_day.line, no_day.played_on) == (50, date(2026, 9, 1))
    assert (
        no_day.date_note == "Date '2026.09.??' has no day; dated 2026-09-01, the first of the month"
    )


def test_club_first_game_headers(club: ParseResult) -> None:
    first = club.games[0]
    assert first.line == 1
    assert (first.white.name, first.black.name) == ("Lindqvist, Tomas", "Petrov, Nikolai")
    assert (first.white.rating, first.black.rating) == (2287, 1645)
    assert (first.white.fide_id, first.black.fide_id) == (1504211, 2912046)
    assert first.white.title == "FM"
    assert first.result == "1-0"
    assert first.played_on == date(2026, 3, 7)
    assert first.event == "Riverside Club Championship 2026"
    assert first.event_start == date(2026, 3, 7)
    assert first.site == "Riverside NOR"
    assert first.round == "1"
    assert first.tc == "standard"  # 40/5400:1800+30
    assert first.date_note is None


def test_partial_date_takes_event_date_and_says_so(club: ParseResult) -> None:
    rapid = club.games[1]
    assert rapid.line == 33  # first tag line, after the % escape line
    assert rapid.played_on == date(2026, 9, 12)
    assert rapid.date_note == "Date '2026.09.??' is incomplete; EventDate 2026-09-12 used"
    assert rapid.tc == "rapid"
    assert rapid.site is None and rapid.round is None  # "?"
    assert rapid.black.rating is None  # "-"


def test_comments_with_blank_lines_do_not_split_games(club: ParseResult) -> None:
    assert [g.line for g in club.games] == [1, 33, 50, 61, 75]
    assert club.games[3].tc == "blitz"
    assert club.games[3].round is None  # "-"


def test_no_time_control_is_unknown(club: ParseResult) -> None:
    assert club.games[4].tc is None  # TimeControl "-"


def test_the_time_control_is_what_the_header_tells() -> None:
    result = read_file("pgn", (DATA / "club.pgn").read_bytes(), "club.pgn")
    assert [g.tc for g in result.games] == ["standard", "rapid", "rapid", "blitz", None]


def test_windows_line_endings_and_bom_give_the_same_games(club: ParseResult) -> None:
    raw = (DATA / "club.pgn").read_bytes()
    variant = read_file("pgn", b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"), "club.pgn")
    assert variant == club


def test_unfinished_game_is_not_checked() -> None:
    result = parse_text(game("White ?", "Black ?", "Result *", "Date ????.??.??"))
    assert result.games == () and result.problems == ()
    assert result.skipped_unfinished == 1


@pytest.mark.parametrize(
    ("tags", "reason"),
    [
        ((*BASIC,), "missing Result tag"),
        ((*BASIC, "Result 1-1"), "invalid Result '1-1'"),
        (("White ?", "Black B", "Date 2026.03.01", "Result 1-0"), "missing White player name"),
        (("White A", "Date 2026.03.01", "Result 1-0"), "missing Black player name"),
        ((*BASIC, "Result 1-0", "BlackElo abc"), "BlackElo 'abc' is not a whole number"),
        (("White A", "Black B", "Date 2026.02.30", "Result 1-0"), "impossible Date"),
        (("White A", "Black B", "Date 1.3.2026", "Result 1-0"), "invalid Date '1.3.2026'"),
        (("White A", "Black B", "Result 1-0"), "missing Date and no complete EventDate"),
        (("White A", "Black a", "Date 2026.03.01", "Result 1-0"), "A cannot play themselves"),
        (("White A", "Black B", "Date 2026.??.??", "Result 1-0"), "gives no month"),
        (
            ("White A", "Black B", "Date 2026.??.??", "EventDate 2025.10.01", "Result 1-0"),
            "no EventDate in 2026 stands in",
        ),
    ],
)
def test_invalid_games(tags: tuple[str, ...], reason: str) -> None:
    result = parse_text("\n" + game(*tags))
    assert result.games == ()
    assert len(result.problems) == 1
    assert result.problems[0].line == 2
    assert reason in result.problems[0].reason


def test_every_problem_of_every_game_is_reported() -> None:
    text = (
        game("White A", "Black B", "Date 2026.03.01", "Result 1-0")
        + game("White ?", "Black B", "Date nope", "Result 2-0")
        + game("White C", "Black D", "Date 2026.03.02", "Result 0-1")
    )
    result = parse_text(text)
    assert [g.white.name for g in result.games] == ["A", "C"]
    assert [p.line for p in result.problems] == [8, 8, 8]
    assert len({p.reason for p in result.problems}) == 3


def test_missing_event_date_year_only_partial() -> None:
    text = game("White A", "Black B", "Date 2026.??.??", "EventDate 2026.05.04", "Result 0-1")
    (only,) = parse_text(text).games
    assert only.played_on == date(2026, 5, 4)
    assert only.event_start == date(2026, 5, 4)


def test_zero_rating_and_id_mean_unknown() -> None:
    tags = (*BASIC, "Result 1-0", "WhiteElo 0", "WhiteFideId 0", "BlackFideId -")
    (only,) = parse_text(game(*tags)).games
    assert only.white.rating is None and only.white.fide_id is None
    assert only.black.fide_id is None


def test_moves_are_not_parsed() -> None:
    text = game(*BASIC, "Result 1-0", moves="1. Kxe8 Qh9 2. nonsense")
    (only,) = parse_text(text).games
    assert only.result == "1-0"


def test_games_without_blank_line_between_them() -> None:
    text = (
        '[White "A"]\n[Black "B"]\n[Date "2026.03.01"]\n[Result "1-0"]\n\n1. e4 1-0\n'
        '[White "C"]\n[Black "D"]\n[Date "2026.03.02"]\n[Result "0-1"]\n1. d4 0-1\n'
        '[White "E"]\n[Black "F"]\n[Date "2026.03.03"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n'
    )
    result = parse_text(text)
    assert result.problems == ()
    assert [(g.white.name, g.line) for g in result.games] == [("A", 1), ("C", 7), ("E", 12)]


def test_tag_like_line_inside_a_comment_does_not_start_a_game() -> None:
    text = (
        '[White "A"]\n[Black "B"]\n[Date "2026.03.01"]\n[Result "1-0"]\n\n'
        '1. e4 { a comment quoting\n[White "Somebody"]\nand going on } e5 ; { not a comment\n'
        '[White "C"]\n[Black "D"]\n[Date "2026.03.02"]\n[Result "0-1"]\n\n0-1\n'
    )
    result = parse_text(text)
    assert [(g.white.name, g.line) for g in result.games] == [("A", 1), ("C", 9)]
    assert result.problems == ()


def test_text_without_tags_is_a_warning() -> None:
    result = parse_text("just some words\n\n" + game(*BASIC, "Result 1-0"))
    assert len(result.games) == 1
    assert result.problems == ()
    assert [(p.line, p.reason) for p in result.warnings] == [
        (1, "text outside any game (no tag pairs before it) ignored")
    ]


def test_empty_file_is_a_problem() -> None:
    result = parse_text("\n\n")
    assert [str(p) for p in result.problems] == ["t.pgn: no games found"]


def test_latin1_pgn_needs_the_encoding() -> None:
    raw = game("White Müller, Jörg", "Black B", "Date 2026.03.01", "Result 1-0").encode("latin-1")
    refused = read_file("pgn", raw, "l.pgn")
    assert refused.games == ()
    assert "not valid UTF-8 (byte 0xfc at line 1)" in refused.problems[0].reason
    accepted = read_file("pgn", raw, "l.pgn", encoding="latin-1")
    assert accepted.games[0].white.name == "Müller, Jörg"


def test_text_right_after_a_result_is_a_warning() -> None:
    text = (
        '[White "A"]\n[Black "B"]\n[Date "2026.03.01"]\n[Result "1-0"]\n\n1. e4 1-0 Well played!\n'
    )
    result = parse_text(text)
    assert (len(result.games), result.problems) == (1, ())
    assert [str(w) for w in result.warnings] == ["t.pgn:6: text after the game's result ignored"]


def test_lichess_and_chesscom_name_the_kind_of_game_not_an_event() -> None:
    """Lichess's Event outside a tournament is the kind of game ("Rated Classical game"),
    Chess.com's for a live game "Live Chess": no event, each game its own time control; a
    Lichess correspondence game ("-" and that label) and a Chess.com daily one (1/N) are
    correspondence. A tournament's Event stays its name."""
    result = read_file("pgn", (DATA / "lichess_export.pgn").read_bytes(), "l.pgn")
    assert [(g.event, g.tc, g.tc_text) for g in result.games] == [
        (None, "blitz", "600+0"),  # "Rated Rapid game": 10 minutes is FIDE blitz
        (None, "rapid", "900+10"),
        (None, "rapid", "1800+20"),  # "Rated Classical game": 50 minutes for 60 moves
        (None, "standard", "3600+0"),
        (None, "correspondence", "Rated Correspondence game"),
        (None, "correspondence", "Casual Correspondence game"),
        ("Hourly Rapid Arena", "blitz", "600+0"),  # a tournament
    ]
    chesscom = read_file("pgn", (DATA / "chesscom_archive.pgn").read_bytes(), "c.pgn")
    assert [(g.event, g.tc) for g in chesscom.games] == [
        ("Let's Play!", "correspondence"),  # 1/259200: a move in 3 days
        (None, "blitz"),  # "Live Chess", 600
        ("Let's Play!", "correspondence"),
        (None, "rapid"),
        ("Let's Play!", "correspondence"),
        (None, "blitz"),
    ]
    # "-" alone is no time control (the caller's --tc), and a label alone is no control
    plain = parse_text(game(*BASIC, "Result 1-0", "Event Rated Blitz game", "TimeControl -"))
    assert [(g.event, g.tc) for g in plain.games] == [(None, None)]
    named = parse_text(
        game(*BASIC, "Result 1-0", "Event Rated Blitz tournament https://lichess.org/tournament/x1")
    )
    assert named.games[0].event == "Rated Blitz tournament https://lichess.org/tournament/x1"
