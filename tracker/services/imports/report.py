"""What an import says: its options and files, and the per-file and per-command reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

from tracker.db.queries.imports import TcMonth
from tracker.errors import InvalidInputError
from tracker.importers.records import BLOCK
from tracker.vocabulary import TimeControl

CreatePlayers = Literal["auto", "by-rating", "tracked", "external", "no"]
CREATE_PLAYERS: Final[tuple[str, ...]] = get_args(CreatePlayers)
#: ``progress(file, done, total)``: games written so far for that file.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class SourceFile:
    """A file to import: the name it is reported under, and its bytes, given (``data``) or
    read from ``path`` when needed, a block at a time (a federation's file is never held
    whole)."""

    name: str
    data: bytes | None = None
    path: Path | None = None

    def __post_init__(self) -> None:
        if (self.data is None) == (self.path is None):
            raise ValueError("a SourceFile has either data or a path")

    def head(self, size: int) -> bytes:
        """The first ``size`` bytes (fewer if the file is shorter)."""
        if self.data is not None:
            return self.data[:size]
        assert self.path is not None
        try:
            with self.path.open("rb") as file:
                return file.read(size)
        except OSError as exc:
            raise InvalidInputError(f"cannot read {self.path}: {exc.strerror or exc}") from None

    def read(self) -> bytes:
        """All of it."""
        return self.data if self.data is not None else b"".join(self.blocks())

    def blocks(self) -> Iterator[bytes]:
        """Its bytes, a block at a time; a file that cannot be read is a user error."""
        if self.data is not None:
            yield self.data
            return
        assert self.path is not None
        try:
            with self.path.open("rb") as file:
                while block := file.read(BLOCK):
                    yield block
        except OSError as exc:
            raise InvalidInputError(f"cannot read {self.path}: {exc.strerror or exc}") from None


@dataclass(frozen=True)
class ImportOptions:
    fmt: str | None = None
    tc: TimeControl | None = None
    create_players: CreatePlayers = "auto"
    skip_invalid: bool = False
    dry_run: bool = False
    encoding: str = "utf-8"
    #: The start of the event of a file that gives no date (its undated games get it).
    event_start: dt.date | None = None
    #: Accept dates more than a year before the database's records start.
    yes: bool = False
    #: The rating period FIDE rates the file's events in, when after the month they end in.
    rated_in: dt.date | None = None
    #: How to read a TRF's numeric dates (tracker.importers.dates.ORDERS), if not by the
    #: reading that agrees with the file's other dates.
    date_order: str | None = None
    tc_minutes: bool = False  # controls written as numbers are minutes (PGN's: seconds)


@dataclass(frozen=True)
class CreatedPlayer:
    id: int | None  # None in a dry run
    name: str
    fide_id: int | None
    external: bool


@dataclass(frozen=True)
class FileReport:
    file: str
    format: str
    sha256: str
    # rejected: nothing of it written, and it holds the command's other files back;
    # skipped: with --skip-invalid, a file without a valid game: nothing of it written
    status: Literal["imported", "rejected", "skipped", "held", "dry-run"]
    valid: int  # games that passed every check: added (or, if rejected, addable) or present
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    stale: tuple[TcMonth, ...]  # each time control's first closed period marked stale
    players_created: tuple[CreatedPlayer, ...]
    import_id: int | None = None
    added: int = 0
    already_present: int = 0
    skipped_unfinished: int = 0
    skipped_other: int = 0
    invalid: int = 0  # games refused (by the parser or the checks), never lines or records
    byes: int = 0
    events_created: tuple[str, ...] = ()
    skipped_variant: int = 0  # games of other chess variants
    skipped_bullet: int = 0  # bullet games: on no FIDE list
    skipped_correspondence: int = 0  # correspondence games: on no FIDE list either
    warnings: tuple[str, ...] = ()  # FILE:LINE: things worth knowing, never refused
    # A players file (format "players"): the players it changed, and those it left alone.
    players_updated: tuple[str, ...] = ()
    players_unchanged: int = 0

    @property
    def skipped(self) -> int:
        """Games without a result yet, unplayed games that are not forfeits, games of other
        variants, bullet and correspondence games."""
        return (
            self.skipped_unfinished
            + self.skipped_other
            + self.skipped_variant
            + self.skipped_bullet
            + self.skipped_correspondence
        )

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"

    @property
    def written(self) -> bool:
        """Imported (or, in a dry run, would be)."""
        return self.status in ("imported", "dry-run")


@dataclass(frozen=True)
class ImportReport:
    files: tuple[FileReport, ...]
    dry_run: bool

    def total(self, name: str) -> int:
        return sum(int(getattr(f, name)) for f in self.files if f.written)

    @property
    def players_created(self) -> int:
        return sum(len(f.players_created) for f in self.files if f.written)

    @property
    def rejected(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.rejected)

    @property
    def skipped(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.status == "skipped")
