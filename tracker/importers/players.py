"""Players files: the CSV that ``tracker export players`` writes and ``tracker import`` reads
back, so that a database can be rebuilt from files alone (players with their seeds, then the
games).

Layout: a CSV (comma or semicolon, UTF-8 with or without a byte-order mark) whose header
names ``name`` and none of the game columns (``date``, ``white``, ``black``, ``result``): that
is how :func:`looks_like_players_csv` tells it from a game CSV. Columns (any order, names
case-insensitive, blanks and hyphens count as underscores):

* ``name`` (required), ``fide_id``, ``federation``, ``birth_year``, ``sex`` (``m``/``f``),
  ``title``, ``kind`` (``tracked`` or ``external``; blank: tracked for a new player,
  unchanged for a known one);
* per list ``standard``, ``rapid``, ``blitz``: ``<tc>_rating`` and ``<tc>_games`` (the seed:
  the player's FIDE state on the list before tracking starts; both or neither), and
  ``<tc>_ever_2400`` / ``<tc>_ever_2300`` (``true``/``false``, ``yes``/``no``, ``1``/``0``;
  blank is false).

A blank cell says nothing (it never clears a stored value). Values are checked here only for
their form (numbers are numbers); the service checks them as ``tracker player add`` does.
Standard library only; never raises on bad input.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from typing import Final

from tracker.importers.records import (
    Problem,
    clean_name,
    column_name,
    csv_cell,
    csv_file,
    csv_text,
    decode_input,
    split_lines,
)
from tracker.ratings.fide.records import Seed
from tracker.vocabulary import TIME_CONTROLS

SEED_FIELDS: Final[tuple[str, ...]] = ("rating", "games", "ever_2400", "ever_2300")
PLAYER_COLUMNS: Final[tuple[str, ...]] = (
    "name",
    "fide_id",
    "federation",
    "birth_year",
    "sex",
    "title",
    "kind",
    *(f"{tc}_{name}" for tc in TIME_CONTROLS for name in SEED_FIELDS),
)
_GAME_COLUMNS: Final = frozenset({"date", "white", "black", "result"})
_TRUE: Final = frozenset({"true", "yes", "1", "y"})
_FALSE: Final = frozenset({"false", "no", "0", "n", ""})


@dataclass(frozen=True, slots=True)
class FilePlayer:
    """One player as the file describes him; None: the file says nothing."""

    line: int
    name: str
    fide_id: int | None = None
    federation: str | None = None
    birth_year: int | None = None
    sex: str | None = None
    title: str | None = None
    external: bool | None = None
    seeds: tuple[Seed, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayersFile:
    players: tuple[FilePlayer, ...]
    problems: tuple[Problem, ...]


def _header_line(data: bytes) -> str | None:
    text = data[:65536].decode("utf-8", errors="replace").lstrip("\ufeff")
    for line in text.splitlines():
        if line.strip():
            return line
    return None


def _delimiter(header: str) -> str:
    return ";" if header.count(";") > header.count(",") else ","


def looks_like_players_csv(data: bytes) -> bool:
    """Whether a CSV's header is a players header (``name``, and no game column)."""
    header = _header_line(data)
    if header is None:
        return False
    names = {column_name(n) for n in next(csv.reader([header], delimiter=_delimiter(header)))}
    return "name" in names and not names & _GAME_COLUMNS


def _number(text: str, what: str, reasons: list[str]) -> int | None:
    value = text.strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()):
        reasons.append(f"{what} {value!r} is not a whole number")
        return None
    return int(value)


def _flag(text: str, what: str, reasons: list[str]) -> bool:
    value = text.strip().casefold()
    if value in _TRUE:
        return True
    if value not in _FALSE:
        reasons.append(f"{what} {text.strip()!r} is not true or false")
    return False


