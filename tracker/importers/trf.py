"""FIDE Tournament Report Files (TRF16 and TRF-2026) -> games and byes.

Records read (columns are 1-based, as in FIDE's specification):

* ``012`` tournament name, ``022`` city (the games' ``site``), ``042`` start date, ``052``
  end date, ``132`` round dates (``YY/MM/DD`` at columns 92-99, 102-109, ..., the layout of
  the player records' rounds), and the time control that classes the games: TRF-2026's
  ``222`` encoded (``5400+30``, ``40/6000+30:900+30``...), else the free text of ``122``
  ("90 min + 30 s"; :func:`tracker.importers.timecontrol.from_text`); without either the
  games' ``tc`` is None.
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
* No opponent (``0000``): a :class:`ByeRecord`. ``H`` half-point, ``F`` full-point,
  ``U`` pairing-allocated and ``Z`` zero-point byes keep their letter; a blank result
  (absent, not paired) is ``Z``; lenient readings for codes some programs write there:
  ``+`` ``1`` ``W`` -> ``F``, ``=`` ``D`` -> ``H``, ``-`` ``0`` ``L`` -> ``Z``. An entry
  left wholly blank is no bye: the player was not in that round (a team league's lineup).

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

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from tracker.importers import dates, timecontrol
from tracker.importers.records import (
    ByeRecord,
    EventInfo,
    GameRecord,
    ParseResult,
    Problem,
    TextStream,
    event_kind,
    split_lines,
)
from tracker.importers.timecontrol import TimeClass
from tracker.importers.trf_dates import DateField, Tournament, resolve_dates
from tracker.importers.trf_records import (
    BYE_CODES,
    GAME_CODES,
    ROUND_WIDTH,
    Codes,
    Slot,
    TrfPlayer,
    columns,
    player_record,
    round_start,
    rounds_on,
    slot_of,
)
from tracker.vocabulary import plays_self

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
#: The results of the records' codes (a double forfeit, both ``-``, is ``0-0``).
_WHITE_RESULT: Final[dict[str, str]] = {
    "1": "1-0",
    "0": "0-1",
    "=": "1/2-1/2",
    "+": "+-",
    "-": "-+",
    "W": "+-",
    "L": "-+",
}


def _white_side(first: Slot, second: Slot) -> int | None:
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
    tournament: Tournament
    tc: tuple[TimeClass | None, str | None]  # the file's control: its class, its words
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

    def refuse(
        self, round_no: int, first: TrfPlayer, second: TrfPlayer, line: int, why: str
    ) -> None:
        """The game of two players in a round left out, for a problem at ``line``."""
        self.lose(round_no, first.rank, second.rank)
        where = f"round {round_no}, players {first.rank} and {second.rank}"
        self.problems.append(Problem(self.source, line, f"{where}: {why}"))

    def bye(self, player: TrfPlayer, round_no: int, slot: Slot) -> None:
        if player.info is None:
            return
        played_on, _ = self.date_for(round_no)
        record = ByeRecord(
            source=self.source,
            line=player.line,
            player=player.info,
            round=str(round_no),
            kind=BYE_CODES[slot.code],
            event=self.tournament.name,
            played_on=played_on,
        )
        self.byes.append((round_no, player.line, record))

    def pair(self, first: TrfPlayer, second: TrfPlayer, round_no: int) -> None:
        """The game of two players (first has the lower rank) whose records point at each
        other in this round."""
        slot_a, slot_b = first.slots[round_no], second.slots[round_no]
        assert slot_a is not None and slot_b is not None
        side = _white_side(slot_a, slot_b)
        if side == -1:
            why = f"both records give colour {slot_a.colour!r} (other record at line {second.line})"
            self.refuse(round_no, first, second, first.line, why)
            return
        codes = (slot_a.code, slot_b.code)
        if codes == ("Z", "Z"):
            self.unfinished += 1  # paired, not played yet (Lichess writes Z for it)
            return
        if codes not in _AGREEING:
            line, other_line = (second.line, first.line) if side == 1 else (first.line, second.line)
            why = (
                f"results disagree ({slot_a.code.strip() or 'blank'!r} for player {first.rank}, "
                f"{slot_b.code.strip() or 'blank'!r} for player {second.rank}; other record at "
                f"line {other_line})"
            )
            self.refuse(round_no, first, second, line, why)
            return
        code = slot_a.code
        if code == " ":
            self.unfinished += 1
            return
        if code == "D" or codes == ("L", "L"):
            # an unplayed draw: no game, no winner (a double forfeit is one: 0-0)
            self.other += 1
            return
        if side is None and code in "10=":
            self.refuse(round_no, first, second, first.line, "no colours for a played game")
            return
        if first.info is None or second.info is None:
            self.lose(round_no, first.rank, second.rank)
            return  # the player record is invalid and was reported
        white, black = (second, first) if side == 1 else (first, second)
        white_slot = slot_b if side == 1 else slot_a
        result = "0-0" if codes == ("-", "-") else _WHITE_RESULT[white_slot.code]
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
            result=result,
            played_on=played_on,
            event=self.tournament.name,
            event_start=self.tournament.start,
            site=self.tournament.city,
            round=str(round_no),
            tc=self.tc[0],
            date_note=note,
            tc_text=self.tc[1],
        )
        self.games.append((round_no, white.line, record))


def _read_tournament(lines: list[str]) -> tuple[Tournament, list[tuple[int, str]]]:
    """Tournament data, and the player record lines with their numbers."""
    tournament = Tournament()
    player_lines: list[tuple[int, str]] = []
    seen_round_dates = False  # the first 132 gives them
    for number, line in enumerate(lines, start=1):
        kind = line[:3]
        if kind == "001":
            player_lines.append((number, line))
        elif kind == "132":
            if not seen_round_dates:
                _round_dates(tournament, number, line)
            seen_round_dates = True
        else:
            header = _HEADERS.get(kind)
            rest = line[4:].strip()
            if header is not None and rest:
                header(tournament, number, rest)
    return tournament, player_lines


def _first(attribute: str) -> Callable[[Tournament, int, str], None]:
    """A header record whose first occurrence gives the tournament's ``attribute``."""

    def keep(tournament: Tournament, _number: int, rest: str) -> None:
        if getattr(tournament, attribute) is None:
            setattr(tournament, attribute, rest)

    return keep


