"""FIDE TRF import: player records, round entries, dedupe and consistency checks."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.helpers import read_file
from tracker.importers.dates import read_file_date
from tracker.importers.records import ParseResult

DATA = Path(__file__).parent / "data"

Round = tuple[int, str, str]  # opponent's starting rank (0: none), colour, result code


def player(
    rank: int,
    name: str,
    *rounds: Round,
    sex: str = "m",
    title: str = "",
    rating: str = "1800",
    fed: str = "NOR",
    fide: str = "",
    birth: str = "",
) -> str:
    """A 001 record laid out on FIDE's columns."""
    line = (
        f"001 {rank:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide:>11} "
        f"{birth:<10} {'0.0':>4} {rank:>4}  "
    )
    assert len(line) == 91
    for opponent, colour, code in rounds:
        line += (
            f"{opponent:04d} {colour} {code}  "
            if opponent == 0
            else (f"{opponent:>4} {colour} {code}  ")
        )
    return line.rstrip()


HEAD = "012 Test Open\n022 Testville\n042 2026/05/01\n"


def parse_text(text: str, source: str = "t.trf") -> ParseResult:
    return read_file("trf", text.encode(), source)


# ------------------------------------------------------------------ the round robin sample


@pytest.fixture(scope="module")
def roundrobin() -> ParseResult:
    return read_file("trf", (DATA / "roundrobin10.trf").read_bytes(), "roundrobin10.trf")


def test_roundrobin_has_45_games_and_nothing_else(roundrobin: ParseResult) -> None:
    assert roundrobin.format == "trf"
    assert roundrobin.problems == ()
    assert roundrobin.byes == ()
    assert (roundrobin.skipped_unfinished, roundrobin.skipped_other) == (0, 0)
    assert len(roundrobin.games) == 45
    assert Counter(g.round for g in roundrobin.games) == {str(n): 5 for n in range(1, 10)}


def test_roundrobin_everyone_meets_everyone_once(roundrobin: ParseResult) -> None:
    pairs = Counter(frozenset((g.white.name, g.black.name)) for g in roundrobin.games)
    assert len(pairs) == 45 and set(pairs.values()) == {1}
    per_player = Counter(name for g in roundrobin.games for name in (g.white.name, g.black.name))
    assert len(per_player) == 10 and set(per_player.values()) == {9}


def _scores(result: ParseResult) -> dict[str, list[float]]:
    scores: dict[str, list[float]] = {}
    value = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
    for g in result.games:
        scores.setdefault(g.white.name, []).append(value[g.result])
        scores.setdefault(g.black.name, []).append(1.0 - value[g.result])
    return scores


def test_roundrobin_results_are_varied_for_everyone(roundrobin: ParseResult) -> None:
    for name, scores in _scores(roundrobin).items():
        assert {0.0, 0.5, 1.0} <= set(scores), name


def test_roundrobin_points_column_matches_the_results(roundrobin: ParseResult) -> None:
    text = (DATA / "roundrobin10.trf").read_text()
    points = {
        line[14:47].strip(): float(line[80:84]) for line in text.splitlines() if line[:3] == "001"
    }
    scores = _scores(roundrobin)
    assert {name: sum(s) for name, s in scores.items()} == points
    assert sum(points.values()) == 45


def test_roundrobin_players(roundrobin: ParseResult) -> None:
    players = {p.name: p for g in roundrobin.games for p in (g.white, g.black)}
    assert len(players) == 10
    assert all(p.rating is not None and 1600 <= p.rating <= 2300 for p in players.values())
    assert all(p.fide_id is not None for p in players.values())
    assert all(p.birth_year is not None for p in players.values())
    assert len({p.fide_id for p in players.values()}) == 10
    top = players["Lindqvist, Tomas"]
    assert (top.rating, top.fide_id, top.federation, top.birth_year) == (2287, 1504211, "SWE", 1988)
    assert (top.sex, top.title) == ("m", "FM")
    assert (players["Moreau, Camille"].sex, players["Moreau, Camille"].title) == ("f", "WIM")


def test_roundrobin_dates_come_from_the_132_record(roundrobin: ParseResult) -> None:
    for g in roundrobin.games:
        assert g.played_on == date(2026, 3, 7) + timedelta(days=int(g.round or 0) - 1)
        assert g.date_note is None
        assert g.event_start == date(2026, 3, 7)
        assert (g.event, g.site) == ("Riverside Club Championship 2026", "Riverside")
        assert g.tc == "standard"  # the 122 record's free text


