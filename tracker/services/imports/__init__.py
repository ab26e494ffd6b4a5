"""Importing games from PGN, CSV and FIDE TRF files (and players from players files),
safely and repeatably.

Players files (:mod:`tracker.services.player_files`) are read first, whatever their place
in the command, so that the games find their players. For each game file, in order:

1. **Parse** it (:mod:`tracker.importers`; no database): games, byes, problems. The file is
   read a block at a time (its SHA-256 on the way) and its games kept as compact columns
   (:mod:`tracker.services.imports.columns`, some 35 bytes a game): a federation's million
   games are planned and written in a couple of hundred megabytes, never held as records.
2. **Plan** (reads only): match every player of the file to the database -- by FIDE id, then
   by exact name (then the same name in another case), a name matching several players being
   a problem -- and decide what to do with the rest (``create_players``); match events by
   name; check each game (time control known, not dated after today, not already stored with
   another result...) and find the games already present by their natural key and content
   (see :meth:`Planner._find_present`: games sharing a key are distinct games).
3. **Decide**: a file with any problem is *rejected* and nothing of it is written, unless
   ``skip_invalid`` is set; then the valid games are written and the invalid ones reported.
   A file that holds no game at all (plain text, a PGN without a game) is a problem. With
   ``skip_invalid`` a file without any valid game is *skipped*: nothing of it is written,
   and the other files go on. One whose valid games are all stored already is imported
   with nothing new.
4. **Write** (accepted files only): the new players and events, one ``imports`` row with the
   counts, then the games in bulk (:meth:`tracker.db.driver.Db.insert_many`, a chunk at a time),
   each linked to its import; closed periods the games land in are marked stale, exactly as a
   hand-entered correction does.

The command is all or nothing too: if any file is rejected, the others are checked and
reported ("held back") but nothing at all is written (with ``skip_invalid`` no file is
rejected: its invalid games, or the whole file, are skipped). ``dry_run`` runs everything inside a
savepoint and rolls it back, so its report is exactly what an import would do. Importing the
same file (or an overlapping one) again adds nothing: its games are counted as already
present.

By default (``auto``) a new player with a recorded rating is created *external* (rated from
the rating recorded on each game, as FIDE rates an open tournament's opponents) and one with
only a FIDE id *tracked*. Players created tracked start without a rating seed (a game file
does not carry a player's FIDE state: games played, peak); seed them with ``tracker player
edit NAME --rating R --games N``, a players file or FIDE's list. A game against an external
player with no recorded rating is stored, and not rated for his opponent.

TRF byes are counted and reported, not stored: they are never rated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING, Final, Literal, Protocol

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.errors import InvalidInputError
from tracker.importers import detect
from tracker.importers.dates import ORDERS
from tracker.importers.players import looks_like_players_csv, parse_players_csv
from tracker.importers.records import ParseResult, Problem
from tracker.services.imports.columns import FileGames
from tracker.services.imports.plan import Planner
from tracker.services.imports.planned import Plan
from tracker.services.imports.report import (
    CREATE_PLAYERS,
    CreatedPlayer,
    CreatePlayers,
    FileReport,
    ImportOptions,
    ImportReport,
    ImportRow,
    Progress,
    SourceFile,
    StaleFrom,
    plural,
)
from tracker.services.imports.write import CHUNK, Writer
from tracker.services.intake import not_fide_id, not_fide_rating
from tracker.services.player_files import read_players
from tracker.user_input import check_tc, check_year

if TYPE_CHECKING:
    from tracker.db.driver import Source

__all__ = [
    "CHUNK",
    "CREATE_PLAYERS",
    "FORMATS",
    "CreatePlayers",
    "CreatedPlayer",
    "FileReport",
    "ImportOptions",
    "ImportReport",
    "ImportRow",
    "Progress",
    "SourceFile",
    "StaleFrom",
    "check_options",
    "import_files",
    "is_players_file",
    "list_imports",
    "looks_like_trf",
    "needs_session",
]

looks_like_trf = detect.looks_like_trf
#: Bytes enough to tell a file's format.
_SNIFF: Final = 1 << 20

FORMATS: Final = tuple(detect.FORMATS)


def check_options(options: ImportOptions) -> ImportOptions:
    """Validate the options (a user error if wrong) and normalise the format name."""
    fmt = options.fmt.strip().casefold() if options.fmt is not None else None
    if fmt is not None and fmt not in FORMATS:
        raise InvalidInputError(f"unknown import format {options.fmt!r}: use {', '.join(FORMATS)}")
    tc = check_tc(options.tc) if options.tc is not None else None
    if options.create_players not in CREATE_PLAYERS:
        raise InvalidInputError(
            f"--create-players must be one of {', '.join(CREATE_PLAYERS)}, "
            f"not {options.create_players!r}"
        )
    try:
        "".encode(options.encoding)
    except LookupError:
        raise InvalidInputError(f"unknown text encoding {options.encoding!r}") from None
    if options.event_start is not None:
        check_year(options.event_start.year, "--event-start", options.event_start.isoformat())
    order = options.date_order
    if order is not None and order.strip().casefold() not in ORDERS:
        raise InvalidInputError(f"--date-order {order!r}: use one of {', '.join(ORDERS)}")
    order = None if order is None else order.strip().casefold()
    return replace(options, fmt=fmt, tc=tc, date_order=order)


def _formats(files: Sequence[SourceFile], options: ImportOptions) -> list[str]:
    """Each file's format, ``players`` for a players file."""
    formats = []
    for source in files:
        try:
            fmt = options.fmt or detect.detect_format(source.name, source.head(_SNIFF))
        except detect.UnknownFormatError as exc:
            raise InvalidInputError(str(exc)) from None
        formats.append("players" if fmt == "csv" and is_players_file(source) else fmt)
    return formats


