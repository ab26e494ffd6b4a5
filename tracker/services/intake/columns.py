"""A file's games as compact columns, read from a parser's stream.

An import keeps every game of a file until it is written (all or nothing), but not as
records: a :class:`~tracker.importers.records.GameRecord` with its two players costs some
600 bytes, a million of them most of a gigabyte. Here a game is a row of small numbers
(about 35 bytes): its line, day, result and time control, and indexes into the file's
distinct players as written (:class:`Side`), events (:class:`EventSeen`), rounds and date
notes. What the plan needs file-wide about players and events (first line, ratings seen,
an event's start and site) is gathered on the way."""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from tracker.importers.records import FORFEIT_OF, GameRecord, GameStream, ParseResult, PlayerInfo
from tracker.importers.timecontrol import UNLISTED
from tracker.services.intake import (
    FIDE_ID_MAX,
    FIDE_ID_MIN,
    FIDE_RATING_MAX,
    FIDE_RATING_MIN,
    impossible_rating,
    site_form,
)
from tracker.vocabulary import FORFEITS, RESULTS, TIME_CONTROLS, TimeControl, event_key, name_form

#: A game's result and time control are stored as their index in these.
RESULT_CODES: Final[tuple[str, ...]] = RESULTS
TC_CODES: Final[tuple[TimeControl | None, ...]] = (None, *TIME_CONTROLS)
FORFEIT_CODES: Final = frozenset(RESULT_CODES.index(r) for r in FORFEITS)
_RESULT_INDEX: Final = {r: i for i, r in enumerate(RESULT_CODES)}
_TC_INDEX: Final[dict[str | None, int]] = {tc: i for i, tc in enumerate(TC_CODES)}


@dataclass(slots=True, eq=False, repr=False)
class Side:
    """A player as the file writes him: one (name, FIDE id), in however many games. The
    details are the first given, with where: ``(2 * game + 0 for white, 1 for black,
    value)``, so that merging several sides into one person keeps the file's order."""

    name: str
    fide_id: int | None
    first_line: int  # his own record's line (TRF), else the first game's
    games: int = 0
    rating_seen: bool = False
    federation: tuple[int, str] | None = None
    birth_year: tuple[int, int] | None = None
    sex: tuple[int, str] | None = None
    title: tuple[int, str] | None = None


@dataclass(slots=True, eq=False, repr=False)
class EventSeen:
    """An event of the file (by its name as stored: blanks collapsed)."""

    name: str
    first_line: int
    file_start: dt.date | None = None  # the earliest start a game gives
    site: str | None = None  # the first usable site
    site_note: tuple[int, str] | None = None  # a site not stored as written: line, why