def test_roundrobin_first_round(roundrobin: ParseResult) -> None:
    first = roundrobin.games[0]
    assert (first.line, first.round, first.result) == (13, "1", "1-0")
    assert (first.white.name, first.black.name) == ("Lindqvist, Tomas", "Petrov, Nikolai")


def test_the_free_text_122_tells_the_time_control(roundrobin: ParseResult) -> None:
    assert {(g.tc, g.tc_text) for g in roundrobin.games} == {
        ("standard", "90 min/40 moves + 30 min + 30 sec/move from move 1")
    }


# ------------------------------------------------------------------ TRF16 swiss sample


@pytest.fixture(scope="module")
def swiss() -> ParseResult:
    return read_file("trf", (DATA / "swiss_trf16.trf").read_bytes(), "swiss_trf16.trf")


def test_swiss_games_byes_and_skips(swiss: ParseResult) -> None:
    assert swiss.problems == ()
    assert [(g.round, g.white.name.split(",")[0], g.result) for g in swiss.games] == [
        ("1", "Okonkwo", "+-"),  # forfeit
        ("1", "Rautio", "0-1"),
        ("1", "Dvorak", "0-1"),
        ("2", "Fischbach", "1/2-1/2"),
        ("2", "Rautio", "+-"),  # W/L: won, less than one move played
        ("2", "Dvorak", "0-1"),
        ("3", "Sandoval", "1-0"),
        ("3", "Dvorak", "1/2-1/2"),
    ]
    assert swiss.skipped_other == 1  # D/D in round 3
    assert swiss.skipped_unfinished == 0
    assert [(b.round, b.player.name, b.kind) for b in swiss.byes] == [
        ("1", "Fischbach, Jonas", "U"),
        ("2", "Ferreira, Joao", "H"),
        ("3", "Ferreira, Joao", "Z"),  # blank result on a short line
    ]
    assert all(b.event == "Lakeside Open 2026" for b in swiss.byes)
    assert all(b.played_on == date(2026, 2, 14) for b in swiss.byes)


def test_swiss_dates_are_estimated_without_132(swiss: ParseResult) -> None:
    for g in swiss.games:
        assert g.played_on == date(2026, 2, 14)
        assert g.date_note == (
            f"no date for round {g.round} in the 132 record; tournament start date 2026-02-14 used"
        )


def test_swiss_player_fields(swiss: ParseResult) -> None:
    players = {p.name: p for g in swiss.games for p in (g.white, g.black)}
    assert players["Achterberg, Willem"].title == "GM"  # g
    assert players["Achterberg, Willem"].birth_year == 1990  # 1990.05.17
    assert players["Sandoval, Lucia"].title == "WFM"  # wf
    assert players["Sandoval, Lucia"].sex == "f"
    assert players["Sandoval, Lucia"].birth_year == 1998  # year only
    assert players["Okonkwo, Emeka"].title == "IM"  # m
    assert players["Okonkwo, Emeka"].birth_year is None  # 0000/00/00
    assert players["Fischbach, Jonas"].birth_year is None  # blank
    dvorak = players["Dvorak, Tomas"]
    assert (dvorak.rating, dvorak.fide_id, dvorak.federation) == (None, None, "CZE")


# ------------------------------------------------------------------ TRF-2026 sample


def test_trf2026_quad() -> None:
    result = read_file("trf", (DATA / "quad_trf2026.trf").read_bytes(), "quad_trf2026.trf")
    assert result.problems == ()
    assert len(result.games) == 6
    assert {g.tc for g in result.games} == {"rapid"}  # 222 900+10
    assert {g.played_on for g in result.games} == {date(2026, 4, 18)}
    assert [g.result for g in result.games if g.round == "2"] == ["+-", "1-0"]
    tanaka = next(g.white for g in result.games if g.white.name == "Tanaka, Emi")
    assert (tanaka.title, tanaka.sex) == ("WGM", "f")


# ------------------------------------------------------------------ consistency checks


