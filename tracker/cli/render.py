"""Turning service results into tables, JSON and messages. Data to stdout, messages to stderr.

Tables are plain aligned text, fitted to the terminal: a table wider than the terminal first
drops (or moves under each row) the columns its command names as expendable, then wraps the
columns that may wrap (names, events); a cell is never cut. Output that does not go to a
terminal (a file, a pipe) gets the full table unless ``COLUMNS`` says otherwise.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import sys
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from decimal import Decimal
from itertools import islice
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from tracker.db.collector import without_gc
from tracker.vocabulary import ONLINE_PLATFORMS

if TYPE_CHECKING:
    from tracker.services.periods.standing import Standing

#: Spaces between two columns.
GAP = 2
#: A wrapped column keeps at least this many characters a line (or its header's width).
MIN_WRAP = 10
#: How far a note moved under its row is indented.
BELOW_INDENT = 2


def message(text: str) -> None:
    """A message for the user (stderr), never data: wrapped at spaces to the terminal's width
    (``COLUMNS``, else stderr's terminal; not when stderr goes to a file or a pipe), its
    further lines indented two more than its first."""
    width = _width(sys.stderr)
    if width is None or cell_width(text) <= width:
        typer.echo(text, err=True)
        return
    body = text.lstrip(" ")
    lead = text[: len(text) - len(body)]
    first, *rest = _wrap(body, width - len(lead))
    indent = lead + "  "
    rest = _wrap(" ".join(rest), width - len(indent)) if rest else []
    typer.echo("\n".join([lead + first, *(indent + line for line in rest)]), err=True)


def _default(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"cannot render {type(value).__name__} as JSON")


def json_text(data: Any) -> str:
    """``data`` as JSON text (dates ISO, exact numbers as numbers), as every command prints
    and exports it."""
    import json  # --json only: a table never loads it

    return json.dumps(data, default=_default, ensure_ascii=False, indent=2) + "\n"


def print_json(data: Any) -> None:
    sys.stdout.write(json_text(data))


T = TypeVar("T")


def print_json_or(
    json: bool, data: T, to_json: Callable[[T], Any], printer: Callable[[T], None]
) -> None:
    """``data`` as ``--json`` prints it (``to_json``), else as text (``printer``)."""
    if json:
        print_json(to_json(data))
    else:
        printer(data)


def pick(record: object, names: str, **values: Any) -> dict[str, Any]:
    """A record's attributes as a JSON object: ``names`` separated by blanks, the keys in
    that order; ``key=attribute`` where the key is not the attribute's name (``"id
    date=played_on white=white.name"``); a key given in ``values`` takes its value from
    there. :func:`json_text` renders dates and tuples."""
    picked = {}
    for name in names.split():
        key, _, attribute = name.partition("=")
        picked[key] = values[key] if key in values else attrgetter(attribute or key)(record)
    assert picked.keys() >= values.keys(), "a value for a key not named"
    return picked


def keys(names: str) -> list[str]:
    """The keys :func:`pick` makes of ``names``, in their order."""
    return [name.partition("=")[0] for name in names.split()]


def terminal_width() -> int | None:
    """The width tables must fit: ``COLUMNS`` if set, else the terminal's width when stdout is
    a terminal, else None (no limit: a file or a pipe gets every column)."""
    return _width(sys.stdout)


def _width(stream: Any) -> int | None:
    """``COLUMNS`` if set, else the width of ``stream``'s terminal, else None."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdecimal() and int(columns) > 0:
        return int(columns)
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        pass
    return None


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes: wide East Asian characters count 2, combining marks 0."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _wrap(text: str, width: int, *, break_words: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces. A word longer than
    that (a path, a URL) stays whole on its own line, wider than asked; with
    ``break_words`` (a name, which must fit its column) it is broken after a hyphen where it
    has one that fits, else where the column ends: nothing is cut."""
    if cell_width(text) <= width:
        return [text]
    words = text.split(" ")
    if break_words:
        words = [piece for word in words for piece in _pieces(word, width)]
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if line and cell_width(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    return lines


def _pieces(word: str, width: int) -> list[str]:
    """A word in pieces of at most ``width`` cells: after its last hyphen that fits, else at
    the width ("Vachier-Lagrave," -> "Vachier-", "Lagrave,")."""
    pieces = []
    while cell_width(word) > width:
        head = word[:width]
        cut = head.rfind("-") + 1
        if cut <= 0 or cut == len(word):
            cut = len(head)
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word]


def _pad(text: str, width: int, right: bool) -> str:
    if text.isascii():
        return text.rjust(width) if right else text.ljust(width)
    fill = " " * (width - cell_width(text))
    return fill + text if right else text + fill


def table_width(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> int:
    """The width of the full table (every column, nothing wrapped)."""
    widths = _widths(columns, _TextRows(rows))
    return sum(widths) + GAP * (len(widths) - 1)


def _widths(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> list[int]:
    widths = [cell_width(c) for c in columns]
    it = iter(rows)
    while chunk := list(islice(it, _CHUNK)):  # a chunk at a time: never all rows as text
        for i in range(len(columns)):
            widths[i] = max(widths[i], max(map(cell_width, {row[i] for row in chunk})))
    return widths


#: Rows a table measures at a time, and lines it writes at a time.
_CHUNK = 10_000


class _TextRows:
    """Rows as text cells (None is an empty cell), made anew each time they are read: a
    table of hundreds of thousands of rows is measured, then printed, never held as text
    whole (millions of strings)."""

    __slots__ = ("rows",)

    def __init__(self, rows: Iterable[Sequence[Any]]) -> None:
        self.rows = rows  # a list, or rows read once as they come (:func:`stream_table`)

    def __iter__(self) -> Iterator[list[str]]:
        for row in self.rows:
            yield ["" if cell is None else str(cell) for cell in row]


#: Lines a table writes (and flushes) first: a screenful, seen as soon as it is made.
_FIRST = 100


def _write(lines: Iterable[str]) -> None:
    """Lines to stdout (their trailing spaces stripped): the first screenful at once (a
    streamed list's top is read, or paged, while the rest is made), then a chunk at a time."""
    write = sys.stdout.write
    batch: list[str] = []
    size = _FIRST
    for line in lines:
        batch.append(line.rstrip() + "\n")
        if len(batch) >= size:
            write("".join(batch))
            batch.clear()
            if size == _FIRST:
                sys.stdout.flush()
                size = _CHUNK
    write("".join(batch))


def print_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str | None = None,
    right: Iterable[str] = (),
    wrap: Iterable[str] = (),
    drop: Sequence[str | Sequence[str]] = (),
    below: str | None = None,
    empty: str = "nothing to show",
    width: int | None = -1,
    break_words: Iterable[str] = (),
) -> None:
    """A plain aligned table on stdout; an empty result says so on stderr instead.

    ``right`` and ``wrap`` name columns (by header) that are right-aligned and that may wrap
    over several lines. When the table is wider than ``width`` (default:
    :func:`terminal_width`), the steps of ``drop`` are taken in order until it fits, each a
    column (by header) or several; the ``below`` column, when a step names it, moves
    under each row instead of going. Then the ``wrap`` columns wrap as needed: at spaces,
    a longer word staying whole (a file's path), except in the ``break_words`` columns,
    whose words break after a hyphen or where the column ends (long real names).
    """
    table = rows if isinstance(rows, list | tuple) else list(rows)
    if not table:
        message(empty)
        return
    with without_gc():  # a table of 600,000 rows is millions of strings: see without_gc
        _write(_lines(columns, table, title, right, wrap, drop, below, width, break_words))


def stream_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    widths: Sequence[int],
    *,
    title: str | None = None,
    right: Iterable[str] = (),
    wrap: Iterable[str] = (),
    drop: Sequence[str | Sequence[str]] = (),
) -> None:
    """:func:`print_table` of rows printed as they come, never all in memory (a federation's
    list): the caller knows the width of each column's widest cell (``widths``, header not
    counted) before the first row. The caller says an empty table itself. A cell wider than
    said is never cut: it wraps in a ``wrap`` column, else it pushes its row out."""
    full = [max(w, cell_width(c)) for w, c in zip(widths, columns, strict=True)]
    _write(_lines(columns, rows, title, right, wrap, drop, None, -1, (), full))


