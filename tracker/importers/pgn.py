"""PGN games -> :class:`GameRecord` (tag pairs, and whether the game has moves: the moves are
looked at, never played through).

Tags read: ``White``, ``Black``, ``Result``, ``Date``, ``UTCDate``, ``EventDate``, ``Event``,
``Site``, ``Round``, ``WhiteElo``/``BlackElo`` (recorded ratings), ``WhiteFideId``/
``BlackFideId``, ``WhiteTitle``/``BlackTitle``, ``TimeControl``, ``Termination`` and
``Variant``.

* ``Result`` ``*`` (unfinished): the game is skipped and counted, nothing else is checked.
  Forfeits as files write them (``+/-``, ``(+)-(-)``, ``1-0 ff``...; see
  :data:`tracker.importers.records.FORFEIT_SPELLINGS`) are forfeits.
* ``[Variant "..."]`` other than standard chess (``Standard``, ``Chess``, ``Normal``):
  Crazyhouse, Chess960, From Position...: skipped and counted by variant.
* ``Date``: a full date (``YYYY.MM.DD``; ``-`` and ``/`` separators are accepted); where it
  is unknown or partial, ``UTCDate`` (Lichess's exports: ``Date "????.??.??"``). The month
  is all a monthly rating period needs, so ``YYYY.MM.??`` is accepted with a note: dated on
  the ``EventDate`` when that falls in the month, else on the caller's ``event_start`` when
  that does, else on the first of the month. A date without a month (``YYYY.??.??``, or a
  bare year ``YYYY``, reported as ``YYYY.??.??``) or no date takes the ``EventDate`` (or
  the caller's ``event_start``) in that year; without one it is a problem, reported once
  for all the games that share it.
* The time control is told by ``TimeControl`` (a PGN value, or free text as people write it:
  see :mod:`tracker.importers.timecontrol`); else, for a game Lichess calls correspondence
  (``TimeControl "-"`` and ``Event "Rated Correspondence game"``), correspondence; else
  None. Correspondence and bullet games are on no FIDE list (skipped and counted).
* An ``Event`` that names the kind of game, not a tournament (Lichess's ``Rated Classical
  game``, Chess.com's ``Live Chess``: :func:`~tracker.importers.pgn_tags.event_of`) is no
  event: such games are each read by their own time control, with no event.
* ``?``, ``-`` and empty tag values mean "unknown".
* PGN has no forfeit result: a ``1-0`` / ``0-1`` game with ``[Termination "forfeit"]``
  (exactly that word, any case; "time forfeit" is a played game lost on time) is the
  forfeit ``+-`` / ``-+``, stored and never rated. A draw cannot be a forfeit. A decisive
  game with no moves at all in a file where most games have moves (Carlsen-Dubov, Tata
  Steel 2022) is a forfeit too, with a warning: a game that was played would have moves. In
  a file where most games have no moves (a results export), a game without moves is played.

The movetext belongs to the game whose tags precede it, whatever blank lines or comments
come between: a game ends at its result (or at the next tag pair). Text outside any game
(before the first one, or after a game's result) is a warning, and ignored.

Every record is a game, with moves or without: a results export writes tag pairs only, one
record after another. A tag pair of the Seven Tag Roster whose name the record has already
given (a second ``White``) starts the next record, whether a blank line comes between or
not; a record takes nothing from the one before it (a record without ``Event`` has no
event, with a warning when other records of the file have one).

Line numbers point at the first tag line of each game.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from tracker.importers import timecontrol
from tracker.importers.pgn_tags import (
    GIVEN_START,
    UNKNOWN,
    event_of,
    full_date,
    game_date,
    tag,
    unescaped,
)
from tracker.importers.records import (
    FORFEIT_OF,
    FORFEIT_SPELLINGS,
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    TextStream,
    clean_name,
    file_result,
    parse_fide_id,
    parse_rating,
    same_player,
)
from tracker.vocabulary import plays_self

_TAG_LINE = re.compile(r'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"[^\r]*"\]\s*$')
#: Variant tag values that mean standard chess (compared case-insensitively).
STANDARD_VARIANTS: Final = frozenset({"standard", "chess", "normal"})
#: Movetext tokens: comment braces, ``;`` comments, variations, NAGs, everything else.
_TOKEN = re.compile(r"[{}();]|\$\d+|[^\s{}();$]+")
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_GLYPHS = frozenset({"!", "?", "!!", "??", "!?", "?!", "+", "#", "+-", "-+", "=", "+=", "=+"})
_TERMINATIONS: Final = frozenset({"1-0", "0-1", "1/2-1/2", "*", *FORFEIT_SPELLINGS})
#: Words some files put after a result to say it was a forfeit (``1-0 ff``).
_FORFEIT_WORDS: Final = frozenset({"ff", "f", "(ff)", "forfeit", "(forfeit)"})
#: The Seven Tag Roster: a record gives each once, so one given again starts the next record
#: (another tag given twice, two Annotators say, is only that record's own repetition).
_ROSTER: Final = frozenset({"Event", "Site", "Date", "Round", "White", "Black", "Result"})


@dataclass(slots=True)
class _Movetext:
    """What one game's movetext holds, as far as tracker cares."""

    moves: int = 0
    digest: hashlib.blake2b = field(default_factory=lambda: hashlib.blake2b(digest_size=8))
    terminated: bool = False
    stray_line: int | None = None  # first line with text after the result

    def absorb(self, other: _Movetext) -> None:
        self.moves += other.moves
        self.digest.update(other.digest.digest())
        self.terminated = other.terminated
        self.stray_line = self.stray_line or other.stray_line


