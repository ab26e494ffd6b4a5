"""Time control classes by FIDE's definitions (Laws of Chess, appendices A and B)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.importers.timecontrol import (
    from_name,
    from_pgn,
    from_text,
    from_trf,
    seconds_for_game,
)


@pytest.mark.parametrize(
    ("base", "increment", "expected"),
    [
        (600, 0, "blitz"),  # 10 minutes or less
        (180, 2, "blitz"),  # 3 + 2: 5 minutes
        (300, 5, "blitz"),  # 5 + 5: exactly 10 minutes
        (601, 0, "rapid"),  # more than 10
        (600, 5, "rapid"),  # 10 + 5: 15 minutes
        (900, 10, "rapid"),
        (3599, 0, "rapid"),  # less than 60
        (3000, 10, "standard"),  # 50 + 10: exactly 60 minutes is standard
        (3600, 0, "standard"),
        (5400, 30, "standard"),
    ],
)
def test_classify_boundaries(base: int, increment: int, expected: str) -> None:
    assert from_pgn(f"{base}+{increment}") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5400+30", "standard"),
        ("40/5400:1800+30", "standard"),
        ("40/7200:3600", "standard"),
        ("40/7200", "standard"),
        ("600+5", "rapid"),
        ("900+10", "rapid"),
        ("1500", "rapid"),
        ("180+2", "blitz"),
        ("600", "blitz"),
        ("180+0", "blitz"),  # 3 minutes: the fastest blitz
        ("60+0", "bullet"),  # one minute: on no FIDE list
        ("120+1", "blitz"),  # 2 + 1: 3 minutes for 60 moves
        ("*300", "blitz"),
        (" 300+3 ", "blitz"),
        ("20/600", "rapid"),  # repeats: 3 x 10 minutes for 60 moves
        # more than a day for 60 moves: correspondence, on no FIDE list (Chess.com's daily
        # games: a move in 1, 3 or 7 days)
        ("1/86400", "correspondence"),
        ("1/259200", "correspondence"),
        ("86400", "standard"),  # a day for the game: still over the board
        ("86401", "correspondence"),
    ],
)
def test_pgn_time_controls(text: str, expected: str) -> None:
    assert from_pgn(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "-",
        "?",
        "",
        "   ",
        "fast",
        "5400+",
        "+30",
        "0/600",
        "40/*600",
        "1800:40/5400",
    ],
)
def test_unknown_pgn_time_controls(text: str) -> None:
    assert from_pgn(text) is None


def test_none_is_unknown() -> None:
    assert from_pgn(None) is None


def test_seconds_for_game_counts_sixty_moves() -> None:
    # 90 minutes for 40 moves, then 30 minutes plus 30 s per move for the other 20.
    assert seconds_for_game("40/5400:1800+30") == 5400 + 1800 + 20 * 30
    assert seconds_for_game("40/5400+30:1800+30") == 5400 + 1800 + 60 * 30


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("standard", "standard"),
        ("Classical", "standard"),
        (" RAPID ", "rapid"),
        ("blitz", "blitz"),
        ("Correspondence", "correspondence"),
        ("daily", "correspondence"),
    ],
)
def test_names(text: str, expected: str) -> None:
    assert from_name(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5400+30", "standard"),
        ("40/6000+30:900+30", "standard"),
        ("W300-B240", "blitz"),  # Armageddon: both sides blitz
        ("W900-B240", None),  # sides in different classes
        ("W300-", None),
        ("90 min + 30 s", None),
        (None, None),
    ],
)
def test_trf_encoded_time_controls(text: str | None, expected: str | None) -> None:
    assert from_trf(text) == expected


def test_unknown_name() -> None:
    assert from_name("bullet") == "bullet"
    assert from_name("fast") is None


@given(st.text(max_size=40))
def test_from_pgn_never_raises(text: str) -> None:
    assert from_pgn(text) in {None, "standard", "rapid", "blitz", "bullet", "correspondence"}
    assert from_text(text) in {None, "standard", "rapid", "blitz", "bullet", "correspondence"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # as people write them: a number without a unit is minutes, after a + seconds
        ("90 min + 30 sec/move", "standard"),
        ("90 min/40 moves + 30 min, 30 s/move", "standard"),
        ("90 min/40 moves + 30 min + 30 sec/move from move 1", "standard"),
        ("G/90+30", "standard"),
        ("G/90;+30", "standard"),
        ("90'+30''", "standard"),
        ("1h30 + 30s", "standard"),
        ("2h", "standard"),
        ("90+30", "standard"),
        ("60 min", "standard"),
        ("G/45+15", "standard"),  # 45 + 15 minutes for 60 moves
        ("G/45+10", "rapid"),  # 45 + 10: 55 minutes
        ("15 min + 10 sec/move", "rapid"),
        ("15 min. + 10 s. per move", "rapid"),
        ("25", "rapid"),
        ("Rapid: 25 minutes for game with 15 seconds increment from move 1", "rapid"),
        ("3+2", "blitz"),
        ("8 min + 2 sec from move 1", "blitz"),  # "move 1" is no minute
        ("1:30", "standard"),  # hours and minutes
        ("0:25 + 10 s", "rapid"),
        ("5 min", "blitz"),
        ("10+0", "blitz"),  # 10 minutes or less
        ("1+0", "bullet"),
        ("2 min", "bullet"),
        ("rapid", "rapid"),
        ("Classical", "standard"),
        ("see the invitation", None),
        ("", None),
        ("?", None),
        ("+30", None),
    ],
)
def test_free_text_time_controls(text: str, expected: str | None) -> None:
    assert from_text(text) == expected


def test_a_pgn_time_control_that_is_no_pgn_value_is_read_as_free_text() -> None:
    assert from_pgn("G/90+30") == "standard"
    assert from_pgn("15 min. + 10 s. per move") == "rapid"
    assert from_pgn("90+30") == "rapid"  # a PGN value: seconds, as the PGN standard says
