"""FIDE Tournament Report Files (TRF16 and TRF-2026) -> games and byes.

Records read (columns are 1-based, as in FIDE's specification):

* ``012`` tournament name, ``022`` city (the games' ``site``), ``042`` start date,
  ``132`` round dates (``YY/MM/DD`` at columns 92-99, 102-109, ..., the layout of the
  player records' rounds), and TRF-2026's ``222`` encoded time control (``5400+30``,
  ``40/6000+30:900+30``...) to class the games when the caller gives no ``tc``. The
  ``122`` record is free text ("90 min + 30 s") and is not interpreted: without ``222``
  and without ``tc`` the games' ``tc`` is None.
* ``001`` player records: starting rank (5-8), sex (10), title (11-13), name (15-47),
  rating (49-52), federation (54-56), FIDE id (58-68), birth date (70-79: ``YYYY/MM/DD``,
  ``YYYY.MM.DD`` or just ``YYYY``; only the year is kept) and, for round n, opponent's
  starting rank / colour / result at columns 92-95 / 97 / 99 shifted by 10(n-1).

Every other record (``032``, ``052``, ``062``-``112``, ``142``..., ``XXR``, ``XXC``,
``###`` comments, ``DAT``, national records...) is ignored. Short lines are read as if
padded with blanks; the number of rounds is the largest found on any player record.

Representation of the result codes (case-insensitive):

* ``1`` ``=`` ``0`` with an opponent: a played game, ``1-0`` / ``1/2-1/2`` / ``0-1``.
* ``+`` ``-``: forfeit, ``+-`` / ``-+`` (stored, never rated). Both players ``-``
  (a double forfeit) is no game: counted in ``skipped_other``.
* ``W`` ``L`` (won / lost, less than one move played): like forfeits, ``+-`` / ``-+``,
  since they are unplayed and never rated. ``D`` (drawn, less than one move) has no
  forfeit equivalent: counted in ``skipped_other``. ``L`` against ``L`` likewise.
* An opponent with no result yet (blank on both records): counted in ``skipped_unfinished``.
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

A game's date is its round date from ``132``; without one, the ``042`` start date stands
in and ``date_note`` says so; without either, the game is a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Final

from tracker.importers import dates, timecontrol
from tracker.importers.records import (
    ByeKind,
    ByeRecord,
    GameRecord,
    ParseResult,
    PlayerInfo,
    Problem,
    Sex,
    check_tc_argument,
    clean_name,
    decode_input,
    parse_fide_id,
    parse_rating,
    split_lines,
)
from tracker.vocabulary import TimeControl

ROUND_START: Final = 92  # column of round 1's opponent
ROUND_WIDTH: Final = 10

_TITLES: Final[dict[str, str]] = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
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


@dataclass(slots=True)
class _Tournament:
    name: str | None = None
    city: str | None = None
    start: date | None = None
    tc_texts: list[str] = field(default_factory=list)
    round_dates: dict[int, date] = field(default_factory=dict)


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


def _title(text: str) -> str | None:
    value = text.strip()
    if not value:
        return None
    return _TITLES.get(value.casefold(), value.upper())


def _player_record(line: str, line_no: int, source: str, problems: list[Problem]) -> _Player | None:
    """A player record; None (after reporting why) when even its starting rank is unusable."""
    rank_text = _columns(line, 5, 8).strip()
    if not (rank_text.isascii() and rank_text.isdigit()) or int(rank_text) == 0:
        problems.append(
            Problem(source, line_no, f"player record without a valid starting rank ({rank_text!r})")
        )
        return None
    reasons: list[str] = []
    sex_text = _columns(line, 10, 10).strip().casefold()
    sex = _SEXES.get(sex_text)
    if sex_text and sex is None:
        reasons.append(f"unknown sex code {sex_text!r} (use m or w)")
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
    info = None
    if not reasons:
        info = PlayerInfo(
            name=name,
            fide_id=fide_id,
            rating=rating,
            federation=federation,
            birth_year=birth_year,
            sex=sex,
            title=_title(_columns(line, 11, 13)),
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
    unfinished: int = 0
    other: int = 0

    def date_for(self, round_no: int) -> tuple[date | None, str | None]:
        round_date = self.tournament.round_dates.get(round_no)
        if round_date is not None:
            return round_date, None
        start = self.tournament.start
        if start is not None:
            return start, (
                f"no date for round {round_no} in the 132 record; "
                f"tournament start date {start.isoformat()} used"
            )
        return None, None

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
            self.problems.append(
                Problem(
                    self.source,
                    first.line,
                    f"{where}: both records give colour {slot_a.colour!r} "
                    f"(other record at line {second.line})",
                )
            )
            return
        if (slot_a.code, slot_b.code) not in _AGREEING:
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
        if code == "D" or (code, slot_b.code) in {("-", "-"), ("L", "L")}:
            # an unplayed draw or a double forfeit: no game, no winner
            self.other += 1
            return
        if side is None and code in "10=":
            self.problems.append(
                Problem(self.source, first.line, f"{where}: no colours for a played game")
            )
            return
        if first.info is None or second.info is None:
            return  # the player record is invalid and was reported
        white, black = (second, first) if side == 1 else (first, second)
        white_slot = slot_b if side == 1 else slot_a
        played_on, note = self.date_for(round_no)
        if played_on is None:
            self.problems.append(
                Problem(
                    self.source,
                    white.line,
                    f"{where}: no date (no 132 round date and no 042 start date)",
                )
            )
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
        elif kind == "042" and rest and tournament.start is None:
            tournament.start = dates.trf_date(rest)
            if tournament.start is None:
                problems.append(Problem(source, number, f"invalid start date {rest!r}"))
        elif kind == "222" and rest:
            tournament.tc_texts.append(rest)
        elif kind == "132" and not seen_round_dates:
            seen_round_dates = True
            for round_no in range(1, _rounds_on(line) + 1):
                start = _round_start(round_no)
                text = _columns(line, start, start + ROUND_WIDTH - 1).strip()
                if not text:
                    continue
                round_date = dates.trf_date(text)
                if round_date is None:
                    problems.append(
                        Problem(source, number, f"invalid date {text!r} for round {round_no}")
                    )
                else:
                    tournament.round_dates[round_no] = round_date
    return tournament, player_lines


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
) -> ParseResult:
    """Read the games and byes of a FIDE TRF file. Never raises on bad input."""
    tc = check_tc_argument(tc)
    text = decode_input(data, source, encoding)
    if isinstance(text, Problem):
        return ParseResult(problems=(text,), format="trf")

    problems: list[Problem] = []
    tournament, player_lines = _read_tournament(split_lines(text), source, problems)
    if not player_lines:
        problems.append(Problem(source, 0, "no player records (001 lines); is this a TRF file?"))
        return ParseResult(problems=tuple(problems), format="trf")

    players: dict[int, _Player] = {}
    rounds = max(_rounds_on(line) for _, line in player_lines)
    for number, line in player_lines:
        player = _player_record(line, number, source, problems)
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

    collector = _Collector(source, tournament, tc if tc is not None else _inferred_tc(tournament))
    for player in players.values():
        for round_no, slot in player.slots.items():
            if slot is None:
                continue
            if slot.opponent == 0:
                if slot.code in _BYE_CODES:
                    collector.bye(player, round_no, slot)
                continue
            where = f"player {player.rank}, round {round_no}"
            if slot.opponent == player.rank:
                problems.append(Problem(source, player.line, f"{where}: paired with themselves"))
                continue
            if slot.code in _BYE_CODES and slot.code not in _GAME_CODES and slot.code != " ":
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
                continue  # malformed, reported on the other line
            if other_slot.opponent != player.rank:
                listed = f"opponent {other_slot.opponent}" if other_slot.opponent else "no opponent"
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
    problems.extend(collector.problems)
    problems.sort(key=lambda problem: problem.line)
    return ParseResult(
        games=tuple(record for *_, record in sorted(collector.games, key=lambda g: g[:2])),
        byes=tuple(record for *_, record in sorted(collector.byes, key=lambda b: b[:2])),
        problems=tuple(problems),
        skipped_unfinished=collector.unfinished,
        skipped_other=collector.other,
        format="trf",
    )
