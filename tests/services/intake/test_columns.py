"""A file's games as compact columns (tracker.services.intake.columns): distinct players,
events and rounds indexed; what the intake's rules set aside counted; classes on no FIDE
list skipped."""

from __future__ import annotations

import datetime as dt

from tests.services.intake.conftest import file_games
from tracker.services.intake.columns import RESULT_CODES, TC_CODES, where_zero


def test_games_as_rows_of_small_numbers() -> None:
    games = file_games(
        "2026-01-05,Hart,Sato,1-0,Winter Cup,1,2100,,4100123,\n"
        "2026-01-12,Sato,Hart,1/2-1/2,Winter Cup,2,,2110,,4100123\n"
        "2026-01-19,Berg,Sato,0-1,,,,,,\n"
    )
    assert games.count == 3
    assert [s.name for s in games.sides] == ["Hart", "Sato", "Berg"]
    assert (games.sides[0].fide_id, games.sides[0].games, games.sides[0].rating_seen) == (
        4100123,
        2,
        True,
    )
    assert list(games.white) == [0, 1, 2] and list(games.black) == [1, 0, 1]
    assert [RESULT_CODES[r] for r in games.result] == ["1-0", "1/2-1/2", "0-1"]
    assert {TC_CODES[t] for t in games.tc} == {"standard"}
    assert [dt.date.fromordinal(d) for d in games.day] == [
        dt.date(2026, 1, 5), dt.date(2026, 1, 12), dt.date(2026, 1, 19),
    ]  # fmt: skip
    assert [e.name for e in games.events] == ["Winter Cup"] and list(games.event) == [0, 0, -1]
    assert games.rounds == ["1", "2"] and list(games.round) == [0, 1, -1]
    assert list(games.white_rating) == [2100, 0, 0] and list(games.black_rating) == [0, 2110, 0]
    assert list(games.line) == [2, 3, 4]


def test_what_the_rules_set_aside() -> None:
    games = file_games(
        "2026-01-05,Hart,Sato,1-0,,,471,,12345,\n"  # a national rating and a national id
        "2026-01-12,Sato,Hart,1-0,,,,650,,\n"
    )
    assert (games.not_fide_ratings, games.first_not_fide_rating) == (2, (2, 471))
    assert (games.not_fide_ids, games.first_not_fide_id) == (1, (2, 12345))
    assert games.sides[0].fide_id is None  # not stored as a FIDE id


def test_a_class_on_no_fide_list_is_skipped_and_a_files_class_kept() -> None:
    games = file_games(
        "2026-01-05,Hart,Sato,1-0,bullet\n"
        "2026-01-06,Hart,Sato,1-0,blitz\n"
        "2026-01-07,Hart,Sato,1-0,\n",
        tc="standard",
        header="date,white,black,result,tc\n",
    )
    assert (games.count, games.skipped_unlisted, games.unlisted) == (2, 1, {"bullet": 1})
    assert [TC_CODES[t] for t in games.tc] == ["blitz", "standard"]  # the file's, else --tc
    assert list(games.tc_conflicts) == [0]  # the file says blitz, --tc standard
    assert list(where_zero(bytearray(b"\x00\x01\x00\x02"))) == [0, 2]
