"""Warnings and notes that several commands print (on stderr, beside their data)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from tracker.cli.render import message
from tracker.months import month_label, month_span
from tracker.vocabulary import TimeControl


def stale_warning(months: Sequence[dt.date]) -> None:
    """Ratings shown from the first of ``months`` on are stale (nothing if there are none)."""
    if months:
        message(
            f"warning: ratings from {month_label(months[0])} are stale: run `tracker rerate` "
            "to recompute them"
        )


def now_stale(tc: TimeControl, months: Sequence[dt.date]) -> None:
    """A change just made closed periods stale (nothing if it made none)."""
    if not months:
        return
    one = len(months) == 1
    verb = "is now" if one else "are now"
    what = f"closed {tc} {'period' if one else 'periods'} {month_span(months)}"
    message(f"{what} {verb} stale: run `tracker rerate`")


def stale_list_warning(stale: bool) -> None:
    """The list shown is ``stale`` (nothing if it is not)."""
    if stale:
        message("warning: this list is stale (games changed after closing); run `tracker rerate`")


def shadow_notes(
    *,
    external_rd: float | None = None,
    provisional_rd: float | None = None,
    displays: Iterable[str | None] = (),
) -> None:
    """How the shadow counts external opponents (when the table involves any: give their
    RD), and what '?' means (when one of the shadow ratings shown, ``displays``, carries the
    provisional mark: give the preset's threshold)."""
    if external_rd is not None:
        message(
            f"shadow: external opponents count at their recorded rating and a fixed RD of "
            f"{external_rd:g}"
        )
    if provisional_rd is not None and any(d is not None and d.endswith("?") for d in displays):
        message(f"'?' marks a provisional shadow rating (RD {provisional_rd:g} or more)")


def assumption_note(summary: str) -> None:
    """A preset's assumptions, in one line (nothing for a preset without any)."""
    if summary:
        message(f"assumption: {summary}")
