"""Plain records produced by the importers, and the small checks they share.

The parsers turn a file's bytes into a :class:`ParseResult`: the games and byes they could
read, plus one :class:`Problem` per thing that is wrong (file, line, reason). They never
raise on bad input and never stop at the first problem, so the caller can decide between
"all or nothing" and "skip the invalid records".

Conventions shared by every format:

* Line numbers are 1-based. Line 0 means the problem concerns the whole file
  (an undecodable or empty file, a missing header...).
* A recorded rating of 0 (or blank) means "unrated" and becomes ``None``; any other whole
  number is read as it is (whether it is a FIDE rating is the intake's rule). A FIDE id of 0
  (or blank) means "no id".
* ``result`` is always one of :data:`tracker.vocabulary.RESULTS`; ``+-`` and ``-+`` are
  forfeits (and games that lasted less than one move), recorded but never rated.

This module depends on the standard library (and :mod:`tracker.vocabulary`) only.
"""

import codecs
import csv
import io
import re
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Final, Literal, NamedTuple

from tracker.importers.timecontrol import TimeClass
from tracker.vocabulary import (
    FORFEITS,
    canonical_result,
    name_form,
)

Sex = Literal["m", "f"]

#: Bye kinds: H half-point bye, F full-point bye, U pairing-allocated bye, Z zero-point bye
#: (also ``0000`` without a result: the player was absent and not paired).
ByeKind = Literal["H", "F", "U", "Z"]