def _indexes(columns: Sequence[str], step: str | Sequence[str]) -> list[int]:
    """The columns a step of ``drop`` names: by header, each column of that header."""
    names = [step] if isinstance(step, str) else step
    return [i for name in names for i, c in enumerate(columns) if c == name]


def _lines(
    columns: Sequence[str],
    cells: Iterable[Sequence[Any]],
    title: str | None,
    right: Iterable[str],
    wrap: Iterable[str],
    drop: Sequence[str | Sequence[str]],
    below: str | None,
    width: int | None,
    breakable: Iterable[str],
    widths: list[int] | None = None,
) -> Iterable[str]:
    """The lines of a table (see :func:`print_table`; ``width`` -1: the terminal's);
    ``widths``: each column's, when the caller knows them (the rows are then read once, as
    they come, see :func:`stream_table`), else measured on ``rows`` (a list)."""
    rows, right, wrap = _TextRows(cells), set(right), set(wrap)
    width = terminal_width() if width == -1 else width
    given = widths is not None  # then a cell may be wider than said: a wrap column wraps it
    if widths is None:  # measured first: ``rows`` is read twice
        widths = _widths(columns, rows)
    full = list(widths)
    shown, under = list(range(len(columns))), []
    widths = list(widths)
    if width is not None:
        under = _drop_columns(columns, widths, shown, drop, below, width)
        _narrow(columns, widths, shown, wrap, width)
    if title is not None:
        yield from _wrap(title, width) if width is not None else [title]
    layout = _Layout(columns, [(i, widths[i], columns[i] in right) for i in shown], set(breakable))
    yield layout.header()
    narrowed = [
        (i, widths[i]) for i in shown if widths[i] < full[i] or (given and columns[i] in wrap)
    ]
    room = None if width is None else max(width - BELOW_INDENT, MIN_WRAP)
    for row in rows:
        if narrowed and any(cell_width(row[i]) > w for i, w in narrowed):
            yield from layout.wrapped(row)
        else:
            yield layout.line(row)
        for i in under:
            if row[i]:
                text = f"{columns[i]}: {row[i]}"
                for line in _wrap(text, room) if room is not None else [text]:
                    yield " " * BELOW_INDENT + line


