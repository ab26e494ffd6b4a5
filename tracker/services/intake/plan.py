"""What an import's plan holds: the file's people matched or to create (:class:`Identity`),
its events (:class:`EventPlan`), and the state of each of its games (:class:`Plan`)."""

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from tracker.db.queries.games import EventRow
from tracker.importers.records import EventInfo, Problem
from tracker.services.intake import EventFit, natural_key
from tracker.services.intake.columns import FileGames, where_zero
from tracker.vocabulary import TIME_CONTROLS


class PlannedBye(NamedTuple):
    """A bye of the file to store: its player (a side of the file's games), its event (an
    index into the plan's events), round, day and code (tracker.vocabulary.BYE_POINTS)."""

    side: int
    event: int
    round: str
    played_on: dt.date
    code: str


#: A game's state in the plan (0: to write).
REFUSED: Final = 1
PRESENT: Final = 2


@dataclass(eq=False, repr=False)
class Identity:
    """One person of the file, however many games he appears in."""

    name: str
    fide_id: int | None
    first_line: int
    number: int  # his place among the file's people (a stand-in for a new player's id)
    federation: str | None = None
    birth_year: int | None = None
    sex: str | None = None
    title: str | None = None
    rating_seen: bool = False
    games: int = 0
    player_id: int | None = None  # an existing player
    stored_birth_year: int | None = None  # an existing player's
    external: bool = False
    new: bool = False
    problem: str | None = None

    @property
    def born(self) -> int | None:
        """The birth year tracker holds of him: an existing player's stored one, a new
        player's from the file."""
        return self.stored_birth_year if self.player_id is not None else self.birth_year

    def ref(self) -> int:
        """The player's id, or for a new player (no id yet) a stand-in no id can equal."""
        return self.player_id if self.player_id is not None else -1 - self.number


@dataclass(eq=False, repr=False)
class EventPlan:
    """One event of the file: its stored event (None: a new one), what the file declares of
    it, the rounds its games reach, and what is wrong with it."""

    name: str
    first_line: int
    file_start: dt.date | None = None
    site: str | None = None
    event_id: int | None = None  # an existing event
    stored: EventRow | None = None  # the existing event as stored
    declared: EventInfo | None = None  # what the file declares of it (a TRF header)
    problem: str | None = None

    def fit(self) -> EventFit:
        """What the file's games of the event must fit (:class:`tracker.services.intake.
        EventFit`): its start, and what is declared of it (by the user, who decides; else by
        the file, and what an earlier file declared)."""
        stored, declared = self.stored, self.declared
        user = stored is not None and stored.declared == "user"
        start = self.file_start  # the start date games may not precede, if there is one
        if start is None and stored is not None and stored.start_fixed:
            start = stored.start_date
        end = stored.end_date if stored is not None else None
        kind = stored.kind if stored is not None else None
        if declared is not None and not user:
            end = declared.end or end
            kind = declared.kind or kind
        return EventFit(
            stored.name if stored is not None else self.name,  # as every door names it
            start=start,
            end=end,
            rounds=stored.rounds if user and stored is not None else None,
            strict=user,
            tc=stored.tc if stored is not None else None,
            league=kind == "league",
            stored=stored is not None,
        )

    def declaration(self, first_game: dt.date) -> EventRow:
        """The event as the import writes it: as stored, with what the file declares where
        the user declared nothing (a later file of the event declares it anew); its start
        fixed by the file, or following its earliest game."""
        stored = self.stored or EventRow(0, self.name, first_game, False, site=self.site)
        start, fixed = stored.start_date, stored.start_fixed
        if self.file_start is not None and not fixed:
            start, fixed = self.file_start, True
        elif not fixed and first_game < start:
            start = first_game
        event = stored._replace(start_date=start, start_fixed=fixed)
        if event.declared == "user":
            return event
        declared = self.declared
        if declared is not None:
            event = event._replace(
                end_date=declared.end or event.end_date,
                rounds=declared.rounds or event.rounds,
                kind=declared.kind or event.kind,
                tc=declared.tc if declared.tc in TIME_CONTROLS else event.tc,
                site=event.site or declared.site,
            )
        if event.end_date is not None and event.end_date < event.start_date:
            event = event._replace(end_date=None)
        said = (event.end_date, event.rounds, event.kind, event.tc)
        return event._replace(declared="file" if any(v is not None for v in said) else None)