def _date(attribute: str, what: str) -> Callable[[Tournament, int, str], None]:
    """A date record whose first occurrence gives the tournament's ``attribute``."""

    def keep(tournament: Tournament, number: int, rest: str) -> None:
        if getattr(tournament, attribute) is None:
            setattr(tournament, attribute, DateField(number, what, dates.read_file_date(rest)))

    return keep


def _control(tournament: Tournament, _number: int, rest: str) -> None:
    tournament.tc_texts.append(rest)


def _total_rounds(tournament: Tournament, _number: int, rest: str) -> None:
    if rest.isdigit() and tournament.total_rounds is None:
        tournament.total_rounds = int(rest) or None


#: The header records read (a record with nothing after its code is ignored): the first of
#: each, but every ``222`` (the first encoded one wins, see :func:`_inferred_tc`).
_HEADERS: Final[dict[str, Callable[[Tournament, int, str], None]]] = {
    "012": _first("name"),
    "022": _first("city"),
    "042": _date("start_field", "042 start date"),
    "052": _date("end_field", "052 end date"),
    "092": _first("kind_text"),
    "122": _first("tc_free"),
    "222": _control,
    "XXR": _total_rounds,
}


def _round_dates(tournament: Tournament, number: int, line: str) -> None:
    """The round dates of the first ``132`` record."""
    for round_no in range(1, rounds_on(line) + 1):
        start = round_start(round_no)
        text = columns(line, start, start + ROUND_WIDTH - 1).strip()
        if text:
            tournament.round_fields[round_no] = DateField(
                number, f"round {round_no} date (132)", dates.read_file_date(text)
            )


def _inferred_tc(tournament: Tournament) -> tuple[TimeClass | None, str | None]:
    """The class of the file's control and its words: from an encoded ``222`` (TRF-2026),
    else the free text of ``122``."""
    for text in tournament.tc_texts:
        found = timecontrol.from_trf(text)
        if found is not None:
            return found, text
    free = tournament.tc_free
    if free is not None:
        return timecontrol.from_text(free), free
    return None, tournament.tc_texts[0] if tournament.tc_texts else None


