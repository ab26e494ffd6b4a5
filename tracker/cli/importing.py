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
from tracker.cli.import_report import print_report, report_json
from tracker.cli.options import (
    Json,
    Yes,
    command_group,
    date_option,
    month_option,
    option,
    tc_option,
)
from tracker.cli.render import message, pick, print_json, print_table
from tracker.errors import InvalidInputError
from tracker.files import open_input
from tracker.vocabulary import TimeControl

if TYPE_CHECKING:
    from typer._click import Context as ClickContext

    from tracker.services.imports.report import Progress

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
        ),
    ],
    fmt: Annotated[
        str | None,
        option(
            "--format",
            "FORMAT",
            "pgn, csv or trf: read every file as this format instead of going by the extension.",
        ),
    ] = None,
    tc: Annotated[
        TimeControl | None,
        tc_option(
            "what each file says (PGN TimeControl, CSV tc column, TRF 222 or 122); --tc is "
            "for the games whose file does not say, and one that contradicts a file is refused; "
            "bullet and correspondence games are skipped"
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
        option(
            "--encoding",
            "ENCODING",
            "Text encoding of the files (a UTF-8 byte-order mark always wins), "
            "e.g. latin-1 or cp1252.",
        ),
    ] = "utf-8",
    event_start: Annotated[
        dt.date | None,
        date_option(
            "--event-start",
            "YYYY-MM-DD: the start of the event of a file that gives no date (a TRF without 042 "
            "and 132, a PGN without Date and EventDate); its undated rounds are all dated that "
            "day. Files with their own dates keep them.",
        ),
    ] = None,
    date_order: Annotated[
        str | None,
        option(
            "--date-order",
            "ORDER",
            "ymd, dmy, mdy or ydm: how to read a TRF's numeric dates (ydm: SwissPerfect's "
            "YY.DD.MM round dates). Default: the reading that agrees with the file's other "
            "dates.",
        ),
    ] = None,
    tc_minutes: Annotated[
        bool,
        typer.Option(
            "--tc-minutes",
            help="Read a PGN TimeControl or CSV tc written as numbers (90+30, 3+2) as people "
            "write controls, minutes then the increment in seconds, instead of in seconds as "
            "PGN writes them (60+0: an hour, not a minute).",
        ),
    ] = False,
    rated_in: Annotated[
        dt.date | None,
        month_option(
            "--rated-in",
            "The rating period FIDE rated the files' events in, when after the month they "
            "end in (as `event edit --rated-in`)",
            "the month each ends in",
        ),
    ] = None,
    yes: Yes = False,
    json: Json = False,
) -> None:
    """Import games; each file is all or nothing."""
    from tracker.services.imports import check_options, import_files
    from tracker.services.imports.report import ImportOptions, SourceFile

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
            tc_minutes=tc_minutes,
            rated_in=rated_in,
        )
    )
    sources = []
    for path in _expand(paths):
        open_input(path).close()  # read when imported, a block at a time
        sources.append(SourceFile(str(path), path=path))
    with _progress() as progress:
        report = state(ctx).write(
            lambda db: import_files(db, sources, options, progress=progress),
            keep=lambda r: not (r.dry_run or r.rejected or len(r.skipped) == len(r.files)),
        )
    print_report(report)
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


def _expand(paths: list[Path]) -> list[Path]:
    """The files to import: a directory stands for its files (not its subdirectories) with
    a game or players extension, in name order; other files are skipped with a message."""
    from tracker.importers.detect import FILE_SUFFIXES, looks_like_trf

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
            if suffix not in FILE_SUFFIXES or (
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
                pick(
                    r,
                    "id file sha256 format imported_at added already_present skipped invalid "
                    "byes players_created games=games_now",
                    imported_at=r.imported_at.isoformat(timespec="seconds"),
                )
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
