"""Plain tables fitted to a width: columns dropped in the order given, notes moved under their
row, wrapping at spaces, and never a cell cut."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tracker.cli import render

COLUMNS = ["month", "list", "rating", "note"]
ROWS = [
    ("2026-09", "2026-10-01", 2299, "1 game(s) against unrated opponents not rated (§8.3.1)"),
    ("2026-10", "2026-11-01", 2293, None),
]


def printed(capsys: pytest.CaptureFixture[str], **options: object) -> list[str]:
    render.print_table(COLUMNS, ROWS, right=("rating",), **options)  # type: ignore[arg-type]
    return capsys.readouterr().out.splitlines()


def test_the_full_table_when_it_fits_or_no_width_is_set(capsys: pytest.CaptureFixture[str]) -> None:
    full = [
        "month    list        rating  note",
        "2026-09  2026-10-01    2299  1 game(s) against unrated opponents not rated (§8.3.1)",
        "2026-10  2026-11-01    2293",
    ]
    assert printed(capsys, width=None, drop=("note", "list"), below="note") == full
    assert printed(capsys, width=90, drop=("note", "list"), below="note") == full


def test_steps_are_taken_in_order_until_the_table_fits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the note moves under its row first; then the table fits 40 and keeps its list column
    assert printed(capsys, width=40, drop=("note", "list"), below="note") == [
        "month    list        rating",
        "2026-09  2026-10-01    2299",
        "  note: 1 game(s) against unrated",
        "  opponents not rated (§8.3.1)",
        "2026-10  2026-11-01    2293",
    ]
    assert printed(capsys, width=20, drop=("note", "list"), below="note") == [
        "month    rating",
        "2026-09    2299",
        "  note: 1 game(s)",
        "  against unrated",
        "  opponents not",
        "  rated (§8.3.1)",
        "2026-10    2293",
    ]


def test_wrapping_breaks_at_spaces_and_never_cuts(capsys: pytest.CaptureFixture[str]) -> None:
    render.print_table(
        ["id", "name", "K"],
        [(1, "Rodríguez Fernández, María José", 20), (2, "Sato, Yuki", 40), (3, "x" * 30, 10)],
        right=("id", "K"),
        wrap=("name",),
        width=24,
    )
    assert capsys.readouterr().out.splitlines() == [
        "id  name               K",
        " 1  Rodríguez         20",
        "    Fernández, María",
        "    José",
        " 2  Sato, Yuki        40",
        # a word longer than the column stays whole: the line is wider than asked
        " 3  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  10",
    ]


def test_wide_characters_count_two_cells() -> None:
    assert render.cell_width("Kim") == 3
    assert render.cell_width("김지호") == 6
    assert render.cell_width("José") == 4
    assert render.cell_width("Jose\u0301") == 4  # a combining accent takes no cell


def test_the_width_comes_from_columns_else_no_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert render.terminal_width() == 80
    monkeypatch.delenv("COLUMNS")
    assert render.terminal_width() is None  # pytest's stdout is not a terminal
    monkeypatch.setenv("COLUMNS", "wide")
    assert render.terminal_width() is None


def test_an_empty_table_says_so_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    render.print_table(["a"], [], empty="no games match")
    out, err = capsys.readouterr()
    assert (out, err) == ("", "no games match\n")


def test_a_streamed_table_shows_its_first_screenful_before_the_rest_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Out:
        def __init__(self) -> None:
            self.text, self.flushed = "", ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            self.flushed = self.text

    out = Out()
    monkeypatch.setattr(render.sys, "stdout", out)
    seen_at_row_150: list[str] = []

    def rows() -> Iterator[tuple[int, str, int]]:
        for n in range(1, 1001):
            if n == 150:
                seen_at_row_150.extend(out.flushed.splitlines())
            yield (n, f"player {n}", 2800 - n)

    render.stream_table(["rank", "name", "rating"], rows(), [4, 11, 4], right=("rank", "rating"))
    lines = out.text.splitlines()
    assert len(lines) == 1001
    assert lines[:3] == [
        "rank  name         rating",
        "   1  player 1       2799",
        "   2  player 2       2798",
    ]
    assert lines[-1] == "1000  player 1000    1800"
    # its first 100 lines (the header, 99 rows) were on their way (flushed) before row 150
    # was made
    assert seen_at_row_150 == lines[:100]