def test_results_must_agree() -> None:
    text = HEAD + player(1, "A", (2, "w", "1")) + "\n" + player(2, "B", (1, "b", "1")) + "\n"
    result = parse_text(text)
    assert result.games == ()
    (problem,) = result.problems
    assert problem.line == 4
    assert "round 1, players 1 and 2: results disagree ('1' for player 1, '1' for player 2" in (
        problem.reason
    )


def test_disagreement_is_reported_on_the_white_players_line() -> None:
    text = HEAD + player(1, "A", (2, "b", "=")) + "\n" + player(2, "B", (1, "w", "0")) + "\n"
    (problem,) = parse_text(text).problems
    assert problem.line == 5


def test_colours_must_be_opposite() -> None:
    text = HEAD + player(1, "A", (2, "w", "1")) + "\n" + player(2, "B", (1, "w", "0")) + "\n"
    (problem,) = parse_text(text).problems
    assert "both records give colour 'w'" in problem.reason


def test_opponents_must_point_at_each_other() -> None:
    text = (
        HEAD
        + player(1, "A", (2, "w", "1"))
        + "\n"
        + player(2, "B", (3, "w", "1"))
        + "\n"
        + player(3, "C", (2, "b", "0"))
        + "\n"
    )
    result = parse_text(text)
    assert [(g.white.name, g.black.name) for g in result.games] == [("B", "C")]
    (problem,) = result.problems
    assert (problem.line, problem.reason) == (
        4,
        "player 1, round 1: opponent 2 has opponent 3 in that round (line 5)",
    )


@pytest.mark.parametrize(
    ("rounds", "reason"),
    [
        (((7, "w", "1"),), "player 1, round 1: opponent 7 has no valid player record"),
        (((1, "w", "1"),), "player 1, round 1: A cannot play themselves"),
        (((2, "w", "H"),), "player 1, round 1: bye code 'H' with an opponent (2)"),
        (((2, "x", "1"),), "player 1, round 1: unknown colour 'x'"),
        (((2, "w", "?"),), "player 1, round 1: unknown result code '?'"),
    ],
)
def test_bad_round_entries(rounds: tuple[Round, ...], reason: str) -> None:
    text = HEAD + player(1, "A", *rounds) + "\n" + player(2, "B", (0, "-", "Z")) + "\n"
    problems = [p.reason for p in parse_text(text).problems if p.line == 4]
    assert any(reason in problem for problem in problems), problems


def test_misaligned_entry() -> None:
    line = player(1, "A") + "  " + "0002w  1"
    (problem,) = parse_text(HEAD + line + "\n" + player(2, "B", (1, "b", "0"))).problems
    assert problem.line == 4 and "misaligned" in problem.reason


def test_pairing_without_result_is_unfinished() -> None:
    text = HEAD + player(1, "A", (2, "w", " ")) + "\n" + player(2, "B", (1, "b", " ")) + "\n"
    result = parse_text(text)
    assert (result.games, result.problems, result.skipped_unfinished) == ((), (), 1)


@pytest.mark.parametrize(("first", "second"), [("L", "L"), ("D", "D"), ("d", "d")])
def test_unplayed_games_without_a_winner_are_skipped(first: str, second: str) -> None:
    text = HEAD + player(1, "A", (2, "w", first)) + "\n" + player(2, "B", (1, "b", second))
    result = parse_text(text)
    assert (result.games, result.problems, result.skipped_other) == ((), (), 1)


def test_a_double_forfeit_is_kept_as_0_0() -> None:
    text = HEAD + player(1, "A", (2, "w", "-")) + "\n" + player(2, "B", (1, "b", "-"))
    result = parse_text(text)
    ((game,), problems, other) = (result.games, result.problems, result.skipped_other)
    assert (game.white.name, game.black.name, game.result, problems, other) == (
        "A",
        "B",
        "0-0",
        (),
        0,
    )


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [("W", "L", "+-"), ("l", "w", "-+"), ("+", "-", "+-"), ("-", "+", "-+")],
)
def test_unplayed_games_become_forfeits(first: str, second: str, expected: str) -> None:
    text = HEAD + player(1, "A", (2, "b", first)) + "\n" + player(2, "B", (1, "w", second))
    (only,) = parse_text(text).games
    assert (only.white.name, only.line) == ("B", 5)
    assert only.result == {"+-": "-+", "-+": "+-"}[expected]


