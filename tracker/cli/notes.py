"""Warnings and notes that several commands print (on stderr, beside their data)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from tracker.cli.render import message
from tracker.months import month_label


def stale_warning(months: Sequence[dt.date]) -> None:
    """Ratings shown from the first of ``months`` on are stale (nothing if there are none)."""
    if months:
        message(
            f"warning: ratings from {month_label(months[0])} are stale (games changed after "
            "closing); run `tracker rerate` to recompute them"
        )


def now_stale(tc: str, months: Sequence[dt.date]) -> None:
    """A change just made closed periods stale (nothing if it made none)."""
    if months:
        message(
            f"closed {tc} periods {month_label(months[0])}..{month_label(months[-1])} are "
            "now stale: run `tracker rerate`"
        )


def stale_list_warning() -> None:
    message("warning: this list is stale (games changed after closing); run `tracker rerate`")


def external_note(external_rd: float) -> None:
    """How the shadow counts external opponents, and what '?' means."""
    message(
        f"external opponents count with their recorded rating and a fixed RD of "
        f"{external_rd:g}; '?' marks a provisional shadow rating"
    )


def assumption_note(summary: str) -> None:
    """A preset's assumptions, in one line (nothing for a preset without any)."""
    if summary:
        message(f"assumption: {summary}")
