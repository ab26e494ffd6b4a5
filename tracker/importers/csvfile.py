"""CSV games -> :class:`GameRecord`.

File layout
-----------

* Text in UTF-8, with or without a byte-order mark (other encodings only when the caller
  says so, e.g. ``encoding="latin-1"``).
* The first non-blank line is the header. The delimiter is taken from it: whichever of
  ``,`` ``;`` or tab occurs most (comma on a tie). Fields may be quoted with ``"``.
* Header names are case-insensitive; spaces and hyphens count as underscores
  (``White Rating`` = ``white_rating``). Required: ``date``, ``white``, ``black``,
  ``result``. Optional: ``event``, ``site``, ``round``, ``white_rating``, ``black_rating``,
  ``white_fide_id``, ``black_fide_id``, ``tc``, ``event_start``. Any other name is a
  problem that lists the allowed ones (a misspelt optional column would otherwise be
  silently lost), and so is a repeated name. Columns with an empty header are tolerated
  (spreadsheets add them) as long as they stay empty. A header problem stops the file: no
  row is read.
* Blank lines are ignored. Each row must have as many fields as the header (extra trailing
  empty fields are tolerated).

Values
------

* ``date``: ``YYYY-MM-DD`` (also ``YYYY.MM.DD`` or ``YYYY/MM/DD``), a real calendar day. An
  empty cell takes the caller's ``event_start`` when one is given (with a note).
* ``event_start``: the event's start date, same forms (tracker's own export writes it).
* ``result``: any spelling of :data:`tracker.vocabulary.RESULT_ALIASES` (``1-0``, ``1:0``,
  ``1/2-1/2``, ``½-½``, ``0.5-0.5``, ``=``, ``draw``, forfeits ``+-``, ``-+``, ...) or a
  forfeit as files write it (:data:`tracker.importers.records.FORFEIT_SPELLINGS`:
  ``(+)-(-)``, ``1-0 ff``, ``+/-``...); ``*`` marks an unfinished game, which is skipped and
  counted. Blanks inside are ignored.
* ``white_rating``/``black_rating``: recorded ratings, whole numbers; blank or 0 is unrated
  (which numbers are FIDE ratings is the intake's rule). ``white_fide_id``/``black_fide_id``:
  positive whole numbers; blank or 0 is none.
* ``tc``: ``standard`` (or ``classical``), ``rapid``, ``blitz``, or a time control
  classified by FIDE's definitions as a PGN ``TimeControl`` is
  (:func:`tracker.importers.timecontrol.from_pgn`): numbers in seconds as PGN writes them
  (``5400+30``, ``600+5``, ``60+0``), unless the caller says the file writes minutes
  (``tc_minutes``: ``90+30``, ``3+2``); free text as people write it (``G/90+30``,
  ``90 min + 30 s``); blank, ``?`` or ``-`` is unknown. The caller's ``--tc`` is the
  intake's to apply to the rows whose cell does not tell.

Line numbers count physical lines, the header being line 1 (when it is the first line).
"""

from __future__ import annotations

import csv
from collections.abc import Generator, Iterable, Iterator
from datetime import date
from functools import cache, partial
from itertools import chain
from operator import itemgetter
from typing import Final

from tracker.importers import timecontrol
from tracker.importers.dates import parse_calendar_date
from tracker.importers.records import (
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    TextStream,
    clean_name,
    column_name,
    csv_text,
    file_result,
    parse_fide_id,
    parse_rating,
    same_player,
)
from tracker.importers.timecontrol import TimeClass
from tracker.vocabulary import plays_self

REQUIRED_COLUMNS: Final[tuple[str, ...]] = ("date", "white", "black", "result")
OPTIONAL_COLUMNS: Final[tuple[str, ...]] = (
    "event",
    "site",
    "round",
    "white_rating",
    "black_rating",
    "white_fide_id",
    "black_fide_id",
    "tc",
    "event_start",
)
ALLOWED_COLUMNS: Final[tuple[str, ...]] = REQUIRED_COLUMNS + OPTIONAL_COLUMNS

UNFINISHED = "*"
_DELIMITERS: Final = (",", ";", "\t")


def _sniff_delimiter(header_line: str) -> str:
    counts = {delimiter: header_line.count(delimiter) for delimiter in _DELIMITERS}
    best = max(_DELIMITERS, key=lambda delimiter: counts[delimiter])
    return best if counts[best] > 0 else ","