def needs_session(files: Sequence[SourceFile], options: ImportOptions) -> bool:
    """Whether importing ``files`` needs a SQLAlchemy session: a players file is read by
    :func:`tracker.services.player_files.read_players`, which works on one. Games files need
    only a :class:`Db`. (A file of no known format: False, :func:`import_files` says so.)"""
    try:
        return "players" in _formats(files, check_options(options))
    except InvalidInputError:
        return False


class _Savepoint(Protocol):
    def commit(self) -> None: ...

    def rollback(self) -> None: ...


def _savepoint(source: Source, db: Db) -> _Savepoint:
    """A savepoint: the session's own on a session (which then forgets the objects it
    undoes), else plain SQL's."""
    if isinstance(source, Db):
        return queries.Savepoint(db)
    savepoint = source.begin_nested()
    source.connection()  # SQLAlchemy says SAVEPOINT when the connection is next asked for
    return savepoint


def import_files(
    source: Source,
    files: Sequence[SourceFile],
    options: ImportOptions,
    progress: Progress | None = None,
) -> ImportReport:
    """Import each file, all or nothing per file (see the module docstring). A players
    file needs ``source`` to be a session (see :func:`needs_session`)."""
    options = check_options(options)
    if not files:
        raise InvalidInputError("no file to import")
    formats = _formats(files, options)
    # Players files first, whatever their place: the games then find their players.
    order = sorted(range(len(files)), key=lambda n: formats[n] != "players")
    db = Db.of(source)
    savepoint = _savepoint(source, db)
    try:
        with without_gc():  # a million records make millions of objects, none in cycles
            done: dict[int, FileReport] = {}
            for n in order:
                if formats[n] == "players":
                    done[n] = _players_file(source, db, files[n], options)
                else:
                    one = _FileImport(db, files[n], formats[n], options, progress)
                    one.single = len(files) == 1
                    done[n] = one.run()
            reports = tuple(done[n] for n in range(len(files)))
    except BaseException:
        with suppress(Exception):  # the transaction ends with the error anyway
            savepoint.rollback()
        raise
    if options.skip_invalid:  # a file with nothing valid holds no other back
        reports = tuple(replace(r, status="skipped") if r.rejected else r for r in reports)
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


def is_players_file(source: SourceFile) -> bool:
    """A CSV of players (``tracker export players``), not of games: told by its header."""
    return looks_like_players_csv(source.head(_SNIFF))


