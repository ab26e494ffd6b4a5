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
``history``). Every system registered after the official list shows itself (:class:`Shown`):
the headings of its columns, a reading as those columns show it, and as JSON keys; the
readers (``history``, ``compare``, ``list``, ``status``, the site) take its columns from it
and name no system but the shadow, whose Glicko numbers (RD, ranks, plots, presets) they
compare with the Elo.
"""

import datetime as dt
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tracker.vocabulary import TimeControl

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.ratings.month_games import MonthGame
    from tracker.services.lists import ListRatings


class Month(NamedTuple):
    """The month being closed, and what every system may read of it (a record passed between
    the close's steps: a named tuple, cheap to define)."""

    db: "Db"
    tc: TimeControl
    month: dt.date
    first_month: dt.date  # the first closed month of ``tc``: where tracking starts
    played: "list[MonthGame]"  # every game played in the month, in order (for the reads)
    ratings: "ListRatings"  # the published lists, and the ratings recorded on games
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
    a run: read it from the database). ``Month.played`` is given to ``read`` only: a system
    keeps in its read what its fold and write need of the month's games (the close lets
    them go once every system has read them)."""

    name: str

    def read(self, month: Month, carry: Any) -> Any: ...

    def fold(self, read: Any) -> Any: ...

    def write(self, month: Month, period: int, read: Any, folded: Any) -> Any: ...

    def delete(self, db: "Db", periods: "Periods") -> None: ...

    def on_list(self, db: "Db", tc: TimeControl, month: dt.date) -> dict[int, Reading]: ...

    def of_player(
        self, db: "Db", tc: TimeControl, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]: ...


class Shown(RatingSystem, Protocol):
    """A system shown beside the official list: ``columns`` are the headings of its columns
    in a table (the shadow: its preset's name and ``RD``), ``cells`` a reading as they show
    it (None: blanks), ``fields`` as JSON keys (None: their values null). They stand beside
    a reader's own: named unlike them, and unlike another system's."""

    def columns(self, db: "Db") -> tuple[str, ...]: ...

    def cells(self, reading: Reading | None) -> tuple[str, ...]: ...

    def fields(self, reading: Reading | None) -> dict[str, Any]: ...


class Beside(NamedTuple):
    """Systems shown beside the official list, as a reader shows them: their columns'
    headings, read once (``columns``, by system), and each reading of a row (one per system,
    in order) as cells and JSON keys."""

    systems: tuple[Shown, ...] = ()
    columns: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def of(cls, db: "Db", systems: list[Shown]) -> "Beside":
        return cls(tuple(systems), tuple(s.columns(db) for s in systems))

    @property
    def headings(self) -> list[str]:
        return [heading for columns in self.columns for heading in columns]

    def drops(self, keep: int = 0) -> list[tuple[str, ...]]:
        """The columns of every system after the first ``keep``, the last registered first: the
        steps a table too wide takes (each system's columns go together)."""
        return list(reversed(self.columns[keep:]))

    def cells(self, readings: tuple[Reading | None, ...]) -> list[str]:
        return [c for s, r in zip(self.systems, readings, strict=True) for c in s.cells(r)]

    def fields(self, readings: tuple[Reading | None, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for system, reading in zip(self.systems, readings, strict=True):
            out |= system.fields(reading)
        return out


class OnList(NamedTuple):
    """The readings of the systems ``beside`` on one list, by player (one mapping per
    system): a list's columns beside the official ratings."""

    beside: Beside = Beside()
    readings: tuple[dict[int, Reading], ...] = ()

    @classmethod
    def read(cls, db: "Db", systems: list[Shown], tc: TimeControl, month: dt.date) -> "OnList":
        """The list of ``month`` (dated the first of the next) as ``systems`` read it."""
        beside = Beside.of(db, systems)
        return cls(beside, tuple(s.on_list(db, tc, month) for s in beside.systems))

    def cells(self, player_id: int) -> list[str]:
        if not self.readings:  # no other system: a row of a whole list asks for nothing
            return []
        return self.beside.cells(tuple(r.get(player_id) for r in self.readings))

    def fields(self, player_id: int) -> dict[str, Any]:
        if not self.readings:
            return {}
        return self.beside.fields(tuple(r.get(player_id) for r in self.readings))


class Periods(NamedTuple):
    """Closed periods of one time control being removed: from ``since`` on, or before
    ``before``."""

    tc: TimeControl
    since: dt.date | None = None
    before: dt.date | None = None
