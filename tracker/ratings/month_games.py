"""A month's played games as the month folds (FIDE Elo and the Glicko shadow) take them."""

import datetime as dt
from typing import NamedTuple


class MonthGame(NamedTuple):
    """One played game (forfeits are never given) of a rating period.

    ``event_start`` is the start of the game's event (the game's own date when it belongs to
    no event); once the period that rates the game has set it, the day whose list rates it
    (for a league: the first day of the period). ``rules_from``, when set, is the event's
    real start, which chooses the rule set (:attr:`rules_day`): a league's months are rated
    with each month's list but by the rules in force when it began.
    ``white_rating``/``black_rating`` are the ratings recorded on the game, used for external
    players (opponents whose rating is taken from what was recorded).
    """

    id: int
    white_id: int
    black_id: int
    result: str
    played_on: dt.date
    event_id: int | None
    event_start: dt.date
    white_rating: int | None
    black_rating: int | None
    white_external: bool
    black_external: bool
    rules_from: dt.date | None = None

    @property
    def rules_day(self) -> dt.date:
        """The day whose rules rate the game: the event's start."""
        return self.rules_from if self.rules_from is not None else self.event_start

    def rated_from(self, event_start: dt.date, rules_from: dt.date | None) -> "MonthGame":
        """The game with ``event_start`` and ``rules_from`` set (``_replace`` made directly:
        a month's close sets them on every game of an event)."""
        return MonthGame(*self[:6], event_start, *self[7:11], rules_from)
