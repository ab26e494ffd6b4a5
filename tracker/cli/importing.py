"""``tracker import FILE...`` and ``tracker import list``.

``import`` is a group with two commands, ``files`` and ``list``, and ``files`` is the
default: when the first word after ``import`` is not a command name (nor ``--help``), it is
taken as the start of ``files``' arguments. So ``tracker import a.pgn b.trf --dry-run`` runs
``tracker import files a.pgn b.trf --dry-run``, and ``tracker import list`` lists past
imports. A file really named ``list`` is imported with ``tracker import files list`` (or
``./list``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer.core import TyperGroup

from tracker.cli.context import state
from tracker.cli.options import Json, Yes, command_group, tc_option
from tracker.cli.render import message, print_json, print_table
from tracker.errors import InvalidInputError
from tracker.user_input import parse_date
from tracker.vocabulary import plural

if TYPE_CHECKING:
    from typer._click import Context as ClickContext

    from tracker.services.imports import FileReport, ImportReport, Progress, StaleFrom

#: Problems shown per file; the rest are counted ("... and N more"). ``--json`` has all.
SHOWN_PROBLEMS = 50
#: Names of created players shown per file (``--json`` has them all).
SHOWN_NAMES = 10
DEFAULT_COMMAND = "files"


class ImportGroup(TyperGroup):
    """A group whose default command (``files``) runs when no command name is given."""

    def parse_args(self, ctx: ClickContext, args: list[str]) -> list[str]:
        # `tracker import --help` is the help of the files command: its options are the
        # ones people look for (that help names `tracker import list` too).
        if args and args[0] not in self.commands:
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: ClickContext) -> list[str]:
        return ["[files] FILE... [OPTIONS]  |  list [OPTIONS]"]


app = command_group(
    """Import games from PGN, CSV or FIDE TRF files.

    `tracker import FILE...` imports files (the files command is the default);
    `tracker import list` lists past imports.

    \b
    Example: tracker import autumn-open.pgn club-night.csv --dry-run
    """,
    cls=ImportGroup,
)


FILES_HELP = (
    "Import games (and players); each file is all or nothing.\n\n"
    "A file with any invalid record is rejected whole (nothing from it is written) and every "
    "problem is reported as FILE:LINE: reason; with --skip-invalid its valid games are "
    "imported and the rest reported. The command is all or nothing: if any file is rejected, "
    "nothing at all is written and the exit code is 1.\n\n"
    "Importing a file again adds nothing: its games are already present. Players are matched "
    "by FIDE id, then by exact name; new ones with a recorded rating are created external, "
    "with only a FIDE id tracked. A players CSV (told by its header: name, fide_id, ..., "
    "standard_rating, ...) adds or updates players and their seeds, before the games. A "
    "directory stands for its PGN, CSV and TRF files.\n\n"
    "`tracker import list` lists past imports.\n\n"
    "\b\nExample: tracker import autumn-open.pgn --create-players external"
)


@app.command(DEFAULT_COMMAND, help=FILES_HELP)
def files(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Files to import: .pgn, .csv, .trf (or a TRF saved as .txt), a players CSV "
            "(from `tracker export players`), or a directory of them.",
            exists=True,
            dir_okay=True,
            readable=True,
            show_default=False,
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="pgn, csv or trf: read every file as this format instead of going by the "
            "extension.",
            show_default=False,
        ),
    ] = None,
    tc: Annotated[
        str | None,
        tc_option(
            "what each file says (PGN TimeControl, CSV tc column, TRF 222 or 122); --tc is "
            "for the games whose file does not say, and one that contradicts a file is refused"
        ),
    ] = None,
    create_players: Annotated[
        Literal["auto", "by-rating", "tracked", "external", "no"],
        typer.Option(
            "--create-players",
            metavar="MODE",
            help="Players not in the database: create them tracked or external, or refuse "
            "them (no). by-rating: external when the file records a FIDE rating for them "
            "(rated from it), tracked otherwise. Default: auto, as by-rating but refusing a "
            "player the file gives neither a rating nor a FIDE id (most often a misspelt "
            "name).",
            show_default=False,
        ),
    ] = "auto",
    skip_invalid: Annotated[
        bool,
        typer.Option(
            "--skip-invalid",
            help="Import a file's valid games and report the others, instead of rejecting "
            "the whole file.",
        ),
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="Report what would happen; write nothing."),
    ] = False,
    encoding: Annotated[
        str,
        typer.Option(
            "--encoding",
            metavar="ENCODING",
            help="Text encoding of the files (a UTF-8 byte-order mark always wins), "
            "e.g. latin-1 or cp1252.",
        ),
    ] = "utf-8",
    event_start: Annotated[
        dt.date | None,
        typer.Option(
            "--event-start",
            metavar="DATE",
            parser=lambda text: parse_date(text, "--event-start"),
            help="YYYY-MM-DD: the start of the event of a file that gives no date (a TRF "
            "without 042 and 132, a PGN without Date and EventDate); its undated rounds are "
            "all dated that day. Files with their own dates keep them.",
            show_default=False,
        ),
    ] = None,
    date_order: Annotated[
        str | None,
        typer.Option(
            "--date-order",
            metavar="ORDER",
            help="ymd, dmy, mdy or ydm: how to read a TRF's numeric dates (ydm: SwissPerfect's "
            "YY.DD.MM round dates). Default: the reading that agrees with the file's other "
            "dates.",
            show_default=False,
        ),
    ] = None,
    yes: Yes = False,
    json: Json = False,
) -> None:
    """Import games; each file is all or nothing."""
    from tracker.services.imports import ImportOptions, SourceFile, check_options, import_files

    options = check_options(
        ImportOptions(
            fmt=fmt,
            tc=tc,
            create_players=create_players,
            skip_invalid=skip_invalid,
            dry_run=dry_run,
            encoding=encoding,
            event_start=event_start,
            yes=yes,
            date_order=date_order,
        )
    )
    sources = []
    for path in _expand(paths):
        try:
            path.open("rb").close()  # read when imported, a block at a time
        except OSError as exc:
            raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None
        sources.append(SourceFile(str(path), path=path))
    with _progress() as progress:
        report = state(ctx).write(lambda db: import_files(db, sources, options, progress=progress))
    _print_report(report)
    if json:
        print_json(report_json(report))
    rejected = report.rejected
    if rejected:
        names = ", ".join(f.file for f in rejected)
        # --skip-invalid helps only a file with valid new games (with it, none is rejected)
        skipping = any(f.valid > f.already_present for f in rejected)
        raise InvalidInputError(
            f"{len(rejected)} of {len(report.files)} file(s) rejected ({names}); nothing was "
            "written: fix the file(s)" + (", or import with --skip-invalid" if skipping else "")
        )
    if len(report.skipped) == len(report.files):
        raise InvalidInputError(
            f"no valid game in {'the file' if len(report.files) == 1 else 'any file'}: "
            "nothing was written"
        )


#: The files a directory argument brings (``.txt`` only when it holds a TRF).
DIRECTORY_SUFFIXES = (".pgn", ".csv", ".trf", ".trfx", ".txt")


def _expand(paths: list[Path]) -> list[Path]:
    """The files to import: a directory stands for its files (not its subdirectories) with
    a game or players extension, in name order; other files are skipped with a message."""
    from tracker.services.imports import looks_like_trf

    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        found = sorted(p for p in path.iterdir() if p.is_file())
        if not found:
            raise InvalidInputError(f"{path}: the directory holds no file to import")
        for file in found:
            suffix = file.suffix.casefold()
            if suffix not in DIRECTORY_SUFFIXES or (
                suffix == ".txt" and not looks_like_trf(_head(file))
            ):
                message(f"{file}: skipped (not a PGN, CSV or TRF file)")
                continue
            out.append(file)
    return out


def _head(path: Path) -> bytes:
    """The first MiB of a file (enough to tell a TRF)."""
    with path.open("rb") as file:
        return file.read(1 << 20)


@contextmanager
def _progress() -> Iterator[Progress | None]:
    """A rich progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def update(name: str, done: int, total: int) -> None:
        if name not in tasks:
            tasks[name] = bar.add_task(name, total=total)
        bar.update(tasks[name], completed=done, total=total)

    with bar:
        yield update


