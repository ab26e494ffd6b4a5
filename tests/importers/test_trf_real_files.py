"""TRF files as pairing programs, FIDE and Lichess really write them (small files of our own
reproducing each variation)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.helpers import read_file
from tracker.importers.records import ParseResult

DATA = Path(__file__).parent / "data"
GAMES = 9  # every fixture is the same 6-player, 3-round swiss: 8 played games, 1 forfeit


def parse(name: str, text: str | None = None, **kwargs: object) -> ParseResult:
    raw = text.encode() if text is not None else (DATA / name).read_bytes()
    return read_file("trf", raw, name, **kwargs)  # type: ignore[arg-type]


def replaced(name: str, old: str, new: str) -> str:
    text = (DATA / name).read_text()
    assert old in text
    return text.replace(old, new)


def rounds_on(result: ParseResult) -> dict[str, set[date]]:
    found: dict[str, set[date]] = {}
    for g in result.games:
        found.setdefault(g.round or "", set()).add(g.played_on)
    return found


def test_fides_example_style_with_blanks_after_the_dots() -> None:
    result = parse("fide_style_dots.trf")  # 042 28. 07. 2026
    assert (result.problems, result.warnings) == ((), ())
    assert len(result.games) == GAMES
    assert {g.event_start for g in result.games} == {date(2026, 7, 28)}
    assert rounds_on(result) == {
        "1": {date(2026, 7, 28)},
        "2": {date(2026, 7, 29)},
        "3": {date(2026, 7, 30)},
    }


def test_lichess_swiss_export() -> None:
    result = parse("lichess_swiss.trf")  # 042 Jun 26, 2026; no 132; names from column 16
    assert result.problems == ()
    assert len(result.games) == GAMES
    assert {g.played_on for g in result.games} == {date(2026, 6, 26)}
    assert {g.event_start for g in result.games} == {date(2026, 6, 26)}
    first = result.games[0]
    assert (first.white.name, first.white.rating, first.black.name) == ("axel_l", 2215, "eszter09")
    assert first.date_note == (
        "no date for round 1 in the 132 record; tournament start date 2026-06-26 used"
    )
    assert {g.tc for g in result.games} == {None}  # Lichess writes no 222: --tc is needed


@pytest.mark.parametrize(
    "start",
    [
        "2026/07/28",
        "28.07.2026",
        "28. 07. 2026",
        "Jul 28, 2026",
        "28 Jul 2026",
        "2026/07/28 - 2026/07/30",
    ],
)
def test_every_042_style_gives_the_same_tournament(start: str) -> None:
    text = replaced("fide_style_dots.trf", "042 28. 07. 2026", f"042 {start}")
    result = parse("start.trf", text)
    assert (result.problems, result.warnings) == ((), ())
    assert {g.event_start for g in result.games} == {date(2026, 7, 28)}
    assert len(result.games) == GAMES


def test_a_range_stands_for_start_and_end() -> None:
    result = parse("range_start.trf")  # 042 2026/09/11 - 2026/09/13, no 052
    assert result.problems == ()
    assert {g.event_start for g in result.games} == {date(2026, 9, 11)}
    # the range's end is checked against the rounds: a round after it is a contradiction
    late = replaced("range_start.trf", "26/09/12  26/09/13", "26/09/12  26/09/14")
    (problem,) = parse("late.trf", late).problems
    assert problem.reason == (
        "the file's dates disagree: round 3 is dated 2026-09-14, after the end date 2026-09-13; "
        "no game is dated"
    )


def test_two_digit_years_agreeing_with_the_round_dates() -> None:
    result = parse("two_digit_years.trf")  # 042 28.08.26, 052 30.08.26, 132 26/08/28...
    assert result.problems == ()
    assert {g.event_start for g in result.games} == {date(2026, 8, 28)}
    assert [str(w) for w in result.warnings] == [
        "two_digit_years.trf:3: 042 start date '28.08.26' read as 2026-08-28 (a two-digit year)",
        "two_digit_years.trf:4: 052 end date '30.08.26' read as 2026-08-30 (a two-digit year)",
    ]


def test_a_two_digit_year_is_read_the_way_the_other_dates_agree_with() -> None:
    # 28/08/26 is 2028-08-26 as YY/MM/DD; only 2026-08-28 agrees with 052 and the 132 dates
    text = replaced("two_digit_years.trf", "042 28.08.26", "042 28/08/26")
    result = parse("slashes.trf", text)
    assert result.problems == ()
    assert {g.event_start for g in result.games} == {date(2026, 8, 28)}
    assert str(result.warnings[0]) == (
        "slashes.trf:3: 042 start date '28/08/26' read as 2026-08-28 (the only reading that "
        "agrees with the file's other dates)"
    )


def test_a_two_digit_year_that_disagrees_is_refused_once() -> None:
    text = replaced("two_digit_years.trf", "042 28.08.26", "042 28.08.25")
    result = parse("disagree.trf", text)
    assert [str(p) for p in result.problems] == [
        "disagree.trf:4: the file's dates disagree: the end date 2026-08-30 is 367 days after "
        "the start date 2025-08-28; no game is dated"
    ]
    assert (result.games, result.invalid) == ((), GAMES)


def test_round_dates_contradicting_the_start_are_refused_once() -> None:
    text = replaced("fide_style_dots.trf", "042 28. 07. 2026", "042 2026/08/28")
    result = parse("contradict.trf", text)
    assert [p.reason for p in result.problems] == [
        "the file's dates disagree: the end date 2026-07-30 is before the start date "
        "2026-08-28; no game is dated"
    ]
    assert result.invalid == GAMES


def test_one_bad_042_is_one_problem_not_one_per_game() -> None:
    text = replaced("lichess_swiss.trf", "042 Jun 26, 2026", "042 26 juin 2026")
    result = parse("bad042.trf", text)
    assert [str(p) for p in result.problems] == [
        "bad042.trf:4: invalid start date '26 juin 2026' (042): write it YYYY/MM/DD, or give "
        "the event's start with --event-start"
    ]
    assert (result.games, result.invalid) == ((), GAMES)


def test_a_file_without_dates_takes_the_given_event_start() -> None:
    refused = parse("pairing_engine_nodates.trf")
    assert [p.reason for p in refused.problems] == [
        "no dates: the file has no 042 start date and no 132 round dates; give the event's "
        "start with --event-start YYYY-MM-DD"
    ]
    assert refused.invalid == GAMES
    result = parse("pairing_engine_nodates.trf", event_start=date(2026, 10, 17))
    assert (result.problems, result.warnings) == ((), ())
    assert {g.played_on for g in result.games} == {date(2026, 10, 17)}  # every round that day
    assert {g.event_start for g in result.games} == {date(2026, 10, 17)}
    assert result.games[0].date_note == (
        "no date for round 1 in the 132 record; the given event start 2026-10-17 used"
    )


def test_the_given_start_does_not_override_the_files_own() -> None:
    result = parse("fide_style_dots.trf", event_start=date(2026, 10, 17))
    assert result.problems == ()
    assert {g.event_start for g in result.games} == {date(2026, 7, 28)}
    assert {g.played_on for g in result.games} == {date(2026, 7, d) for d in (28, 29, 30)}
    assert result.warnings == ()


def test_chess_results_export_with_unknown_codes() -> None:
    result = parse("chessresults_nodates.trf", event_start=date(2026, 10, 24))
    assert result.problems == ()
    assert len(result.games) == GAMES
    assert [str(w) for w in result.warnings] == [
        "chessresults_nodates.trf:9: unknown sex code 'u' (2 player records): left empty",
        "chessresults_nodates.trf:12: unknown title code 'NM' (1 player record): left empty",
    ]
    players = {p.name: p for g in result.games for p in (g.white, g.black)}
    assert (players["Nowak, Piotr"].sex, players["Berg, Ola"].title) == (None, None)
    assert players["Nowak, Piotr"].line == 9  # each player knows his own record's line


def test_lichess_game_in_progress_is_unfinished() -> None:
    text = replaced("lichess_swiss.trf", "5 w =", "5 w Z").replace("1 b =", "1 b Z")
    result = parse("ongoing.trf", text)
    assert result.problems == ()
    assert (len(result.games), result.skipped_unfinished) == (GAMES - 1, 1)
