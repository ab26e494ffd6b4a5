"""What ``tracker import`` prints of an import: its report, as text and as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracker.cli.render import message, pick
from tracker.vocabulary import plural

if TYPE_CHECKING:
    from tracker.db.queries.imports import TcMonth
    from tracker.services.imports.report import FileReport, ImportReport

#: Problems shown per file; the rest are counted ("... and N more"). ``--json`` has all.
SHOWN_PROBLEMS = 50
#: Names of created players shown per file (``--json`` has them all).
SHOWN_NAMES = 10


def _names(names: Sequence[str]) -> str:
    """Names on a line: the first :data:`SHOWN_NAMES`, and how many more."""
    more = f"; and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else ""
    return "; ".join(names[:SHOWN_NAMES]) + more


def _players_line(f: FileReport, would: bool) -> str | None:
    if not f.players_created:
        return None
    parts = []
    for external, label in ((False, "tracked"), (True, "external")):
        names = [p.name for p in f.players_created if p.external == external]
        if names:
            parts.append(f"{len(names)} {label} ({_names(names)})")
    return ("players to create: " if would else "players created: ") + ", ".join(parts)


def _events_line(events: tuple[str, ...], would: bool) -> str | None:
    if not events:
        return None
    return ("events to create: " if would else "events created: ") + _names(events)


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


def _stale_line(s: TcMonth, would: bool) -> str:
    verb = "would be" if would else "are now"
    return f"closed {s.tc} periods from {s.month:%Y-%m} {verb} stale: run `tracker rerate`"


def print_report(report: ImportReport) -> None:
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
    counts = ("added", "already_present", "skipped", "invalid", "byes")
    return {
        "dry_run": report.dry_run,
        **{count: report.total(count) for count in counts},
        "players_created": report.players_created,
        "rejected": len(report.rejected),
        "files": [file_json(f) for f in report.files],
    }


def file_json(f: FileReport) -> dict[str, Any]:
    return pick(
        f,
        "file format sha256 status import_id valid added already_present skipped "
        "skipped_unfinished skipped_other skipped_variant skipped_bullet skipped_correspondence "
        "invalid byes players_created players_updated players_unchanged events_created stale "
        "notes warnings problems",
        players_created=[pick(p, "id name fide_id external") for p in f.players_created],
        stale=[{"tc": s.tc, "from": f"{s.month:%Y-%m}"} for s in f.stale],
    )