def _rows(
    lines: Iterable[str], delimiter: str, source: str
) -> Iterator[tuple[int, list[str] | Problem]]:
    """``(first line, fields)`` for each non-blank row, or a problem for unreadable ones."""
    reader = csv.reader(lines, delimiter=delimiter, quotechar='"')
    previous = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield previous + 1, Problem(source, previous + 1, f"unreadable CSV row ({error})")
            if reader.line_num <= previous:
                return  # no progress: give up rather than loop
            previous = reader.line_num
            continue
        start = previous + 1
        previous = reader.line_num
        if not "".join(row).strip():
            continue
        yield start, row


def _header(
    fields: list[str], source: str, line: int
) -> tuple[dict[str, int], set[int], list[Problem]]:
    """Column positions by name, positions with no name, and header problems."""
    positions: dict[str, int] = {}
    unnamed: set[int] = set()
    problems: list[Problem] = []
    unknown: list[str] = []
    for index, raw in enumerate(fields):
        name = column_name(raw)
        if not name:
            unnamed.add(index)
        elif name not in ALLOWED_COLUMNS:
            unknown.append(raw.strip())
        elif name in positions:
            problems.append(Problem(source, line, f"column {name!r} appears twice"))
        else:
            positions[name] = index
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        problems.append(
            Problem(
                source,
                line,
                f"unknown column{'s' if len(unknown) > 1 else ''} {names}; "
                f"allowed: {', '.join(ALLOWED_COLUMNS)}",
            )
        )
    missing = [name for name in REQUIRED_COLUMNS if name not in positions]
    if missing:
        problems.append(
            Problem(
                source,
                line,
                f"missing required column{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} (the header must name date, white, black, result)",
            )
        )
    return positions, unnamed, problems


def parse_result(text: str) -> str | None:
    """Canonical result of a CSV result cell, ``*`` for unfinished, or None if invalid."""
    value = "".join(text.split())
    if value == UNFINISHED:
        return UNFINISHED
    return file_result(value)


def _tc_cell(text: str, minutes: bool) -> tuple[TimeClass | None, str | None]:
    """A ``tc`` cell's class (a list's name, a PGN value, or free text), and its words."""
    value = text.strip()
    if timecontrol.is_unknown_marker(value):
        return None, None
    return timecontrol.from_pgn(value, minutes=minutes), value


class _RowReader:
    """Turns rows into games. Files repeat the same players, dates and time controls on
    thousands of rows, so each distinct cell is parsed once (about half the import's cost
    on a federation's file)."""

    def __init__(
        self,
        positions: dict[str, int],
        source: str,
        event_start: date | None = None,
        tc_minutes: bool = False,
    ) -> None:
        self.source = source
        self.event_start = event_start
        self.start_used = False  # the caller's event start dated a row
        # Every column's cell in ALLOWED_COLUMNS order; a column the file lacks reads the
        # empty cell appended to each row.
        self.cells = itemgetter(*(positions.get(name, -1) for name in ALLOWED_COLUMNS))
        self.date = cache(parse_calendar_date)
        self.result = cache(parse_result)
        # By colour: (name, rating, FIDE id) cells -> the player and his problems.
        self.white = cache(partial(_parse_player, "white"))
        self.black = cache(partial(_parse_player, "black"))
        self.tc = cache(partial(_tc_cell, minutes=tc_minutes))  # the class, the words
        self.text = cache(_text_cell)  # event, site and round cells

    def game(self, row: list[str], line: int) -> GameRecord | list[str] | None:
        """A game, the reasons it is invalid, or None for an unfinished game."""
        row.append("")
        cells = self.cells(row)
        date_c, white_c, black_c, result_c, event_c, site_c, round_c = cells[:7]
        white_rating_c, black_rating_c, white_id_c, black_id_c, tc_c, start_c = cells[7:]
        result = self.result(result_c)
        if result == UNFINISHED:
            return None
        reasons: list[str] = []
        if result is None:
            reasons.append(
                f"invalid result {result_c.strip()!r}: use 1-0, 0-1, 1/2-1/2 (or ½-½, =, "
                "1:0, 0:1), +- / -+ for a forfeit, * for an unfinished game"
            )
        played_on = self.date(date_c)
        note = None
        if played_on is None:
            played_on, note = self._no_date(date_c, reasons)
        event_start = None
        if start_c and start_c.strip():
            event_start = self.date(start_c)
            if event_start is None:
                reasons.append(f"invalid event_start {start_c.strip()!r}: use YYYY-MM-DD")
        white, white_problems = self.white(white_c, white_rating_c, white_id_c)
        black, black_problems = self.black(black_c, black_rating_c, black_id_c)
        reasons += white_problems + black_problems
        if white.name and black.name and same_player(white, black):
            reasons.append(plays_self(white.name))
        game_tc, tc_text = self.tc(tc_c)
        if reasons or result is None or played_on is None:
            return reasons
        text = self.text
        return GameRecord(
            self.source,
            line,
            white,
            black,
            result,
            played_on,
            text(event_c),
            event_start,
            text(site_c),
            text(round_c),
            game_tc,
            note,
            tc_text=tc_text,
        )

    def _no_date(self, text: str, reasons: list[str]) -> tuple[date | None, str | None]:
        """A row whose date cell is not a date: the caller's event start, or a reason."""
        raw = text.strip()
        if not raw and self.event_start is not None:
            start = self.event_start
            self.start_used = True
            return start, f"no date; the given event start {start.isoformat()} used"
        reasons.append(f"invalid date {raw!r}: use YYYY-MM-DD" if raw else "missing date")
        return None, None