def _total(widths: list[int], shown: list[int]) -> int:
    return sum(widths[i] for i in shown) + GAP * (len(shown) - 1)


def _drop_columns(
    columns: Sequence[str],
    widths: list[int],
    shown: list[int],
    drop: Sequence[str | Sequence[str]],
    below: str | None,
    width: int,
) -> list[int]:
    """Leave out columns (``drop``, in its order) until the table fits ``width``; the
    ``below`` column, left out, is said under each row: its index (or none)."""
    under = []
    for step in drop:
        if _total(widths, shown) <= width:
            break
        for i in _indexes(columns, step):
            if i in shown and len(shown) > 1:
                shown.remove(i)
                if columns[i] == below:
                    under.append(i)
    return under


def _narrow(
    columns: Sequence[str], widths: list[int], shown: list[int], wrap: set[str], width: int
) -> None:
    """Narrow the ``wrap`` columns, the widest first, until the table fits ``width`` (or
    none is wider than its header and the narrowest wrap)."""
    excess = _total(widths, shown) - width
    wrappable = [i for i in shown if columns[i] in wrap]
    while excess > 0:
        candidates = [i for i in wrappable if widths[i] > max(MIN_WRAP, cell_width(columns[i]))]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: widths[i])
        widths[widest] -= 1
        excess -= 1


