"""One player's closed period game by game, as FIDE's individual calculation page shows it:
each opponent with his rating, the score, the expected score and the change; the period's
wins, draws and losses and the performance rating.

The period is recomputed from the same reads as its close (the list in force during the
month, the games the period rates, the first-event rule), so it agrees with the stored
history unless the period is stale (then it shows what a rerate will store).
"""

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries.history import event_names
from tracker.db.queries.lists import ClosedMonth
from tracker.db.queries.periods import player_names
from tracker.db.queries.players import PlayerRow, players_by_ids
from tracker.errors import InvalidInputError, NotFoundError
from tracker.months import month_label, next_month, previous_month
from tracker.ratings.fide.initial import performance_rating
from tracker.ratings.fide.month import rated_from_standard
from tracker.ratings.fide.period import GameDetail
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import FirstEvent, PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.month_games import MonthGame
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.players.refs import find
from tracker.vocabulary import TimeControl


class DetailGame(NamedTuple):
    game_id: int
    played_on: dt.date
    event: str | None
    opponent: str
    opponent_id: int
    colour: str  # "white" | "black"
    opponent_rating: int | None  # as the period counts it (None: unrated)
    own_rating: int | None  # Ro for this game (None: unrated)
    score: Decimal
    status: str  # rated | pooled | held | disregarded | unrated_opponent | not_rated_600
    expected: Decimal | None
    change: Decimal | None  # K x (score - expected), unrounded


class PeriodDetail(NamedTuple):
    player: str
    tc: TimeControl
    month: dt.date
    list_date: dt.date
    stale: bool
    rating_before: int | None
    rating_after: int | None
    k: int | None
    games: tuple[DetailGame, ...]
    wins: int
    draws: int
    losses: int
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    performance: int | None  # Ra + dp over the games that counted
    notes: tuple[str, ...]


def period_detail(db: Db, ref: str, tc: TimeControl, month: dt.date) -> PeriodDetail:
    """``history PLAYER --month YYYY-MM``: the closed period ``month`` of one player."""
    player = find(db, ref)
    closed = lists.closed_months(db, tc)
    stale = {m: s for m, _, s in closed}
    if month not in stale:
        raise InvalidInputError(
            f"{month_label(month)} is not a closed {tc} period: close it first "
            "(`tracker period close`); `tracker player show` gives the live change"
        )
    if player.external:
        raise InvalidInputError(f"{player.name} is an external player: tracker does not rate him")
    detail = month_details(db, tc, month, closed, [player]).get(player.id)
    if detail is None:
        raise NotFoundError(f"{player.name} has no {tc} games rated in {month_label(month)}")
    return detail


def computable(closed: list[ClosedMonth], first_game: dt.date | None, month: dt.date) -> bool:
    """Whether the period ``month`` can be worked out now: it is closed, or it is the open
    period after the last closed one (or the first with games, before any close): what
    closing it now would give. A later open period waits for the close of the ones before."""
    if closed:
        return month <= next_month(closed[-1].month) and month >= closed[0].month
    return first_game is not None and month == first_game


def month_details(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    closed: list[ClosedMonth],
    players: Sequence[PlayerRow] | None,
    ratings: lists.ListRatings | None = None,
) -> dict[int, PeriodDetail]:
    """The period ``month`` (:func:`computable`) of each of ``players`` (tracked; None:
    everyone with a game rated in it) who has a game rated in it, by id: the month's reads
    (the list in force, its games, the names) are made once for them all. ``ratings``: the
    lists already read, to share between months."""
    stale = {m: s for m, _, s in closed}
    first = closed[0].month if closed else month
    only = None if players is None else {p.id for p in players}
    games = rated_games.period_games(db, tc, month, players=only)
    if ratings is None:  # some players': their and their opponents' ratings only
        sides = (
            None if only is None else only | {i for g in games for i in (g.white_id, g.black_id)}
        )
        ratings = lists.ListRatings(db, tc, players=sides)
    states, lines = lists.states_at_start(
        db, tc, month, first, needed=only, players=ratings.players, read_seeds=ratings.seeds
    )
    if lines is not None:
        ratings.give(previous_month(month), lines)
    by_player = ratings.player_games(games, month, only)
    if players is None:
        players = players_by_ids(db, sorted(by_player))
    wanted = [p for p in players if by_player.get(p.id)]
    if not wanted:
        return {}
    first_events = _first_events(db, tc, month, wanted, states)
    own = _own_games(games, {p.id for p in wanted})
    names = player_names(db, [i for g in games for i in (g.white_id, g.black_id)])
    events = event_names(db, [g.event_id for g in games if g.event_id is not None])
    out = {}
    for player in wanted:
        mine = by_player[player.id]
        state = states.get(player.id) or PlayerState(birth_year=player.birth_year)
        state = rated_from_standard(state, mine, tc)
        first_event = first_events.get(player.id) if rated_games.unsettled(state) else None
        _, outcome = close_period(state, mine, month=month, tc=tc, first_event=first_event)
        played = _games(player.id, own[player.id], outcome.details, names, events)
        out[player.id] = _detail(
            player.name, (tc, month, stale.get(month, False)), mine, outcome, played
        )
    return out


