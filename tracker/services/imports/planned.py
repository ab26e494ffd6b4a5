"""What an import plan holds: the file's people (:class:`Identity`) and events
(:class:`EventPlan`), each game as it will be written (:class:`Planned`), and the problems
found (:class:`Plan`). Built by :mod:`.plan`, written by :mod:`.write`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tracker.importers.records import GameRecord, PlayerInfo, Problem

T = TypeVar("T")


@dataclass
class Identity:
    """One person of the file, however many games he appears in."""

    name: str
    fide_id: int | None
    first_line: int
    federation: str | None = None
    birth_year: int | None = None
    sex: str | None = None
    title: str | None = None
    rating_seen: bool = False
    games: int = 0
    player_id: int | None = None  # an existing player
    external: bool = False
    new: bool = False
    problem: str | None = None

    def absorb(self, info: PlayerInfo) -> None:
        self.games += 1
        self.rating_seen = self.rating_seen or info.rating is not None
        self.federation = self.federation or info.federation
        self.birth_year = self.birth_year or info.birth_year
        self.sex = self.sex or info.sex
        self.title = self.title or info.title


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


@dataclass
class Planned:
    record: GameRecord
    white: Identity
    black: Identity
    event: EventPlan | None
    round: str | None
    tc: str
    key: str | tuple[object, ...] = ""  # a stand-in (tuple) until the players and event exist
    final: bool = False  # the key is the stored natural key (no stand-ins)
    # The n-th distinct game of the file with this key (same date, players, event, round):
    # stored under the key suffixed "|#n" from n = 2 on.
    suffix: int = 1


def suffixed(key: str, n: int) -> str:
    """The natural key of the n-th game sharing ``key`` (blitz nights: the same players,
    day and round several times)."""
    return key if n == 1 else f"{key}|#{n}"


@dataclass
class Plan:
    games: list[Planned] = field(default_factory=list)
    present: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parsed_invalid: int = 0  # games the parser could not read
    invalid_records: set[int] = field(default_factory=set)  # id() of refused game records

    def problem(self, source: str, line: int, reason: str) -> None:
        self.problems.append(Problem(source, line, reason))

    def refuse(self, record: GameRecord, reason: str | None = None) -> None:
        if reason is not None:
            self.problem(record.source, record.line, reason)
        self.invalid_records.add(id(record))

    @property
    def invalid(self) -> int:
        """Games refused: by the parser, or by the checks here."""
        return self.parsed_invalid + len(self.invalid_records)


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