def suffixed(key: str, n: int) -> str:
    """The natural key of the n-th game sharing ``key`` (blitz nights: the same players,
    day and round several times)."""
    return key if n == 1 else f"{key}|#{n}"


@dataclass(eq=False, repr=False)
class Plan:
    """What to do with each game of a file (``state``), and what was found."""

    games: FileGames
    # typed in (game add, edit, add-round), not read from a file: the words of its problems;
    # and the game being corrected (an edit), which is not one of its event's games
    typed: bool = False
    but_game: int | None = None
    state: bytearray = field(default_factory=bytearray)
    # The n-th distinct game of the file with its key (same date, players, event, round),
    # for n >= 2: stored under the key suffixed "|#n".
    suffix: dict[int, int] = field(default_factory=dict)
    side_identity: list[Identity] = field(default_factory=list)  # by side of `games`
    events: list[EventPlan] = field(default_factory=list)  # by event of `games`
    rounds: list[str | None] = field(default_factory=list)  # cleaned, by round of `games`
    byes: list[PlannedBye] = field(default_factory=list)
    unplaced_byes: int = 0  # byes of no player or event of the file's games, or undated
    present: int = 0
    refused: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _days: dict[int, dt.date] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.state = bytearray(self.games.count)

    def problem(self, source: str, line: int, reason: str) -> None:
        self.problems.append(Problem(source, line, reason))

    def refuse(self, source: str, game: int, reason: str | None = None) -> None:
        if reason is not None:
            self.problem(source, self.games.line[game], reason)
        if self.state[game] != REFUSED:
            self.state[game] = REFUSED
            self.refused += 1

    def mark_present(self, game: int) -> None:
        self.state[game] = PRESENT
        self.present += 1

    @property
    def invalid(self) -> int:
        """Games refused: by the parser, or by the checks here."""
        return self.games.parsed.invalid + self.refused

    @property
    def added(self) -> int:
        """Games to write."""
        return self.games.count - self.refused - self.state.count(PRESENT)

    def writable(self) -> Iterator[int]:
        """The games to write, in the file's order."""
        return where_zero(self.state)

    def white(self, game: int) -> Identity:
        return self.side_identity[self.games.white[game]]

    def black(self, game: int) -> Identity:
        return self.side_identity[self.games.black[game]]

    def event(self, game: int) -> EventPlan | None:
        index = self.games.event[game]
        return None if index < 0 else self.events[index]

    def round(self, game: int) -> str | None:
        index = self.games.round[game]
        return None if index < 0 else self.rounds[index]

    def key(self, game: int) -> str | None:
        """The stored natural key (without its suffix) of a game whose players and event
        all exist; None otherwise."""
        games, side_identity = self.games, self.side_identity
        white = side_identity[games.white[game]].player_id
        black = side_identity[games.black[game]].player_id
        if white is None or black is None:
            return None
        index = games.event[game]
        event_id = None
        if index >= 0:
            event_id = self.events[index].event_id
            if event_id is None:
                return None
        index = games.round[game]
        round_ = self.rounds[index] if index >= 0 else None
        return natural_key(self.day(game), white, black, event_id, round_)

    def day(self, game: int) -> dt.date:
        """The game's date (the same object for the same day: files hold few days)."""
        number = self.games.day[game]
        day = self._days.get(number)
        if day is None:
            day = self._days[number] = dt.date.fromordinal(number)
        return day