def test_forfeit_without_colours_takes_the_lower_rank_as_white() -> None:
    text = HEAD + player(1, "A", (2, "-", "-")) + "\n" + player(2, "B", (1, "-", "+"))
    (only,) = parse_text(text).games
    assert (only.white.name, only.result) == ("A", "-+")


def test_one_sided_colour_is_enough() -> None:
    text = HEAD + player(1, "A", (2, "-", "0")) + "\n" + player(2, "B", (1, "w", "1"))
    (only,) = parse_text(text).games
    assert (only.white.name, only.result) == ("B", "1-0")


def test_played_game_without_colours_is_a_problem() -> None:
    text = HEAD + player(1, "A", (2, "-", "1")) + "\n" + player(2, "B", (1, "-", "0"))
    (problem,) = parse_text(text).problems
    assert "no colours for a played game" in problem.reason


def test_a_file_without_any_date_is_one_problem_not_one_per_game() -> None:
    records = [
        player(n, f"P{n}", (n + 1, "w", "1") if n % 2 else (n - 1, "b", "0")) for n in range(1, 9)
    ]
    text = "012 No dates\n" + "\n".join(records)
    result = parse_text(text)
    (problem,) = result.problems
    assert str(problem) == (
        "t.trf: no dates: the file has no 042 start date and no 132 round dates; give the "
        "event's start with --event-start YYYY-MM-DD"
    )
    assert (result.games, result.invalid) == ((), 4)


def test_invalid_player_fields_are_all_reported() -> None:
    bad = player(1, "A", (2, "w", "1"), rating="22a", fide="12a", birth="1990/13/45")
    text = HEAD + bad + "\n" + player(2, "B", (1, "b", "0")) + "\n"
    result = parse_text(text)
    assert result.games == ()  # the game of an invalid record is left out
    assert result.invalid == 1
    reasons = [p.reason for p in result.problems]
    assert all(p.line == 4 for p in result.problems)
    assert reasons == [  # the FIDE id that is no number is the intake's: not stored as one
        "player 1: rating '22a' is not a whole number",
        "player 1: birth date '1990/13/45' is not a real date",
    ]


def test_unknown_sex_and_title_codes_are_warnings_once_per_code() -> None:
    text = (
        HEAD
        + player(1, "A", (2, "w", "1"), sex="u", title="AGM")
        + "\n"
        + player(2, "B", (1, "b", "0"), sex="u")
        + "\n"
        + player(3, "C", sex="w", title="wf")
        + "\n"
    )
    result = parse_text(text)
    assert result.problems == ()
    (game,) = result.games
    assert (game.white.sex, game.white.title, game.black.sex) == (None, None, None)
    assert [str(w) for w in result.warnings] == [
        "t.trf:4: unknown sex code 'u' (2 player records): left empty",
        "t.trf:4: unknown title code 'AGM' (1 player record): left empty",
    ]


def test_full_title_words_are_read_too() -> None:
    text = HEAD + player(1, "A", (2, "w", "1"), title=" GM") + "\n" + player(2, "B", (1, "b", "0"))
    (game,) = parse_text(text).games
    assert game.white.title == "GM"


def test_empty_name_and_rating_out_of_range() -> None:
    text = HEAD + player(1, "", rating="4100") + "\n"
    reasons = [p.reason for p in parse_text(text).problems]
    # 4100 is a whole number: whether it is a FIDE rating is the intake's rule
    assert reasons == ["player 1: empty player name"]


def test_duplicate_and_invalid_starting_ranks() -> None:
    text = HEAD + player(1, "A") + "\n" + player(1, "B") + "\n" + "001   xx m    C\n"
    reasons = [(p.line, p.reason) for p in parse_text(text).problems]
    assert reasons == [
        (5, "starting rank 1 is used twice (first at line 4); record ignored"),
        (6, "player record without a valid starting rank ('xx')"),
    ]


def test_bad_tournament_dates() -> None:
    text = (
        "042 someday\n132"
        + " " * 88
        + "26/02/30  26/05/02\n"
        + player(1, "A", (0, "-", "H"), (2, "w", "1"))
        + "\n"
        + player(2, "B", (0, "-", "F"), (1, "b", "0"))
    )
    result = parse_text(text)
    assert [(p.line, p.reason) for p in result.problems] == [
        (
            1,
            "invalid start date 'someday' (042): write it YYYY/MM/DD, or give the event's "
            "start with --event-start",
        ),
        (2, "invalid date '26/02/30' for round 1"),
    ]
    assert [b.played_on for b in result.byes] == [None, None]
    assert result.games[0].played_on == date(2026, 5, 2)


