"""What an import's plan holds: the file's people matched or to create (:class:`Identity`),
its events (:class:`EventPlan`), and the state of each of its games (:class:`Plan`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from tracker.importers.records import Problem
from tracker.services.imports.columns import FileGames, where_zero
from tracker.services.intake import natural_key

#: A game's state in the plan (0: to write).
REFUSED: Final = 1
PRESENT: Final = 2


@dataclass
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


@dataclass
class EventPlan:
    name: str
    first_line: int
    file_start: dt.date | None = None
    site: str | None = None
    event_id: int | None = None  # an existing event
    db_start: dt.date | None = None
    db_fixed: bool = False
    problem: str | None = None

    @property
    def fixed_start(self) -> dt.date | None:
        """The start date games may not precede, if there is one."""
        if self.file_start is not None:
            return self.file_start
        return self.db_start if self.db_fixed else None


def suffixed(key: str, n: int) -> str:
    """The natural key of the n-th game sharing ``key`` (blitz nights: the same players,
    day and round several times)."""
    return key if n == 1 else f"{key}|#{n}"


@dataclass
class Plan:
    """What to do with each game of a file (``state``), and what was found."""

    games: FileGames
    state: bytearray = field(default_factory=bytearray)
    # The n-th distinct game of the file with its key (same date, players, event, round),
    # for n >= 2: stored under the key suffixed "|#n".
    suffix: dict[int, int] = field(default_factory=dict)
    side_identity: list[Identity] = field(default_factory=list)  # by side of `games`
    events: list[EventPlan] = field(default_factory=list)  # by event of `games`
    rounds: list[str | None] = field(default_factory=list)  # cleaned, by round of `games`
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
