"""FIDE Tournament Report Files (TRF16 and TRF-2026) -> games and byes.

Records read (columns are 1-based, as in FIDE's specification):

* ``012`` tournament name, ``022`` city (the games' ``site``), ``042`` start date, ``052``
  end date, ``132`` round dates (``YY/MM/DD`` at columns 92-99, 102-109, ..., the layout of
  the player records' rounds), and TRF-2026's ``222`` encoded time control (``5400+30``,
  ``40/6000+30:900+30``...) to class the games; the caller's ``tc`` is for a file without
  one. The ``122`` record is free text ("90 min + 30 s") and is not interpreted: without
  ``222`` and without ``tc`` the games' ``tc`` is None.
* ``001`` player records: starting rank (5-8), sex (10), title (11-13), name (15-47),
  rating (49-52), federation (54-56), FIDE id (58-68), birth date (70-79: ``YYYY/MM/DD``,
  ``YYYY.MM.DD`` or just ``YYYY``; only the year is kept) and, for round n, opponent's
  starting rank / colour / result at columns 92-95 / 97 / 99 shifted by 10(n-1).

Every other record (``032``, ``062``-``112``, ``142``..., ``XXR``, ``XXC``,
``###`` comments, ``DAT``, national records...) is ignored. Short lines are read as if
padded with blanks; the number of rounds is the largest found on any player record.

Representation of the result codes (case-insensitive):

* ``1`` ``=`` ``0`` with an opponent: a played game, ``1-0`` / ``1/2-1/2`` / ``0-1``.
* ``+`` ``-``: forfeit, ``+-`` / ``-+`` (stored, never rated). Both players ``-``
  (a double forfeit) is no game: counted in ``skipped_other``.
* ``W`` ``L`` (won / lost, less than one move played): like forfeits, ``+-`` / ``-+``,
  since they are unplayed and never rated. ``D`` (drawn, less than one move) has no
  forfeit equivalent: counted in ``skipped_other``. ``L`` against ``L`` likewise.
* An opponent with no result yet (blank on both records, or ``Z`` on both as Lichess writes
  a game in progress): counted in ``skipped_unfinished``.
* No opponent (``0000`` or blank): a :class:`ByeRecord`. ``H`` half-point, ``F`` full-point,
  ``U`` pairing-allocated and ``Z`` zero-point byes keep their letter; a blank result
  (absent, not paired) is ``Z``; lenient readings for codes some programs write there:
  ``+`` ``1`` ``W`` -> ``F``, ``=`` ``D`` -> ``H``, ``-`` ``0`` ``L`` -> ``Z``.

Each game is listed on both players' records. It is emitted once, from the white player's
record (its ``line``), after checking that both records agree (opponents point at each
other, colours are opposite, results complement each other); a disagreement is a problem
and the game is left out. When neither record gives a colour (possible for unplayed games),
the player with the lower starting rank is taken as white. A played game without colours is
a problem.

Dates
-----

042, 052 and the 132 round dates are read as programs really write them (see
:func:`tracker.importers.dates.read_file_date`: ``2005/07/28``, ``28. 07. 2005``, ``Jun 26,
2020``, ``28 Jul 2005``, a range whose first date is taken...). A date that can be read
several ways (a two-digit year, ``07/06/2005``) is cross-checked with the file's other
dates: the reading is kept under which the start is not after the end, every round date
lies between them (the first within :data:`ROUND_SLACK_DAYS` of the start, the last within
as many of the end), the round dates do not go backwards and the whole tournament spans at
most :data:`MAX_SPAN_DAYS`. If no reading agrees, that is ONE problem (the file contradicts
itself) and no game gets a date; a date that is not a date at all is one problem too,
never one per game. A reading chosen by the cross-check, or assumed without anything to
check it against, is a warning.

A game's date is its round date from ``132``; without one, the tournament's start date
stands in (``date_note`` says so): ``042``, or the caller's ``event_start`` for a file that
gives none (pairing-engine inputs, chess-results exports). Without either, the file has one
problem and its games are invalid. Rounds without a date are all dated on the start day;
they are not spread over the tournament's days.

Player records
--------------

An unknown sex or title code (``u``, ``AGM``...) is a warning and the field is left empty;
the player is valid. Each distinct code is reported once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from datetime import date
from itertools import product
from typing import Final

from tracker.importers import dates, timecontrol
from tracker.importers.records import (
    ByeKind,
    ByeRecord,
    GameRecord,
    GameStream,
    ParseResult,
    PlayerInfo,
    Problem,
    Sex,
    TextStream,
    check_tc_argument,
    clean_name,
    parse_fide_id,
    parse_rating,
    split_lines,
)
from tracker.vocabulary import TimeControl

ROUND_START: Final = 92  # column of round 1's opponent
ROUND_WIDTH: Final = 10
#: The longest a tournament's dates may span (a season-long league fits).
MAX_SPAN_DAYS: Final = 366
#: The most days between the start date and the first round date, and between the last
#: round date and the end date.
ROUND_SLACK_DAYS: Final = 31

_TITLES: Final[dict[str, str]] = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
    **{title.casefold(): title for title in ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")},
}
_SEXES: Final[dict[str, Sex]] = {"m": "m", "w": "f", "f": "f"}
_GAME_CODES: Final = frozenset("1=0+-WDL")
_BYE_CODES: Final[dict[str, ByeKind]] = {
    "H": "H",
    "F": "F",
    "U": "U",
    "Z": "Z",
    " ": "Z",
    "+": "F",
    "1": "F",
    "W": "F",
    "=": "H",
    "D": "H",
    "-": "Z",
    "0": "Z",
    "L": "Z",
}
#: (this player's code, opponent's code) pairs that agree.
_AGREEING: Final = frozenset(
    {
        ("1", "0"),
        ("0", "1"),
        ("=", "="),
        ("+", "-"),
        ("-", "+"),
        ("W", "L"),
        ("L", "W"),
        ("D", "D"),
        ("-", "-"),
        ("L", "L"),
        (" ", " "),
    }
)
_WHITE_RESULT: Final[dict[str, str]] = {
    "1": "1-0",
    "0": "0-1",
    "=": "1/2-1/2",
    "+": "+-",
    "-": "-+",
    "W": "+-",
    "L": "-+",
}


@dataclass(frozen=True, slots=True)
class _Slot:
    opponent: int  # 0: none
    colour: str  # "w", "b" or "-"
    code: str  # upper case; " " when blank


@dataclass(slots=True)
class _Player:
    rank: int
    line: int
    info: PlayerInfo | None  # None when the record itself is invalid (already reported)
    slots: dict[int, _Slot | None] = field(default_factory=dict)  # None: malformed entry


@dataclass(frozen=True, slots=True)
class _DateField:
    """A date record of the file (042, 052, or one round of 132) and its readings."""

    line: int
    what: str  # "042 start date", "052 end date", "round 3 date (132)"
    value: dates.FileDate


@dataclass(slots=True)
class _Tournament:
    name: str | None = None
    city: str | None = None
    start_field: _DateField | None = None
    end_field: _DateField | None = None
    round_fields: dict[int, _DateField] = field(default_factory=dict)
    tc_texts: list[str] = field(default_factory=list)
    # The dates as resolved by _resolve_dates
    start: date | None = None
    start_given: bool = False  # by the caller (event_start), not by the file
    round_dates: dict[int, date] = field(default_factory=dict)
    date_problem: bool = False  # the file's dates are unusable, and that was reported


def _columns(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive) of a line; blanks past its end."""
    return line[first - 1 : last].ljust(last - first + 1)