def _first_events(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    wanted: list[PlayerRow],
    states: dict[int, PlayerState],
) -> dict[int, FirstEvent]:
    """The first events of the players §8.2.1 may still apply to (unrated, the first event
    not judged)."""
    unsettled = [p.id for p in wanted if rated_games.unsettled(states.get(p.id))]
    return rated_games.first_events(db, tc, month, unsettled) if unsettled else {}


def _own_games(games: list[MonthGame], ids: set[int]) -> dict[int, list[MonthGame]]:
    """Each of the players' games, in the fold's order."""
    own: dict[int, list[MonthGame]] = {}
    for g in games:
        for pid in (g.white_id, g.black_id):
            if pid in ids:
                own.setdefault(pid, []).append(g)
    return own


def _detail(
    name: str,
    period: tuple[TimeControl, dt.date, bool],
    mine: list[PeriodGame],
    outcome: PeriodOutcome,
    played: tuple[DetailGame, ...],
) -> PeriodDetail:
    """A player's period (``period``: its time control, month and whether it is stale) from
    his games and the fold's outcome."""
    tc, month, stale = period
    return PeriodDetail(
        player=name,
        tc=tc,
        month=month,
        list_date=next_month(month),
        stale=stale,
        rating_before=outcome.rating_before,
        rating_after=outcome.rating_after,
        k=outcome.k,
        games=played,
        wins=sum(1 for g in mine if g.score == 1),
        draws=sum(1 for g in mine if g.score == Decimal("0.5")),
        losses=sum(1 for g in mine if g.score == 0),
        score=sum((g.score for g in mine), Decimal(0)),
        expected=outcome.expected,
        change_exact=outcome.change_exact,
        change=outcome.change,
        performance=_performance(outcome.details),
        notes=outcome.notes,
    )


def _games(
    player_id: int,
    games: list[MonthGame],
    details: tuple[GameDetail, ...],
    names: dict[int, str],
    events: dict[int, str],
) -> tuple[DetailGame, ...]:
    """The player's games beside their details (both in the order the fold took them)."""
    out = []
    for g, d in zip(games, details, strict=True):
        white = g.white_id == player_id
        out.append(
            DetailGame(
                game_id=g.id,
                played_on=g.played_on,
                event=events.get(g.event_id) if g.event_id is not None else None,
                opponent=names[g.black_id if white else g.white_id],
                opponent_id=g.black_id if white else g.white_id,
                colour="white" if white else "black",
                opponent_rating=d.opponent,
                own_rating=d.own,
                score=d.score,
                status=d.status,
                expected=d.expected,
                change=d.change,
            )
        )
    return tuple(out)


def _performance(details: tuple[GameDetail, ...]) -> int | None:
    """The period's performance rating over the games that counted (rated or pooled):
    :func:`tracker.ratings.fide.performance_rating`."""
    return performance_rating(
        [
            (d.opponent, d.score)
            for d in details
            if d.status in ("rated", "pooled") and d.opponent is not None
        ]
    )


#: The published lists a :class:`MonthDetails` that keeps a few months holds: a month's
#: games are rated on the list before it, an event's that began earlier on an earlier one.
LISTS_KEPT = 4


class MonthDetails:
    """Every tracked player's periods of one time control, each month worked out once and
    kept (:func:`month_details` for everyone in it; the ``keep`` months last asked for, if
    given), with one :class:`lists.ListRatings` for all: what a site's event pages read
    again and again."""

    def __init__(
        self, db: Db, tc: TimeControl, closed: list[ClosedMonth], keep: int | None = None
    ) -> None:
        self.db = db
        self.tc = tc
        self.closed = closed
        self.ratings = lists.ListRatings(db, tc, keep=None if keep is None else LISTS_KEPT)
        self.keep = keep
        self._months: dict[dt.date, dict[int, PeriodDetail]] = {}

    def month(self, month: dt.date) -> dict[int, PeriodDetail]:
        """The period ``month`` (:func:`computable`) of everyone with a game rated in it."""
        found = self._months.pop(month, None)
        if found is None:
            found = month_details(self.db, self.tc, month, self.closed, None, self.ratings)
        self._months[month] = found  # the last asked for is the last to go
        if self.keep is not None and len(self._months) > self.keep:
            del self._months[next(iter(self._months))]
        return found

    def of_players(self, players: Sequence[PlayerRow]) -> dict[int, list[PeriodDetail]]:
        """Each of ``players``' closed periods, by month, worked out for them only (a month's
        reads made once for them all; nothing kept)."""
        out: dict[int, list[PeriodDetail]] = {}
        for m, _, _ in self.closed:
            found = month_details(self.db, self.tc, m, self.closed, players, self.ratings)
            for pid, detail in found.items():
                out.setdefault(pid, []).append(detail)
        return out
