"""The rows of the history tables, one named type each: what a month's close writes and what
the readers get back. The columns of each table are its type's fields (in the table's order,
its ``id`` left out), so a row is never spelled as a list of positions.
"""

import datetime as dt
from typing import NamedTuple


class EloRow(NamedTuple):
    """A line of a published list (``elo_history``): a player's result of one period."""

    period_id: int
    player_id: int
    rating_before: int | None
    rating: int | None
    k: int | None
    next_k: int | None
    games: int
    score_c: int  # hundredths
    expected_c: int  # hundredths
    change_exact_c: int  # hundredths
    change: int
    rated_games: int
    ever_2400: bool
    ever_2300: bool
    pool: str | None  # JSON: the games of an unrated player's pool
    note: str | None


class GlickoRow(NamedTuple):
    """A stored shadow (``glicko_history``): after one game (``game_id``), or at a month's end
    (``game_id`` None)."""

    player_id: int
    preset: str
    game_id: int | None
    period_id: int | None
    as_of: dt.date
    rating: float
    rd: float
    volatility: float
    last_played: dt.date | None
    games: int


#: The table each row type is stored in.
TABLES: dict[type[tuple[object, ...]], str] = {
    EloRow: "elo_history",
    GlickoRow: "glicko_history",
}
