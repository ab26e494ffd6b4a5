"""A month's played games as the month folds (FIDE Elo and the Glicko shadow) take them."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple


class MonthGame(NamedTuple):
    """One played game (forfeits are never given) of a rating period.

    ``event_start`` is the start of the game's event (the game's own date when it belongs to
    no event); ``white_rating``/``black_rating`` are the ratings recorded on the game, used
    for external players (opponents whose rating is taken from what was recorded).
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
