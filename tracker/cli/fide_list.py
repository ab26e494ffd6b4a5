"""``tracker player import-fide-list``: seed or refresh players from FIDE's rating list files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.options import Json, month_option, option, tc_option
from tracker.cli.render import message, pick, print_json
from tracker.errors import InvalidInputError
from tracker.files import open_input
from tracker.months import month_label
from tracker.vocabulary import TimeControl

if TYPE_CHECKING:
    from tracker.services.players.fide_list import FideListChange, FideListReport


#: Players listed per section of the text report (``--json`` has them all).
SHOWN_PLAYERS = 50


def import_fide_list(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A FIDE rating list download: the fixed-width text (standard_rating_list.txt, "
            "players_list_foa.txt...) or the XML, unzipped.",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    tc: Annotated[
        TimeControl | None,
        tc_option("the list the file name says (rapid_rating_list.txt), else standard"),
    ] = None,
    federation: Annotated[
        str | None,
        option(
            "--federation", "FED", "Also add this federation's players (three letters), tracked."
        ),
    ] = None,
    month: Annotated[
        dt.date | None,
        month_option(
            "--month",
            "The list's month, for a file that does not say it (the XML, the combined text)",
            "the month the text file's header names",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what would change; write nothing.")
    ] = False,
    json: Json = False,
) -> None:
    """Seed or refresh players from a FIDE rating list file.

    Reads only the lines of players already in the database (by FIDE id), or of
    --federation; sets their federation, birth year, sex and title, and the seed of the
    tracked ones: rating, and the flags and rated games the list's K tells (K 10: once
    2400; K 20 or 10: at least 30 games). A player with games rated before the list keeps
    his seed (the list already counts them): compare with `tracker list --against FILE`.
    Several monthly files may be imported: the latest is the seed, an older one is kept as
    an earlier list (`player seed --list`). A change marks the closed periods stale.
    Streamed: the lines of other players take no memory (a big --federation does).

    \b
    Example: tracker player import-fide-list standard_rating_list.txt
    """
    from tracker.services.players.fide_list import import_fide_list as run_import

    with open_input(path) as stream:
        report = state(ctx).write(
            lambda db: run_import(
                db,
                stream,
                str(path),
                tc=tc,
                federation=federation,
                list_month=month,
                dry_run=dry_run,
            ),
            keep=lambda r: not (r.dry_run or r.problems),
        )
    for problem in report.problems[:SHOWN_PLAYERS]:
        message(problem)
    if report.problems:
        raise InvalidInputError(
            f"{path}: refused, nothing written: {len(report.problems)} problem(s)"
        )
    if json:
        print_json(fide_list_json(report))
    when = f" of {month_label(report.list_month)}" if report.list_month else ""
    scope = "in the database" + (f" or of {federation.upper()}" if federation else "")
    verb = "would be " if report.dry_run else ""
    message(
        f"{path}: FIDE {report.tc} list{when} ({report.format}): {report.players_read} "
        f"players read, {report.matched} {scope}: {len(report.created)} {verb}added, "
        f"{len(report.updated)} {verb}updated, {report.unchanged} unchanged"
    )
    for change in (*report.created, *report.updated)[:SHOWN_PLAYERS]:
        message(f"  {_change_line(change)}")
    more = len(report.created) + len(report.updated) - SHOWN_PLAYERS
    if more > 0:
        message(f"  ... and {more} more (see --json)")
    for note in report.notes:
        message(f"  note: {note}")
    if report.dry_run:
        message("dry run: nothing was written")


def _change_line(change: FideListChange) -> str:
    parts = []
    if change.seed_after is not None:
        before = "none" if change.seed_before is None else str(change.seed_before)
        parts.append(f"seed {before} -> {change.seed_after}")
    parts += [name.replace("_", " ") for name in change.fields]
    what = ", ".join(parts) if parts else "added"
    return f"{change.name} ({change.fide_id}): {what}"


def fide_list_json(report: FideListReport) -> dict[str, Any]:
    def change(c: FideListChange) -> dict[str, Any]:
        return pick(c, "id=player_id name fide_id fields seed_before seed_after")

    return pick(
        report,
        "file format tc list dry_run players_read matched created updated unchanged notes problems",
        list=month_label(report.list_month) if report.list_month else None,
        created=[change(c) for c in report.created],
        updated=[change(c) for c in report.updated],
    )