class _LineCountingReader:
    """A text stream over the file's lines (``readline`` only) that remembers, for each chunk
    python-chess reads, where it started and what its movetext holds.

    ``chess.pgn.read_headers`` reads with ``readline`` only; before each call the parser
    calls :meth:`start_game`, and afterwards ``first_line`` is the first line of that chunk
    that was neither blank nor a ``%``/``;`` escape, ``tag_lines`` how many of its lines
    looked like tag pairs, and ``movetext`` what its movetext held (python-chess ends a
    chunk at a blank line; the parser joins a chunk without tags to the game before it).

    It also mends one common defect: python-chess skips a game's movetext up to the next
    blank line, so a game whose tags follow the previous game's movetext without a blank
    line would be swallowed. When a tag pair line comes straight after movetext (outside a
    ``{...}`` comment), the reader hands out a blank line first.

    And it tells records of tag pairs only apart (python-chess would read them as one game's
    headers, the last value of each tag winning): a tag pair of the Seven Tag Roster whose
    name this record has given already ends the record (the reader hands out the end of the
    file; the tag line comes with the next record).
    """

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines
        self.line_no = 0
        self._pending: tuple[str, str | None] | None = None  # a line and its tag's name
        self._in_comment = False
        self._after_movetext = False
        self.start_game()

    def start_game(self) -> None:
        self.first_line: int | None = None
        self.tag_lines = 0
        self.movetext = _Movetext()
        self._depth = 0  # variations
        self._tags: set[str] = set()  # the names of this record's tag pairs

    def readline(self) -> str:
        if self._pending is not None:
            (line, name), self._pending = self._pending, None
        else:
            line = next(self._lines, "")
            if not line:
                return line
            tag = None if self._in_comment or line[:1] != "[" else _TAG_LINE.match(line)
            name = None if tag is None else tag[1]
            if name is not None and self._after_movetext:
                self._pending = (line, name)
                self._after_movetext = False
                return "\n"
            if name in self._tags and name in _ROSTER:
                self._pending = (line, name)  # the next record's first tag pair
                return ""
        if name is not None:
            self._tags.add(name)
        self._count(line)
        self._track(line)
        return line

    def _count(self, line: str) -> None:
        self.line_no += 1
        if self.first_line is None and not (line.isspace() or line.startswith(("%", ";"))):
            self.first_line = self.line_no
        if line.startswith("[") and not self._in_comment:
            self.tag_lines += 1

    def _track(self, line: str) -> None:
        """Follow comments and variations, count the moves and note the result."""
        if not self._in_comment:
            if line.isspace():
                self._after_movetext = False
                return
            if line.startswith(("[", "%")):
                return  # a tag pair (or a malformed one), or an escape line
            self._after_movetext = True
        movetext = self.movetext
        for token in _TOKEN.findall(line):
            if self._in_comment:
                self._in_comment = token != "}"
            elif token == "{":
                self._in_comment = True
            elif token == ";":
                break
            elif token == "(":
                self._depth += 1
            elif token == ")":
                self._depth = max(0, self._depth - 1)
            elif self._depth or token.startswith("$"):
                continue
            elif movetext.terminated:
                if token.casefold() not in _FORFEIT_WORDS and movetext.stray_line is None:
                    movetext.stray_line = self.line_no
            elif token in _TERMINATIONS:
                movetext.terminated = True
            else:
                move = _MOVE_NUMBER.sub("", token)
                if move and move not in _GLYPHS:
                    movetext.moves += 1
                    movetext.digest.update(move.encode() + b" ")


