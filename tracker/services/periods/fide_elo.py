"""FIDE's Elo as a rating system of the month's close (:mod:`tracker.services.systems`): the
official list.

Closing a month publishes the list dated the first of the next month (FIDE Rating
Regulations 2024 §7.1): it reads the list in force during the month, the games the period
rates (an event's games wait for its end), the lists in force when their events started, the
newcomers' birth years and first events; folds them (:func:`tracker.ratings.fide.month.fold_month`,
pure); and writes the lines that changed, then the list they publish (``list_entries``). A
rated player without games keeps his line: it is derived when read
(:mod:`tracker.services.lists`), so ``elo_history`` holds one row per closed period for
every line that changed.
"""

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.db.rows import EloRow
from tracker.months import next_month, previous_month
from tracker.ratings.fide.records import FirstEvent, PeriodGame, PlayerState
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.systems import Month, Periods, Reading
from tracker.vocabulary import TimeControl

if TYPE_CHECKING:  # the fold's modules load with a close, the status queries with `status`
    from tracker.db.queries.status import MoveRow
    from tracker.ratings.fide.month import ListLine, MonthList
    from tracker.ratings.month_games import MonthGame


@dataclass(frozen=True)
class ClosedPeriod:
    """What closing one month did, as ``period close`` reports it."""

    tc: TimeControl
    month: dt.date
    list_date: dt.date
    games: int
    players_rated: int
    new_players: tuple[str, ...]
    dropped_players: tuple[str, ...]


class EloMonth(NamedTuple):
    """What the Elo fold of one month needs, read from the database."""

    month: dt.date
    tc: TimeControl
    states: dict[int, PlayerState]  # the list in force during the month
    games: "list[MonthGame]"  # the games the period rates
    per_player: dict[int, list[PeriodGame]]  # ... by tracked player
    birth_years: dict[int, int | None]  # of the players not listed yet
    first_events: dict[int, FirstEvent]


class FideElo:
    """FIDE's Elo: the official list (``elo_history``)."""

    name = "fide"

    def read(self, month: Month, carry: lists.PublishedList | None) -> EloMonth:
        db, tc, first = month.db, month.tc, month.first_month
        games = rated_games.period_games(db, tc, month.month, month.played)
        # A close that hands its list on to the next month's needs every player's state;
        # one that does not, the states of the players it rates (an idle rated player's line
        # carries over: it is derived when read, not stored).
        needed = None if month.keep else {p for g in games for p in (g.white_id, g.black_id)}
        states, lines = lists.states_at_start(
            db, tc, month.month, first, carry, needed=needed, read_seeds=month.ratings.seeds
        )
        if lines is not None:
            month.ratings.give(previous_month(month.month), lines)
        per_player = month.ratings.player_games(games, month.month)
        births = periods.player_birth_years(db, [pid for pid in per_player if pid not in states])
        unsettled = [pid for pid in per_player if rated_games.unsettled(states.get(pid))]
        # (an empty pool first: most states have none)
        held = [
            p
            for p, s in states.items()
            if s.pool and p not in per_player and any(g.held for g in s.pool)
        ]
        first_events = rated_games.first_events(
            db, tc, month.month, [*unsettled, *held], month.played
        )
        return EloMonth(month.month, tc, states, games, per_player, births, first_events)

    def fold(self, read: EloMonth) -> "MonthList":
        from tracker.ratings.fide.month import fold_month  # a close's alone

        return fold_month(
            read.states,
            read.per_player,
            month=read.month,
            tc=read.tc,
            birth_years=read.birth_years,
            first_events=read.first_events,
        )

    def write(
        self, month: Month, period: int, read: EloMonth, folded: "MonthList"
    ) -> lists.PublishedList | None:
        # A rated player without games carries his line over: it is derived when read, not
        # stored (services.lists.carried).
        changed = [line for line in folded.lines if line.outcome is not None]
        rows = [elo_row(period, line) for line in changed]
        month.db.store(rows)
        # the list published (list_entries), from its stored lines
        lists.store_list(
            month.db, month.tc, month.month, period, rows, read_seeds=month.ratings.seeds
        )
        return _published(period, folded.lines, changed, rows) if month.keep else None

    def delete(self, db: Db, which: Periods) -> None:
        periods.delete_history(db, "elo_history", which.tc, since=which.since, before=which.before)

    def on_list(self, db: Db, tc: TimeControl, month: dt.date) -> dict[int, Reading]:
        """Every line of the list that closed ``month``."""
        return {p: Reading(rating) for p, rating in lists.ratings_at(db, tc, month).items()}

    def of_player(
        self, db: Db, tc: TimeControl, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]:
        """The player's line on each list of ``months`` he is on."""
        wanted = set(months)
        return {
            month: Reading(line.rating)
            for month, _, line in lists.player_lines(db, tc, player_id)
            if month in wanted
        }

    def changes(self, db: Db, period_id: int) -> "list[MoveRow]":
        """The ratings the list ``period_id`` published changed: of the players rated before
        it who played in its period (``rating`` None: taken below the floor)."""
        from tracker.db.queries import status as status_queries  # `status` only, not a close

        return [row for row in status_queries.moves(db, period_id) if row.change != 0]

    def report(self, month: Month, read: EloMonth, folded: "MonthList") -> ClosedPeriod:
        """The close of ``month`` as ``period close`` reports it."""
        names = periods.player_names(month.db, [*folded.new_players, *folded.dropped])
        return ClosedPeriod(
            tc=month.tc,
            month=month.month,
            list_date=next_month(month.month),
            games=len(read.games),
            players_rated=folded.rated,
            new_players=tuple(names[pid] for pid in folded.new_players),
            dropped_players=tuple(names[pid] for pid in folded.dropped),
        )


def _published(
    period: int, lines: "list[ListLine]", changed: "list[ListLine]", rows: list[EloRow]
) -> lists.PublishedList:
    """The list just written, as :func:`lists.list_lines` would read it back: the stored lines
    (``changed``, written as ``rows``) as stored, the carried ones as folded."""
    states = {line.player_id: line.state for line in lines}
    for line, row in zip(changed, rows, strict=True):
        states[line.player_id] = lists.line_state(row, line.state.birth_year)
    return lists.PublishedList(
        period, states, {line.player_id: line.state.rating for line in lines}
    )


def elo_row(period: int, line: "ListLine") -> EloRow:
    """The ``elo_history`` row of a changed line (one with an outcome) of the list ``period``
    publishes."""
    state, outcome = line.state, line.outcome
    assert outcome is not None  # a line without games carries over: it is not stored
    return EloRow(  # by position (a keyword call costs twice as much): the fields in order
        period,  # period_id
        line.player_id,
        outcome.rating_before,
        outcome.rating_after,  # rating
        outcome.k,
        outcome.next_k,
        outcome.games,
        lists.hundredths(outcome.score),  # score_c
        lists.hundredths(outcome.expected),  # expected_c
        lists.hundredths(outcome.change_exact),  # change_exact_c
        outcome.change,
        state.rated_games,
        state.ever_2400,
        state.ever_2300,
        lists.pool_to_json(state),  # pool
        "; ".join(outcome.notes) or None,  # note
    )