def test_day_first_start_date_and_lowercase_codes() -> None:
    text = "042 01.05.2026\n" + player(1, "A", (2, "b", "=")) + "\n" + player(2, "B", (1, "w", "="))
    (only,) = parse_text(text).games
    assert only.event_start == date(2026, 5, 1)
    assert only.result == "1/2-1/2"


def test_lenient_bye_codes_and_missing_rounds() -> None:
    text = (
        HEAD
        + player(1, "A", (0, "-", "+"), (0, "-", "-"), (0, "-", "="))
        + "\n"
        + player(2, "B")  # in no round at all: blank entries are no byes (a team's lineup)
        + "\n"
    )
    result = parse_text(text)
    assert [(b.player.name, b.round, b.kind) for b in result.byes] == [
        ("A", "1", "F"),
        ("A", "2", "Z"),
        ("A", "3", "H"),
    ]


def test_free_text_122_is_read_as_people_write_it_and_222_first() -> None:
    body = player(1, "A", (2, "w", "1")) + "\n" + player(2, "B", (1, "b", "0")) + "\n"
    minutes = parse_text(HEAD + "122 90+30\n" + body)  # minutes, not PGN seconds
    assert (minutes.games[0].tc, minutes.games[0].tc_text) == ("standard", "90+30")
    rapid = parse_text(HEAD + "122 15 min. + 10 s. per move\n" + body)
    assert rapid.games[0].tc == "rapid"
    unknown = parse_text(HEAD + "122 see the invitation\n" + body)
    assert (unknown.games[0].tc, unknown.games[0].tc_text) == (None, "see the invitation")
    coded = parse_text(HEAD + "122 15 min + 10 s\n222 5400+30\n" + body)
    assert coded.games[0].tc == "standard"
    armageddon = parse_text(HEAD + "222 W300-B240\n" + body)
    assert armageddon.games[0].tc == "blitz"


def test_unknown_records_are_ignored() -> None:
    text = (
        "### comment\nXXR 9\nXXC white1\nDAT whatever\n102 IA Someone\n"
        "NOR national record\n"
        + HEAD
        + player(1, "A", (2, "w", "1"))
        + "\n"
        + player(2, "B", (1, "b", "0"))
    )
    result = parse_text(text)
    assert result.problems == () and len(result.games) == 1


def test_no_player_records() -> None:
    (problem,) = parse_text("012 Nothing here\n").problems
    assert str(problem) == "t.trf: no player records (001 lines); is this a TRF file?"


def test_cr_only_line_endings() -> None:
    text = HEAD + player(1, "A", (2, "w", "1")) + "\n" + player(2, "B", (1, "b", "0")) + "\n"
    result = read_file("trf", text.replace("\n", "\r").encode(), "mac.trf")
    assert result.problems == () and result.games[0].line == 4


def test_latin1_trf() -> None:
    text = HEAD + player(1, "Müller", (2, "w", "1")) + "\n" + player(2, "B", (1, "b", "0"))
    raw = text.encode("latin-1")
    assert (
        "not valid UTF-8 (byte 0xfc at line 4)" in read_file("trf", raw, "x.trf").problems[0].reason
    )
    result = read_file("trf", raw, "x.trf", encoding="latin-1")
    assert result.games[0].white.name == "Müller"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026/03/07", date(2026, 3, 7)),
        ("2026.03.07", date(2026, 3, 7)),
        ("2026-03-07", date(2026, 3, 7)),
        ("07.03.2026", date(2026, 3, 7)),
        ("7/3/2026", date(2026, 3, 7)),
        ("26/03/07", date(2026, 3, 7)),
        ("99/12/31", date(1999, 12, 31)),
        ("26/02/30", date(2030, 2, 26)),  # not YY/MM/DD: read DD/MM/YY
        ("31/02/31", None),
        ("2026/3", None),
        ("", None),
    ],
)
def test_trf_dates(text: str, expected: date | None) -> None:
    assert read_file_date(text).first == expected