def _players_line(f: FileReport, would: bool) -> str | None:
    if not f.players_created:
        return None
    parts = []
    for external, label in ((False, "tracked"), (True, "external")):
        names = [p.name for p in f.players_created if p.external == external]
        if names:
            shown = "; ".join(names[:SHOWN_NAMES])
            more = f"; and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else ""
            parts.append(f"{len(names)} {label} ({shown}{more})")
    return ("players to create: " if would else "players created: ") + ", ".join(parts)


def _events_line(events: tuple[str, ...], would: bool) -> str | None:
    if not events:
        return None
    more = f"; and {len(events) - SHOWN_NAMES} more" if len(events) > SHOWN_NAMES else ""
    shown = "; ".join(events[:SHOWN_NAMES])
    return ("events to create: " if would else "events created: ") + shown + more


def _print_players_file(f: FileReport) -> None:
    counts = (
        f"{plural(len(f.players_created), 'player')} added, {len(f.players_updated)} updated, "
        f"{f.players_unchanged} unchanged"
    )
    if f.rejected or f.status == "skipped":
        message(
            f"{f.file}: {f.status} (players), nothing written: {plural(len(f.problems), 'problem')}"
        )
        return
    if f.status == "held":
        message(f"{f.file}: valid (players), held back: {counts}")
        return
    verb = "dry run (players): would be" if f.status == "dry-run" else "imported (players):"
    message(f"{f.file}: {verb} {counts}")
    for warning in f.warnings[:SHOWN_PROBLEMS]:
        message(f"  warning: {warning}")
    for s in f.stale:
        message(f"  {_stale_line(s, f.status == 'dry-run')}")


def _stale_line(s: StaleFrom, would: bool) -> str:
    verb = "would be" if would else "are now"
    return f"closed {s.tc} periods from {s.month:%Y-%m} {verb} stale: run `tracker rerate`"


