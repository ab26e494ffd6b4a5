"""What the period fold carries: a player's state on a list, his games of a period, his
first event, and the period's outcome (FIDE Rating Regulations 2024 §7-§8)."""

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from tracker.vocabulary import TimeControl

if TYPE_CHECKING:  # named in annotations only: a reader of the lists loads no rules
    from tracker.ratings.fide.initial import InitialRating
    from tracker.ratings.fide.period import GameDetail
    from tracker.ratings.fide.rules import EventKey


class Seed(NamedTuple):
    """A player's FIDE state on a list before tracking starts, in one time control: his
    published rating, his rated games, and the sticky flags (K = 10 for ever from 2400,
    §8.3.3; 2300 for juniors' K = 40, §8.3.2). What ``player seed``, a players file and a FIDE
    list give, and what a player shows."""

    rating: int
    games: int
    ever_2400: bool = False
    ever_2300: bool = False
    tc: TimeControl = "standard"


class PoolGame(NamedTuple):
    """An unrated player's pending result against a rated opponent (§7.1.4 pool).

    ``month`` is the first day of the rating period in which the game was rated. ``held``:
    a result of the player's first event while that event (a league, rated month by month)
    has a zero score so far; it counts only once the event has a score (§8.2.1), and is
    dropped if the event ends on zero.
    """

    month: date
    opponent: int
    score: Decimal
    event_key: "EventKey"
    event_start: date
    held: bool = False


class PlayerState(NamedTuple):
    """A player's position on one list of one time control, as the fold carries it (a named
    tuple: a close makes one per player it rates, a rerate one per line it hands on).

    - ``rating``: the published rating on the list (``None`` = unrated).
    - ``rated_games``: all games rated so far, including those of the initial-rating pool
      (they count towards the 30 games of §8.3.3); kept when the player drops below 1400.
    - ``ever_2400`` / ``ever_2300``: sticky, ever *published* at or above 2400 / 2300.
    - ``pool``: an unrated player's pending results (empty for a rated player).
    - ``k``: the K published with this list, in force for the next period (``None`` when
      unrated; recomputed from the other fields if ``None`` for a rated player).
    - ``first_event_settled``: the §8.2.1 rule ("If an unrated player scores zero in their
      first event this score is disregarded") no longer applies: the player's first event
      has been judged, or he has a rating or a rated career already.
    """

    rating: int | None = None
    rated_games: int = 0
    ever_2400: bool = False
    ever_2300: bool = False
    birth_year: int | None = None
    pool: tuple[PoolGame, ...] = ()
    k: int | None = None
    first_event_settled: bool = False


class PeriodGame(NamedTuple):
    """One game of the player in a period, as given to :func:`close_period` (a named tuple:
    a month's close makes one per game side).

    ``opponent``: the opponent's rating on the list in force when the event (for a league:
    the month's part of it) started (``None`` =
    unrated: the game is not rated). ``own_rating``: the player's rating Ro for the event;
    ``None`` uses ``state.rating`` (also §8.2.4: a newly published player is rated with his
    current rating). ``event_start``: the day whose list rates the game; ``rules_from``, when
    set, the event's real start, which chooses the rule set (a league's month is rated with
    the month's list, by the rules of the day the league began; see :attr:`rules_day`).
    ``tc``, if given, must equal the period's time control. Forfeits must not be passed
    (§5.1). ``corrected``: ``own_rating`` is a rating FIDE corrected, not the list's (see
    :func:`~.rated.close_rated`: the new rating follows it).
    """

    opponent: int | None
    score: Decimal
    event_start: date
    event_key: "EventKey" = ""
    own_rating: int | None = None
    tc: TimeControl | None = None
    corrected: bool = False
    rules_from: date | None = None

    @property
    def rules_day(self) -> date:
        """The day whose rules rate the game: the event's start."""
        return self.rules_from if self.rules_from is not None else self.event_start


class FirstEvent(NamedTuple):
    """An unrated newcomer's first event, for the §8.2.1 zero-score rule.

    FIDE Rating Regulations 2024 §8.2.1: "If an unrated player scores zero in their first
    event this score is disregarded." The first event is the event of the player's first
    played game (``key``); ``score`` is his score in that event over its games rated up to
    and including the period being closed (every played game, against rated and unrated
    opponents alike: the event score), and ``over`` says whether the event's last game has
    been rated by then (a league, rated month by month, may still be running).
    """

    key: "EventKey"
    score: Decimal
    over: bool = True


class PeriodOutcome(NamedTuple):
    """The result of closing one rating period for one player (a named tuple: a month's
    close makes one per player who played).

    ``k_in_force`` is the K from the previous list, ``k`` the K used after the 700 rule
    (``None`` without rated games). ``games``/``score`` count the games that were rated (for a
    rated player) or added to the pool (for an unrated player); ``expected``, ``change_exact``
    and ``change`` are zero for an unrated player. ``initial`` is set whenever a first rating
    was computed (published or not). ``next_k`` is the K published on the new list.
    """

    month: date
    list_date: date
    tc: TimeControl
    rating_before: int | None
    rating_after: int | None
    k_in_force: int | None
    k: int | None
    games: int
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    next_k: int | None
    initial: "InitialRating | None"
    details: "tuple[GameDetail, ...]"
    notes: tuple[str, ...]
    rated_games_after: int
    pool_size: int

    @property
    def became_rated(self) -> bool:
        return self.rating_before is None and self.rating_after is not None

    @property
    def dropped_to_unrated(self) -> bool:
        return self.rating_before is not None and self.rating_after is None