def _players_file(on: Source, db: Db, source: SourceFile, options: ImportOptions) -> FileReport:
    """Read a players file (see :mod:`tracker.services.player_files`, which works on a
    session)."""
    if isinstance(on, Db):
        raise TypeError("a players file is read on a SQLAlchemy session (see needs_session)")
    session = on
    data = source.read()  # a players file is a club's or a federation's players: small
    parsed = parse_players_csv(data, source.name, encoding=options.encoding)
    problems = list(parsed.problems)
    savepoint = session.begin_nested()
    read = read_players(session, source.name, parsed.players) if parsed.players else None
    warnings = () if read is None else read.warnings
    if read is not None:
        problems.extend(read.problems)
    problems.sort(key=lambda p: p.line)
    # the players the file would write (or leave as they are)
    valid = 0 if read is None else len(read.created) + len(read.updated) + read.unchanged
    rejected = bool(problems) and (not options.skip_invalid or not valid)
    if rejected:
        savepoint.rollback()
        read = None
    else:
        savepoint.commit()
    stale: tuple[StaleFrom, ...] = ()
    notes: list[str] = []
    if read is not None and read.seeds_changed:
        firsts = queries.first_periods(db)
        stale = tuple(StaleFrom(first.tc, first.month) for first in sorted(firsts))
    if read is not None and read.unchanged:
        notes.append(f"{plural(read.unchanged, 'player')} already as the file says")
    status: Literal["imported", "rejected", "dry-run"] = (
        "rejected" if rejected else "dry-run" if options.dry_run else "imported"
    )
    created = () if read is None else read.created
    return FileReport(
        file=source.name,
        format="players",
        sha256=hashlib.sha256(data).hexdigest(),
        status=status,
        import_id=None,
        valid=valid,
        added=0,
        already_present=0,
        skipped_unfinished=0,
        skipped_other=0,
        invalid=0,
        byes=0,
        players_created=tuple(
            CreatedPlayer(None if options.dry_run else pid, name, fide_id, external)
            for pid, name, fide_id, external in created
        ),
        events_created=(),
        problems=tuple(str(p) for p in problems),
        notes=tuple(notes),
        stale=stale,
        players_updated=() if read is None else read.updated,
        players_unchanged=0 if read is None else read.unchanged,
        warnings=tuple(str(w) for w in warnings),
    )


def _set_aside(name: str, games: FileGames) -> list[Problem]:
    """What the intake's rules set aside of a file's values (a rating that is no FIDE
    rating, a number that is no FIDE id), one warning each at its first line."""
    out = []
    for count, first, what, rule in (
        (games.not_fide_ratings, games.first_not_fide_rating, "recorded rating", not_fide_rating),
        (games.not_fide_ids, games.first_not_fide_id, "FIDE id", not_fide_id),
    ):
        if first is not None:
            line, value = first
            more = f" (and {count - 1} more {what}s like it)" if count > 1 else ""
            out.append(Problem(name, line, f"{what} {rule(value)}{more}"))
    return out


def _anything_read(parsed: ParseResult) -> bool:
    """Whether a file without games still held records of games: byes, games without a
    result, unplayed games or games of other variants."""
    return bool(
        parsed.byes or parsed.skipped_unfinished or parsed.skipped_other or parsed.skipped_variant
    )


def _read_something(games: FileGames) -> bool:
    """Whether a file without games held records of games (see :func:`_anything_read`)."""
    return games.bullet > 0 or _anything_read(games.parsed)


def list_imports(source: Source) -> tuple[ImportRow, ...]:
    """Every import, oldest first (``tracker import list``)."""
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
            games_now=i.games_now,
        )
        for i in queries.imports_with_games(Db.of(source))
    )