class FileGames:
    """The games of one file (see the module docstring), and the parser's result."""

    def __init__(self, parsed: ParseResult) -> None:
        self.parsed = parsed
        self.count = 0
        self.line = array("i")
        self.day = array("i")  # date ordinals
        self.white = array("i")  # indexes into sides
        self.black = array("i")
        self.white_rating = array("H")  # 0: none recorded
        self.black_rating = array("H")
        self.result = bytearray()  # indexes into RESULT_CODES
        self.tc = bytearray()  # indexes into TC_CODES (0: unknown)
        self.event = array("i")  # indexes into events, -1: none
        self.round = array("i")  # indexes into rounds, -1: none
        self.note = array("i")  # indexes into notes, -1: none
        # Moves digests (PGN), as 64-bit numbers; `moved` says which games have one.
        self.digest = array("Q")
        self.moved = bytearray()
        self.sides: list[Side] = []
        self.side_index: dict[tuple[str, int | None], int] = {}  # (name, FIDE id) -> side
        self.events: list[EventSeen] = []
        self.rounds: list[str] = []  # as written
        self.notes: list[str] = []
        # What the intake's rules set aside (tracker.services.intake): recorded ratings that
        # are no FIDE ratings, and numbers given as FIDE ids that are none; how many, and the
        # first (line, value).
        self.not_fide_ratings = 0
        self.first_not_fide_rating: tuple[int, int] | None = None
        # Recorded ratings no rating system gives (below 0, above 3000): their games are
        # refused (game, line, value).
        self.impossible: list[tuple[int, int, int]] = []
        self.not_fide_ids = 0
        self.first_not_fide_id: tuple[int, int] | None = None
        # Time controls: the caller's; the games whose file says another class (and the
        # first's words); the file's words that tell no class, first (line, text); the games
        # of a class on no FIDE list skipped (bullet, correspondence), how many of each and
        # the first's (line, words).
        self.given_tc: TimeControl | None = None
        self.tc_conflicts = array("i")
        self.first_conflict: str | None = None
        self.unread_tc: tuple[int, str] | None = None
        self.unlisted: dict[str, int] = {}
        self.first_unlisted: dict[str, tuple[int, str]] = {}

    @classmethod
    def read(cls, stream: GameStream, tc: TimeControl | None = None) -> FileGames:
        """Every game of ``stream``, then its result. A file that turns out unreadable has
        no games (only its problem).

        The intake's time control rule: a game's control is what the file says; ``tc`` (the
        caller's ``--tc``) is for the games whose file does not tell, and a game whose file
        says otherwise contradicts it (:attr:`tc_conflicts`). Bullet and correspondence are
        on no FIDE list: their games are skipped and counted (:attr:`unlisted`), whatever
        ``tc`` says."""
        games = cls(ParseResult(format=stream.format))
        games.given_tc = tc
        games._fill(stream)
        if stream.unreadable:
            return cls(stream.result())
        games.parsed = stream.result()
        if games.parsed.late_forfeits:
            games._late_forfeits(games.parsed.late_forfeits)
        return games

    def games(self) -> range:
        return range(self.count)

    @property
    def skipped_unlisted(self) -> int:
        """The games skipped for a class on no FIDE list (bullet, correspondence)."""
        return sum(self.unlisted.values())

    def played_on(self, game: int) -> dt.date:
        return dt.date.fromordinal(self.day[game])

    def moves_digest(self, game: int) -> int | None:
        return self.digest[game] if self.moved and self.moved[game] else None

    def note_of(self, game: int) -> str | None:
        index = self.note[game]
        return None if index < 0 else self.notes[index]

    def _fill(self, stream: GameStream) -> None:
        # A federation's file holds a million games: a game is a few calls, its columns'
        # appends bound once.
        self._event_index: dict[str, int] = {}
        self._event_by_key: dict[str, int] = {}
        round_index: dict[str, int] = {}
        note_index: dict[str, int] = {}
        line, day = self.line.append, self.day.append
        white, black = self.white.append, self.black.append
        white_rating, black_rating = self.white_rating.append, self.black_rating.append
        result, tc = self.result.append, self.tc.append
        event, round_, note = self.event.append, self.round.append, self.note.append
        side, indexed, results, tcs = self._side, _indexed, _RESULT_INDEX, _TC_INDEX
        game = 0
        for record in stream:
            game_tc = self._time_control(record, game)
            if game_tc is _SKIPPED:
                continue
            line(record.line)
            day(record.played_on.toordinal())
            index, rating = side(record.white, record.line, 2 * game)
            white(index)
            white_rating(rating)
            index, rating = side(record.black, record.line, 2 * game + 1)
            black(index)
            black_rating(rating)
            result(results[record.result])
            tc(tcs[game_tc])
            event(-1 if record.event is None else self._event(record))
            round_(indexed(record.round, round_index, self.rounds))
            note(indexed(record.date_note, note_index, self.notes))
            if record.moves_digest is not None:
                self._digest(game, int(record.moves_digest, 16))
            game += 1
        self.count = game
        if self.moved:
            self._digest(game - 1, None)  # pad to the end

    def _time_control(self, record: GameRecord, game: int) -> str | None:
        """A game's time control by the intake's rule (see :meth:`read`); :data:`_SKIPPED`
        for a class on no FIDE list (counted)."""
        game_tc, given = record.tc, self.given_tc
        if game_tc in UNLISTED:
            self.unlisted[game_tc] = self.unlisted.get(game_tc, 0) + 1
            self.first_unlisted.setdefault(game_tc, (record.line, record.tc_text or ""))
            return _SKIPPED
        if game_tc is None:
            if record.tc_text and self.unread_tc is None:
                self.unread_tc = (record.line, record.tc_text)
            return given
        if given is not None and game_tc != given:
            self.tc_conflicts.append(game)
            if self.first_conflict is None:
                self.first_conflict = f"{record.tc_text!r} ({game_tc})"
        return game_tc

    def _side(self, info: PlayerInfo, line: int, slot: int) -> tuple[int, int]:
        """A player as the file writes him: his side's number (a new side the first time)
        and his recorded rating (0: none, or one set aside); ``slot`` is 2 * game, + 1 for
        black."""
        fide_id = info.fide_id
        if fide_id is not None and not FIDE_ID_MIN <= fide_id <= FIDE_ID_MAX:
            self._not_fide_id(line, fide_id)
            fide_id = None
        index = self.side_index.get((info.name, fide_id))
        if index is None:
            index = self.side_index[(info.name, fide_id)] = len(self.sides)
            self.sides.append(Side(info.name, fide_id, info.line or line))
        side = self.sides[index]
        side.games += 1
        rating = info.rating
        if rating is not None and not FIDE_RATING_MIN <= rating <= FIDE_RATING_MAX:
            self._not_fide_rating(slot >> 1, line, rating)
            rating = None
        if rating is not None:
            side.rating_seen = True
        if info.federation or info.birth_year or info.sex or info.title:
            _details(side, info, slot)
        return index, rating or 0

    def _event(self, record: GameRecord) -> int:
        """The number of a game's event (-1: a name that is no name), one event however the
        file spells it (the first spelling); its start and site as the file first gives
        them."""
        written = record.event
        assert written is not None
        index = self._event_index.get(written)
        if index is None:
            index = self._event_index[written] = self._new_event(written, record.line)
        if index >= 0:
            seen = self.events[index]
            start = record.event_start
            if start is not None and (seen.file_start is None or start < seen.file_start):
                seen.file_start = start
            if seen.site is None and record.site:
                seen.site, why = site_form(record.site)
                if why is not None and seen.site_note is None:
                    seen.site_note = (record.line, why)
        return index

    def _new_event(self, written: str, line: int) -> int:
        """The number of an event name written a new way (a known event's, or a new one)."""
        name = name_form(written)
        if not name:
            return -1
        key = event_key(name)
        index = self._event_by_key.get(key, -1)
        if index < 0:
            index = self._event_by_key[key] = len(self.events)
            self.events.append(EventSeen(name, line))
        return index

    def _late_forfeits(self, lines: tuple[int, ...]) -> None:
        """Turn the games the parser found to be forfeits at the end of the file into them."""
        wanted = set(lines)
        codes = {RESULT_CODES.index(r): RESULT_CODES.index(f) for r, f in FORFEIT_OF.items()}
        for game, line in enumerate(self.line):
            if line in wanted:
                self.result[game] = codes[self.result[game]]

    def _not_fide_rating(self, game: int, line: int, value: int) -> None:
        """A recorded rating that is no FIDE rating: stored as none, and counted; one no
        rating system gives refuses its game (the intake's rule)."""
        if impossible_rating(value) is not None:
            self.impossible.append((game, line, value))
            return
        self.not_fide_ratings += 1
        if self.first_not_fide_rating is None:
            self.first_not_fide_rating = (line, value)

    def _not_fide_id(self, line: int, value: int) -> None:
        """A number given as a FIDE id that is none: not one, and counted."""
        self.not_fide_ids += 1
        if self.first_not_fide_id is None:
            self.first_not_fide_id = (line, value)

    def _digest(self, game: int, value: int | None) -> None:
        missing = game + 1 - len(self.moved)
        if missing > 0:
            self.moved.extend(bytes(missing))
            self.digest.extend(array("Q", bytes(8 * missing)))
        if value is not None:
            self.moved[game] = 1
            self.digest[game] = value


def where_zero(state: bytearray) -> Iterator[int]:
    """The indexes whose byte in ``state`` is 0, in order."""
    find = state.find
    index = find(0)
    while index >= 0:
        yield index
        index = find(0, index + 1)


#: What :meth:`FileGames._time_control` says of a game skipped (a class on no FIDE list).
_SKIPPED: Final = "skipped"


def _indexed(value: str | None, index: dict[str, int], values: list[str]) -> int:
    """The number of a value among the distinct values of a column (-1 for none), a new
    one appended the first time it is seen."""
    if value is None:
        return -1
    number = index.get(value)
    if number is None:
        number = index[value] = len(values)
        values.append(value)
    return number


def _details(side: Side, info: PlayerInfo, order: int) -> None:
    """The player's details the file gives first (``order``: see :class:`Side`)."""
    if info.federation and side.federation is None:
        side.federation = (order, info.federation)
    if info.birth_year and side.birth_year is None:
        side.birth_year = (order, info.birth_year)
    if info.sex and side.sex is None:
        side.sex = (order, info.sex)
    if info.title and side.title is None:
        side.title = (order, info.title)
