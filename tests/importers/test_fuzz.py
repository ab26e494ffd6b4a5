"""Garbage in, problems out: no parser may raise on any input, and what they return is sane."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import read_file
from tracker.importers.records import (
    NOT_A_NUMBER,
    ByeRecord,
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    same_player,
)
from tracker.importers.timecontrol import UNLISTED
from tracker.vocabulary import RESULTS, TIME_CONTROLS

DATA = Path(__file__).parent / "data"
SAMPLES = {path.name: path.read_bytes() for path in sorted(DATA.iterdir())}
Parser = Callable[..., ParseResult]
PARSERS: dict[str, Parser] = {
    fmt: functools.partial(read_file, fmt) for fmt in ("pgn", "csv", "trf")
}
#: More examples for a long local run: TRACKER_FUZZ_EXAMPLES=20000 pytest tests/importers
FUZZ = settings(
    max_examples=int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def check_player(player: PlayerInfo) -> None:
    assert isinstance(player.name, str) and player.name.strip() == player.name and player.name
    # a negative rating, and a FIDE id that is no number, are the intake's to judge
    assert player.rating is None or (isinstance(player.rating, int) and player.rating != 0)
    assert player.fide_id is None or (
        isinstance(player.fide_id, int) and (player.fide_id > 0 or player.fide_id == NOT_A_NUMBER)
    )
    assert player.birth_year is None or 1850 <= player.birth_year <= 2100
    assert player.sex in {None, "m", "f"}
    assert player.federation is None or isinstance(player.federation, str)
    assert player.title is None or isinstance(player.title, str)


def check_sane(result: ParseResult, fmt: str, source: str) -> None:
    assert isinstance(result, ParseResult)
    assert result.format == fmt
    assert result.skipped_unfinished >= 0 and result.skipped_other >= 0
    for game in result.games:
        assert isinstance(game, GameRecord)
        assert game.source == source and game.line >= 1
        assert game.result in RESULTS
        assert isinstance(game.played_on, date)
        assert game.event_start is None or isinstance(game.event_start, date)
        assert game.tc is None or game.tc in (*TIME_CONTROLS, *UNLISTED)
        for text in (game.event, game.site, game.round, game.date_note):
            assert text is None or isinstance(text, str)
        check_player(game.white)
        check_player(game.black)
        assert not same_player(game.white, game.black)
    for bye in result.byes:
        assert isinstance(bye, ByeRecord)
        assert bye.kind in {"H", "F", "U", "Z"} and bye.line >= 1
        assert bye.played_on is None or isinstance(bye.played_on, date)
        check_player(bye.player)
    for problem in result.problems:
        assert isinstance(problem, Problem)
        assert problem.source == source and problem.line >= 0
        assert isinstance(problem.reason, str) and problem.reason
        assert str(problem).startswith(source)


def run_all(data: bytes, encoding: str = "utf-8") -> None:
    for fmt, parser in PARSERS.items():
        check_sane(parser(data, "fuzz.in", encoding=encoding), fmt, "fuzz.in")


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes(data: bytes) -> None:
    run_all(data)


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes_as_latin1(data: bytes) -> None:
    # Latin-1 decodes anything, so the parsers proper see the garbage.
    run_all(data, encoding="latin-1")


@FUZZ
@given(st.text(max_size=2000))
def test_random_text(text: str) -> None:
    run_all(text.encode())


@FUZZ
@given(st.sampled_from(sorted(SAMPLES)), st.data())
def test_truncated_samples(name: str, data: st.DataObject) -> None:
    raw = SAMPLES[name]
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)))
    run_all(raw[:cut], encoding="latin-1")
    run_all(raw[:cut])


@FUZZ
@given(st.sampled_from(sorted(SAMPLES)), st.data())
def test_mutated_samples(name: str, data: st.DataObject) -> None:
    """Overwrite a few bytes of a real file with characters that matter to the formats."""
    raw = bytearray(SAMPLES[name])
    alphabet = [*b' 0123456789wbWDLHFUZ+-=*?/.,;:"[]{}()\n\r\t', 0xE9, 0x00]
    for _ in range(data.draw(st.integers(min_value=1, max_value=12))):
        position = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
        raw[position] = data.draw(st.sampled_from(alphabet))
    run_all(bytes(raw), encoding="latin-1")


_ROUND_ENTRY = st.tuples(
    st.sampled_from(["0000", "   1", "   2", "   3", "   4", "  12", "    ", "abcd"]),
    st.sampled_from("wb- x"),
    st.sampled_from("10=+-WDLHFUZ ?wdl"),
).map(lambda entry: f"{entry[0]} {entry[1]} {entry[2]}  ")


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=5),
            st.lists(_ROUND_ENTRY, max_size=5),
        ),
        max_size=6,
    ),
    st.booleans(),
)
def test_random_trf_crosstables(players: list[tuple[int, list[str]]], dated: bool) -> None:
    """Well-formed records with arbitrary (mostly inconsistent) round entries."""
    lines = ["012 Fuzz", "042 2026/01/01" if dated else "052 2026/01/02"]
    for rank, entries in players:
        head = f"001 {rank:>4} m    {'Player ' + str(rank):<33} 1800 NOR {rank:>11}"
        lines.append(head.ljust(91) + "".join(entries))
    raw = "\n".join(lines).encode()
    result = read_file("trf", raw, "fuzz.trf")
    check_sane(result, "trf", "fuzz.trf")
    # A game is only ever emitted once per pair and round.
    keys = [(g.round, frozenset((g.white.name, g.black.name))) for g in result.games]
    assert len(keys) == len(set(keys))
