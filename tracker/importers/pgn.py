"""PGN games -> :class:`GameRecord` (tag pairs only; the moves are skipped, not parsed).

Tags read: ``White``, ``Black``, ``Result``, ``Date``, ``EventDate``, ``Event``, ``Site``,
``Round``, ``WhiteElo``/``BlackElo`` (recorded ratings), ``WhiteFideId``/``BlackFideId``,
``WhiteTitle``/``BlackTitle``, ``TimeControl`` and ``Termination``.

* ``Result`` ``*`` (unfinished): the game is skipped and counted, nothing else is checked.
* ``Date`` must be a full date (``YYYY.MM.DD``; ``-`` and ``/`` separators are accepted).
  A partial or missing date such as ``2026.09.??`` is a problem unless ``EventDate`` is a
  full date agreeing with the known parts: then the event date stands in and the game's
  ``date_note`` says so.
* The time control is the caller's ``tc`` when given, else inferred from ``TimeControl``
  (see :mod:`tracker.importers.timecontrol`), else None.
* ``?``, ``-`` and empty tag values mean "unknown".
* PGN has no forfeit result: a ``1-0`` / ``0-1`` game with ``[Termination "forfeit"]``
  (exactly that word, any case; "time forfeit" is a played game lost on time) is the
  forfeit ``+-`` / ``-+``, stored and never rated. A draw cannot be a forfeit.

Line numbers point at the first tag line of each game.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from datetime import date

import chess.pgn

from tracker.importers import timecontrol
from tracker.importers.dates import make_date
from tracker.importers.records import (
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    check_tc_argument,
    clean_name,
    decode_input,
    parse_fide_id,
    parse_rating,
    same_player,
)
from tracker.vocabulary import TimeControl

_PGN_RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}
_FORFEITS = {"1-0": "+-", "0-1": "-+"}
_PGN_DATE = re.compile(r"^(\d{4}|\?{4})([.\-/])(\d{2}|\?{2})\2(\d{2}|\?{2})$")
_UNKNOWN = {"", "?", "-"}
_TAG_LINE = re.compile(r'^\[[A-Za-z0-9][A-Za-z0-9_+#=:-]*\s+"[^\r]*"\]\s*$')


class _LineCountingReader(io.StringIO):
    """A text stream that remembers, for each game python-chess reads, where it started.

    ``chess.pgn.read_headers`` reads with ``readline`` only; before each call the parser
    calls :meth:`start_game`, and afterwards ``first_line`` is the first line of that
    game that was neither blank nor a ``%``/``;`` escape, and ``tag_lines`` how many of its
    lines looked like tag pairs.

    It also mends one common defect: python-chess skips a game's movetext up to the next
    blank line, so a game whose tags follow the previous game's movetext without a blank
    line would be swallowed. When a tag pair line comes straight after movetext (outside a
    ``{...}`` comment), the reader hands out a blank line first.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.line_no = 0
        self.first_line: int | None = None
        self.tag_lines = 0
        self._pending: str | None = None
        self._in_comment = False
        self._after_movetext = False

    def start_game(self) -> None:
        self.first_line = None
        self.tag_lines = 0

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed's
        if self._pending is not None:
            line, self._pending = self._pending, None
        else:
            line = super().readline(size)
            if not line:
                return line
            if self._after_movetext and not self._in_comment and _TAG_LINE.match(line):
                self._pending = line
                self._after_movetext = False
                return "\n"
        self._count(line)
        self._track(line)
        return line

    def _count(self, line: str) -> None:
        self.line_no += 1
        if self.first_line is None and not (line.isspace() or line.startswith(("%", ";"))):
            self.first_line = self.line_no
        if line.startswith("["):
            self.tag_lines += 1

    def _track(self, line: str) -> None:
        """Follow brace comments, and whether the last line read was movetext."""
        if not self._in_comment:
            if line.isspace():
                self._after_movetext = False
                return
            if line.startswith(("[", "%")):
                return
            self._after_movetext = True
        if ("}" if self._in_comment else "{") not in line:
            return  # nothing changes the comment state on this line
        for char in line:
            if self._in_comment:
                self._in_comment = char != "}"
            elif char == "{":
                self._in_comment = True
            elif char == ";":
                break