def _round_start(round_no: int) -> int:
    return ROUND_START + ROUND_WIDTH * (round_no - 1)


def _rounds_on(line: str) -> int:
    """How many round entries a (right-stripped) record line reaches into."""
    length = len(line.rstrip())
    if length < ROUND_START:
        return 0
    return (length - ROUND_START) // ROUND_WIDTH + 1


@dataclass(slots=True)
class _Codes:
    """Unknown sex and title codes: each distinct one reported once, with its count."""

    seen: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))

    def note(self, what: str, code: str, line: int) -> None:
        self.seen[(what, code)].append(line)

    def warnings(self, source: str) -> list[Problem]:
        out = []
        for (what, code), lines in self.seen.items():
            count = len(lines)
            where = f"{count} player records" if count > 1 else "1 player record"
            out.append(
                Problem(
                    source,
                    lines[0],
                    f"unknown {what} code {code!r} ({where}): left empty",
                )
            )
        return out


def _title(text: str, line_no: int, codes: _Codes) -> str | None:
    value = text.strip()
    if not value:
        return None
    title = _TITLES.get(value.casefold())
    if title is None:
        codes.note("title", value, line_no)
    return title


def _player_record(
    line: str, line_no: int, source: str, problems: list[Problem], codes: _Codes
) -> _Player | None:
    """A player record; None (after reporting why) when even its starting rank is unusable."""
    rank_text = _columns(line, 5, 8).strip()
    if not (rank_text.isascii() and rank_text.isdigit()) or int(rank_text) == 0:
        problems.append(
            Problem(source, line_no, f"player record without a valid starting rank ({rank_text!r})")
        )
        return None
    reasons: list[str] = []
    sex_text = _columns(line, 10, 10).strip()
    sex = _SEXES.get(sex_text.casefold())
    if sex_text and sex is None:
        codes.note("sex", sex_text, line_no)
    name = clean_name(_columns(line, 15, 47))
    if not name:
        reasons.append("empty player name")
    rating, reason = parse_rating(_columns(line, 49, 52), "rating")
    if reason:
        reasons.append(reason)
    federation = _columns(line, 54, 56).strip().upper() or None
    fide_id, reason = parse_fide_id(_columns(line, 58, 68), "FIDE id")
    if reason:
        reasons.append(reason)
    birth_year, reason = dates.birth_year(_columns(line, 70, 79))
    if reason:
        reasons.append(reason)
    problems.extend(
        Problem(source, line_no, f"player {int(rank_text)}: {reason}") for reason in reasons
    )
    title = _title(_columns(line, 11, 13), line_no, codes)
    info = None
    if not reasons:
        info = PlayerInfo(
            name=name,
            fide_id=fide_id,
            rating=rating,
            federation=federation,
            birth_year=birth_year,
            sex=sex,
            title=title,
            line=line_no,
        )
    return _Player(rank=int(rank_text), line=line_no, info=info)