def read_trf(
    stream: TextStream, source: str, event_start: date | None, date_order: str | None
) -> Generator[GameRecord, None, ParseResult]:
    """A FIDE TRF file's games and byes one at a time; never raises on bad input.
    A TRF is one tournament, read whole (its games come from its players' lines, all rounds on
    each). ``event_start`` is the tournament's start for a file that gives none (no readable
    042): rounds without a 132 date are dated on it. ``date_order`` (one of
    :data:`tracker.importers.dates.ORDERS`) is how to read its numeric dates, instead of the
    reading that agrees with the file's other dates."""
    text = stream.text()
    if stream.problem is not None:
        return ParseResult(problems=(stream.problem,), format="trf")
    problems: list[Problem] = []
    warnings: list[Problem] = []
    tournament, player_lines = _read_tournament(split_lines(text))
    if not player_lines:
        problems.append(Problem(source, 0, "no player records (001 lines); is this a TRF file?"))
        return ParseResult(problems=tuple(problems), format="trf")
    tournament.date_order = date_order
    resolve_dates(tournament, event_start, source, problems, warnings)
    codes = Codes()
    rounds = max(rounds_on(line) for _, line in player_lines)
    players = _players(player_lines, rounds, source, problems, codes)
    warnings.extend(codes.warnings(source))
    collector = _Collector(source, tournament, _inferred_tc(tournament))
    malformed = 0
    for player in players.values():
        for round_no, slot in player.slots.items():
            if slot is None:
                malformed += 1  # reported; its game (if it was one) is lost
            else:
                _pair(collector, players, player, round_no, slot, problems)
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
        events=_declared(tournament, rounds, collector.tc[0]),
        problems=tuple(problems),
        warnings=tuple(warnings),
        invalid=len(collector.lost) + malformed,
        skipped_unfinished=collector.unfinished,
        skipped_other=collector.other,
        event_start_used=tournament.start_given,
        format="trf",
    )


def _players(
    player_lines: list[tuple[int, str]],
    rounds: int,
    source: str,
    problems: list[Problem],
    codes: Codes,
) -> dict[int, TrfPlayer]:
    """The file's players by starting rank, each with his round entries (a record that is
    wrong, or a rank used twice, reported and left out)."""
    players: dict[int, TrfPlayer] = {}
    for number, line in player_lines:
        player = player_record(line, number, source, problems, codes)
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
            player.slots[round_no] = slot_of(line, round_no, player.rank, number, source, problems)
        players[player.rank] = player
    return players


def _pair(
    collector: _Collector,
    players: dict[int, TrfPlayer],
    player: TrfPlayer,
    round_no: int,
    slot: Slot,
    problems: list[Problem],
) -> None:
    """A player's entry of one round: a bye, nothing (a blank), a game (collected from the
    lower rank's side, once both entries agree) or a problem, reported once."""
    source = collector.source
    if slot.opponent == 0:
        # A blank entry is a round the player was not in (a team league's lineups, a late
        # entry): nothing, not a bye.
        if slot.code in BYE_CODES and not slot.blank:
            collector.bye(player, round_no, slot)
        return
    where = f"player {player.rank}, round {round_no}"
    other = players.get(slot.opponent)
    other_slot = None if other is None else other.slots.get(round_no)
    if slot.opponent == player.rank:
        who = player.info.name if player.info is not None else f"player {player.rank}"
        reason = f"{where}: {plays_self(who)}"
    elif slot.code in BYE_CODES and slot.code not in GAME_CODES and slot.code not in " Z":
        reason = f"{where}: bye code {slot.code!r} with an opponent ({slot.opponent})"
    elif other is None:
        reason = f"{where}: opponent {slot.opponent} has no valid player record"
    elif other_slot is None:
        return  # malformed, reported on the other line (and counted there)
    elif other_slot.opponent != player.rank:
        listed = f"opponent {other_slot.opponent}" if other_slot.opponent else "no opponent"
        reason = f"{where}: opponent {other.rank} has {listed} in that round (line {other.line})"
    else:
        if player.rank < other.rank:
            collector.pair(player, other, round_no)
        return
    collector.lose(round_no, player.rank, slot.opponent)
    problems.append(Problem(source, player.line, reason))


def _declared(tournament: Tournament, rounds: int, tc: TimeClass | None) -> tuple[EventInfo, ...]:
    """The event the file's header declares (none without a name)."""
    if tournament.name is None:
        return ()
    dated = sorted(tournament.round_dates)
    return (
        EventInfo(
            name=tournament.name,
            line=1,
            start=tournament.start if not tournament.start_given else None,
            end=tournament.end,
            rounds=tournament.total_rounds or max([rounds, *dated], default=None) or None,
            kind=event_kind(tournament.kind_text),
            tc=tc,
            site=tournament.city,
        ),
    )
