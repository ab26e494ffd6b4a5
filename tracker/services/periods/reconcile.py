"""Reconciliation (``tracker list --against FILE``): our computed list beside FIDE's
official one, player by player.

The official list is a FIDE download (text or XML, see :mod:`tracker.importers.fidelist`),
read for the players who have a FIDE id in the database only. Each line of our list gets
the official rating and K of the same FIDE id, and the difference (ours minus FIDE's); the
tracked players FIDE rates but our list does not follow. A list read from the wrong month
is named (FIDE's text file says its month), since every difference would then be expected.
Each player whose rating or K differs gets the likely causes, most likely first, with what
to enter (:mod:`tracker.services.periods.causes`). Reads only: nothing is written.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import IO, TYPE_CHECKING

from tracker.db.driver import Db
from tracker.db.queries.players import tracked_fide_ids
from tracker.errors import NotFoundError
from tracker.importers.fidelist import FideListEntry, FideListReader, tc_from_name
from tracker.months import month_label
from tracker.services import lists
from tracker.services.periods.causes import Explanation, explain, unrated_here
from tracker.services.periods.listing import RatingList, rating_list
from tracker.services.players.refs import find

if TYPE_CHECKING:
    from tracker.vocabulary import TimeControl


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
    official_games: int | None = None  # FIDE's games of the list's period (Gms)
    explanation: Explanation | None = None  # why they differ (rating or K)

    @property
    def differs(self) -> bool:
        """Whether the rating or the K differs (both on both lists)."""
        if self.difference:
            return True
        return self.k is not None and self.official_k is not None and self.k != self.official_k

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
    player: str | None = None  # the one player asked for (--player), else None

    @property
    def compared(self) -> tuple[Reconciled, ...]:
        return tuple(p for p in self.players if p.difference is not None)


def reconcile(
    db: Db,
    tc: TimeControl,
    list_month: dt.date | None,
    stream: IO[bytes],
    file: str,
    player: str | None = None,
) -> Reconciliation:
    """Our list (of ``list_month``, default the latest) beside the official file's (read
    from ``stream``; ``file`` names it), with the likely causes of each difference;
    ``player``: that player only."""
    ours = rating_list(db, tc, list_month)
    only = find(db, player) if player is not None else None
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
    players = _side_by_side(ours, official, tracked)
    without_id = sum(1 for e in ours.entries if e.fide_id is None)
    if only is not None:
        players = [p for p in players if p.player_id == only.id]
        if not players:
            raise NotFoundError(
                f"{only.name} is on neither list (ours of {month_label(ours.list_date)}, "
                f"or FIDE's by FIDE id{'' if only.fide_id else ': he has none'})"
            )
    elif without_id:
        notes.append(f"{without_id} player(s) of our list have no FIDE id: nothing to compare")
    if not problems:
        players = _explained(db, tc, ours, players)
    return Reconciliation(
        ours,
        file,
        reader.list_month,
        tuple(players),
        tuple(problems),
        tuple(notes),
        only.name if only is not None else None,
    )


def _side_by_side(
    ours: RatingList,
    official: dict[int, FideListEntry],
    tracked: dict[int, tuple[int, str]],
) -> list[Reconciled]:
    """Each player of our list beside his line on FIDE's (by FIDE id), then the tracked
    players only FIDE's lists (rated), by rating then name."""
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
                found.games if found else None,
            )
        )
    only_official = sorted(
        (entry for fide_id, entry in official.items() if fide_id not in listed and entry.rating),
        key=lambda entry: (-(entry.rating or 0), tracked[entry.fide_id][1]),
    )
    for entry in only_official:
        pid, name = tracked[entry.fide_id]
        players.append(
            Reconciled(
                None, pid, name, entry.fide_id, None, None, entry.rating, entry.k, entry.games
            )
        )
    return players


def _explained(
    db: Db, tc: TimeControl, ours: RatingList, players: list[Reconciled]
) -> list[Reconciled]:
    """``players`` with the likely causes of each difference."""
    wanted = [
        (p.player_id, p.rating, p.k, p.official, p.official_k, p.official_games)
        for p in players
        if p.differs and p.rating is not None and p.official is not None
    ]
    found = explain(db, tc, ours.month, lists.closed_months(db, tc), wanted) if wanted else {}
    out = []
    for p in players:
        if p.player_id in found:
            p = replace(p, explanation=found[p.player_id])
        elif p.rank is None and p.official is not None:
            p = replace(
                p,
                explanation=Explanation(
                    None, None, None, 0, p.official_games, Decimal(0), 0, (),
                    (unrated_here(p.name, p.official),),
                ),
            )  # fmt: skip
        out.append(p)
    return out
