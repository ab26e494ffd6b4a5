"""Importing games from PGN, CSV and FIDE TRF files, safely and repeatably.

For each file, in order:

1. **Parse** it (:mod:`tracker.importers`; no database): games, byes, problems.
2. **Plan** (reads only): match every player of the file to the database -- by FIDE id, then
   by exact name (then the same name in another case), a name matching several players being
   a problem -- and decide what to do with the rest (``create_players``); match events by
   name; check each game (time control known, an external player's recorded rating present,
   not the same game twice in the file, not already stored with another result...) and find
   the games already present by their natural key.
3. **Decide**: a file with any problem is *rejected* and nothing of it is written, unless
   ``skip_invalid`` is set; then the valid games are written and the invalid ones reported.
   A file that yields no valid game while having problems is always rejected.
4. **Write** (accepted files only): the new players and events, one ``imports`` row with the
   counts, then the games in bulk (SQLAlchemy Core ``insert``, a chunk at a time), each
   linked to its import; closed periods the games land in are marked stale, exactly as a
   hand-entered correction does.

The command is all or nothing too: if any file is rejected, the others are checked and
reported ("held back") but nothing at all is written. ``dry_run`` runs everything inside a
savepoint and rolls it back, so its report is exactly what an import would do. Importing the
same file (or an overlapping one) again adds nothing: its games are counted as already
present.

Players created *tracked* start without a rating seed (a game file does not carry a
player's FIDE state: games played, peak); seed them with ``tracker player edit NAME
--rating R --games N``. Players created *external* are rated from the rating recorded on
each game, which every played game of theirs must then carry.

TRF byes are counted and reported, not stored: they are never rated.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, NamedTuple, TypeVar, cast, get_args

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import Session

from tracker.db.bulk import bulk_insert, stored_date, without_gc
from tracker.db.models import Event, Game, Import, Player, RatingPeriod
from tracker.errors import InvalidInputError
from tracker.importers import detect
from tracker.importers.records import GameRecord, ParseResult, PlayerInfo, Problem
from tracker.months import month_of
from tracker.services.games import clean_round, natural_key
from tracker.services.lists import mark_stale
from tracker.services.players import TITLES, clean_name
from tracker.user_input import check_tc
from tracker.vocabulary import FORFEITS, YEAR_MAX, YEAR_MIN

CreatePlayers = Literal["auto", "tracked", "external", "no"]
CREATE_PLAYERS: Final[tuple[str, ...]] = get_args(CreatePlayers)
FORMATS: Final = detect.FORMATS

#: Games written per bulk ``INSERT`` (and per progress step).
CHUNK: Final = 1000
_GAMES: Final = cast(Table, Game.__table__)
_GAME_COLUMNS: Final = (
    "white_id",
    "black_id",
    "result",
    "played_on",
    "tc",
    "event_id",
    "round",
    "white_rating",
    "black_rating",
    "natural_key",
    "import_id",
)
#: Values per ``IN (...)`` list when looking rows up.
_LOOKUP_CHUNK: Final = 500
_FEDERATION: Final = re.compile(r"^[A-Z]{3}$")

T = TypeVar("T")

#: ``progress(file, done, total)``: games written so far for that file.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class SourceFile:
    """A file to import: the name it is reported under, and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class ImportOptions:
    fmt: str | None = None
    tc: str | None = None
    create_players: CreatePlayers = "auto"
    skip_invalid: bool = False
    dry_run: bool = False
    encoding: str = "utf-8"


@dataclass(frozen=True)
class CreatedPlayer:
    id: int | None  # None in a dry run
    name: str
    fide_id: int | None
    external: bool


@dataclass(frozen=True)
class StaleFrom:
    tc: str
    month: dt.date  # the first closed period marked stale


