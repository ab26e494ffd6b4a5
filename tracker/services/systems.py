"""The seam where a rating system plugs into a month's close.

A rating system (FIDE's Elo, the Glicko shadow, and any other a federation adds: a national
Elo, DWZ) is four steps over one closed period: ``read`` what its fold needs from the
database, ``fold`` the month (pure: the rating math), ``write`` its rows for the new period,
and ``delete`` its rows of periods being removed (a rerate, a period dropped). Closing a month
(:mod:`tracker.services.periods.closing`) runs every registered system's steps in turn: all reads,
all folds, then the period and every system's rows; rerating is that close over each month
again. A system's rows belong to a period (``period_id``), so removing a period removes them.

The readers take a system's ratings from it too: ``on_list`` (every player's reading on the
list a month closes: ``compare --all``) and ``of_player`` (one player's, list by list:
``history``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tracker.vocabulary import TimeControl

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.ratings.month_games import MonthGame
    from tracker.services.lists import ListRatings


@dataclass(frozen=True)
class Month:
    """The month being closed, and what every system may read of it."""

    db: Db
    tc: TimeControl
    month: dt.date
    first_month: dt.date  # the first closed month of ``tc``: where tracking starts
    played: list[MonthGame]  # every game played in the month, in order
    ratings: ListRatings  # the published lists, and the ratings recorded on games
    keep: bool  # the next month is closed next: write() returns what it needs


class Reading(NamedTuple):
    """A player's rating in one system on one list date: the rating (None: listed unrated),
    and for a system that has them its deviation and volatility, the rating as shown, and
    whether it is provisional."""

    rating: float | None
    rd: float | None = None
    volatility: float | None = None
    shown: str | None = None
    provisional: bool | None = None


class RatingSystem(Protocol):
    """A rating system's steps over one month (see the module's docstring). ``carry`` is what
    its ``write`` of the previous month returned in the same run (None at the first month of
    a run: read it from the database)."""

    name: str

    def read(self, month: Month, carry: Any) -> Any: ...

    def fold(self, read: Any) -> Any: ...

    def write(self, month: Month, period: int, read: Any, folded: Any) -> Any: ...

    def delete(self, db: Db, periods: Periods) -> None: ...

    def on_list(self, db: Db, tc: str, month: dt.date) -> dict[int, Reading]: ...

    def of_player(
        self, db: Db, tc: str, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]: ...


@dataclass(frozen=True)
class Periods:
    """Closed periods of one time control being removed: from ``since`` on, or before
    ``before``."""

    tc: str
    since: dt.date | None = None
    before: dt.date | None = None
