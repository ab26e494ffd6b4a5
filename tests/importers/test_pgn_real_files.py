"""PGN files as archives, leagues, Lichess and cutechess really write them (small files of
our own reproducing each variation)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.helpers import read_file
from tracker.importers.records import ParseResult

DATA = Path(__file__).parent / "data"


def parse(name: str, **kwargs: object) -> ParseResult:
    return read_file("pgn", (DATA / name).read_bytes(), name, **kwargs)  # type: ignore[arg-type]


def test_blank_lines_and_comments_between_tags_and_moves_belong_to_the_game() -> None:
    result = parse("league_archive.pgn")
    assert result.problems == ()
    assert [(g.line, g.white.name, g.result, g.has_moves) for g in result.games] == [
        (3, "Ashworth, Tom", "1-0", True),  # a comment and blank lines before its moves
        (22, "Carter, Sam", "1/2-1/2", True),  # two blank lines before its moves
        (36, "Brook, Helen", "0-1", True),  # a ; comment line before its moves
    ]
    # the heading before the first game and the text after a result are warnings only
    assert [str(w) for w in result.warnings] == [
        "league_archive.pgn:1: text outside any game (no tag pairs before it) ignored",
        "league_archive.pgn:20: text outside any game (no tag pairs before it) ignored",
    ]


def test_partial_dates() -> None:
    result = parse("partial_dates.pgn")
    dated = [(g.line, g.played_on, g.date_note) for g in result.games]
    assert dated == [
        # the day is unknown and the EventDate is in that month: the EventDate
        (1, date(2026, 3, 14), "Date '2026.03.??' is incomplete; EventDate 2026-03-14 used"),
        # the EventDate is in another month: the first of the game's month
        (
            12,
            date(2026, 4, 1),
            "Date '2026.04.??' has no day; dated 2026-04-01, the first of the month",
        ),
        (
            23,
            date(2026, 5, 1),
            "Date '2026.05.??' has no day; dated 2026-05-01, the first of the month",
        ),
        # only the year: the EventDate of that year stands in
        (32, date(2026, 7, 2), "Date '2026.??.??' is incomplete; EventDate 2026-07-02 used"),
    ]
    # A bare year is reported as YYYY.??.??; the two games share one problem line.
    assert [str(p) for p in result.problems] == [
        "partial_dates.pgn:43: Date '2026.??.??' gives no month (a monthly rating period "
        "needs it) and no EventDate in 2026 stands in: give the date with --event-start "
        "(and 1 more game like it)"
    ]
    assert result.invalid == 2


def test_the_given_event_start_stands_in_for_a_missing_month() -> None:
    result = parse("partial_dates.pgn", event_start=date(2026, 8, 15))
    assert result.problems == ()
    assert [g.played_on for g in result.games][-2:] == [date(2026, 8, 15), date(2026, 8, 15)]
    assert result.games[-1].date_note == (
        "Date '2026.??.??' is incomplete; the given event start 2026-08-15 used"
    )
    # a month's first day is used only when the given start is in another month
    assert result.games[2].played_on == date(2026, 5, 1)


def test_other_variants_are_skipped_and_counted() -> None:
    result = parse("variants.pgn")
    assert result.problems == ()
    assert [(g.white.name, g.result) for g in result.games] == [("pnowak", "1-0")]  # Standard
    assert result.skipped_variants == (("Chess960", 1), ("Crazyhouse", 1), ("From Position", 1))
    assert result.skipped_variant == 3


def test_a_decisive_game_without_moves_among_games_with_moves_is_a_forfeit() -> None:
    result = parse("forfeit_without_moves.pgn")
    assert result.problems == ()
    assert [(g.white.name, g.result) for g in result.games] == [
        ("Hendriks, Joost", "1/2-1/2"),
        ("Visser, Daan", "+-"),  # 1-0 with no moves: stored as a forfeit, never rated
        ("de Boer, Sem", "0-1"),
    ]
    assert [str(w) for w in result.warnings] == [
        "forfeit_without_moves.pgn:16: Visser, Daan - Smit, Lotte 1-0 has no moves while most "
        "of the file's games have moves: stored as the forfeit +-, not rated (if it was played, "
        "correct it with `tracker game edit`)"
    ]


def test_without_moves_anywhere_a_result_is_a_result() -> None:
    # tracker's own PGN export has no moves at all: its 1-0 games are played games
    result = parse("club.pgn")
    text = (DATA / "forfeit_without_moves.pgn").read_text()
    headers_only = "\n".join(
        line for line in text.splitlines() if line.startswith(("[", "%")) or not line.strip()
    )
    bare = read_file("pgn", (headers_only + "\n").encode(), "bare.pgn")
    assert [g.result for g in bare.games] == ["1/2-1/2", "1-0", "0-1"]
    assert bare.warnings == () and result.warnings == ()


def test_two_games_of_one_evening_have_distinct_digests_and_a_repeat_the_same() -> None:
    result = parse("blitz_night.pgn")
    assert result.problems == ()
    first, second, third = result.games
    assert (first.round, second.round) == (None, None)
    assert first.moves_digest and second.moves_digest
    assert first.moves_digest != second.moves_digest
    assert third.moves_digest == first.moves_digest


def test_forfeit_notations_in_the_result_tag() -> None:
    template = '[White "A"]\n[Black "B"]\n[Date "2026.03.01"]\n[Result "{}"]\n\n{}\n\n'
    for written, stored in [
        ("+/-", "+-"),
        ("-/+", "-+"),
        ("(+)-(-)", "+-"),
        ("(-)-(+)", "-+"),
        ("1-0 ff", "+-"),
    ]:
        (only,) = read_file("pgn", template.format(written, written).encode(), "f.pgn").games
        assert only.result == stored, written


def test_records_of_tag_pairs_only_are_one_game_each() -> None:
    """A results export (tag pairs and results, no moves): every record is a game, and a
    decisive game without moves is played where most games have none."""
    result = parse("results_export.pgn")
    assert result.problems == () and result.warnings == ()
    assert [(g.line, g.white.name, g.black.name, g.result, g.round) for g in result.games] == [
        (2, "Moreau, Luc", "Keller, Anna", "1-0", "1.1"),
        (15, "Novak, Jan", "Berg, Ola", "0-1", "1.2"),
        (28, "Rossi, Marco", "Silva, Ines", "1/2-1/2", "1.3"),
        (41, "Keller, Anna", "Novak, Jan", "1-0", "2.1"),
        (54, "Berg, Ola", "Rossi, Marco", "0-1", "2.2"),
        (67, "Silva, Ines", "Moreau, Luc", "0-1", "2.3"),
    ]
    assert {g.event for g in result.games} == {"Harbour Open 2026"}
    assert [g.white.fide_id for g in result.games] == [
        660011,
        660013,
        660015,
        660012,
        660014,
        660016,
    ]
    assert {g.has_moves for g in result.games} == {False}


def test_records_run_together_never_merge_and_take_nothing_from_each_other() -> None:
    result = parse("tag_run.pgn")
    assert result.problems == ()
    assert [(g.line, g.white.name, g.result, g.event) for g in result.games] == [
        (2, "Moreau, Luc", "1-0", "Harbour Open 2026"),
        (10, "Novak, Jan", "0-1", None),
        (17, "Rossi, Marco", "1/2-1/2", None),
        (24, "Keller, Anna", "1-0", None),
        (31, "Berg, Ola", "0-1", None),
        (38, "Silva, Ines", "0-1", None),
    ]
    assert [str(w) for w in result.warnings] == [
        "tag_run.pgn:10: 5 games have no Event tag while 1 name theirs: stored without an "
        "event (a record takes nothing from the one before it)"
    ]


def test_a_tag_given_twice_outside_the_roster_does_not_split_a_game() -> None:
    """Two Annotator tags (or Comment, Source...) are one record's own repetition: only a tag
    of the Seven Tag Roster given again starts the next record."""
    text = (
        '[Event "Club"]\n[Date "2026.09.05"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n'
        '[Annotator "X"]\n[Annotator "Y"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    )
    result = read_file("pgn", text.encode(), "dup.pgn")
    assert result.problems == ()
    assert [(g.white.name, g.result, g.has_moves) for g in result.games] == [("A, B", "1-0", True)]