class _Layout:
    """The shown columns (index, width, right-aligned) and how a row is laid out in them."""

    def __init__(
        self,
        columns: Sequence[str],
        aligned: list[tuple[int, int, bool]],
        breakable: Collection[str],
    ) -> None:
        self.columns, self.aligned, self.breakable = columns, aligned, breakable
        self.gap = " " * GAP
        # One format per row when every cell is ASCII (a federation's list: 44,000 rows)
        self.ascii_row = self.gap.join(f"{{:{'>' if r else '<'}{w}}}" for _, w, r in aligned).format
        self.picks = [i for i, _, _ in aligned]

    def header(self) -> str:
        return self.gap.join(_pad(self.columns[i], w, r) for i, w, r in self.aligned)

    def line(self, row: list[str]) -> str:
        picked = [row[i] for i in self.picks]
        if "".join(picked).isascii():
            return self.ascii_row(*picked)
        return self.gap.join(_pad(row[i], w, r) for i, w, r in self.aligned)

    def wrapped(self, row: list[str]) -> Iterator[str]:
        """A row whose cells are wrapped in their columns: as many lines as its longest."""
        parts = [
            _wrap(row[i], w, break_words=self.columns[i] in self.breakable)
            for i, w, _ in self.aligned
        ]
        for n in range(max(map(len, parts))):
            yield self.gap.join(
                _pad(part[n] if n < len(part) else "", w, r)
                for part, (_, w, r) in zip(parts, self.aligned, strict=True)
            )


# One way to print each kind of number in every table.


def plain(value: Decimal) -> str:
    """An exact number as written by hand: no trailing zeros, no exponent (``10``, not
    ``1E+1``; ``0.5``; ``2.25``)."""
    return f"{value.normalize():f}"


def score(value: Decimal | float) -> str:
    """A score (points, multiples of a half): one decimal, ``3.5``, ``2.0``."""
    return f"{value:.1f}"


def tie_break(name: str, value: Decimal) -> str:
    """A tie-break's value: Buchholz adds scores, in halves (one decimal); Sonneborn-Berger
    multiplies them, in quarters (two decimals, ``1.75``, never rounded to ``1.8``)."""
    return f"{value:.2f}" if name == "SB" else score(value)


def rating(value: int | None) -> str:
    """A rating, or ``unrated`` where there is none."""
    return "unrated" if value is None else str(value)


def expected(value: Decimal | float) -> str:
    """An expected score: two decimals, as FIDE's table gives it."""
    return f"{value:.2f}"


def change(value: Decimal | float) -> str:
    """An exact rating change: signed, two decimals."""
    return f"{value:+.2f}"


def points(value: float | None) -> str:
    """A signed difference of ratings, in whole points (``+12``, ``-3``; a difference that
    rounds to nothing is ``+0``, never ``-0``)."""
    if value is None:
        return ""
    shown = f"{value:+.0f}"
    return "+0" if shown == "-0" else shown


def rd(value: float | None) -> str:
    """A shadow RD: a whole number, like the shadow rating beside it."""
    return "" if value is None else f"{value:.0f}"


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def accounts(record: object) -> list[tuple[str, str]]:
    """A player's linked online accounts (a player's or his online ratings' record): each
    platform's name and the user name on it."""
    linked = ((p.label, getattr(record, p.key)) for p in ONLINE_PLATFORMS.values())
    return [(site, user) for site, user in linked if user]


def standing_json(standing: Standing | None) -> dict[str, Any]:
    """``rank``, ``of`` and ``percentile`` of a place on a list (nulls: not rated on it)."""
    if standing is None:
        return {"rank": None, "of": None, "percentile": None}
    return {"rank": standing.rank, "of": standing.of, "percentile": standing.percentile}


def place(standing: Standing | None) -> str:
    """A place on a list, as the card says it: "rank 3 of 4, percentile 25"."""
    if standing is None:
        return ""
    return f"rank {standing.rank} of {standing.of}, percentile {standing.percentile:.0f}"
