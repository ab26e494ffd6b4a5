"""Importing one file of games: read it (a block at a time, into compact columns), plan it
(match its people and events, check each game, find those already stored), write it if it
is accepted, and say what was done."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Final, Literal

from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.db.queries.imports import TcMonth
from tracker.importers import detect
from tracker.importers.records import ParseResult, Problem
from tracker.services.imports.people import match_people
from tracker.services.imports.report import (
    CreatedPlayer,
    FileReport,
    ImportOptions,
    Progress,
    SourceFile,
)
from tracker.services.imports.write import Writer
from tracker.services.intake.checks import check_games, set_aside
from tracker.services.intake.columns import FileGames
from tracker.services.intake.events import clean_rounds, match_events, plan_byes
from tracker.services.intake.plan import Plan
from tracker.services.intake.present import find_present, find_twins
from tracker.vocabulary import plural


def plan_file(db: Db, name: str, options: ImportOptions, plan: Plan) -> None:
    """Plan one file (reads only): fill ``plan`` with the state of every game (to write,
    refused, present) and the problems found."""
    if not plan.games.count:
        return
    match_people(db, plan, options.create_players)
    match_events(db, name, plan)
    round_problems = clean_rounds(plan)
    plan_byes(plan)
    groups = check_games(db, name, options.yes, plan, round_problems)
    find_present(db, name, plan, groups)
    find_twins(db, name, plan)


#: Why each class on no FIDE list is skipped (the end of its note).
UNLISTED_WHY: Final = {
    "bullet": " is under 3 minutes for 60 moves): no FIDE list rates bullet",
    "correspondence": "): no FIDE list rates correspondence chess, whatever --tc says (it is "
    "for the games whose file gives no time control)",
}


def _read_something(games: FileGames) -> bool:
    """Whether a file without games still held records of games: byes, games without a
    result, unplayed games, games of other variants or of a class on no FIDE list."""
    parsed = games.parsed
    skipped = parsed.skipped_unfinished or parsed.skipped_other or parsed.skipped_variant
    return bool(games.skipped_unlisted > 0 or parsed.byes or skipped)


class GameFile:
    """One file of games, imported in ``db``'s transaction."""

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
            tc_minutes=self.options.tc_minutes,
        )  # fmt: skip
        games = FileGames.read(stream, self.options.tc)
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
        plan_file(self.db, self.name, self.options, plan)
        self.warnings = sorted(
            (*parsed.warnings, *set_aside(self.name, games), *plan.warnings),
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
        stale: tuple[TcMonth, ...],
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
            skipped_bullet=self.plan.games.unlisted.get("bullet", 0),
            skipped_correspondence=self.plan.games.unlisted.get("correspondence", 0),
            warnings=tuple(str(w) for w in self.warnings),
        )

    def _note_parse(self, parsed: ParseResult) -> None:
        if parsed.skipped_unfinished:
            self.notes.append(
                f"{plural(parsed.skipped_unfinished, 'game')} without a result skipped"
            )
        if parsed.skipped_other:
            self.notes.append(
                f"{plural(parsed.skipped_other, 'unplayed game')} skipped "
                "(unplayed, without a winner)"
            )
        for kind, count in self.plan.games.unlisted.items():
            line, text = self.plan.games.first_unlisted[kind]
            self.notes.append(
                f"{plural(count, f'{kind} game')} skipped ({self.name}:{line}: {text!r}"
                + UNLISTED_WHY[kind]
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
