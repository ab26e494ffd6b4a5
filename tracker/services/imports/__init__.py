"""Importing games from PGN, CSV and FIDE TRF files (and players from players files),
safely and repeatably.

Players files (:mod:`tracker.services.players.files`) are read first, whatever their place
in the command, so that the games find their players. For each game file, in order:

1. **Parse** it (:mod:`tracker.importers`; no database): games, byes, problems. The file is
   read a block at a time (its SHA-256 on the way) and its games kept as compact columns
   (:mod:`tracker.services.intake.columns`, some 35 bytes a game): a federation's million
   games are planned and written in a couple of hundred megabytes, never held as records.
2. **Plan** (reads only): match every player of the file to the database -- by FIDE id, then
   by exact name (then the same name in another case), a name matching several players being
   a problem -- and decide what to do with the rest (``create_players``); match events by
   name; check each game (time control known, not dated after today, not already stored with
   another result...) and find the games already present by their natural key and content
   (see :mod:`tracker.services.intake.present`: games sharing a key are distinct games).
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

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from typing import Final

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.db.queries.imports import ImportRow
from tracker.errors import InvalidInputError
from tracker.importers import detect
from tracker.importers.dates import ORDERS
from tracker.importers.players import looks_like_players_csv
from tracker.services.imports.game_file import GameFile
from tracker.services.imports.players_file import import_players_file
from tracker.services.imports.report import (
    CREATE_PLAYERS,
    FileReport,
    ImportOptions,
    ImportReport,
    Progress,
    SourceFile,
)
from tracker.services.intake import check_event_start

#: Bytes enough to tell a file's format.
_SNIFF: Final = 1 << 20

FORMATS: Final = tuple(detect.FORMATS)


def check_options(options: ImportOptions) -> ImportOptions:
    """Validate the options (a user error if wrong) and normalise the format name."""
    fmt = options.fmt.strip().casefold() if options.fmt is not None else None
    if fmt is not None and fmt not in FORMATS:
        raise InvalidInputError(f"unknown import format {options.fmt!r}: use {', '.join(FORMATS)}")
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
        check_event_start(options.event_start)
    order = options.date_order
    if order is not None and order.strip().casefold() not in ORDERS:
        raise InvalidInputError(f"--date-order {order!r}: use one of {', '.join(ORDERS)}")
    order = None if order is None else order.strip().casefold()
    return replace(options, fmt=fmt, date_order=order)


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


def import_files(
    db: Db,
    files: Sequence[SourceFile],
    options: ImportOptions,
    progress: Progress | None = None,
) -> ImportReport:
    """Import each file, all or nothing per file (see the module docstring)."""
    options = check_options(options)
    if not files:
        raise InvalidInputError("no file to import")
    formats = _formats(files, options)
    # Players files first, whatever their place: the games then find their players.
    order = sorted(range(len(files)), key=lambda n: formats[n] != "players")
    savepoint = db.savepoint("tracker_import")
    try:
        with without_gc():  # a million records make millions of objects, none in cycles
            done: dict[int, FileReport] = {}
            for n in order:
                if formats[n] == "players":
                    done[n] = import_players_file(db, files[n], options)
                else:
                    one = GameFile(db, files[n], formats[n], options, progress)
                    one.single = len(files) == 1
                    done[n] = one.run()
            reports = tuple(done[n] for n in range(len(files)))
    except BaseException:
        with suppress(Exception):  # the transaction ends with the error anyway
            savepoint.undo()
        raise
    if options.skip_invalid:  # a file with nothing valid holds no other back
        reports = tuple(replace(r, status="skipped") if r.rejected else r for r in reports)
    if options.dry_run:
        savepoint.undo()
    elif any(r.rejected for r in reports):
        # One command, one transaction: a rejected file holds the others back.
        savepoint.undo()
        reports = tuple(
            r if r.rejected else replace(r, status="held", import_id=None) for r in reports
        )
    else:
        savepoint.keep()
    return ImportReport(files=reports, dry_run=options.dry_run)


def is_players_file(source: SourceFile) -> bool:
    """A CSV of players (``tracker export players``), not of games: told by its header."""
    return looks_like_players_csv(source.head(_SNIFF))


def list_imports(db: Db) -> tuple[ImportRow, ...]:
    """Every import, oldest first (``tracker import list``)."""
    return tuple(queries.imports_with_games(db))