class _FileImport:
    def __init__(
        self,
        db: Db,
        source: SourceFile,
        fmt: str,
        options: ImportOptions,
        progress: Progress | None,
    ) -> None:
        self.db = db
        self.source = source
        self.name = source.name
        self.fmt = fmt
        self.options = options
        self.progress = progress
        self.sha256 = ""
        self.notes: list[str] = []
        self.warnings: list[Problem] = []
        self.single = False  # the only file of the command

    # -- driver --------------------------------------------------------------------------

    def _read(self) -> FileGames:
        """The file's games (compact), read a block at a time; its SHA-256 on the way."""
        digest = hashlib.sha256()

        def hashed() -> Iterator[bytes]:
            for block in self.source.blocks():
                digest.update(block)
                yield block

        blocks = hashed()
        stream = detect.stream(
            blocks, self.name, self.fmt, encoding=self.options.encoding,
            event_start=self.options.event_start, date_order=self.options.date_order,
        )  # fmt: skip
        games = FileGames.read(stream, self.options.tc)  # type: ignore[arg-type]  # checked
        for _ in blocks:  # what the parser did not need (it stops at a bad header)
            pass
        self.sha256 = digest.hexdigest()
        return games

    def run(self) -> FileReport:
        games = self._read()
        parsed = games.parsed
        self.plan = plan = Plan(games)
        for problem in parsed.problems:
            plan.problem(problem.source, problem.line, problem.reason)
        if not games.count and not parsed.problems and not _read_something(games):
            plan.problem(self.name, 0, f"no game in this file: is it a {self.fmt.upper()} file?")
        Planner(self.db, self.name, self.options, plan).plan_file()
        self.warnings = sorted(
            (*parsed.warnings, *_set_aside(self.name, games), *plan.warnings),
            key=lambda w: w.line,
        )
        self._note_parse(parsed)
        self.notes.extend(plan.notes)
        problems = sorted(plan.problems, key=lambda p: p.line)
        invalid = plan.invalid
        added = plan.added
        # With --skip-invalid a file is rejected only when it holds no valid game at all: one
        # whose valid games are all present already imports as "nothing new".
        valid = added + plan.present
        rejected = bool(problems) and (not self.options.skip_invalid or not valid)
        if rejected:
            return self._report(parsed, "rejected", None, (), (), problems, invalid, 0, ())
        previous = queries.first_import_of(self.db, self.sha256)
        if previous is not None:
            self.notes.insert(
                0,
                f"the same file (same SHA-256) was imported before as #{previous.id} "
                f"on {previous.imported_at:%Y-%m-%d %H:%M}",
            )
        writer = Writer(
            self.db,
            (self.name, self.sha256, self.fmt),
            self.options,
            self.progress,
            plan,
            self.notes,
        )
        import_id, created, events, stale = writer.write(invalid)
        status: Literal["imported", "dry-run"] = "dry-run" if self.options.dry_run else "imported"
        return self._report(
            parsed,
            status,
            None if self.options.dry_run else import_id,
            created,
            events,
            problems,
            invalid,
            added,
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
            valid=self.plan.added + self.plan.present,
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
            skipped_variant=parsed.skipped_variant,
            skipped_bullet=self.plan.games.bullet,
            warnings=tuple(str(w) for w in self.warnings),
        )

    def _note_parse(self, parsed: ParseResult) -> None:
        if parsed.byes:
            self.notes.append(
                f"{plural(len(parsed.byes), 'bye')} counted, not stored (byes are never rated)"
            )
        if parsed.skipped_unfinished:
            self.notes.append(
                f"{plural(parsed.skipped_unfinished, 'game')} without a result skipped"
            )
        if parsed.skipped_other:
            self.notes.append(
                f"{plural(parsed.skipped_other, 'unplayed game')} skipped "
                "(double forfeits, unplayed draws)"
            )
        if self.plan.games.bullet:
            games = self.plan.games
            assert games.first_bullet is not None
            line, text = games.first_bullet
            self.notes.append(
                f"{plural(games.bullet, 'bullet game')} skipped ({self.name}:{line}: {text!r} "
                "is under 3 minutes for 60 moves): no FIDE list rates bullet"
            )
        if parsed.skipped_variants:
            listed = ", ".join(f"{name} {n}" for name, n in parsed.skipped_variants)
            self.notes.append(
                f"{plural(parsed.skipped_variant, 'game')} of other chess variants skipped "
                f"({listed}): FIDE rates standard chess only"
            )
        games, plan = self.plan.games, self.plan
        dated = 0
        first = -1
        note_of = games.note
        if games.notes:
            for game in plan.writable():
                note = note_of[game]
                if note >= 0:
                    dated += 1
                    if first < 0:
                        first = game
        if dated:
            self.notes.append(
                f"{plural(dated, 'game')} without a full date of its own, dated as "
                f"{self.name}:{games.line[first]} says: {games.note_of(first)}"
            )
        given = self.options.event_start
        if given is not None and self.single and not parsed.event_start_used:
            self.notes.append(
                f"--event-start {given} was not used: the file gives its games' dates "
                "(the option is for files without any)"
            )
