"""One player's rating-period fold: his state on a list + the period's games -> the next
list's state and the period's outcome (FIDE Rating Regulations 2024 §7-§8)."""

from datetime import date
from functools import lru_cache
from typing import NamedTuple

from tracker.ratings.fide.events import RATING_FLOOR
from tracker.ratings.fide.records import (
    PlayerState,
)
from tracker.ratings.fide.rules import (
    JUNIOR_LAST_AGE,
    K_2300,
    K_2400,
    NEW_PLAYER_GAMES,
)


def check_month(month: date, what: str = "month") -> None:
    if month.day != 1:
        raise ValueError(f"{what} must be the first day of a month, not {month.isoformat()}")


def k_factor(
    *,
    rated_games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    list_year: int,
) -> int:
    """The development coefficient K published on a list of year ``list_year``.

    FIDE Rating Regulations 2024 §8.3.3. The text gives no precedence; this order reproduces
    FIDE's published K:

    1. ever published at 2400 or more -> 10 (for ever, even juniors and newcomers);
    2. junior (``list_year - birth_year <= 18``, i.e. until the end of the year of the 18th
       birthday) never published at 2300 or more -> 40;
    3. fewer than 30 rated games -> 40;
    4. otherwise -> 20.
    """
    if ever_2400:
        return 10
    if birth_year is not None and list_year - birth_year <= JUNIOR_LAST_AGE and not ever_2300:
        return 40
    if rated_games < NEW_PLAYER_GAMES:
        return 40
    return 20


def k_for_state(state: PlayerState, list_year: int) -> int:
    """K for ``state`` as published on a list of year ``list_year`` (§8.3.3, see k_factor)."""
    return k_factor(
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        ever_2300=state.ever_2300,
        birth_year=state.birth_year,
        list_year=list_year,
    )


def seed_state(
    rating: int | None,
    games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    first_month: date,
) -> PlayerState:
    """A starting state for a player whose history before ``first_month`` is not replayed.

    A seeded rating counts as published: it sets ``ever_2400`` / ``ever_2300`` when it reaches
    2400 / 2300. ``k`` is the K of the list dated ``first_month`` (the list in force during
    that period), computed with that list's year (FIDE Rating Regulations 2024 §8.3.3).
    """
    if rating is None:
        _check_seed(rating, games, first_month)
        return PlayerState(
            rating=None,
            rated_games=games,
            ever_2400=ever_2400,
            ever_2300=ever_2300,
            birth_year=birth_year,
            first_event_settled=games > 0,
        )
    flags = seed_publication(
        rating, games, ever_2400, ever_2300, birth_year, first_month, first_month.year
    )
    return _published_state(rating, games, birth_year, flags)


def seed_publication(
    rating: int,
    games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    first_month: date,
    list_year: int,
) -> "Publication":
    """The flags and K of a seeded rating (see :func:`seed_state`: it counts as published)
    published again on a list of year ``list_year``, the player having no games since:
    what his line carries over to until he has one of his own (FIDE Rating Regulations 2024
    §8.3.3). A 2400 seed has been published at 2300 too."""
    _check_seed(rating, games, first_month)
    return publication(rating, games, ever_2400, ever_2300 or ever_2400, birth_year, list_year)


def _check_seed(rating: int | None, games: int, first_month: date) -> None:
    check_month(first_month, "first_month")
    if games < 0:
        raise ValueError("the number of rated games must not be negative")
    if rating is not None and rating <= 0:
        raise ValueError("a rating must be positive")


class Publication(NamedTuple):
    """What publishing a rating settles: the sticky flags and the K of the new list."""

    ever_2400: bool
    ever_2300: bool
    k: int


@lru_cache(maxsize=4096)
def publication(
    rating: int,
    rated_games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    list_year: int,
    /,
) -> Publication:
    """The flags and K of a player whose ``rating`` (after ``rated_games`` rated games, with
    the flags and birth year he had) is published on a list of year ``list_year`` (FIDE
    Rating Regulations 2024 §8.3.3): the flags ever published at 2400 / 2300 or more take
    the new rating into account, K is that of the new list (see k_factor). Cached: most of
    a list is the same few combinations published again."""
    ever_2400 = ever_2400 or rating >= K_2400
    ever_2300 = ever_2300 or rating >= K_2300
    k = k_factor(
        rated_games=rated_games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=birth_year,
        list_year=list_year,
    )
    return Publication(ever_2400, ever_2300, k)


def published(state: PlayerState, rating: int, *, rated_games: int, list_year: int) -> PlayerState:
    """The state of a player whose ``rating`` is published on a list of year ``list_year``.

    The one place for what publication does (FIDE Rating Regulations 2024 §8.3.3): the sticky
    flags and K (:func:`publication`), and the pending pool is settled; K is in force for the
    next period.
    """
    flags = publication(
        rating, rated_games, state.ever_2400, state.ever_2300, state.birth_year, list_year
    )
    return _published_state(rating, rated_games, state.birth_year, flags)


def _published_state(
    rating: int, rated_games: int, birth_year: int | None, flags: Publication
) -> PlayerState:
    """A published player's state: his publication's flags and K, nothing pending."""
    return PlayerState(
        rating=rating,
        rated_games=rated_games,
        ever_2400=flags.ever_2400,
        ever_2300=flags.ever_2300,
        birth_year=birth_year,
        pool=(),
        k=flags.k,
        first_event_settled=True,
    )


def close_idle(state: PlayerState, *, list_year: int) -> PlayerState | None:
    """The new state of a rated player without games in a period whose list is of year
    ``list_year``, or ``None`` when he is not rated (or rated below the floor, which
    :func:`close_period` handles).

    The same state as ``close_period(state, [], month=month, tc=...)``, whose outcome is then
    empty: no games, no change, no notes, the rating unchanged, ``k`` None and ``next_k`` the
    new state's K. Most players of a federation's list have no games in a given month; this
    spares building their (empty) reports, and most of them keep the very state they had.
    """
    rating = state.rating
    if rating is None or not carries_over(rating):
        return None
    # close_rated with n = 0: the same rating published again on the new list
    flags = publication(
        rating, state.rated_games, state.ever_2400, state.ever_2300, state.birth_year, list_year
    )
    unchanged = (state.ever_2400, state.ever_2300, state.k) == flags
    if unchanged and state.first_event_settled and not state.pool:
        return state
    return _published_state(rating, state.rated_games, state.birth_year, flags)


def carries_over(rating: int | None) -> bool:
    """Whether a player's line without games is his line again on the next list
    (:func:`close_idle`): he is rated at the floor or above. A close that only writes what
    changed needs no one else's state."""
    return rating is not None and rating >= RATING_FLOOR