def _text_cell(cell: str) -> str | None:
    """An event, site or round cell as text."""
    return csv_text(cell.strip()) or None


def _parse_player(
    colour: str, raw_name: str, raw_rating: str, raw_fide_id: str
) -> tuple[PlayerInfo, list[str]]:
    """The player and his problems."""
    reasons: list[str] = []
    name = clean_name(csv_text(raw_name))
    if not name:
        reasons.append(f"missing {colour} player name")
    rating, reason = parse_rating(raw_rating, f"{colour}_rating")
    if reason:
        reasons.append(reason)
    fide_id = parse_fide_id(raw_fide_id)
    return PlayerInfo(name=name, fide_id=fide_id, rating=rating), reasons


def read_csv(
    stream: TextStream, source: str, event_start: date | None, tc_minutes: bool
) -> Generator[GameRecord, None, ParseResult]:
    """A file's games one at a time (``tc_minutes``: the ``tc`` cells write minutes, see the
    module docstring)."""
    lines = stream.lines()
    blank: list[str] = []  # the lines before the header (blank ones)
    header_line = None
    for text in lines:
        blank.append(text)
        if text.strip():
            header_line = text
            break
    if header_line is None:
        return ParseResult(
            problems=(Problem(source, 0, "empty file: no header line"),), format="csv"
        )
    rows = _rows(chain(blank, lines), _sniff_delimiter(header_line), source)

    problems: list[Problem] = []
    positions: dict[str, int] | None = None
    for line, row in rows:  # the first row that is not blank: the header
        if isinstance(row, Problem):
            problems.append(row)
        else:
            positions, unnamed, problems = _header(row, source, line)
            width = len(row)
        break
    if positions is None or problems:
        return ParseResult(problems=tuple(problems), format="csv")

    unfinished = 0
    invalid = 0  # rows that are games but could not be read as one
    reader = _RowReader(positions, source, event_start, tc_minutes)
    unnamed_order = sorted(unnamed)
    for line, row in rows:
        if isinstance(row, Problem):
            problems.append(row)
            invalid += 1
            continue
        if len(row) > width and not any(field.strip() for field in row[width:]):
            row = row[:width]  # trailing empty fields, as spreadsheets write them
        if len(row) != width:
            problems.append(
                Problem(source, line, f"row has {len(row)} fields, the header has {width}")
            )
            invalid += 1
            continue
        stray = [index + 1 for index in unnamed_order if row[index].strip()] if unnamed else ()
        if stray:
            problems.append(
                Problem(
                    source,
                    line,
                    f"value in column {stray[0]}, which has no name in the header",
                )
            )
            invalid += 1
            continue
        outcome = reader.game(row, line)
        if outcome is None:
            unfinished += 1
        elif isinstance(outcome, GameRecord):
            yield outcome
        else:
            problems.extend(Problem(source, line, reason) for reason in outcome)
            invalid += 1
    return ParseResult(
        problems=tuple(problems),
        invalid=invalid,
        skipped_unfinished=unfinished,
        event_start_used=reader.start_used,
        format="csv",
    )