def _player(headers: Mapping[str, str], colour: str, problems: list[str]) -> PlayerInfo:
    name = clean_name(headers.get(colour))
    if name in UNKNOWN:
        problems.append(f"missing {colour} player name")
        name = ""
    rating, reason = parse_rating(tag(headers, f"{colour}Elo"), f"{colour}Elo")
    if reason:
        problems.append(reason)
    fide_id = parse_fide_id(tag(headers, f"{colour}FideId"))
    title = tag(headers, f"{colour}Title")
    return PlayerInfo(
        name=name, fide_id=fide_id, rating=rating, title=title.upper() if title else None
    )


@dataclass(slots=True)
class _Chunk:
    headers: Mapping[str, str]
    line: int
    movetext: _Movetext


@dataclass(slots=True)
class _Reader:
    """Turns the file's games into records, problems and warnings."""

    source: str
    event_start: date | None
    tc_minutes: bool = False  # a TimeControl in PGN's signs writes minutes (--tc-minutes)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    # Each date problem's first line, and how many games have it.
    date_problems: dict[str, list[int]] = field(default_factory=dict)
    variants: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    invalid: int = 0
    unfinished: int = 0
    start_used: bool = False  # the caller's event start dated a game

    def game(self, chunk: _Chunk) -> GameRecord | None:
        """The chunk's game, or None (skipped, or invalid: counted and reported)."""
        headers, line = chunk.headers, chunk.line
        variant = tag(headers, "Variant")
        if variant is not None and variant.casefold() not in STANDARD_VARIANTS:
            self.variants[variant] += 1
            return None
        raw_result = headers.get("Result")
        if raw_result is not None and raw_result.strip() == "*":
            self.unfinished += 1
            return None
        reasons: list[str] = []
        result = None
        if raw_result is None:
            reasons.append("missing Result tag")
        else:
            result = file_result(raw_result)
            if result is None:
                reasons.append(f"invalid Result {raw_result!r}: use 1-0, 0-1, 1/2-1/2 or *")
            elif (tag(headers, "Termination") or "").casefold() == "forfeit":
                if result == "1/2-1/2":
                    reasons.append('a draw cannot be a forfeit (Termination "forfeit")')
                result = FORFEIT_OF.get(result, result)
        white = _player(headers, "White", reasons)
        black = _player(headers, "Black", reasons)
        if white.name and black.name and same_player(white, black):
            reasons.append(plays_self(white.name))
        played_on, note, date_reason = game_date(headers, self.event_start)
        if note is not None and GIVEN_START in note:
            self.start_used = True
        if reasons or date_reason or result is None or played_on is None:
            self.problems.extend(Problem(self.source, line, reason) for reason in reasons)
            if date_reason:
                self.date_problems.setdefault(date_reason, [line, 0])[1] += 1
            self.invalid += 1
            return None
        moves = chunk.movetext.moves
        tc_text = tag(headers, "TimeControl")
        event, kind = event_of(headers)
        tc = timecontrol.from_pgn(tc_text, minutes=self.tc_minutes)
        if tc is None and kind is not None and timecontrol.from_name(kind) == "correspondence":
            tc, tc_text = "correspondence", headers["Event"].strip()
        return GameRecord(
            source=self.source,
            line=line,
            white=white,
            black=black,
            result=result,
            played_on=played_on,
            event=event,
            event_start=full_date(headers.get("EventDate")),
            site=tag(headers, "Site"),
            round=tag(headers, "Round"),
            tc=tc,
            date_note=note,
            has_moves=moves > 0,
            moves_digest=chunk.movetext.digest.hexdigest() if moves else None,
            tc_text=tc_text,
        )

    def forfeits(self, moveless: list[GameRecord]) -> tuple[int, ...]:
        """The lines of the decisive games without moves of a file where most games have
        moves: forfeits, each with a warning."""
        for record in moveless:
            self.warnings.append(
                Problem(
                    self.source,
                    record.line,
                    f"{record.white.name} - {record.black.name} {record.result} has no moves "
                    "while most of the file's games have moves: stored as the forfeit "
                    f"{FORFEIT_OF[record.result]}, not rated (if it was played, correct it with "
                    "`tracker game edit`)",
                )
            )
        return tuple(record.line for record in moveless)

    def report_dates(self) -> None:
        """One problem per distinct date problem, however many games share it."""
        for reason, (line, count) in self.date_problems.items():
            more = count - 1
            suffix = f" (and {more} more game{'s' if more > 1 else ''} like it)" if more else ""
            self.problems.append(Problem(self.source, line, reason + suffix))