#: How files write forfeits, beyond tracker's own ``+-`` / ``-+`` (compared without blanks,
#: in any case): chess-results' ``(+)-(-)`` and ``+ - -``, ``1-0 ff``, ``+/-``...
FORFEIT_SPELLINGS: Final[dict[str, str]] = {
    "(+)-(-)": "+-",
    "(-)-(+)": "-+",
    "+/-": "+-",
    "-/+": "-+",
    "+--": "+-",
    "--+": "-+",
    "1-0ff": "+-",
    "0-1ff": "-+",
    "1-0f": "+-",
    "0-1f": "-+",
    "1-0(ff)": "+-",
    "0-1(ff)": "-+",
    "1-0forfeit": "+-",
    "0-1forfeit": "-+",
    "1-0(forfeit)": "+-",
    "0-1(forfeit)": "-+",
    "1f-0": "+-",
    "0f-1": "-+",
}

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as a file describes him. ``rating`` is the rating recorded for that game or
    event (FIDE's or whatever the organiser wrote), not necessarily ours. ``line`` is the
    line of his own record when the format has one (TRF's 001), else 0; it takes no part in
    comparisons."""

    name: str
    fide_id: int | None = None
    rating: int | None = None
    federation: str | None = None
    birth_year: int | None = None
    sex: Sex | None = None
    title: str | None = None
    line: int = field(default=0, compare=False)


class GameRecord(NamedTuple):
    """One game. ``line`` is where it starts: the first tag line (PGN), the row (CSV) or the
    white player's record (TRF). ``date_note`` says how the date was obtained when it was not
    written on the game itself (for example an event date standing in).

    ``has_moves`` says whether the game's movetext holds moves (None: the format carries no
    moves); ``moves_digest`` is a short digest of those moves, so that two records of one
    game can be told from two games (None without moves).

    ``tc`` is the class of the time control the file gives (bullet included: see
    :mod:`tracker.importers.timecontrol`) and ``tc_text`` its words; None when the file does
    not tell (the caller's ``--tc`` is the intake's to apply, not the reader's)."""

    source: str
    line: int
    white: PlayerInfo
    black: PlayerInfo
    result: str
    played_on: date
    event: str | None = None
    event_start: date | None = None
    site: str | None = None
    round: str | None = None
    tc: TimeClass | None = None  # the class of the control the file gives (None: none told)
    date_note: str | None = None
    has_moves: bool | None = None
    moves_digest: str | None = None
    tc_text: str | None = None  # the control as the file writes it (for messages)

    @property
    def is_forfeit(self) -> bool:
        return self.result in FORFEITS


class ByeRecord(NamedTuple):
    """A round in which a player had no opponent (TRF only). Never rated."""

    source: str
    line: int
    player: PlayerInfo
    round: str
    kind: ByeKind
    event: str | None = None
    played_on: date | None = None


class EventInfo(NamedTuple):
    """What a file declares of one of its events, as a tournament report's header gives it
    (TRF: 012 name, 022 city, 042 start, 052 end, 092 type, 122/222 time control, XXR or
    the 132 round dates for its rounds). None: the file does not say."""

    name: str
    line: int
    start: date | None = None
    end: date | None = None
    rounds: int | None = None
    kind: str | None = None  # one of tracker.vocabulary.EVENT_KINDS
    tc: TimeClass | None = None
    site: str | None = None


#: How a tournament report's type (TRF 092, free text: "Individual: Swiss-System", "Team
#: Round Robin", "Berger") is read: the first kind whose word it holds.
_KIND_WORDS: Final = (
    ("team", ("team", "olympiad")),
    ("league", ("league", "liga", "ligue")),
    ("round-robin", ("robin", "berger", "all-play-all", "scheveningen", "rr")),
    ("swiss", ("swiss", "dutch", "burstein", "monrad", "schweizer", "suisse")),
    ("match", ("match",)),
)


def event_kind(text: str | None) -> str | None:
    """The kind of event a file's words for it name (None: no words; ``other``: words tracker
    does not know)."""
    if text is None or not text.strip():
        return None
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", text.casefold())
    for kind, known in _KIND_WORDS:
        if any(w in known or any(w.startswith(k) for k in known if len(k) > 4) for w in words):
            return kind
    return "other"


class Problem(NamedTuple):
    """Something wrong in an input file, with the 1-based line it was found on."""

    source: str
    line: int
    reason: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.source}: {self.reason}"
        return f"{self.source}:{self.line}: {self.reason}"


class ParseResult(NamedTuple):
    """Everything a parser read from one file.

    ``skipped_unfinished`` counts games without a result (PGN/CSV ``*``, TRF pairings with
    no result yet); ``skipped_other`` counts unplayed games that are neither a result nor a
    forfeit (TRF ``D`` "drawn, less than one move", double forfeits); ``skipped_variants``
    counts the games of other chess variants (PGN ``[Variant "Chess960"]``...) by variant.

    ``late_forfeits`` are the lines of games given as decisive that the end of the file showed
    to be forfeits (PGN: a game without moves where most have moves); the reader of a stream
    turns each into the forfeit of its result (:data:`FORFEIT_OF`).

    ``invalid`` counts the games the parser could not read because of its ``problems``
    (a problem may cost several games, as a bad date does, or none, as a bad header line
    does). ``warnings`` are things worth knowing that do not make anything invalid
    (an unknown title code, text between games): they are reported, never refused.
    """

    format: str
    games: tuple[GameRecord, ...] = ()
    byes: tuple[ByeRecord, ...] = ()
    events: tuple[EventInfo, ...] = ()  # what the file declares of its events
    problems: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    invalid: int = 0
    skipped_unfinished: int = 0
    skipped_other: int = 0
    skipped_variants: tuple[tuple[str, int], ...] = ()
    late_forfeits: tuple[int, ...] = ()
    event_start_used: bool = False  # the caller's event start dated something of the file

    @property
    def skipped_variant(self) -> int:
        return sum(n for _, n in self.skipped_variants)

    @property
    def ok(self) -> bool:
        """True when the file had no problem at all."""
        return not self.problems


# ---------------------------------------------------------------------------------------
# Shared helpers (used by the parsers of this package only)
# ---------------------------------------------------------------------------------------


def decode_input(data: bytes, source: str, encoding: str) -> str | Problem:
    """Decode a file's bytes and normalise its line endings to ``\\n``.

    * A UTF-8 byte-order mark always wins: the file is UTF-8 whatever ``encoding`` says,
      and the mark is dropped.
    * Otherwise ``encoding`` is applied strictly (default UTF-8). Bytes that are not valid in
      it give one problem naming the first bad byte and its line, and no text.
    * ``\\r\\n`` and lone ``\\r`` become ``\\n``.
    """
    stream = TextStream((data,), source, encoding)
    text = stream.text()
    return text if stream.problem is None else stream.problem


#: Bytes read at a time when a file is streamed.
BLOCK: Final = 1 << 20


class TextStream:
    """A file's text, read from its bytes a block at a time and decoded as
    :func:`decode_input` decodes it, without ever holding the whole file.

    :meth:`lines` (or :meth:`text`) may be used once. If the bytes are not valid in the
    encoding, the text stops before the bad byte and :attr:`problem` then says what
    :func:`decode_input` says: whatever was read before must be discarded."""

    def __init__(self, blocks: Iterable[bytes], source: str, encoding: str) -> None:
        self._blocks = iter(blocks)
        self.source = source
        self.encoding = encoding
        self.problem: Problem | None = None

    def text(self) -> str:
        """All of it (for formats read whole)."""
        return "".join(self._pieces())

    def lines(self) -> Iterator[str]:
        """Its lines one at a time, each with its ``\\n`` (the last one perhaps without)."""
        carry = ""
        for piece in self._pieces():
            find = piece.find
            end = find("\n")
            if end < 0:
                carry += piece
                continue
            yield carry + piece[: end + 1]
            start = end + 1
            end = find("\n", start)
            while end >= 0:
                yield piece[start : end + 1]
                start = end + 1
                end = find("\n", start)
            carry = piece[start:]
        if carry:
            yield carry

    def _pieces(self) -> Iterator[str]:
        """The text a block at a time, line endings normalised."""
        head = b""
        for block in self._blocks:  # the first bytes decide the encoding
            head += block
            if len(head) >= len(_UTF8_BOM):
                break
        encoding = self.encoding
        if head.startswith(_UTF8_BOM):
            head = head[len(_UTF8_BOM) :]
            encoding = "utf-8"
        elif head.startswith(_UTF16_BOMS):
            self.problem = Problem(
                self.source,
                0,
                "the file is UTF-16 (it starts with a UTF-16 byte-order mark); re-save it as UTF-8",
            )
            return
        try:
            codec = codecs.lookup(encoding)
        except LookupError:
            self.problem = Problem(self.source, 0, f"unknown text encoding {encoding!r}")
            return
        decode = codec.incrementaldecoder("strict").decode
        newlines = returns = 0  # decoded so far, for the line of a bad byte
        cr = False  # the last piece ended with \r (perhaps the first half of \r\n)
        for block, final in _with_last(head, self._blocks):
            try:
                text = decode(block, final)
            except UnicodeDecodeError as error:
                self.problem = _undecodable(self.source, codec.name, error, newlines, returns)
                return
            except UnicodeError as error:  # the codec refuses the whole text: UTF-16 without a BOM
                self.problem = Problem(
                    self.source, 0, f"not valid {codec.name} text ({error}); re-save it as UTF-8"
                )
                return
            if not text:
                continue
            newlines += text.count("\n")
            returns += text.count("\r")
            if cr:
                text = "\r" + text
            cr = text.endswith("\r")
            if cr:
                text = text[:-1]
            yield text.replace("\r\n", "\n").replace("\r", "\n")
        if cr:
            yield "\n"


def _with_last(head: bytes, blocks: Iterator[bytes]) -> Iterator[tuple[bytes, bool]]:
    """``(block, is_last)`` for ``head`` then ``blocks``."""
    current = head
    for block in blocks:
        if not block:
            continue
        yield current, False
        current = block
    yield current, True


def _undecodable(
    source: str, codec: str, error: UnicodeDecodeError, newlines: int, returns: int
) -> Problem:
    """The problem of a bad byte, ``newlines`` and ``returns`` having been decoded before
    the bytes of ``error`` (which hold the bad one)."""
    before = error.object[: error.start]
    newlines += before.count(b"\n")
    returns += before.count(b"\r")
    line = newlines + 1 if newlines else returns + 1
    bad = error.object[error.start]
    label = "UTF-8" if codec == "utf-8" else codec
    hint = (
        "re-save the file as UTF-8 (or import it with encoding latin-1 if that is what it is)"
        if codec == "utf-8"
        else f"re-save the file as {label}"
    )
    return Problem(source, 0, f"not valid {label} (byte 0x{bad:02x} at line {line}); {hint}")


class GameStream:
    """A parser's games one at a time, for a file too big to hold as records: iterate it
    once for the games, then :meth:`result` gives the rest (a :class:`ParseResult` whose
    ``games`` are empty).

    If the file turns out not to be text in its encoding (:attr:`unreadable`), the games
    already given must be discarded: the result is then that one problem, as
    :func:`decode_input` reports it."""

    def __init__(
        self,
        fmt: str,
        games: Generator[GameRecord, None, ParseResult],
        text: TextStream,
    ) -> None:
        self.format = fmt
        self._games = games
        self._text = text
        self._result: ParseResult | None = None

    def __iter__(self) -> Iterator[GameRecord]:
        result = yield from self._games
        problem = self._text.problem
        self._result = (
            result if problem is None else ParseResult(problems=(problem,), format=self.format)
        )

    @property
    def unreadable(self) -> bool:
        return self._text.problem is not None

    @classmethod
    def of(cls, fmt: str, games: Iterable[GameRecord]) -> "GameStream":
        """A stream of games given, not read (typed in): the same door as a file's."""

        def given() -> Generator[GameRecord, None, ParseResult]:
            yield from games
            return ParseResult(format=fmt)

        return cls(fmt, given(), TextStream((), fmt, "utf-8"))

    def result(self) -> ParseResult:
        """Everything but the games (once they have all been read)."""
        if self._result is None:
            raise RuntimeError("the games of a GameStream must be read before its result")
        return self._result

    def collect(self) -> ParseResult:
        """The whole :class:`ParseResult`, games included (its late forfeits as forfeits)."""
        games = tuple(self)
        result = self.result()
        if self.unreadable:
            return result
        late = set(result.late_forfeits)
        if late:
            games = tuple(
                g._replace(result=FORFEIT_OF[g.result]) if g.line in late else g for g in games
            )
        return result._replace(games=games)


#: The forfeit a decisive result stands for when the game was not played (``1-0`` -> ``+-``).
FORFEIT_OF: Final = {"1-0": "+-", "0-1": "-+"}


def split_lines(text: str) -> list[str]:
    """Lines of normalised text (``\\n`` only), without a phantom line after the last ``\\n``."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


#: The first signs of a cell that a spreadsheet runs as a formula (``=HYPERLINK(...)``,
#: ``@SUM(1)``, ``+1``, ``-1``, a tab, a carriage return): OWASP's list for CSV injection.
FORMULA_SIGNS: Final = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """A text cell as tracker's CSV exports write it: one a spreadsheet would run as a
    formula gets a leading ``'`` (as OWASP advises), which :func:`csv_text` takes off."""
    return f"'{text}" if text.startswith(FORMULA_SIGNS) else text


def column_name(header: str) -> str:
    """A CSV header cell as the column it names: any case, blanks and hyphens counting as
    underscores (``White Rating`` is ``white_rating``)."""
    return "_".join(header.strip().casefold().replace("-", " ").split())


def csv_cell(value: object) -> str:
    """A value as tracker's CSV exports write it: None blank, a boolean ``true`` or
    ``false``, text as :func:`spreadsheet_text` gives it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return spreadsheet_text(value) if isinstance(value, str) else str(value)


def csv_file(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV file's text as tracker writes one: the header, then the rows (None blank), each
    line ending in ``\\n``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def csv_text(cell: str) -> str:
    """A text cell of a CSV file as it was meant: without the ``'`` an export put before a
    formula's first sign (:func:`spreadsheet_text`)."""
    return cell[1:] if cell[:1] == "'" and cell[1:].startswith(FORMULA_SIGNS) else cell


def clean_name(value: str | None) -> str:
    """A player's name as a file gives it, in the form names are stored
    (:func:`tracker.vocabulary.name_form`); "" for none."""
    return "" if value is None else name_form(value)


def parse_rating(text: str | None, what: str) -> tuple[int | None, str | None]:
    """``(rating, None)`` or ``(None, reason)``. Blank and 0 mean unrated. Whether a number
    is a FIDE rating is the intake's rule (tracker.services.intake), not the reader's."""
    value = (text or "").strip()
    if not value:
        return None, None
    digits = value[1:] if value[:1] == "-" else value
    if not digits.isascii() or not digits.isdigit():
        return None, f"{what} {value!r} is not a whole number"
    return (int(value) or None), None  # a negative one is the intake's to refuse


#: What a reader gives for a FIDE id that is no number at all ("abc", raw bytes): no FIDE
#: id, as the intake's rule says of any number that is none (a warning, the game kept).
NOT_A_NUMBER: Final = -1


def parse_fide_id(text: str | None) -> int | None:
    """A FIDE id as a file gives it; never a problem of the reader's. Blank and 0 mean "no
    FIDE id"; whether anything else is a FIDE id is the intake's rule
    (tracker.services.intake), not the reader's: a value that is no whole number at all is
    :data:`NOT_A_NUMBER`."""
    value = (text or "").strip()
    if not value:
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 30:
        return NOT_A_NUMBER
    return int(value) or None


def file_result(text: str) -> str | None:
    """The canonical result of a result as a file writes it (any spelling of
    :data:`tracker.vocabulary.RESULT_ALIASES` or :data:`FORFEIT_SPELLINGS`; blanks inside are
    ignored), or None."""
    value = "".join(text.split())
    return canonical_result(value) or FORFEIT_SPELLINGS.get(value.casefold())


def same_player(white: PlayerInfo, black: PlayerInfo) -> bool:
    """Whether the two sides of a game are evidently the same person."""
    if white.fide_id is not None and white.fide_id > 0 and white.fide_id == black.fide_id:
        return True
    return white.name.casefold() == black.name.casefold()