def _row(cells: dict[str, str], line: int, reasons: list[str]) -> FilePlayer:
    def cell(name: str) -> str:
        return cells.get(name, "")

    kind = cell("kind").strip().casefold()
    external = None
    if kind in ("tracked", "external"):
        external = kind == "external"
    elif kind:
        reasons.append(f"kind {cell('kind').strip()!r} is not tracked or external")
    seeds = []
    for tc in TIME_CONTROLS:
        rating = _number(cell(f"{tc}_rating"), f"{tc}_rating", reasons)
        games = _number(cell(f"{tc}_games"), f"{tc}_games", reasons)
        ever_2400 = _flag(cell(f"{tc}_ever_2400"), f"{tc}_ever_2400", reasons)
        ever_2300 = _flag(cell(f"{tc}_ever_2300"), f"{tc}_ever_2300", reasons)
        if rating is None and games is None:
            if ever_2400 or ever_2300:
                reasons.append(f"{tc}_ever_2400/{tc}_ever_2300 describe a seed: give its rating")
            continue
        if rating is None or games is None:
            reasons.append(f"{tc}_rating and {tc}_games go together: give both")
            continue
        seeds.append(Seed(rating, games, ever_2400, ever_2300, tc))
    name = clean_name(csv_text(cell("name")))
    if not name:
        reasons.append("missing name")
    return FilePlayer(
        line=line,
        name=name,
        fide_id=_number(cell("fide_id"), "fide_id", reasons) or None,
        federation=cell("federation").strip() or None,
        birth_year=_number(cell("birth_year"), "birth_year", reasons),  # 0: refused, as typed
        sex=cell("sex").strip() or None,
        title=cell("title").strip() or None,
        external=external,
        seeds=tuple(seeds),
    )


def parse_players_csv(data: bytes, source: str, *, encoding: str = "utf-8") -> PlayersFile:
    """Every player row of a players CSV, and one problem per bad row (or bad header)."""
    text = decode_input(data, source, encoding)
    if isinstance(text, Problem):
        return PlayersFile((), (text,))
    lines = split_lines(text)
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not numbered:
        return PlayersFile((), (Problem(source, 0, "empty file: no header line"),))
    header_no, header = numbered[0]
    delimiter = _delimiter(header)
    names = [column_name(n) for n in next(csv.reader([header], delimiter=delimiter))]
    unknown = [n for n in names if n and n not in PLAYER_COLUMNS]
    problems: list[Problem] = []
    if unknown:
        problems.append(
            Problem(
                source,
                header_no,
                f"unknown column(s) {', '.join(repr(n) for n in unknown)}; allowed: "
                f"{', '.join(PLAYER_COLUMNS)}",
            )
        )
    if "name" not in names:
        problems.append(Problem(source, header_no, "missing required column name"))
    if problems:
        return PlayersFile((), tuple(problems))
    players = []
    for number, line in numbered[1:]:
        try:
            fields = next(csv.reader([line], delimiter=delimiter))
        except csv.Error as error:
            problems.append(Problem(source, number, f"unreadable CSV row ({error})"))
            continue
        if len(fields) > len(names) and any(f.strip() for f in fields[len(names) :]):
            problems.append(
                Problem(
                    source, number, f"row has {len(fields)} fields, the header has {len(names)}"
                )
            )
            continue
        cells = {name: value for name, value in zip(names, fields, strict=False) if name}
        reasons: list[str] = []
        row = _row(cells, number, reasons)
        if reasons:
            problems.extend(Problem(source, number, reason) for reason in reasons)
            continue
        players.append(row)
    return PlayersFile(tuple(players), tuple(problems))


def write_players_csv(rows: list[dict[str, object]]) -> str:
    """Rows keyed by :data:`PLAYER_COLUMNS` as CSV text (booleans as ``true``/``false``)."""
    return csv_file(
        PLAYER_COLUMNS, ([csv_cell(row.get(c)) for c in PLAYER_COLUMNS] for row in rows)
    )