def _tag(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        return None
    value = value.strip()
    return None if value in _UNKNOWN else value


def _date_parts(value: str) -> tuple[int | None, int | None, int | None] | None:
    """Year, month, day of a PGN date (None for ``??`` parts), or None if malformed."""
    match = _PGN_DATE.match(value.strip())
    if match is None:
        return None
    parts = (match.group(1), match.group(3), match.group(4))
    year, month, day = (None if "?" in part else int(part) for part in parts)
    return year, month, day


def _full_date(value: str | None) -> date | None:
    if value is None:
        return None
    parts = _date_parts(value)
    if parts is None or None in parts:
        return None
    year, month, day = parts
    assert year is not None and month is not None and day is not None
    return make_date(year, month, day)


def _game_date(headers: Mapping[str, str]) -> tuple[date | None, str | None, str | None]:
    """``(date, note, None)`` or ``(None, None, reason)``."""
    raw = headers.get("Date", "").strip()
    event_date_raw = headers.get("EventDate", "").strip()
    parts = _date_parts(raw) if raw else (None, None, None)
    if parts is None:
        return None, None, f"invalid Date {raw!r}: use YYYY.MM.DD"
    year, month, day = parts
    if year is not None and month is not None and day is not None:
        played = make_date(year, month, day)
        if played is None:
            return None, None, f"impossible Date {raw!r}: no such day"
        return played, None, None
    shown = repr(raw) if raw else "missing"
    event_date = _full_date(event_date_raw)
    if event_date is None:
        return (
            None,
            None,
            (f"incomplete Date {raw!r}" if raw else "missing Date")
            + " and no complete EventDate to stand in for it",
        )
    if (year is not None and year != event_date.year) or (
        month is not None and month != event_date.month
    ):
        return (
            None,
            None,
            (f"incomplete Date {raw!r} does not agree with EventDate {event_date_raw!r}"),
        )
    note = f"Date {shown} is incomplete; EventDate {event_date.isoformat()} used"
    return event_date, note, None


def _player(headers: Mapping[str, str], colour: str, problems: list[str]) -> PlayerInfo:
    name = clean_name(headers.get(colour))
    if name in _UNKNOWN:
        problems.append(f"missing {colour} player name")
        name = ""
    rating, reason = parse_rating(_tag(headers, f"{colour}Elo"), f"{colour}Elo")
    if reason:
        problems.append(reason)
    fide_id, reason = parse_fide_id(_tag(headers, f"{colour}FideId"), f"{colour}FideId")
    if reason:
        problems.append(reason)
    title = _tag(headers, f"{colour}Title")
    return PlayerInfo(
        name=name, fide_id=fide_id, rating=rating, title=title.upper() if title else None
    )


def _game(
    headers: Mapping[str, str], source: str, line: int, tc: TimeControl | None
) -> GameRecord | list[str]:
    reasons: list[str] = []
    raw_result = headers.get("Result")
    result = None
    if raw_result is None:
        reasons.append("missing Result tag")
    else:
        result = _PGN_RESULTS.get(raw_result.strip())
        if result is None:
            reasons.append(f"invalid Result {raw_result!r}: use 1-0, 0-1, 1/2-1/2 or *")
        elif (_tag(headers, "Termination") or "").casefold() == "forfeit":
            result = _FORFEITS.get(result)
            if result is None:
                reasons.append('a draw cannot be a forfeit (Termination "forfeit")')
    white = _player(headers, "White", reasons)
    black = _player(headers, "Black", reasons)
    if white.name and black.name and same_player(white, black):
        reasons.append(f"{white.name!r} is paired with themselves")
    played_on, note, reason = _game_date(headers)
    if reason:
        reasons.append(reason)
    if reasons or result is None or played_on is None:
        return reasons
    return GameRecord(
        source=source,
        line=line,
        white=white,
        black=black,
        result=result,
        played_on=played_on,
        event=_tag(headers, "Event"),
        event_start=_full_date(headers.get("EventDate")),
        site=_tag(headers, "Site"),
        round=_tag(headers, "Round"),
        tc=tc if tc is not None else timecontrol.from_pgn(headers.get("TimeControl")),
        date_note=note,
    )


def parse_pgn(
    data: bytes,
    source: str,
    *,
    tc: TimeControl | None = None,
    encoding: str = "utf-8",
) -> ParseResult:
    """Read every game's tag pairs from a PGN file. Never raises on bad input."""
    tc = check_tc_argument(tc)
    text = decode_input(data, source, encoding)
    if isinstance(text, Problem):
        return ParseResult(problems=(text,), format="pgn")

    reader = _LineCountingReader(text)
    games: list[GameRecord] = []
    problems: list[Problem] = []
    unfinished = 0
    found = 0
    while True:
        reader.start_game()
        try:
            headers = chess.pgn.read_headers(reader)
        except Exception as error:  # python-chess should not raise here; be safe anyway
            line = reader.first_line or reader.line_no
            problems.append(Problem(source, line, f"unreadable PGN ({error})"))
            break
        if headers is None:
            break
        found += 1
        line = reader.first_line or reader.line_no
        if reader.tag_lines == 0:
            problems.append(
                Problem(source, line, "text outside any game (no tag pairs before it); ignored")
            )
            continue
        if headers.get("Result", "").strip() == "*":
            unfinished += 1
            continue
        outcome = _game(headers, source, line, tc)
        if isinstance(outcome, GameRecord):
            games.append(outcome)
        else:
            problems.extend(Problem(source, line, reason) for reason in outcome)

    if found == 0:
        problems.append(Problem(source, 0, "no games found"))
    return ParseResult(
        games=tuple(games),
        problems=tuple(problems),
        skipped_unfinished=unfinished,
        format="pgn",
    )