def _slot(
    line: str, round_no: int, rank: int, line_no: int, source: str, problems: list[Problem]
) -> _Slot | None:
    start = _round_start(round_no)
    entry = _columns(line, start, start + 7)
    opponent_text, colour, code = entry[0:4].strip(), entry[5].casefold(), entry[7].upper()
    reasons: list[str] = []
    if entry[4] != " " or entry[6] != " ":
        reasons.append(f"malformed entry {entry.strip()!r} (misaligned columns?)")
    elif opponent_text and not (opponent_text.isascii() and opponent_text.isdigit()):
        reasons.append(f"opponent {opponent_text!r} is not a starting rank")
    elif colour not in {"w", "b", "-", " "}:
        reasons.append(f"unknown colour {entry[5]!r} (use w, b or -)")
    elif code not in _GAME_CODES and code not in _BYE_CODES:
        reasons.append(f"unknown result code {entry[7]!r}")
    if reasons:
        problems.extend(
            Problem(source, line_no, f"player {rank}, round {round_no}: {reason}")
            for reason in reasons
        )
        return None
    return _Slot(
        opponent=int(opponent_text) if opponent_text else 0,
        colour="-" if colour == " " else colour,
        code=code,
    )


def _white_side(first: _Slot, second: _Slot) -> int | None:
    """0 if the first slot's player had white, 1 if the second's, None if unknown, -1 if the
    records contradict each other."""
    colours = (first.colour, second.colour)
    if colours in {("w", "b"), ("w", "-"), ("-", "b")}:
        return 0
    if colours in {("b", "w"), ("b", "-"), ("-", "w")}:
        return 1
    if colours == ("-", "-"):
        return None
    return -1