@dataclass(frozen=True)
class FileReport:
    file: str
    format: str
    sha256: str
    status: Literal["imported", "rejected", "held", "dry-run"]
    import_id: int | None
    valid: int  # games that passed every check: added (or, if rejected, addable) or present
    added: int
    already_present: int
    skipped_unfinished: int
    skipped_other: int
    invalid: int
    byes: int
    players_created: tuple[CreatedPlayer, ...]
    events_created: tuple[str, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    stale: tuple[StaleFrom, ...]

    @property
    def skipped(self) -> int:
        """Games without a result yet, and unplayed games that are not forfeits."""
        return self.skipped_unfinished + self.skipped_other

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


@dataclass(frozen=True)
class ImportRow:
    """One line of ``tracker import list``."""

    id: int
    file: str
    sha256: str
    format: str
    imported_at: dt.datetime
    added: int
    already_present: int
    skipped: int
    invalid: int
    byes: int
    players_created: int
    games_now: int  # games still linked to this import


# ---------------------------------------------------------------------------------------
# Entry points


def check_options(options: ImportOptions) -> ImportOptions:
    """Validate the options (a user error if wrong) and normalise the format name."""
    fmt = options.fmt.strip().casefold() if options.fmt is not None else None
    if fmt is not None and fmt not in FORMATS:
        raise InvalidInputError(f"unknown import format {options.fmt!r}: use {', '.join(FORMATS)}")
    if options.tc is not None:
        check_tc(options.tc)
    if options.create_players not in CREATE_PLAYERS:
        raise InvalidInputError(
            f"--create-players must be one of {', '.join(CREATE_PLAYERS)}, "
            f"not {options.create_players!r}"
        )
    try:
        "".encode(options.encoding)
    except LookupError:
        raise InvalidInputError(f"unknown text encoding {options.encoding!r}") from None
    return ImportOptions(
        fmt=fmt,
        tc=options.tc,
        create_players=options.create_players,
        skip_invalid=options.skip_invalid,
        dry_run=options.dry_run,
        encoding=options.encoding,
    )


def import_files(
    session: Session,
    files: Sequence[SourceFile],
    options: ImportOptions,
    progress: Progress | None = None,
) -> ImportReport:
    """Import each file, all or nothing per file (see the module docstring)."""
    options = check_options(options)
    if not files:
        raise InvalidInputError("no file to import")
    formats = []
    for source in files:
        try:
            formats.append(options.fmt or detect.detect_format(source.name, source.data))
        except detect.UnknownFormatError as exc:
            raise InvalidInputError(str(exc)) from None
    savepoint = session.begin_nested()
    try:
        with without_gc():  # a million records make millions of objects, none in cycles
            reports = tuple(
                _FileImport(session, source, fmt, options, progress).run()
                for source, fmt in zip(files, formats, strict=True)
            )
    except BaseException:
        savepoint.rollback()
        raise
    if options.dry_run:
        savepoint.rollback()
    elif any(r.rejected for r in reports):
        # One command, one transaction: a rejected file holds the others back.
        savepoint.rollback()
        reports = tuple(
            r if r.rejected else replace(r, status="held", import_id=None) for r in reports
        )
    else:
        savepoint.commit()
    return ImportReport(files=reports, dry_run=options.dry_run)


def list_imports(session: Session) -> tuple[ImportRow, ...]:
    linked = (
        select(Game.import_id.label("iid"), func.count().label("n"))
        .where(Game.import_id.is_not(None))
        .group_by(Game.import_id)
        .subquery()
    )
    query = (
        select(Import, func.coalesce(linked.c.n, 0))
        .outerjoin(linked, linked.c.iid == Import.id)
        .order_by(Import.id)
    )
    return tuple(
        ImportRow(
            id=i.id,
            file=i.file_name,
            sha256=i.sha256,
            format=i.format,
            imported_at=i.imported_at,
            added=i.games_added,
            already_present=i.games_present,
            skipped=i.games_skipped,
            invalid=i.games_invalid,
            byes=i.byes,
            players_created=i.players_created,
            games_now=int(n),
        )
        for i, n in session.execute(query)
    )


# ---------------------------------------------------------------------------------------
# Planning structures


@dataclass
class _Identity:
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
class _EventPlan:
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
class _Planned:
    record: GameRecord
    white: _Identity
    black: _Identity
    event: _EventPlan | None
    round: str | None
    tc: str
    key: str | tuple[object, ...] = ""  # a stand-in (tuple) until the players and event exist
    final: bool = False  # the key is the stored natural key (no stand-ins)


@dataclass
class _Plan:
    games: list[_Planned] = field(default_factory=list)
    present: int = 0
    problems: list[Problem] = field(default_factory=list)
    parse_lines: set[int] = field(default_factory=set)  # lines the parser could not read
    invalid_records: set[int] = field(default_factory=set)  # id() of refused game records

    def problem(self, source: str, line: int, reason: str) -> None:
        self.problems.append(Problem(source, line, reason))

    def refuse(self, record: GameRecord, reason: str | None = None) -> None:
        if reason is not None:
            self.problem(record.source, record.line, reason)
        self.invalid_records.add(id(record))

    @property
    def invalid(self) -> int:
        return len(self.parse_lines) + len(self.invalid_records)


def _game_row(
    planned: _Planned, import_id: int, stored: Callable[[dt.date], object]
) -> tuple[object, ...]:
    """A ``games`` row in the order of ``_GAME_COLUMNS``."""
    record = planned.record
    white_id, black_id = planned.white.player_id, planned.black.player_id
    assert white_id is not None and black_id is not None
    event_id = planned.event.event_id if planned.event is not None else None
    return (
        white_id,
        black_id,
        record.result,
        stored(record.played_on),
        planned.tc,
        event_id,
        planned.round,
        record.white.rating,
        record.black.rating,
        natural_key(record.played_on, white_id, black_id, event_id, planned.round),
        import_id,
    )


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class _Known(NamedTuple):
    """A stored player, as matching needs him."""

    id: int
    name: str
    fide_id: int | None
    external: bool


_KNOWN: Final = select(Player.id, Player.name, Player.fide_id, Player.external)


def _label(player: _Known) -> str:
    fide = f", FIDE {player.fide_id}" if player.fide_id else ""
    return f"#{player.id} {player.name}{fide}"


def _has_control(text: str) -> bool:
    """Control characters (NUL, escape codes...): never part of a name; PostgreSQL refuses
    NUL in text."""
    return any(unicodedata.category(char) == "Cc" for char in text)


def _clean_round(value: str | None) -> tuple[str | None, list[str]]:
    """A game's round as stored, and what is wrong with it."""
    problems = []
    try:
        round_ = clean_round(value)
    except InvalidInputError as exc:
        problems.append(str(exc))
        round_ = None
    if round_ is not None and _has_control(round_):
        problems.append(f"round {round_!r} contains control characters")
    return round_, problems


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------------------
# One file


class _FileImport:
    def __init__(
        self,
        session: Session,
        source: SourceFile,
        fmt: str,
        options: ImportOptions,
        progress: Progress | None,
    ) -> None:
        self.session = session
        self.source = source
        self.name = source.name
        self.fmt = fmt
        self.options = options
        self.progress = progress
        self.sha256 = hashlib.sha256(source.data).hexdigest()
        self.plan = _Plan()
        self.notes: list[str] = []
        # Each record's white and black person, in the order of the records.
        self.sides: tuple[Sequence[GameRecord], list[_Identity], list[_Identity]] = ((), [], [])

    # -- driver --------------------------------------------------------------------------

    def run(self) -> FileReport:
        parsed = detect.parse(
            self.source.data,
            self.name,
            self.fmt,
            tc=self.options.tc,  # type: ignore[arg-type]  # checked by check_options
            encoding=self.options.encoding,
        )
        for problem in parsed.problems:
            self.plan.problem(problem.source, problem.line, problem.reason)
            if problem.line > 0:
                self.plan.parse_lines.add(problem.line)
        self._plan(parsed)
        self._note_parse(parsed)
        problems = sorted(self.plan.problems, key=lambda p: p.line)
        invalid = self.plan.invalid
        writable = self.plan.games
        rejected = bool(problems) and (not self.options.skip_invalid or not writable)
        if rejected:
            return self._report(parsed, "rejected", None, (), (), problems, invalid, 0, ())
        previous = self.session.execute(
            select(Import.id, Import.imported_at)
            .where(Import.sha256 == self.sha256)
            .order_by(Import.id)
            .limit(1)
        ).first()
        if previous is not None:
            self.notes.insert(
                0,
                f"the same file (same SHA-256) was imported before as #{previous[0]} "
                f"on {previous[1]:%Y-%m-%d %H:%M}",
            )
        import_id, created, events, stale = self._write(parsed, invalid)
        status: Literal["imported", "dry-run"] = "dry-run" if self.options.dry_run else "imported"
        return self._report(
            parsed,
            status,
            None if self.options.dry_run else import_id,
            created,
            events,
            problems,
            invalid,
            len(writable),
            stale,
        )

    def _report(
        self,
        parsed: ParseResult,
        status: Literal["imported", "rejected", "dry-run"],
        import_id: int | None,
        created: tuple[CreatedPlayer, ...],
        events: tuple[str, ...],
        problems: list[Problem],
        invalid: int,
        added: int,
        stale: tuple[StaleFrom, ...],
    ) -> FileReport:
        return FileReport(
            file=self.name,
            format=self.fmt,
            sha256=self.sha256,
            status=status,
            import_id=import_id,
            valid=len(self.plan.games) + self.plan.present,
            added=added,
            already_present=self.plan.present,
            skipped_unfinished=parsed.skipped_unfinished,
            skipped_other=parsed.skipped_other,
            invalid=invalid,
            byes=len(parsed.byes),
            players_created=created,
            events_created=events,
            problems=tuple(str(p) for p in problems),
            notes=tuple(self.notes),
            stale=stale,
        )

    def _note_parse(self, parsed: ParseResult) -> None:
        if parsed.byes:
            self.notes.append(
                f"{_plural(len(parsed.byes), 'bye')} counted, not stored (byes are never rated)"
            )
        if parsed.skipped_unfinished:
            self.notes.append(
                f"{_plural(parsed.skipped_unfinished, 'game')} without a result skipped"
            )
        if parsed.skipped_other:
            self.notes.append(
                f"{_plural(parsed.skipped_other, 'unplayed game')} skipped "
                "(double forfeits, unplayed draws)"
            )
        dated = [g for g in self.plan.games if g.record.date_note]
        if dated:
            first = dated[0].record
            self.notes.append(
                f"{_plural(len(dated), 'game')} dated from the event: "
                f"{first.source}:{first.line}: {first.date_note}"
            )

    # -- planning --------------------------------------------------------------------------

    def _plan(self, parsed: ParseResult) -> None:
        records = parsed.games
        if not records:
            return
        identities = self._identities(records)
        self._match_players(identities)
        self._decide_new_players(identities)
        events = self._events(records)
        self._check_games(records, events)
        self._find_present()

    def _identities(self, records: Sequence[GameRecord]) -> dict[tuple[str, object], _Identity]:
        """The file's people: keyed by FIDE id, or by name when the file gives none."""
        ids_by_name: dict[str, set[int]] = defaultdict(set)
        for record in records:
            for info in (record.white, record.black):
                if info.fide_id is not None:
                    ids_by_name[info.name.casefold()].add(info.fide_id)
        identities: dict[tuple[str, object], _Identity] = {}
        # (name, FIDE id) as written -> the person: _key worked out once per person
        seen: dict[tuple[str, int | None], _Identity] = {}
        whites: list[_Identity] = []
        blacks: list[_Identity] = []
        self.sides = (records, whites, blacks)
        absorb = _Identity.absorb
        for record in records:
            for sides, info in ((whites, record.white), (blacks, record.black)):
                identity = seen.get((info.name, info.fide_id))
                if identity is None:
                    key = self._key(info, ids_by_name)
                    identity = identities.get(key)
                    if identity is None:
                        fide_id = key[1] if key[0] == "id" else None
                        identity = _Identity(
                            name=info.name,
                            fide_id=fide_id,  # type: ignore[arg-type]
                            first_line=record.line,
                        )
                        if _has_control(info.name):  # checked before it reaches a query
                            identity.problem = (
                                f"player name {info.name!r} contains control characters"
                            )
                        identities[key] = identity
                    seen[(info.name, info.fide_id)] = identity
                sides.append(identity)
                absorb(identity, info)
        return identities

    @staticmethod
    def _key(info: PlayerInfo, ids_by_name: dict[str, set[int]]) -> tuple[str, object]:
        if info.fide_id is not None:
            return ("id", info.fide_id)
        ids = ids_by_name.get(info.name.casefold(), set())
        if len(ids) == 1:
            return ("id", next(iter(ids)))  # the same name is given a FIDE id elsewhere
        return ("name", info.name.casefold())

    def _match_players(self, identities: dict[tuple[str, object], _Identity]) -> None:
        usable = [i for i in identities.values() if i.problem is None]
        fide_ids = sorted(i.fide_id for i in usable if i.fide_id is not None)
        by_fide: dict[int, _Known] = {}
        for id_chunk in _chunks(fide_ids, _LOOKUP_CHUNK):
            query = _KNOWN.where(Player.fide_id.in_(id_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                assert player.fide_id is not None
                by_fide[player.fide_id] = player
        unmatched = [i for i in usable if i.fide_id is None or i.fide_id not in by_fide]
        names = sorted({i.name for i in unmatched})
        by_name: dict[str, list[_Known]] = defaultdict(list)
        for name_chunk in _chunks(names, _LOOKUP_CHUNK):
            query = _KNOWN.where(Player.name.in_(name_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                by_name[player.name].append(player)
        folded = sorted({i.name.lower() for i in unmatched if i.name not in by_name})
        by_lower: dict[str, list[_Known]] = defaultdict(list)
        for folded_chunk in _chunks(folded, _LOOKUP_CHUNK):
            query = _KNOWN.where(func.lower(Player.name).in_(folded_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                by_lower[player.name.lower()].append(player)
        for identity in usable:
            if identity.fide_id is not None and identity.fide_id in by_fide:
                self._use(identity, by_fide[identity.fide_id])
                continue
            candidates = by_name.get(identity.name) or by_lower.get(identity.name.lower(), [])
            if identity.fide_id is not None:
                # Players with another FIDE id are other people of the same name.
                candidates = [p for p in candidates if p.fide_id is None]
            if len(candidates) == 1:
                self._use(identity, candidates[0])
            elif len(candidates) > 1:
                listed = ", ".join(_label(p) for p in sorted(candidates, key=lambda p: p.id))
                identity.problem = (
                    f"player {identity.name!r} matches {len(candidates)} players ({listed}); "
                    "give FIDE ids in the file, or rename one of them"
                )
            else:
                identity.new = True

    @staticmethod
    def _use(identity: _Identity, player: _Known) -> None:
        identity.player_id = player.id
        identity.external = player.external

    def _decide_new_players(self, identities: dict[tuple[str, object], _Identity]) -> None:
        policy = self.options.create_players
        for identity in identities.values():
            if not identity.new:
                continue
            try:
                identity.name = clean_name(identity.name)
            except InvalidInputError as exc:
                identity.problem = str(exc)
                continue
            in_games = f"(in {_plural(identity.games, 'game')})"
            if policy == "no":
                identity.problem = (
                    f"unknown player {identity.name!r} {in_games}: add him first "
                    "(`tracker player add`) or use --create-players tracked|external"
                )
            elif policy == "auto" and identity.fide_id is None and not identity.rating_seen:
                identity.problem = (
                    f"unknown player {identity.name!r} {in_games} and the file gives no FIDE "
                    "id or rating for him: add him first (`tracker player add`) or use "
                    "--create-players tracked|external"
                )
            else:
                identity.external = policy == "external"

    def _events(self, records: Sequence[GameRecord]) -> dict[str, _EventPlan]:
        events: dict[str, _EventPlan] = {}
        normal: dict[str, str] = {}  # as written -> as stored
        for record in records:
            if record.event is None:
                continue
            name = normal.get(record.event)
            if name is None:
                name = normal[record.event] = " ".join(record.event.split())
            if not name:
                continue
            plan = events.get(name)
            if plan is None:
                plan = events[name] = _EventPlan(name=name, first_line=record.line)
                if len(name) > 200:
                    plan.problem = "an event name is limited to 200 characters"
                elif _has_control(name):
                    plan.problem = f"event name {name!r} contains control characters"
            if record.event_start is not None and (
                plan.file_start is None or record.event_start < plan.file_start
            ):
                plan.file_start = record.event_start
            if record.site and not _has_control(record.site):
                plan.site = plan.site or " ".join(record.site.split())[:200] or None
        names = sorted(n for n, p in events.items() if p.problem is None)
        for chunk in _chunks(names, _LOOKUP_CHUNK):
            for event in self.session.scalars(select(Event).where(Event.name.in_(chunk))):
                plan = events[event.name]
                plan.event_id = event.id
                plan.db_start = event.start_date
                plan.db_fixed = event.start_fixed
                if (
                    plan.file_start is not None
                    and event.start_fixed
                    and plan.file_start != event.start_date
                ):
                    plan.problem = (
                        f"event {event.name!r} starts on {event.start_date} in the database; "
                        f"the file says {plan.file_start}"
                    )
                elif plan.file_start is not None and plan.file_start > event.start_date:
                    # not fixed: the start is its earliest stored game, which the file's
                    # start would leave outside the event
                    plan.problem = (
                        f"event {event.name!r} has games from {event.start_date} in the "
                        f"database; the file says it starts on {plan.file_start}"
                    )
        for plan in events.values():
            if plan.problem is not None:
                self.plan.problem(self.name, plan.first_line, plan.problem)
        return events

    def _check_games(
        self,
        records: Sequence[GameRecord],
        events: dict[str, _EventPlan],
    ) -> None:
        reported: set[int] = set()
        no_tc: list[GameRecord] = []
        seen_keys: dict[str | tuple[object, ...], int] = {}
        plan = self.plan
        sided, whites, blacks = self.sides
        assert sided is records, "the sides were found for these records"
        event_names: dict[str, str] = {}  # as written -> as stored
        rounds: dict[str | None, tuple[str | None, list[str]]] = {}  # as written -> cleaned
        fixed_starts: dict[str, dt.date | None] = {}  # event name -> its fixed_start
        for record, white, black in zip(records, whites, blacks, strict=True):
            bad = False
            for identity in (white, black):
                if identity.problem is not None:
                    bad = True
                    if id(identity) not in reported:
                        reported.add(id(identity))
                        plan.problem(self.name, identity.first_line, identity.problem)
            event = None
            if record.event is not None:
                event_name = event_names.get(record.event)
                if event_name is None:
                    event_name = event_names[record.event] = " ".join(record.event.split())
                if event_name:
                    event = events[event_name]
                    bad = bad or event.problem is not None  # reported once, with the event
            if bad:
                plan.refuse(record)
                continue
            reasons: list[str] = []
            if white is black or (
                white.player_id is not None and white.player_id == black.player_id
            ):
                reasons.append(f"white and black are the same player ({white.name})")
            cleaned = rounds.get(record.round)
            if cleaned is None:
                cleaned = rounds[record.round] = _clean_round(record.round)
            round_ = cleaned[0]
            reasons.extend(cleaned[1])
            if (white.external or black.external) and record.result not in FORFEITS:
                for identity, info in ((white, record.white), (black, record.black)):
                    if identity.external and info.rating is None:
                        reasons.append(
                            f"{identity.name} is an external player and the file records no "
                            "rating for him in this game"
                        )
            if event is not None:
                if event.name in fixed_starts:
                    fixed = fixed_starts[event.name]
                else:
                    fixed = fixed_starts[event.name] = event.fixed_start
                if fixed is not None and record.played_on < fixed:
                    reasons.append(
                        f"the game's date {record.played_on} is before {event.name!r} starts "
                        f"({fixed})"
                    )
            if record.tc is None:
                no_tc.append(record)  # reported once for all of them, below
                plan.refuse(record)
            for reason in reasons:
                plan.refuse(record, reason)
            if record.tc is None or reasons:
                continue
            assert record.tc is not None
            planned = _Planned(record, white, black, event, round_, record.tc)
            planned.key, planned.final = self._key_of(planned)
            earlier = seen_keys.get(planned.key)
            if earlier is not None:
                plan.refuse(
                    record,
                    f"the same game as line {earlier} (same date, players, event and round); "
                    "give the games distinct rounds",
                )
                continue
            seen_keys[planned.key] = record.line
            plan.games.append(planned)
        if no_tc:
            first = no_tc[0]
            more = f" (and {len(no_tc) - 1} more)" if len(no_tc) > 1 else ""
            plan.problem(
                self.name,
                first.line,
                f"no time control for this game{more}: the file does not say; "
                "give --tc standard|rapid|blitz",
            )

    @staticmethod
    def _key_of(planned: _Planned) -> tuple[str | tuple[object, ...], bool]:
        """The natural key, and whether it is final: players and events not created yet get
        stand-ins (which cannot match a stored game)."""
        white, black, event = planned.white.player_id, planned.black.player_id, planned.event
        event_id = event.event_id if event is not None else None
        if white is not None and black is not None and (event is None or event_id is not None):
            return natural_key(
                planned.record.played_on, white, black, event_id, planned.round
            ), True
        # A tuple can never equal a stored key (a string); equal stand-ins are the same game.
        stand_in = (
            planned.record.played_on,
            white or ("new", id(planned.white)),
            black or ("new", id(planned.black)),
            event_id or (("new", event.name) if event is not None else ""),
            planned.round or "",
        )
        return stand_in, False

    def _find_present(self) -> None:
        """Games already stored drop out; one stored with another result is a problem."""
        plan = self.plan
        real = [g for g in plan.games if g.final]
        stored: dict[object, tuple[int, str, str]] = {}
        for chunk in _chunks([g.key for g in real], _LOOKUP_CHUNK):
            query = select(Game.natural_key, Game.id, Game.result, Game.tc).where(
                Game.natural_key.in_(chunk)
            )
            for key, game_id, result, tc in self.session.execute(query):
                stored[key] = (game_id, result, tc)
        if not stored:
            return
        keep: list[_Planned] = []
        for planned in plan.games:
            found = stored.get(planned.key)
            if found is None:
                keep.append(planned)
                continue
            game_id, result, tc = found
            if (result, tc) == (planned.record.result, planned.tc):
                plan.present += 1
                continue
            plan.refuse(
                planned.record,
                f"this game is already recorded as game {game_id} with result {result} ({tc}); "
                f"the file says {planned.record.result} ({planned.tc}): if the file is right, "
                f"remove game {game_id} first (`tracker game remove {game_id}`)",
            )
        plan.games = keep

    # -- writing ---------------------------------------------------------------------------

    def _write(
        self, parsed: ParseResult, invalid: int
    ) -> tuple[int, tuple[CreatedPlayer, ...], tuple[str, ...], tuple[StaleFrom, ...]]:
        games = self.plan.games
        created = self._create_players(games)
        events_created, changed_events = self._write_events(games)
        record = Import(
            file_name=self.name[-255:],
            sha256=self.sha256,
            format=self.fmt,
            imported_at=dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0),
            games_added=len(games),
            games_present=self.plan.present,
            games_skipped=parsed.skipped_unfinished + parsed.skipped_other,
            games_invalid=invalid,
            byes=len(parsed.byes),
            players_created=len(created),
        )
        self.session.add(record)
        self.session.flush()
        self._insert_games(games, record.id)
        stale = self._mark_stale(games, changed_events)
        if any(not p.external for p in created):
            self.notes.append(
                "new tracked players start unrated (a game file carries no FIDE state): give "
                "each his rating with `tracker player edit NAME --rating R --games N` before "
                "closing the period"
            )
        return record.id, created, events_created, stale

    def _create_players(self, games: Sequence[_Planned]) -> tuple[CreatedPlayer, ...]:
        needed: list[_Identity] = []
        seen: set[int] = set()
        for planned in games:
            for identity in (planned.white, planned.black):
                if identity.new and identity.player_id is None and id(identity) not in seen:
                    seen.add(id(identity))
                    needed.append(identity)
        if not needed:
            return ()
        rows = [
            {
                "name": i.name,
                "fide_id": i.fide_id,
                "federation": i.federation
                if i.federation and _FEDERATION.match(i.federation)
                else None,
                "birth_year": i.birth_year
                if i.birth_year and YEAR_MIN <= i.birth_year <= YEAR_MAX
                else None,
                "sex": i.sex if i.sex in ("m", "f") else None,
                "title": i.title if i.title in TITLES else None,
                "external": i.external,
            }
            for i in needed
        ]
        players = cast(Table, Player.__table__)  # a Core insert: one statement for all rows
        ids = self.session.scalars(
            insert(players).returning(players.c.id, sort_by_parameter_order=True), rows
        ).all()
        for identity, player_id in zip(needed, ids, strict=True):
            identity.player_id = player_id
        dry = self.options.dry_run
        return tuple(
            CreatedPlayer(None if dry else i.player_id, i.name, i.fide_id, i.external)
            for i in needed
        )

    def _write_events(
        self, games: Sequence[_Planned]
    ) -> tuple[tuple[str, ...], list[tuple[int, dt.date]]]:
        """Create the new events, move existing start dates; returns the names created and
        (event id, earliest affected day) of existing events whose start moved."""
        earliest: dict[str, dt.date] = {}
        plans: dict[str, _EventPlan] = {}
        for planned in games:
            if planned.event is None:
                continue
            name = planned.event.name
            plans[name] = planned.event
            day = planned.record.played_on
            if name not in earliest or day < earliest[name]:
                earliest[name] = day
        created: list[str] = []
        changed: list[tuple[int, dt.date]] = []
        new: list[tuple[_EventPlan, Event]] = []
        for name, plan in plans.items():
            first_game = earliest[name]
            if plan.event_id is None:
                event = Event(
                    name=name,
                    site=plan.site,
                    start_date=plan.file_start or first_game,
                    start_fixed=plan.file_start is not None,
                )
                self.session.add(event)  # inserted in this order, all in one flush
                new.append((plan, event))
                created.append(name)
                continue
            existing = self.session.get(Event, plan.event_id)
            assert existing is not None
            old = existing.start_date
            if plan.file_start is not None and not existing.start_fixed:
                existing.start_date = plan.file_start
                existing.start_fixed = True
            elif not existing.start_fixed and first_game < existing.start_date:
                existing.start_date = first_game
            if existing.start_date != old:
                changed.append((existing.id, min(old, existing.start_date)))
        self.session.flush()
        for plan, event in new:
            plan.event_id = event.id
        return tuple(created), changed

    def _insert_games(self, games: Sequence[_Planned], import_id: int) -> None:
        """Insert the games a chunk at a time (rows are built per chunk: a federation's file
        would otherwise hold a second copy of every game in memory)."""
        stored = stored_date(self.session)
        total = len(games)
        if self.progress is not None:
            self.progress(self.name, 0, total)
        done = 0
        for chunk in _chunks(games, CHUNK):
            rows = [_game_row(planned, import_id, stored) for planned in chunk]
            bulk_insert(self.session, _GAMES, _GAME_COLUMNS, rows, dates_stored=True)
            done += len(chunk)
            if self.progress is not None:
                self.progress(self.name, done, total)

    def _mark_stale(
        self, games: Sequence[_Planned], changed_events: Iterable[tuple[int, dt.date]]
    ) -> tuple[StaleFrom, ...]:
        days: dict[str, dt.date] = {}

        def touch(tc: str, day: dt.date) -> None:
            if tc not in days or day < days[tc]:
                days[tc] = day

        for planned in games:
            touch(planned.tc, planned.record.played_on)
        for event_id, day in changed_events:
            # The event is now rated with another list: its stored games are affected too.
            for tc in self.session.scalars(
                select(Game.tc).where(Game.event_id == event_id).distinct()
            ):
                touch(tc, day)
        stale: list[StaleFrom] = []
        for tc, day in sorted(days.items()):
            closed = list(
                self.session.scalars(
                    select(RatingPeriod.month)
                    .where(RatingPeriod.tc == tc)
                    .order_by(RatingPeriod.month)
                )
            )
            affected = [m for m in closed if m >= min(month_of(day), closed[0])] if closed else []
            mark_stale(self.session, tc, day)
            if affected:
                stale.append(StaleFrom(tc, affected[0]))
        return tuple(stale)
