"""Closing one month: read the previous list and the month's games, fold them (FIDE Elo and
the Glicko shadow, both pure), write the new list.

A period is one month of one time control; closing it rates every game played in it and
publishes the list dated the first of the next month (FIDE Rating Regulations 2024 §7.1).
A rated player without games keeps his line: it is derived when read (services.lists),
so ``elo_history`` holds one row per closed period for every line that changed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.bulk import without_gc
from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.db.rows import EloRow
from tracker.months import next_month, previous_month
from tracker.ratings import fide
from tracker.ratings.fide import ListLine
from tracker.ratings.shadow import ShadowPlayer
from tracker.services import lists, rated_games, shadow
from tracker.vocabulary import TimeControl


@dataclass(frozen=True)
class ClosedPeriod:
    tc: str
    month: dt.date
    list_date: dt.date
    games: int
    players_rated: int
    new_players: tuple[str, ...]
    dropped_players: tuple[str, ...]


@dataclass(frozen=True)
class Carry:
    """What closing a month hands to closing the next one in the same transaction."""

    published: lists.PublishedList  # the list it published
    shadow: dict[int, ShadowPlayer]  # every shadow at the month's end


def close_months(
    db: Db, tc: TimeControl, months: list[dt.date], first_month: dt.date
) -> tuple[ClosedPeriod, ...]:
    """Close ``months`` in order, each handing its list to the next (``rerate`` is this loop
    over every month from the first to change)."""
    done = []
    carry = None
    with without_gc():
        for i, month in enumerate(months):
            closed, carry = close_month(db, tc, month, first_month, carry, keep=i < len(months) - 1)
            done.append(closed)
    return tuple(done)


def close_month(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    first_month: dt.date,
    carry: Carry | None = None,
    *,
    keep: bool = False,
) -> tuple[ClosedPeriod, Carry | None]:
    """Close one month; with ``keep``, also return what closing the next month needs."""
    # Reads: the list in force during the month, the month's games, the lists in force when
    # their events started, the newcomers' birth years, the shadows before the month.
    states, lines = lists.states_at_start(
        db, tc, month, first_month, carry.published if carry is not None else None
    )
    ratings = lists.ListRatings(db, tc)
    if lines is not None:
        ratings.give(previous_month(month), lines)
    played = rated_games.month_games(db, tc, month)  # the shadow rates every game when played
    games = rated_games.period_games(db, tc, month, played)  # FIDE: events that ended, ...
    per_player = fide.player_games(games, ratings.lists_for(games), month)
    births = periods.player_birth_years(db, [pid for pid in per_player if pid not in states])
    first_events = rated_games.first_events(
        db, tc, month, (pid for pid in per_player if _unsettled(states.get(pid)))
    )
    first_events.update(
        rated_games.first_events(
            db,
            tc,
            month,
            (p for p, s in states.items() if p not in per_player and any(g.held for g in s.pool)),
        )
    )
    shadow_month = shadow.read_month(
        db,
        tc,
        month,
        games=played,
        ratings=ratings,
        players=carry.shadow if carry is not None else None,
        keep=keep,
    )

    # Folds: pure.
    new_list = fide.fold_month(
        states, per_player, month=month, tc=tc, birth_years=births, first_events=first_events
    )
    shadows, updates = shadow.fold_month(shadow_month)

    # Writes: the period, its list, its shadow.
    period = periods.add_period(db, tc, month)
    # A rated player without games carries his line over: it is derived when read, not stored
    # (services.lists.carried).
    changed = [line for line in new_list.lines if line.outcome is not None]
    rows = [elo_row(period, line) for line in changed]
    db.store(rows)
    shadow.write_month(db, period, shadow_month, shadows, updates)

    names = periods.player_names(db, [*new_list.new_players, *new_list.dropped])
    closed = ClosedPeriod(
        tc=tc,
        month=month,
        list_date=next_month(month),
        games=len(games),
        players_rated=new_list.rated,
        new_players=tuple(names[pid] for pid in new_list.new_players),
        dropped_players=tuple(names[pid] for pid in new_list.dropped),
    )
    if not keep:
        return closed, None
    return closed, Carry(_published(period, new_list.lines, changed, rows), shadows)


def _unsettled(state: fide.PlayerState | None) -> bool:
    """Whether §8.2.1 may still apply: an unrated player whose first event is not judged."""
    return state is None or (state.rating is None and not state.first_event_settled)


def _published(
    period: int, lines: list[ListLine], changed: list[ListLine], rows: list[EloRow]
) -> lists.PublishedList:
    """The list just written, as :func:`lists.list_lines` would read it back: the stored lines
    (``changed``, written as ``rows``) as stored, the carried ones as folded."""
    states = {line.player_id: line.state for line in lines}
    for line, row in zip(changed, rows, strict=True):
        states[line.player_id] = lists.line_state(
            row.rating,
            row.next_k,
            row.rated_games,
            row.ever_2400,
            row.ever_2300,
            row.pool,
            line.state.birth_year,
        )
    return lists.PublishedList(
        period, states, {line.player_id: line.state.rating for line in lines}
    )


def elo_row(period: int, line: ListLine) -> EloRow:
    """The ``elo_history`` row of a line of the list ``period`` publishes."""
    state, outcome = line.state, line.outcome
    pool = lists.pool_to_json(state)
    if outcome is None:  # a rated player without games: his line carries over
        return EloRow(
            period_id=period,
            player_id=line.player_id,
            rating_before=line.rating_before,
            rating=state.rating,
            k=None,
            next_k=state.k,
            games=0,
            score_c=0,
            expected_c=0,
            change_exact_c=0,
            change=0,
            rated_games=state.rated_games,
            ever_2400=state.ever_2400,
            ever_2300=state.ever_2300,
            pool=pool,
            note=None,
        )
    return EloRow(
        period_id=period,
        player_id=line.player_id,
        rating_before=outcome.rating_before,
        rating=outcome.rating_after,
        k=outcome.k,
        next_k=outcome.next_k,
        games=outcome.games,
        score_c=lists.hundredths(outcome.score),
        expected_c=lists.hundredths(outcome.expected),
        change_exact_c=lists.hundredths(outcome.change_exact),
        change=outcome.change,
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        ever_2300=state.ever_2300,
        pool=pool,
        note="; ".join(outcome.notes) or None,
    )
