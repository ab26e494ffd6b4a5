"""The whole list's month fold: the previous list + the month's games -> the new list.

FIDE Rating Regulations 2024 §7.1: "On the first day of each month, FIDE shall prepare a list
which incorporates all rated play during the rating period into the previous list." This
module does exactly that for one time control, without I/O: :func:`player_games` turns the
games rated in the period (see :mod:`.events`: the events that ended in it, the month's part of each
league) into each tracked player's :class:`~.records.PeriodGame` list (opponents rated from the list
in force when the event started, as FIDE's calculations do), and :func:`fold_month` folds every
player of the previous list and every newcomer through :func:`~.player.close_period`.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import NamedTuple

from tracker.months import next_month
from tracker.ratings.fide.events import recorded_rating
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import FirstEvent, PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.state import check_month, close_idle
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import SCORES, TimeControl

_DEFAULT_STATE = PlayerState()
_NO_GAMES: tuple[PeriodGame, ...] = ()

ListRatings = Mapping[int, int | None]
"""The ratings of one published list, by player id (``None``: listed as unrated)."""


def event_key(game: MonthGame) -> int | str:
    """The event a game counts in: its event, else one event per day (a day's unnamed games)."""
    return game.event_id if game.event_id is not None else f"day:{game.played_on.isoformat()}"


def player_games(
    games: Iterable[MonthGame],
    lists: Mapping[dt.date, ListRatings],
    period: dt.date,
    only: Container[int] | None = None,
    corrected: Mapping[tuple[int, int], int] | None = None,
) -> dict[int, list[PeriodGame]]:
    """Each tracked player's games rated in ``period`` (or ``only`` those players'), in
    order.

    A game's ``event_start`` is the day whose list rates it (the event's start; for a league, the
    period's first day); ``lists`` holds, for each of them, the ratings on the list in force that
    day: the player's Ro and a tracked opponent's rating come from it (as FIDE's published
    calculations do; Title Regulations §1.4.6a). Its ``rules_from`` (a league's real start) passes
    on: it
    chooses the rule set. An external opponent's rating is the one recorded on the game
    (:func:`~.events.recorded_rating`: below 1400 it counts as unrated from March 2024).
    ``corrected``: the rating FIDE rated a tracked player with in an event where it is not
    his list rating, by ``(event id, player id)``: his Ro there, and his rating as the
    opponent of the others in it.
    """
    by_player: dict[int, list[PeriodGame]] = defaultdict(list)
    for g in games:
        on_list: ListRatings | _Corrected = lists[g.event_start]
        if corrected and g.event_id is not None:
            on_list = _Corrected(lists[g.event_start], corrected, g.event_id)
        white_score, black_score = SCORES[g.result]
        key = event_key(g)
        sides = (
            (g.white_id, g.white_external, white_score, g.black_id, g.black_external,
             g.black_rating),
            (g.black_id, g.black_external, black_score, g.white_id, g.white_external,
             g.white_rating),
        )  # fmt: skip
        for pid, external, score, opp, opp_external, opp_recorded in sides:
            if external or (only is not None and pid not in only):
                continue
            by_player[pid].append(
                PeriodGame(  # by position (opponent, score, event_start, event_key,
                    # own_rating, tc, corrected, rules_from): a keyword call costs more
                    recorded_rating(opp_recorded, period) if opp_external else on_list.get(opp),
                    score,
                    g.event_start,
                    key,
                    on_list.get(pid),
                    None,
                    isinstance(on_list, _Corrected) and on_list.has(pid),
                    g.rules_from,
                )
            )
    return by_player


class _Corrected:
    """A list as one event's games read it: the ratings FIDE used in the event where given,
    else the list's (a lookup, not a copy of the list)."""

    __slots__ = ("corrected", "event_id", "on_list")

    def __init__(
        self, on_list: ListRatings, corrected: Mapping[tuple[int, int], int], event_id: int
    ) -> None:
        self.on_list = on_list
        self.corrected = corrected
        self.event_id = event_id

    def has(self, pid: int) -> bool:
        """Whether FIDE's rating of ``pid`` in the event is given (for a rated player: an
        unrated one stays unrated)."""
        return (self.event_id, pid) in self.corrected and self.on_list.get(pid) is not None

    def get(self, pid: int) -> int | None:
        listed = self.on_list.get(pid)
        if listed is None:
            return None
        found = self.corrected.get((self.event_id, pid))
        return found if found is not None else listed


def rated_from_standard(
    state: PlayerState, games: Sequence[PeriodGame], tc: TimeControl
) -> PlayerState:
    """Rapid & Blitz Rating Regulations 2024 §7.2.1: a player unrated in rapid (blitz) who has
    a standard rating at the start of his first event of the period is rated from it.

    ``own_rating`` of a rapid or blitz game already falls back to the standard list (see
    the reads of the published lists); this turns it into the player's starting rating."""
    if tc == "standard" or state.rating is not None or not games:
        return state
    first = min(games, key=lambda g: g.event_start)
    if first.own_rating is None:
        return state
    return state._replace(rating=first.own_rating, pool=(), k=None, first_event_settled=True)


class ListLine(NamedTuple):
    """One player's line on the new list.

    ``outcome`` is None for a rated player without games in the month (his rating, flags and
    game count carry over; only K is that of the new list); ``rating_before`` is his rating
    on the previous list (for a rapid or blitz newcomer: his standard rating, §7.2.1)."""

    player_id: int
    rating_before: int | None
    state: PlayerState
    outcome: PeriodOutcome | None


class MonthList(NamedTuple):
    """The new list of one month: every line, and who entered or left the rated list."""

    lines: list[ListLine]
    rated: int  # rated players with at least one rated game
    new_players: list[int]  # first published on this list
    dropped: list[int]  # fell below the 1400 floor (§7.2.1)


def fold_month(
    previous: Mapping[int, PlayerState],
    games: Mapping[int, Sequence[PeriodGame]],
    *,
    month: dt.date,
    tc: TimeControl,
    birth_years: Mapping[int, int | None],
    first_events: Mapping[int, FirstEvent] | None = None,
) -> MonthList:
    """Fold one month into the list (FIDE Rating Regulations 2024 §7.1).

    ``previous``: every tracked player's state on the list in force during ``month`` (seeded
    players not yet listed included); ``games``: each tracked player's games of the month
    (:func:`player_games`); ``birth_years``: those of the newcomers (players in ``games``
    missing from ``previous``); ``first_events``: the first event of each player still
    unrated and not yet judged by §8.2.1 (see :class:`~.records.FirstEvent`; a player missing
    from it has his first event taken from his games). Players are folded in id order; every
    player with games in the period gets a line, even when none of them counted.
    """
    known = first_events if first_events is not None else {}
    lines: list[ListLine] = []
    new_players: list[int] = []
    dropped: list[int] = []
    rated = 0
    check_month(month)
    list_year = next_month(month).year
    for pid in sorted(set(previous) | set(games)):
        state = previous.get(pid)
        mine = games.get(pid, _NO_GAMES)
        if not mine and state is not None:
            idle = close_idle(state, list_year=list_year)
            if idle is not None:  # close_period's outcome would be empty
                lines.append(ListLine(pid, state.rating, idle, None))
                continue
        if state is None:
            state = PlayerState(birth_year=birth_years.get(pid))
        state = rated_from_standard(state, mine, tc)
        new_state, outcome = close_period(
            state, mine, month=month, tc=tc, details=False, first_event=known.get(pid)
        )
        if (
            not mine
            and new_state.rating is None
            and new_state._replace(birth_year=None) == _DEFAULT_STATE
        ):
            continue
        if outcome.games and outcome.rating_before is not None:
            rated += 1
        if outcome.became_rated:
            new_players.append(pid)
        if outcome.dropped_to_unrated:
            dropped.append(pid)
        lines.append(ListLine(pid, outcome.rating_before, new_state, outcome))
    return MonthList(lines, rated, new_players, dropped)