def _print_report(report: ImportReport) -> None:
    for f in report.files:
        shown = f.problems[:SHOWN_PROBLEMS]
        for problem in shown:
            message(problem)
        if len(f.problems) > len(shown):
            message(f"{f.file}: ... and {len(f.problems) - len(shown)} more problems")
        if f.format == "players":
            _print_players_file(f)
            continue
        counts = (
            f"{f.already_present} already present, {f.skipped} skipped, {f.invalid} invalid"
            + (f", {f.byes} byes (not stored)" if f.byes else "")
        )
        if f.rejected or f.status == "skipped":
            for warning in f.warnings[:SHOWN_PROBLEMS]:
                message(f"  warning: {warning}")
            addable = f.valid - f.already_present
            message(
                f"{f.file}: {f.status} ({f.format}), nothing written: {f.invalid} invalid, "
                f"{plural(len(f.problems), 'problem')}"
                + (
                    f"; --skip-invalid would import its {plural(addable, 'valid new game')}"
                    if addable
                    else ""
                )
            )
            continue
        if f.status == "held":
            message(f"{f.file}: valid ({f.format}), {plural(f.added, 'game')} held back: {counts}")
            continue
        if f.status == "dry-run":
            message(
                f"{f.file}: dry run ({f.format}): {plural(f.added, 'game')} would be added, "
                + counts
            )
        else:
            new = ", nothing new" if f.added == 0 else ""
            message(
                f"{f.file}: imported as #{f.import_id} ({f.format}){new}: "
                f"{plural(f.added, 'game')} added, " + counts
            )
        details = [
            _players_line(f, f.status == "dry-run"),
            _events_line(f.events_created, f.status == "dry-run"),
            *(f"warning: {w}" for w in f.warnings[:SHOWN_PROBLEMS]),
            *(_stale_line(s, f.status == "dry-run") for s in f.stale),
            *(f"note: {n}" for n in f.notes),
        ]
        for line in details:
            if line:
                message(f"  {line}")
    if report.dry_run:
        message("dry run: nothing was written")


def report_json(report: ImportReport) -> dict[str, Any]:
    return {
        "dry_run": report.dry_run,
        "added": report.total("added"),
        "already_present": report.total("already_present"),
        "skipped": report.total("skipped"),
        "invalid": report.total("invalid"),
        "byes": report.total("byes"),
        "players_created": report.players_created,
        "rejected": len(report.rejected),
        "files": [file_json(f) for f in report.files],
    }


def file_json(f: FileReport) -> dict[str, Any]:
    return {
        "file": f.file,
        "format": f.format,
        "sha256": f.sha256,
        "status": f.status,
        "import_id": f.import_id,
        "valid": f.valid,
        "added": f.added,
        "already_present": f.already_present,
        "skipped": f.skipped,
        "skipped_unfinished": f.skipped_unfinished,
        "skipped_other": f.skipped_other,
        "skipped_variant": f.skipped_variant,
        "skipped_bullet": f.skipped_bullet,
        "invalid": f.invalid,
        "byes": f.byes,
        "players_created": [
            {"id": p.id, "name": p.name, "fide_id": p.fide_id, "external": p.external}
            for p in f.players_created
        ],
        "players_updated": list(f.players_updated),
        "players_unchanged": f.players_unchanged,
        "events_created": list(f.events_created),
        "stale": [{"tc": s.tc, "from": f"{s.month:%Y-%m}"} for s in f.stale],
        "notes": list(f.notes),
        "warnings": list(f.warnings),
        "problems": list(f.problems),
    }


@app.command("list")
def list_(ctx: typer.Context, json: Json = False) -> None:
    """Past imports: file, time (UTC), format and what each brought.

    \b
    Example: tracker import list --json
    """
    from tracker.services.imports import list_imports

    rows = state(ctx).read(list_imports)
    if json:
        print_json(
            [
                {
                    "id": r.id,
                    "file": r.file,
                    "sha256": r.sha256,
                    "format": r.format,
                    "imported_at": r.imported_at.isoformat(timespec="seconds"),
                    "added": r.added,
                    "already_present": r.already_present,
                    "skipped": r.skipped,
                    "invalid": r.invalid,
                    "byes": r.byes,
                    "players_created": r.players_created,
                    "games": r.games_now,
                }
                for r in rows
            ]
        )
        return
    print_table(
        [
            "id",
            "imported (UTC)",
            "file",
            "format",
            "added",
            "present",
            "skipped",
            "invalid",
            "byes",
            "players",
            "games now",
        ],
        (
            (
                f"#{r.id}",
                f"{r.imported_at:%Y-%m-%d %H:%M}",
                r.file,
                r.format,
                r.added,
                r.already_present,
                r.skipped,
                r.invalid,
                r.byes,
                r.players_created,
                r.games_now,
            )
            for r in rows
        ),
        right=("id", "added", "present", "skipped", "invalid", "byes", "players", "games now"),
        drop=("byes", "skipped", "players", "games now"),
        wrap=("file",),
        empty="no imports yet",
    )
