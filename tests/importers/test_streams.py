"""Streaming: a file read a block at a time parses exactly as the whole file does, whatever
the blocks (a CRLF, a byte-order mark or a UTF-8 character cut in two), and a PGN's games come
out before the file ends."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import read_file
from tracker.importers import detect
from tracker.importers.records import Problem, TextStream, decode_input

DATA = Path(__file__).parent / "data"
CLI_DATA = Path(__file__).parents[1] / "cli" / "data"
GAME_FILES = sorted(
    p
    for folder in (DATA, CLI_DATA)
    for p in folder.iterdir()
    if p.suffix in (".pgn", ".csv", ".trf")
)


def blocks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def reference_decode(data: bytes, encoding: str) -> str:
    """What the whole-file decoding gave before streaming: the text, or the problem's
    reason."""
    if data.startswith(codecs.BOM_UTF8):
        data, encoding = data[3:], "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1 if b"\n" in before else before.count(b"\r") + 1
        return f"byte 0x{data[error.start]:02x} at line {line}"
    return text.replace("\r\n", "\n").replace("\r", "\n")


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_a_file_in_blocks_parses_as_the_whole_file(path: Path, size: int) -> None:
    data = path.read_bytes()
    fmt = detect.detect_format(path.name, data)
    encoding = "latin-1" if "latin1" in path.name else "utf-8"
    whole = read_file(fmt, data, path.name, encoding=encoding)
    streamed = detect.stream(blocks(data, size), path.name, fmt, encoding=encoding)
    assert streamed.collect() == whole
    assert whole.games or whole.problems  # a real file, read


@pytest.mark.parametrize("size", [1, 2, 5])
def test_crlf_bom_and_characters_cut_between_blocks(size: int) -> None:
    data = codecs.BOM_UTF8 + "a\r\nÖ\rb€\r\n\r\nc".encode()
    stream = TextStream(blocks(data, size), "f", "latin-1")  # the mark wins: UTF-8
    assert list(stream.lines()) == ["a\n", "Ö\n", "b€\n", "\n", "c"]
    assert stream.problem is None


def test_a_bad_byte_late_in_the_file_stops_the_text_and_names_its_line() -> None:
    data = (
        b"date,white,black,result\n" + b"2026-01-01,A,B,1-0\n" * 5000 + b"2026-01-02,\xe9,B,1-0\n"
    )
    stream = detect.stream(blocks(data, 1000), "late.csv", "csv")
    games = list(stream)
    assert 4000 < len(games) < 5000  # given before the bad block was read: to be discarded
    assert stream.unreadable
    result = stream.result()
    assert result.games == () and result.invalid == 0
    assert [str(p) for p in result.problems] == [
        "late.csv: not valid UTF-8 (byte 0xe9 at line 5002); re-save the file as UTF-8 (or "
        "import it with encoding latin-1 if that is what it is)"
    ]
    assert read_file("csv", data, "late.csv") == result


def test_the_result_comes_after_the_games() -> None:
    stream = detect.stream([b"date,white,black,result\n"], "f.csv", "csv")
    with pytest.raises(RuntimeError):
        stream.result()
    assert list(stream) == []
    assert stream.result().problems == ()


def test_pgn_games_come_out_before_the_file_ends() -> None:
    game = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n[Date "2026.01.05"]\n\n1. e4 e5 1-0\n\n'

    def endless() -> Iterator[bytes]:
        n = 0
        while True:
            n += 1
            yield game.replace('"A"', f'"A{n}"').encode()

    first = list(islice(detect.stream(endless(), "big.pgn", "pgn"), 3))
    assert [g.white.name for g in first] == ["A1", "A2", "A3"]


def test_pgn_without_moves_is_a_forfeit_where_most_games_have_moves() -> None:
    """A decisive game without moves is a forfeit only if most games of the file have moves,
    which the end of the file tells: the stream gives the same records as the whole file."""
    empty = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n[Date "2026.01.05"]\n\n1-0\n\n'
    played = '[White "C"]\n[Black "D"]\n[Result "0-1"]\n[Date "2026.01.05"]\n\n1. e4 e5 0-1\n\n'
    cases = {
        empty + played + played: ["+-", "0-1", "0-1"],
        played + empty + played: ["0-1", "+-", "0-1"],
        empty + played: ["1-0", "0-1"],  # one of two: not most
        empty * 3: ["1-0"] * 3,
        empty * 15 + played: ["1-0"] * 15 + ["0-1"],  # a results export: played games
    }
    for text, results in cases.items():
        data = text.encode()
        whole = read_file("pgn", data, "f.pgn")
        assert [g.result for g in whole.games] == results
        assert detect.stream(blocks(data, 9), "f.pgn", "pgn").collect() == whole


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(
        st.sampled_from(
            [b"a", b"\r", b"\n", b"\r\n", "é".encode(), b"\xe9", b"\xef\xbb\xbf", b","]
        ),
        max_size=30,
    ).map(b"".join),
    cuts=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=20),
    encoding=st.sampled_from(["utf-8", "latin-1"]),
)
def test_streamed_decoding_is_the_whole_file_decoding(
    data: bytes, cuts: list[int], encoding: str
) -> None:
    pieces, at = [], 0
    for n in cuts:
        pieces.append(data[at : at + n])
        at += n
    pieces.append(data[at:])
    stream = TextStream(pieces, "f", encoding)
    text = "".join(stream.lines())
    expected = reference_decode(data, encoding)
    if stream.problem is None:
        assert text == expected
    else:
        assert expected in stream.problem.reason
    whole = decode_input(data, "f", encoding)
    assert whole == (text if stream.problem is None else stream.problem)
    assert isinstance(whole, str | Problem)
