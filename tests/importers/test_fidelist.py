"""FIDE rating list downloads (fixed-width text and XML, standalone and combined), read a line
at a time."""

from __future__ import annotations

import io
import tracemalloc
from datetime import date
from pathlib import Path

import pytest

from tracker.importers.fidelist import FideListEntry, FideListReader, tc_from_name
from tracker.vocabulary import TimeControl

DATA = Path(__file__).parent / "data"
FILES = ["standard_rating_list.txt", "players_list_foa.txt", "players_list_xml_foa.xml"]


def read(
    name: str, tc: TimeControl = "standard", wanted: set[int] | None = None
) -> tuple[FideListReader, list[FideListEntry]]:
    with (DATA / name).open("rb") as stream:
        reader = FideListReader(
            stream, name, tc, lambda fide_id, fed: wanted is None or fide_id in wanted
        )
        return reader, list(reader.entries())


@pytest.mark.parametrize("name", FILES)
def test_every_layout_gives_the_same_standard_list(name: str) -> None:
    reader, entries = read(name)
    assert reader.problems == []
    assert reader.lines == 10
    by_id = {e.fide_id: e for e in entries}
    assert len(by_id) == 10
    lindgren = by_id[1700101]
    assert (lindgren.name, lindgren.federation, lindgren.sex, lindgren.title) == (
        "Lindgren, Axel",
        "SWE",
        "m",
        "FM",
    )
    assert (lindgren.rating, lindgren.games, lindgren.k, lindgren.birth_year) == (2221, 9, 20, 1991)
    haugen = by_id[1500202]
    assert (haugen.sex, haugen.title, haugen.rating, haugen.k) == ("f", "WFM", 2016, 40)
    assert by_id[1500999].inactive and not lindgren.inactive
    olsen = by_id[1501000]
    assert (olsen.rating, olsen.games, olsen.k, olsen.birth_year) == (None, None, None, 2015)


def test_the_text_header_names_the_lists_month() -> None:
    reader, _ = read("standard_rating_list.txt")
    assert (reader.format, reader.combined, reader.list_month) == ("txt", False, date(2026, 11, 1))
    combined, _ = read("players_list_foa.txt")
    assert (combined.combined, combined.list_month) == (True, None)
    xml, _ = read("players_list_xml_foa.xml")
    assert (xml.format, xml.combined, xml.list_month) == ("xml", True, None)


@pytest.mark.parametrize("name", FILES[1:])
@pytest.mark.parametrize(("tc", "expected"), [("rapid", (2190, 0, 20)), ("blitz", (2205, 4, 20))])
def test_the_combined_files_give_each_list(
    name: str, tc: TimeControl, expected: tuple[int, int, int]
) -> None:
    _, entries = read(name, tc)
    lindgren = next(e for e in entries if e.fide_id == 1700101)
    assert (lindgren.rating, lindgren.games, lindgren.k) == expected
    haugen = next(e for e in entries if e.fide_id == 1500202)
    assert haugen.rating == (1990 if tc == "rapid" else None)


def test_a_standalone_xml_list_is_the_time_control_it_is_read_as() -> None:
    xml = (
        b'<?xml version="1.0"?><playerslist><player><fideid>700404</fideid><name>Varga, '
        b"Eszter</name><country>HUN</country><sex>F</sex><rating>1850</rating><games>7</games>"
        b"<k>40</k><birthday>2009</birthday><flag>w</flag></player></playerslist>"
    )
    reader = FideListReader(io.BytesIO(xml), "rapid_rating_list.xml", "rapid", lambda i, f: True)
    (entry,) = reader.entries()
    assert (reader.combined, entry.rating, entry.games, entry.k) == (False, 1850, 7, 40)


def test_only_wanted_players_are_read() -> None:
    seen: list[tuple[int, str | None]] = []

    def wanted(fide_id: int, federation: str | None) -> bool:
        seen.append((fide_id, federation))
        return federation == "NOR"

    with (DATA / "standard_rating_list.txt").open("rb") as stream:
        entries = list(FideListReader(stream, "x.txt", "standard", wanted).entries())
    assert len(seen) == 10 and seen[0] == (1700101, "SWE")
    assert [e.name for e in entries] == [
        "Haugen, Kari",
        "Berg, Ola",
        "Carlsen, Magnus",
        "Nilsen, Ingrid",
        "Olsen, Per",
    ]


def test_a_bad_wanted_line_is_a_problem_others_are_not_read() -> None:
    text = (DATA / "standard_rating_list.txt").read_text()
    text = text.replace("1983  9   20", "19x3  9   20").replace("2837  0   10", "28?7  0   10")
    stream = io.BytesIO(text.encode())
    reader = FideListReader(stream, "bad.txt", "standard", lambda i, f: i == 1100303)
    assert list(reader.entries()) == []
    assert [str(p) for p in reader.problems] == [
        "bad.txt:4: player 1100303: rating '19x3' is not a whole number"
    ]


@pytest.mark.parametrize(
    "text", [b"Name,Rating\nCarlsen,2837\n", b"<?xml version='1.0'?><games></games>", b"<x"]
)
def test_a_file_that_is_no_list_is_one_problem(text: bytes) -> None:
    reader = FideListReader(io.BytesIO(text), "x", "standard", lambda i, f: True)
    assert list(reader.entries()) == []
    assert len(reader.problems) == 1


def test_a_name_that_is_not_utf8_is_read_as_windows_1252() -> None:
    raw = (
        (DATA / "standard_rating_list.txt")
        .read_bytes()
        .replace(b"Nowak, Piotr", b"Nowak, Pi\xf3tr")
    )
    reader = FideListReader(io.BytesIO(raw), "x.txt", "standard", lambda i, f: i == 1100303)
    (entry,) = reader.entries()
    assert (entry.name, reader.recoded) == ("Nowak, Pió" + "tr", 1)


def test_file_names_tell_the_list() -> None:
    assert tc_from_name("rapid_rating_list.txt") == "rapid"
    assert tc_from_name("standard_rating_list_xml.xml") == "standard"
    assert tc_from_name("players_list_foa.txt") is None


@pytest.mark.parametrize("fmt", ["txt", "xml"])
def test_a_list_streams_in_bounded_memory(fmt: str, tmp_path: Path) -> None:
    """A list is read without holding it: the memory the read takes does not grow with the
    file (ten times the players, not ten times the memory), so FIDE's million lines read in
    the memory of a few thousand. Speed is not asserted."""
    source = DATA / ("standard_rating_list.txt" if fmt == "txt" else "players_list_xml_foa.xml")
    lines = source.read_text().splitlines()
    path = tmp_path / f"big.{fmt}"

    def write(copies: int) -> int:
        with path.open("w") as out:
            if fmt == "txt":
                out.write(lines[0] + "\n")
                body = lines[1:]
            else:
                out.write("<playerslist>\n")
                body = [line for line in lines if line.startswith("<player>")]
            for n in range(copies):
                for line in body:
                    out.write(line.replace("1700101", str(90_000_000 + n), 1) + "\n")
            if fmt == "xml":
                out.write("</playerslist>\n")
        return copies * len(body)

    def peak(copies: int) -> int:
        total = write(copies)
        tracemalloc.start()
        with path.open("rb") as stream:
            reader = FideListReader(stream, "big", "standard", lambda i, f: i == 1503014)
            found = sum(1 for _ in reader.entries())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert (reader.lines, found) == (total, copies)
        return top

    copies = 2_000 if fmt == "txt" else 500  # 20,000 (5,000) players, then ten times as many
    small, large = peak(copies), peak(10 * copies)
    assert large < 2 * small + 200_000, (small, large)