@dataclass(slots=True)
class _Collector:
    source: str
    tournament: _Tournament
    tc: TimeControl | None
    games: list[tuple[int, int, GameRecord]] = field(default_factory=list)
    byes: list[tuple[int, int, ByeRecord]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    lost: set[tuple[object, ...]] = field(default_factory=set)  # games left out by a problem
    undated: int = 0  # games without any date
    unfinished: int = 0
    other: int = 0

    def date_for(self, round_no: int) -> tuple[date | None, str | None]:
        round_date = self.tournament.round_dates.get(round_no)
        if round_date is not None:
            return round_date, None
        start = self.tournament.start
        if start is not None:
            whose = "tournament start date"
            if self.tournament.start_given:
                whose = "the given event start"
            return start, (
                f"no date for round {round_no} in the 132 record; {whose} {start.isoformat()} used"
            )
        return None, None

    def lose(self, round_no: int, a: int, b: int) -> None:
        self.lost.add((round_no, min(a, b), max(a, b)))

    def bye(self, player: _Player, round_no: int, slot: _Slot) -> None:
        if player.info is None:
            return
        played_on, _ = self.date_for(round_no)
        record = ByeRecord(
            source=self.source,
            line=player.line,
            player=player.info,
            round=str(round_no),
            kind=_BYE_CODES[slot.code],
            event=self.tournament.name,
            played_on=played_on,
        )
        self.byes.append((round_no, player.line, record))

    def pair(self, first: _Player, second: _Player, round_no: int) -> None:
        """The game of two players (first has the lower rank) whose records point at each
        other in this round."""
        slot_a, slot_b = first.slots[round_no], second.slots[round_no]
        assert slot_a is not None and slot_b is not None
        where = f"round {round_no}, players {first.rank} and {second.rank}"
        side = _white_side(slot_a, slot_b)
        if side == -1:
            self.lose(round_no, first.rank, second.rank)
            self.problems.append(
                Problem(
                    self.source,
                    first.line,
                    f"{where}: both records give colour {slot_a.colour!r} "
                    f"(other record at line {second.line})",
                )
            )
            return
        codes = (slot_a.code, slot_b.code)
        if codes == ("Z", "Z"):
            self.unfinished += 1  # paired, not played yet (Lichess writes Z for it)
            return
        if codes not in _AGREEING:
            self.lose(round_no, first.rank, second.rank)
            line = second.line if side == 1 else first.line
            other_line = first.line if side == 1 else second.line
            self.problems.append(
                Problem(
                    self.source,
                    line,
                    f"{where}: results disagree ({slot_a.code.strip() or 'blank'!r} for "
                    f"player {first.rank}, {slot_b.code.strip() or 'blank'!r} for player "
                    f"{second.rank}; other record at line {other_line})",
                )
            )
            return
        code = slot_a.code
        if code == " ":
            self.unfinished += 1
            return
        if code == "D" or codes in {("-", "-"), ("L", "L")}:
            # an unplayed draw or a double forfeit: no game, no winner
            self.other += 1
            return
        if side is None and code in "10=":
            self.lose(round_no, first.rank, second.rank)
            self.problems.append(
                Problem(self.source, first.line, f"{where}: no colours for a played game")
            )
            return
        if first.info is None or second.info is None:
            self.lose(round_no, first.rank, second.rank)
            return  # the player record is invalid and was reported
        white, black = (second, first) if side == 1 else (first, second)
        white_slot = slot_b if side == 1 else slot_a
        played_on, note = self.date_for(round_no)
        if played_on is None:
            self.lose(round_no, first.rank, second.rank)  # the file's dates: reported once
            self.undated += 1
            return
        assert white.info is not None and black.info is not None
        record = GameRecord(
            source=self.source,
            line=white.line,
            white=white.info,
            black=black.info,
            result=_WHITE_RESULT[white_slot.code],
            played_on=played_on,
            event=self.tournament.name,
            event_start=self.tournament.start,
            site=self.tournament.city,
            round=str(round_no),
            tc=self.tc,
            date_note=note,
        )
        self.games.append((round_no, white.line, record))


def _read_tournament(
    lines: list[str], source: str, problems: list[Problem]
) -> tuple[_Tournament, list[tuple[int, str]]]:
    """Tournament data, and the player record lines with their numbers."""
    tournament = _Tournament()
    player_lines: list[tuple[int, str]] = []
    seen_round_dates = False
    for number, line in enumerate(lines, start=1):
        kind, rest = line[:3], line[4:].strip()
        if kind == "001":
            player_lines.append((number, line))
        elif kind == "012" and tournament.name is None:
            tournament.name = rest or None
        elif kind == "022" and tournament.city is None:
            tournament.city = rest or None
        elif kind == "042" and rest and tournament.start_field is None:
            tournament.start_field = _DateField(
                number, "042 start date", dates.read_file_date(rest)
            )
        elif kind == "052" and rest and tournament.end_field is None:
            tournament.end_field = _DateField(number, "052 end date", dates.read_file_date(rest))
        elif kind == "222" and rest:
            tournament.tc_texts.append(rest)
        elif kind == "132" and not seen_round_dates:
            seen_round_dates = True
            for round_no in range(1, _rounds_on(line) + 1):
                start = _round_start(round_no)
                text = _columns(line, start, start + ROUND_WIDTH - 1).strip()
                if text:
                    tournament.round_fields[round_no] = _DateField(
                        number, f"round {round_no} date (132)", dates.read_file_date(text)
                    )
    return tournament, player_lines


# ---------------------------------------------------------------------------------------
# The tournament's dates


@dataclass(frozen=True, slots=True)
class _Reading:
    start: date | None
    end: date | None
    rounds: dict[int, date]
    rank: int  # 0: every date read the usual way


def _contradiction(reading: _Reading, tournament: _Tournament) -> tuple[int, str] | None:
    """Why a reading of the file's dates cannot be right (line, reason), or None."""
    start, end, rounds = reading.start, reading.end, reading.rounds
    start_line = tournament.start_field.line if tournament.start_field else 0
    the_start = "the given event start" if tournament.start_given else "the start date"
    end_line = tournament.end_field.line if tournament.end_field else start_line
    if start is not None and end is not None:
        if end < start:
            return end_line, f"the end date {end} is before {the_start} {start}"
        if (end - start).days > MAX_SPAN_DAYS:
            return end_line, (
                f"the end date {end} is {(end - start).days} days after {the_start} {start}"
            )
    if rounds:
        first_number, last_number = min(rounds), max(rounds)
        first_day, last_day = rounds[first_number], rounds[last_number]
        if start is not None and (first_day - start).days > ROUND_SLACK_DAYS:
            return tournament.round_fields[first_number].line, (
                f"round {first_number} is dated {first_day}, "
                f"{(first_day - start).days} days after {the_start} {start}"
            )
        if end is not None and (end - last_day).days > ROUND_SLACK_DAYS:
            return end_line, (
                f"the end date {end} is {(end - last_day).days} days after the last round "
                f"({last_day})"
            )
    previous: tuple[int, date] | None = None
    for number in sorted(rounds):
        day = rounds[number]
        line = tournament.round_fields[number].line
        if start is not None and day < start:
            return line, f"round {number} is dated {day}, before {the_start} {start}"
        if end is not None and day > end:
            return line, f"round {number} is dated {day}, after the end date {end}"
        if previous is not None and day < previous[1]:
            return line, (
                f"round {number} is dated {day}, before round {previous[0]} ({previous[1]})"
            )
        previous = (number, day)
    return None


def _readings(tournament: _Tournament) -> list[_Reading]:
    """Every way of reading the file's dates, the usual one first."""
    start_field, end_field = tournament.start_field, tournament.end_field
    starts: list[tuple[int, date | None]] = [(0, None)]
    if start_field is not None and start_field.value.ok:
        starts = list(enumerate(start_field.value.readings))
    ends: list[tuple[int, date | None]] = [(0, None)]
    if end_field is not None and end_field.value.ok:
        ends = list(enumerate(end_field.value.readings))
    elif start_field is not None and start_field.value.end is not None:
        ends = [(0, start_field.value.end)]  # a range in 042
    readable = {n: f for n, f in tournament.round_fields.items() if f.value.ok}
    round_options: list[tuple[int, dict[int, date]]] = []
    if readable:
        for rank, order in enumerate(("ymd", "dmy", "mdy")):
            rounds = {n: f.value.reading(order) for n, f in readable.items()}
            if all(day is not None for day in rounds.values()):
                round_options.append((rank, {n: d for n, d in rounds.items() if d is not None}))
        if not round_options:  # mixed layouts: each date its usual way
            first = {n: f.value.first for n, f in readable.items()}
            round_options.append((3, {n: d for n, d in first.items() if d is not None}))
    else:
        round_options.append((0, {}))
    return sorted(
        (
            _Reading(s, e, rounds, rank_s + rank_e + rank_r)
            for (rank_s, s), (rank_e, e), (rank_r, rounds) in product(starts, ends, round_options)
        ),
        key=lambda r: r.rank,
    )


def _resolve_dates(
    tournament: _Tournament,
    event_start: date | None,
    source: str,
    problems: list[Problem],
    warnings: list[Problem],
) -> None:
    """Choose the reading of the file's dates (see the module docstring) and set the
    tournament's start and round dates; report unreadable or contradictory dates once."""
    start_field, end_field = tournament.start_field, tournament.end_field
    if start_field is not None and not start_field.value.ok:
        if event_start is None:
            problems.append(
                Problem(
                    source,
                    start_field.line,
                    f"invalid start date {start_field.value.text!r} (042): write it "
                    "YYYY/MM/DD, or give the event's start with --event-start",
                )
            )
        else:
            warnings.append(
                Problem(
                    source,
                    start_field.line,
                    f"unreadable start date {start_field.value.text!r} (042); "
                    f"the given event start {event_start} used",
                )
            )
    if end_field is not None and not end_field.value.ok:
        warnings.append(
            Problem(
                source,
                end_field.line,
                f"unreadable end date {end_field.value.text!r} (052) ignored",
            )
        )
    for number, round_field in tournament.round_fields.items():
        if not round_field.value.ok:
            problems.append(
                Problem(
                    source,
                    round_field.line,
                    f"invalid date {round_field.value.text!r} for round {number}",
                )
            )
            tournament.date_problem = True
    readings = _readings(tournament)
    if (start_field is None or not start_field.value.ok) and event_start is not None:
        readings = [_Reading(event_start, r.end, r.rounds, r.rank) for r in readings]
        tournament.start_given = True
    usable = [r for r in readings if _contradiction(r, tournament) is None]
    if not usable:
        # Round dates that are no date in TRF's own YY/MM/DD (26/02/30): those are the
        # problem, not the order of the others.
        misfits = [
            n
            for n, f in tournament.round_fields.items()
            if f.value.ok and f.value.two_digit_year and f.value.reading("ymd") is None
        ]
        if misfits and len(misfits) < len(tournament.round_fields):
            for number in misfits:
                f = tournament.round_fields.pop(number)
                problems.append(
                    Problem(source, f.line, f"invalid date {f.value.text!r} for round {number}")
                )
                tournament.date_problem = True
            readings = _readings(tournament)
            if tournament.start_given:
                readings = [_Reading(event_start, r.end, r.rounds, r.rank) for r in readings]
            usable = [r for r in readings if _contradiction(r, tournament) is None]
    if not usable:
        line, reason = _contradiction(readings[0], tournament) or (0, "")
        problems.append(
            Problem(source, line, f"the file's dates disagree: {reason}; no game is dated")
        )
        tournament.date_problem = True
        return
    chosen = usable[0]
    tournament.start = chosen.start
    tournament.round_dates = dict(chosen.rounds)
    _note_readings(tournament, chosen, usable, readings[0], source, warnings)
    if start_field is not None and not start_field.value.ok and event_start is None:
        tournament.date_problem = True  # the invalid 042, reported above


def _note_readings(
    tournament: _Tournament,
    chosen: _Reading,
    usable: list[_Reading],
    usual: _Reading,
    source: str,
    warnings: list[Problem],
) -> None:
    """Say how a date that can be read several ways was read. TRF's own 132 layout
    (``YY/MM/DD``) read as specified needs no word."""
    first_round = min(tournament.round_fields) if tournament.round_fields else None

    def value(f: _DateField, r: _Reading) -> date | None:
        if f is tournament.start_field:
            return r.start
        if f is tournament.end_field:
            return r.end
        return r.rounds.get(first_round) if first_round is not None else None

    fields = [tournament.start_field, tournament.end_field]
    if first_round is not None:
        fields.append(tournament.round_fields[first_round])
    for f in fields:
        if f is None or not f.value.ok or not (f.value.ambiguous or f.value.two_digit_year):
            continue
        day = value(f, chosen)
        if day is None:
            continue
        is_round = f not in (tournament.start_field, tournament.end_field)
        others = sorted({value(f, r) for r in usable} - {day, None})  # type: ignore[type-var]
        label = "the 132 round dates, from" if is_round else f.what
        if others:
            shown = ", ".join(str(d) for d in others)
            why = f"also readable as {shown}: check the file"
        elif day != value(f, usual):
            why = "the only reading that agrees with the file's other dates"
        elif is_round and f.value.by_order[0][0] == "ymd":
            continue  # as the TRF specification lays 132 out
        else:
            why = "a two-digit year" if f.value.two_digit_year else "the usual reading"
        warnings.append(Problem(source, f.line, f"{label} {f.value.text!r} read as {day} ({why})"))


def _inferred_tc(tournament: _Tournament) -> TimeControl | None:
    for text in tournament.tc_texts:
        found = timecontrol.from_trf(text)
        if found is not None:
            return found
    return None


def parse_trf(
    data: bytes,
    source: str,
    *,
    tc: TimeControl | None = None,
    encoding: str = "utf-8",
    event_start: date | None = None,
) -> ParseResult:
    """Read the games and byes of a FIDE TRF file. Never raises on bad input.

    ``event_start`` is the tournament's start for a file that gives none (no readable 042):
    rounds without a 132 date are dated on it."""
    return stream_trf((data,), source, tc=tc, encoding=encoding, event_start=event_start).collect()


def stream_trf(
    blocks: Iterable[bytes],
    source: str,
    *,
    tc: TimeControl | None = None,
    encoding: str = "utf-8",
    event_start: date | None = None,
) -> GameStream:
    """:func:`parse_trf` as a :class:`GameStream`. A TRF is one tournament, read whole (its
    games come from its players' lines, all rounds on each)."""
    tc = check_tc_argument(tc)
    text = TextStream(blocks, source, encoding)
    return GameStream("trf", _games(text, source, tc, event_start), text)


def _games(
    stream: TextStream, source: str, tc: TimeControl | None, event_start: date | None
) -> Generator[GameRecord, None, ParseResult]:
    text = stream.text()
    if stream.problem is not None:
        return ParseResult(problems=(stream.problem,), format="trf")
    problems: list[Problem] = []
    warnings: list[Problem] = []
    tournament, player_lines = _read_tournament(split_lines(text), source, problems)
    if not player_lines:
        problems.append(Problem(source, 0, "no player records (001 lines); is this a TRF file?"))
        return ParseResult(problems=tuple(problems), format="trf")
    _resolve_dates(tournament, event_start, source, problems, warnings)

    codes = _Codes()
    players: dict[int, _Player] = {}
    rounds = max(_rounds_on(line) for _, line in player_lines)
    for number, line in player_lines:
        player = _player_record(line, number, source, problems, codes)
        if player is None:
            continue
        if player.rank in players:
            problems.append(
                Problem(
                    source,
                    number,
                    f"starting rank {player.rank} is used twice "
                    f"(first at line {players[player.rank].line}); record ignored",
                )
            )
            continue
        for round_no in range(1, rounds + 1):
            player.slots[round_no] = _slot(line, round_no, player.rank, number, source, problems)
        players[player.rank] = player
    warnings.extend(codes.warnings(source))

    collector = _Collector(source, tournament, _inferred_tc(tournament) or tc)
    malformed = 0
    for player in players.values():
        for round_no, slot in player.slots.items():
            if slot is None:
                malformed += 1  # reported; its game (if it was one) is lost
                continue
            if slot.opponent == 0:
                if slot.code in _BYE_CODES:
                    collector.bye(player, round_no, slot)
                continue
            where = f"player {player.rank}, round {round_no}"
            if slot.opponent == player.rank:
                collector.lose(round_no, player.rank, player.rank)
                problems.append(Problem(source, player.line, f"{where}: paired with themselves"))
                continue
            if slot.code in _BYE_CODES and slot.code not in _GAME_CODES and slot.code not in " Z":
                collector.lose(round_no, player.rank, slot.opponent)
                problems.append(
                    Problem(
                        source,
                        player.line,
                        f"{where}: bye code {slot.code!r} with an opponent ({slot.opponent})",
                    )
                )
                continue
            other = players.get(slot.opponent)
            if other is None:
                collector.lose(round_no, player.rank, slot.opponent)
                problems.append(
                    Problem(
                        source,
                        player.line,
                        f"{where}: opponent {slot.opponent} has no valid player record",
                    )
                )
                continue
            other_slot = other.slots.get(round_no)
            if other_slot is None:
                continue  # malformed, reported on the other line (and counted there)
            if other_slot.opponent != player.rank:
                listed = f"opponent {other_slot.opponent}" if other_slot.opponent else "no opponent"
                collector.lose(round_no, player.rank, other.rank)
                problems.append(
                    Problem(
                        source,
                        player.line,
                        f"{where}: opponent {other.rank} has {listed} in that round "
                        f"(line {other.line})",
                    )
                )
                continue
            if player.rank < other.rank:
                collector.pair(player, other, round_no)
    if collector.undated and not tournament.date_problem:
        problems.append(
            Problem(
                source,
                0,
                "no dates: the file has no 042 start date and no 132 round dates; "
                "give the event's start with --event-start YYYY-MM-DD",
            )
        )
    problems.extend(collector.problems)
    problems.sort(key=lambda problem: problem.line)
    warnings.sort(key=lambda warning: warning.line)
    for *_, record in sorted(collector.games, key=lambda g: g[:2]):
        yield record
    return ParseResult(
        byes=tuple(record for *_, record in sorted(collector.byes, key=lambda b: b[:2])),
        problems=tuple(problems),
        warnings=tuple(warnings),
        invalid=len(collector.lost) + malformed,
        skipped_unfinished=collector.unfinished,
        skipped_other=collector.other,
        format="trf",
    )
