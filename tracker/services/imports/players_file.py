"""A players file among an import's files (``tracker export players``'s CSV): its players
added or updated, with their seeds, by :mod:`tracker.services.players.files`."""

from __future__ import annotations

import hashlib
from typing import Literal

from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.db.queries.imports import TcMonth
from tracker.importers.players import parse_players_csv
from tracker.services.imports.report import CreatedPlayer, FileReport, ImportOptions, SourceFile
from tracker.services.players.files import read_players
from tracker.vocabulary import plural


def import_players_file(db: Db, file: SourceFile, options: ImportOptions) -> FileReport:
    """Read a players file in ``db``'s transaction: all of it, or (rejected) none of it."""
    data = file.read()  # a players file is a club's or a federation's players: small
    parsed = parse_players_csv(data, file.name, encoding=options.encoding)
    problems = list(parsed.problems)
    savepoint = db.savepoint("players_file")
    read = read_players(db, file.name, parsed.players) if parsed.players else None
    warnings = () if read is None else read.warnings
    if read is not None:
        problems.extend(read.problems)
    problems.sort(key=lambda p: p.line)
    # the players the file would write (or leave as they are)
    valid = 0 if read is None else len(read.created) + len(read.updated) + read.unchanged
    rejected = bool(problems) and (not options.skip_invalid or not valid)
    if rejected:
        savepoint.undo()
        read = None
    else:
        savepoint.keep()
    stale: tuple[TcMonth, ...] = ()
    notes: list[str] = []
    if read is not None and read.seeds_changed:
        firsts = queries.first_periods(db)
        stale = tuple(sorted(firsts))
    if read is not None and read.unchanged:
        notes.append(f"{plural(read.unchanged, 'player')} already as the file says")
    status: Literal["imported", "rejected", "dry-run"] = (
        "rejected" if rejected else "dry-run" if options.dry_run else "imported"
    )
    created = () if read is None else read.created
    return FileReport(
        file=file.name,
        format="players",
        sha256=hashlib.sha256(data).hexdigest(),
        status=status,
        valid=valid,
        players_created=tuple(
            CreatedPlayer(None if options.dry_run else pid, name, fide_id, external)
            for pid, name, fide_id, external in created
        ),
        problems=tuple(str(p) for p in problems),
        notes=tuple(notes),
        stale=stale,
        players_updated=() if read is None else read.updated,
        players_unchanged=0 if read is None else read.unchanged,
        warnings=tuple(str(w) for w in warnings),
    )
