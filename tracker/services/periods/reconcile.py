"""Reconciliation (``tracker list --against FILE``): our computed list beside FIDE's
official one, player by player.

The official list is a FIDE download (text or XML, see :mod:`tracker.importers.fidelist`),
read for the players who have a FIDE id in the database only. Each line of our list gets
the official rating and K of the same FIDE id, and the difference (ours minus FIDE's); the
tracked players FIDE rates but our list does not follow. A list read from the wrong month
is named (FIDE's text file says its month), since every difference would then be expected.
Reads only: nothing is written.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import IO

from tracker.db.driver import Db
from tracker.db.queries.players import tracked_fide_ids
from tracker.importers.fidelist import FideListEntry, FideListReader, tc_from_name
from tracker.months import month_label
from tracker.services.periods.history import RatingList, rating_list
from tracker.user_input import check_tc


@dataclass(frozen=True)
class Reconciled:
    """One player on our list, FIDE's, or both."""

    rank: int | None  # on our list (None: not on it)
    player_id: int
    name: str
    fide_id: int | None
    rating: int | None  # ours
    k: int | None
    official: int | None  # FIDE's (None: not rated there, or no FIDE id)
    official_k: int | None

    @property
    def difference(self) -> int | None:
        if self.rating is None or self.official is None:
            return None
        return self.rating - self.official


@dataclass(frozen=True)
class Reconciliation:
    ours: RatingList
    file: str
    official_month: dt.date | None  # as the file says (its text header), if it does
    players: tuple[Reconciled, ...]  # our list's order, then FIDE's only
    problems: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def compared(self) -> tuple[Reconciled, ...]:
        return tuple(p for p in self.players if p.difference is not None)


def reconcile(
    db: Db, tc: str, list_month: dt.date | None, stream: IO[bytes], file: str
) -> Reconciliation:
    """Our list (of ``list_month``, default the latest) beside the official file's (read
    from ``stream``; ``file`` names it)."""
    tc = check_tc(tc)
    ours = rating_list(db, tc, list_month)
    tracked = {p.fide_id: (p.id, p.name) for p in tracked_fide_ids(db)}
    reader = FideListReader(stream, file, tc, lambda fide_id, fed: fide_id in tracked)
    official: dict[int, FideListEntry] = {e.fide_id: e for e in reader.entries()}
    problems = [str(p) for p in reader.problems]
    named = tc_from_name(file)
    if not reader.combined and named is not None and named != tc and reader.lines:
        problems.append(
            f"{file}: the file is named as FIDE's {named} list, not the {tc} one "
            f"(give --tc {named})"
        )
    notes = []
    if reader.list_month is not None and reader.list_month != ours.list_date:
        notes.append(
            f"the file is FIDE's list of {month_label(reader.list_month)}; ours is of "
            f"{month_label(ours.list_date)}: compare lists of the same month"
        )
    players: list[Reconciled] = []
    listed: set[int] = set()
    for e in ours.entries:
        found = official.get(e.fide_id) if e.fide_id is not None else None
        if e.fide_id is not None:
            listed.add(e.fide_id)
        players.append(
            Reconciled(
                e.rank,
                e.player_id,
                e.name,
                e.fide_id,
                e.rating,
                e.k,
                found.rating if found else None,
                found.k if found else None,
            )
        )
    only_official = sorted(
        (entry for fide_id, entry in official.items() if fide_id not in listed and entry.rating),
        key=lambda entry: (-(entry.rating or 0), tracked[entry.fide_id][1]),
    )
    for entry in only_official:
        pid, name = tracked[entry.fide_id]
        players.append(
            Reconciled(None, pid, name, entry.fide_id, None, None, entry.rating, entry.k)
        )
    without_id = sum(1 for e in ours.entries if e.fide_id is None)
    if without_id:
        notes.append(f"{without_id} player(s) of our list have no FIDE id: nothing to compare")
    return Reconciliation(
        ours, file, reader.list_month, tuple(players), tuple(problems), tuple(notes)
    )
