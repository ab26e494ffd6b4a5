"""Format detection and the dispatcher."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import read_file
from tracker.importers.detect import FORMATS, UnknownFormatError, detect_format
from tracker.importers.records import GameRecord

DATA = Path(__file__).parent / "data"
TRF = (DATA / "swiss_trf16.trf").read_bytes()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("games.pgn", "pgn"),
        ("GAMES.PGN", "pgn"),
        ("/some/dir/league.csv", "csv"),
        ("event.trf", "trf"),
        ("event.TRFX", "trf"),
    ],
)
def test_by_extension(name: str, expected: str) -> None:
    assert detect_format(name, b"") == expected


def test_txt_with_trf_content() -> None:
    assert detect_format("export.txt", TRF) == "trf"
    assert detect_format("export.TXT", b"\xef\xbb\xbf012 Name\r\n") == "trf"


def test_txt_without_trf_content() -> None:
    with pytest.raises(UnknownFormatError, match="no TRF records"):
        detect_format("notes.txt", b"date,white,black,result\n")


@pytest.mark.parametrize("name", ["games.xlsx", "games", "games.pgn.bak"])
def test_unknown_extension(name: str) -> None:
    with pytest.raises(UnknownFormatError, match="cannot tell the format"):
        detect_format(name, b'[White "A"]')


def test_unknown_format_error_is_a_value_error() -> None:
    assert issubclass(UnknownFormatError, ValueError)


def test_parse_detects_from_the_source_name() -> None:
    result = read_file(None, TRF, "swiss_trf16.trf")
    assert result.format == "trf" and len(result.games) == 8


@pytest.mark.parametrize("fmt", FORMATS)
def test_parse_with_explicit_format_and_options(fmt: str) -> None:
    raw = {
        "pgn": b'[White "A"]\n[Black "B"]\n[Date "2026.01.01"]\n[Result "1-0"]\n\n1-0\n',
        "csv": b"date,white,black,result\n2026-01-01,A,B,1-0\n",
        "trf": TRF,
    }[fmt]
    result = read_file(fmt.upper(), raw, "whatever.bin", encoding="latin-1")
    assert result.format == fmt
    assert (
        result.games
        and {g.tc for g in result.games}
        == {
            "pgn": {None},
            "csv": {None},
            "trf": {"standard"},  # its 122: 60 min + 30 sec/move
        }[fmt]
    )


def test_parse_unknown_format() -> None:
    with pytest.raises(UnknownFormatError, match="unknown import format 'xml'"):
        read_file("xml", b"", "x.xml")


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_back_what_its_writer_writes(fmt: str) -> None:
    """The registry holds a reader and a writer per format: the TRF of a real event written
    by each format's writer comes back through its reader as the same games."""
    games = read_file("trf", TRF, "swiss_trf16.trf").games
    text = FORMATS[fmt].write(games)
    back = read_file(fmt, text.encode("utf-8"), f"again{FORMATS[fmt].suffixes[0]}").games

    def essence(g: GameRecord) -> tuple[object, ...]:
        return (g.played_on, g.white.name, g.black.name, g.result, g.event, g.round, g.tc)

    assert len(back) == 8
    assert [essence(g) for g in back] == [essence(g) for g in games]
