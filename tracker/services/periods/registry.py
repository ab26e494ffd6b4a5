"""The rating systems that close the monthly periods.

Every registered rating system (:mod:`tracker.services.systems`: FIDE's Elo, the official
list, then the Glicko shadow) closes each period in turn
(:mod:`tracker.services.periods.closing`: close, rerate, list), and the readers take the
columns beside the official list from the systems registered after it. Registering a system
here is all it takes: a test adds a system of its own to show the seam holds. Only the
systems' readers load with this registry; a close loads their folds.
"""

from __future__ import annotations

from typing import cast

from tracker.services.periods.fide_elo import FideElo
from tracker.services.shadow import GlickoShadow
from tracker.services.systems import RatingSystem, Shown

#: The official list: its close is what ``period close`` reports.
OFFICIAL = FideElo()

#: The rating systems every close runs, in this order (the official list first: the others
#: may read the list it was given, ``Month.ratings``).
SYSTEMS: list[RatingSystem] = [OFFICIAL, GlickoShadow()]


def system(name: str) -> RatingSystem:
    """The registered system called ``name`` (``fide``, ``shadow``)."""
    for registered in SYSTEMS:
        if registered.name == name:
            return registered
    raise LookupError(f"no rating system {name!r} is registered")


def beside() -> list[Shown]:
    """The systems shown beside the official list: every one registered after it."""
    return cast("list[Shown]", SYSTEMS[1:])


def others() -> list[Shown]:
    """The systems beside the official list but the shadow (whose Glicko numbers the readers
    compare with the Elo on their own): each shown as its columns (``Shown``)."""
    return [s for s in beside() if s.name != "shadow"]