def read_pgn(
    stream: TextStream, source: str, event_start: date | None, tc_minutes: bool
) -> Generator[GameRecord, None, ParseResult]:
    """A file's games one at a time.

    A decisive game without moves is a forfeit only if some game of the file has moves: the
    games from the first such one on wait until a game with moves (or the end) tells. A file
    with moves thus holds back few games; one without any is held whole."""
    # python-chess builds its move tables when imported (600 million instructions, a fifth of
    # a second): only a PGN read pays for it, not every command that knows the formats
    import chess.pgn

    reader = _LineCountingReader(stream.lines())
    games = _Reader(source, event_start, tc_minutes)
    problems: list[Problem] = []
    warnings: list[Problem] = []
    found = 0
    previous: _Chunk | None = None  # the last game read: more movetext may follow
    # Decisive games without moves go on as played; the end of the file tells whether most
    # games have moves, and so whether they were forfeits (ParseResult.late_forfeits).
    moveless: list[GameRecord] = []
    with_moves = without_moves = 0
    events = _EventTags()

    def finished(chunk: _Chunk) -> Iterator[GameRecord]:
        """The game of ``chunk``, now complete."""
        nonlocal with_moves, without_moves
        if chunk.movetext.stray_line is not None:
            warnings.append(
                Problem(source, chunk.movetext.stray_line, "text after the game's result ignored")
            )
        events.count(chunk)
        if chunk.movetext.moves:
            with_moves += 1
        else:
            without_moves += 1
        record = games.game(chunk)
        if record is not None:
            if record.result in FORFEIT_OF and not chunk.movetext.moves:
                moveless.append(record)
            yield record

    while True:
        reader.start_game()
        try:
            headers = chess.pgn.read_headers(reader)  # type: ignore[arg-type]  # readline only
        except Exception as error:  # python-chess should not raise here; be safe anyway
            line = reader.first_line or reader.line_no
            problems.append(Problem(source, line, f"unreadable PGN ({error})"))
            break
        if headers is None:
            break
        found += 1
        line = reader.first_line or reader.line_no
        if reader.tag_lines == 0:
            if previous is not None and not previous.movetext.terminated:
                previous.movetext.absorb(reader.movetext)  # more of that game's movetext
            else:
                warnings.append(
                    Problem(source, line, "text outside any game (no tag pairs before it) ignored")
                )
            continue
        if previous is not None:
            yield from finished(previous)
        tags = {name: unescaped(value) for name, value in headers.items()}  # \" is "
        previous = _Chunk(tags, line, reader.movetext)
    if previous is not None:
        yield from finished(previous)
    late_forfeits = games.forfeits(moveless) if with_moves > without_moves else ()
    warnings.extend(events.warnings(source))
    games.report_dates()
    problems.extend(games.problems)
    warnings.extend(games.warnings)
    if found == 0:
        problems.append(Problem(source, 0, "no games found"))
    problems.sort(key=lambda p: p.line)
    warnings.sort(key=lambda p: p.line)
    return ParseResult(
        problems=tuple(problems),
        warnings=tuple(warnings),
        invalid=games.invalid,
        skipped_unfinished=games.unfinished,
        skipped_variants=tuple(sorted(games.variants.items())),
        late_forfeits=late_forfeits,
        event_start_used=games.start_used,
        format="pgn",
    )


@dataclass(slots=True)
class _EventTags:
    """Whether some records name their event and others not: those without are stored
    without an event, which the reader says once."""

    named: int = 0
    unnamed: int = 0
    first_unnamed: int = 0

    def count(self, chunk: _Chunk) -> None:
        if tag(chunk.headers, "Event") is not None:
            self.named += 1
        else:
            self.unnamed += 1
            self.first_unnamed = self.first_unnamed or chunk.line

    def warnings(self, source: str) -> list[Problem]:
        if not (self.named and self.unnamed):
            return []
        games = "game has" if self.unnamed == 1 else f"{self.unnamed} games have"
        return [
            Problem(
                source,
                self.first_unnamed,
                f"{games} no Event tag while {self.named} name theirs: stored without an event "
                "(a record takes nothing from the one before it)",
            )
        ]
