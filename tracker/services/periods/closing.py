"""Monthly rating periods: close them, rerate them, list them.

Closed periods are contiguous from the first month with games; closing a month publishes
the list dated the first of the next month (FIDE Rating Regulations 2024 §7.1): every
registered rating system (:mod:`tracker.services.periods.registry`: FIDE's Elo, the official list,
then the Glicko shadow) reads the month, folds it (pure) and writes its rows for the new
period. ``rerate`` is the same close over every month from the first to change, after a
correction made them stale (:mod:`tracker.services.lists` marks them).
"""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, NamedTuple

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import periods as queries
from tracker.db.queries import rated_games as rated_queries
from tracker.db.queries.lists import ClosedMonth
from tracker.errors import InvalidInputError
from tracker.months import (
    month_label,
    month_of,
    month_span,
    months_between,
    next_month,
    previous_month,
)
from tracker.services import lists, log
from tracker.services.lists import closed_months, first_game_month
from tracker.services.lists.rated_games import (
    AssumedEvent,
    HeldEvent,
    assumed_events,
    event_spans,
    held_events,
    period_games,
)
from tracker.services.periods import registry
from tracker.services.periods.fide_elo import ClosedPeriod
from tracker.services.systems import Month, Periods
from tracker.vocabulary import TIME_CONTROLS, TimeControl


@dataclass(frozen=True)
class CloseReport:
    tc: TimeControl
    closed: tuple[ClosedPeriod, ...]
    already_closed: tuple[dt.date, ...]
    rerated: tuple[dt.date, ...]
    nothing_to_close: bool = False
    # the events whose games up to the last closed period wait for a later one
    held: tuple[HeldEvent, ...] = ()
    # the events with nothing declared the closed periods rated as ended (or as leagues)
    assumed: tuple[AssumedEvent, ...] = ()


@dataclass(frozen=True)
class PeriodRow:
    tc: TimeControl
    month: dt.date
    list_date: dt.date
    status: str  # closed | stale | open
    games: int
    players: int


def close(db: Db, *, tc: TimeControl, month: dt.date | None, today: dt.date) -> CloseReport:
    """Close ``month`` (default: every month before the current one) and any earlier open
    months, in order; stale periods are rerated first."""
    current = month_of(today)
    target = month if month is not None else previous_month(current)
    if target >= current:
        raise InvalidInputError(
            f"{month_label(target)} is not over yet: only months before {month_label(current)} "
            "can be closed"
        )
    rerated = _rerate_stale(db, tc)
    closed = closed_months(db, tc)
    span = _open_span(db, tc, closed)
    if span is None:
        return CloseReport(tc, (), (), rerated, nothing_to_close=True)
    start, first_month = span
    if target < start:
        if closed and target >= closed[0].month:
            return CloseReport(tc, (), (target,), rerated)
        return CloseReport(tc, (), (), rerated, nothing_to_close=True)
    months = months_between(start, target)
    done = close_months(db, tc, months, first_month)
    log.note(db, "closed", f"{tc} periods closed: {month_span(months)}", tc=tc, months=months)
    return CloseReport(
        tc,
        done,
        (),
        rerated,
        held=held_events(db, tc, target, today),
        assumed=assumed_events(db, tc, months),
    )


def close_live(db: Db, tc: TimeControl, today: dt.date) -> tuple[dt.date, ...]:
    """What ``period close`` would do now, and the current month too: rerate the stale
    periods, then close every open month up to today's (not over yet: its games so far). The
    months closed; the list after them is the live list. For a transaction that is rolled
    back (:func:`tracker.services.periods.live.rehearsed`): nothing here is to be kept."""
    _rerate_stale(db, tc)
    closed = closed_months(db, tc)
    span = _open_span(db, tc, closed)
    if span is None:
        return ()
    start, first_month = span
    months = months_between(start, month_of(today)) if start <= month_of(today) else []
    close_months(db, tc, months, first_month)
    return tuple(months)


def _open_span(
    db: Db, tc: TimeControl, closed: list[ClosedMonth]
) -> tuple[dt.date, dt.date] | None:
    """The first open month and the month tracking starts in; None without a game."""
    first = first_game_month(db, tc)
    if first is None:
        return None
    start = next_month(closed[-1].month) if closed else first
    return start, closed[0].month if closed else first


def _rerate_stale(db: Db, tc: TimeControl) -> tuple[dt.date, ...]:
    stale = [m for m, _, is_stale in closed_months(db, tc) if is_stale]
    if not stale:
        return ()
    return rerate_from(db, tc, stale[0]).months


class Rerated(NamedTuple):
    months: tuple[dt.date, ...]  # recomputed
    dropped: tuple[dt.date, ...]  # closed periods removed: before the first remaining game


def rerate_from(db: Db, tc: TimeControl, start: dt.date) -> Rerated:
    """Recompute every closed period of ``tc`` from ``start`` (or the first month with games,
    if earlier) to the last closed one.

    Closed periods before the first month that still has a game hold nothing (a game dated
    by mistake decades back, then removed, leaves them behind): they are dropped, and the
    history is recomputed from that month, where tracking now starts."""
    closed = closed_months(db, tc)
    if not closed:
        return Rerated((), ())
    first_closed, last = closed[0].month, closed[-1].month
    first_games = first_game_month(db, tc)
    dropped: tuple[dt.date, ...] = ()
    if first_games is None or first_games > first_closed:
        end = first_games if first_games is not None else next_month(last)
        dropped = tuple(m for m, _, _ in closed if m < end)
        delete_periods(db, tc, before=end)
        if dropped:
            log.note(
                db,
                "rerated",
                f"{tc} periods dropped (before the first game): {month_span(dropped)}",
                tc=tc,
                months=dropped,
            )
        if first_games is None or first_games > last:
            return Rerated((), dropped)
        first_closed, start = first_games, first_games
    # A game dated before the first closed period moves the start of tracking back.
    begin = first_games if first_games < first_closed else max(start, first_closed)
    if begin > last:
        return Rerated((), dropped)  # nothing is closed from there
    first_month = min(begin, first_closed)
    delete_periods(db, tc, since=begin)
    months = months_between(begin, last)
    close_months(db, tc, months, first_month)
    log.note(db, "rerated", f"{tc} periods rerated: {month_span(months)}", tc=tc, months=months)
    return Rerated(tuple(months), dropped)


@dataclass(frozen=True)
class RerateReport:
    tc: TimeControl
    months: tuple[dt.date, ...]
    nothing_stale: bool
    dropped: tuple[dt.date, ...] = ()  # empty closed periods before the first game


def rerate(
    db: Db, *, tc: TimeControl | None, from_month: dt.date | None
) -> tuple[RerateReport, ...]:
    """``tracker rerate``: recompute from ``from_month`` (default: the earliest stale period)."""
    tcs = [tc] if tc is not None else _tcs_with_periods(db)
    reports = []
    for one in tcs:
        if from_month is None:
            stale = [m for m, _, s in closed_months(db, one) if s]
            if not stale:
                reports.append(RerateReport(one, (), True))
                continue
            done = rerate_from(db, one, stale[0])
        else:
            done = rerate_from(db, one, from_month)
        reports.append(RerateReport(one, done.months, False, done.dropped))
    if from_month is not None and reports and not any(r.months or r.dropped for r in reports):
        lasts = ", ".join(
            f"{r.tc} {month_label(closed[-1].month) if closed else 'none'}"
            for r in reports
            for closed in [closed_months(db, r.tc)]
        )
        raise InvalidInputError(
            f"nothing to rerate: no period is closed from {month_label(from_month)} on "
            f"(the last closed: {lasts})"
        )
    return tuple(reports)


def _tcs_with_periods(db: Db) -> list[TimeControl]:
    used = queries.time_controls_closed(db)
    return sorted((tc for tc in TIME_CONTROLS if tc in used), key=str)


def list_periods(db: Db, tc: TimeControl | None) -> tuple[PeriodRow, ...]:
    """Every month from the first with games to the last with games or closed."""
    tcs = [tc] if tc is not None else list(TIME_CONTROLS)
    out: list[PeriodRow] = []
    for one in tcs:
        closed = {m: (pid, stale) for m, pid, stale in closed_months(db, one)}
        game_counts = rated_queries.played_by_event_day(db, one)
        spans = event_spans(db, one, {e for e, _, _ in game_counts if e is not None})
        by_month: dict[dt.date, int] = defaultdict(int)  # games by the period rating them
        for event_id, day, n in game_counts:
            if event_id is not None and not spans[event_id].ended:
                continue  # rated once its last round is played: no period yet
            period = month_of(day) if event_id is None else spans[event_id].rated_in(day)
            by_month[period] += n
        months = set(by_month) | set(closed)
        if not months:
            continue
        last = max(months)
        rated = queries.players_rated_by_period(db)
        for m in months_between(min(months), last):
            if m in closed:
                pid, stale = closed[m]
                status, players = ("stale" if stale else "closed"), rated.get(pid, 0)
            else:
                status, players = "open", _players_in_month(db, one, m)
            out.append(PeriodRow(one, m, next_month(m), status, by_month.get(m, 0), players))
    return tuple(out)


def _players_in_month(db: Db, tc: TimeControl, month: dt.date) -> int:
    ids: set[int] = set()
    for g in period_games(db, tc, month):
        if not g.white_external:
            ids.add(g.white_id)
        if not g.black_external:
            ids.add(g.black_id)
    return len(ids)


def close_months(
    db: Db, tc: TimeControl, months: list[dt.date], first_month: dt.date
) -> tuple[ClosedPeriod, ...]:
    """Close ``months`` in order, each handing what it wrote to the next (``rerate`` is this
    loop over every month from the first to change)."""
    done = []
    carry: dict[str, Any] = {}  # by system: what its close of the previous month handed on
    with without_gc():
        for i, month in enumerate(months):
            closed, carry = _close_month(
                db, tc, month, first_month, carry, keep=i < len(months) - 1
            )
            done.append(closed)
    return tuple(done)


def _close_month(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    first_month: dt.date,
    carry: dict[str, Any],
    *,
    keep: bool,
) -> tuple[ClosedPeriod, dict[str, Any]]:
    """Close one month: every system's read, then every fold, then the period and every
    system's rows. With ``keep``, also what closing the next month needs, by system."""
    systems = list(registry.SYSTEMS)
    if systems[0] is not registry.OFFICIAL:
        raise AssertionError("the official list closes first")
    played = rated_queries.month_games(db, tc, month)  # the shadow rates every game when played
    inputs = Month(db, tc, month, first_month, played, lists.ListRatings(db, tc), keep)
    reads = [system.read(inputs, carry.get(system.name)) for system in systems]
    # each read holds what it takes of the month's games: the folds and writes go without
    # them (a federation's month is 250,000 games, most copied into the period's)
    del played
    inputs = inputs._replace(played=[])
    folds = [system.fold(read) for system, read in zip(systems, reads, strict=True)]
    period = queries.add_period(db, tc, month)
    handed = {
        system.name: system.write(inputs, period, read, folded)
        for system, read, folded in zip(systems, reads, folds, strict=True)
    }
    return registry.OFFICIAL.report(inputs, reads[0], folds[0]), handed


def delete_periods(
    db: Db, tc: TimeControl, *, since: dt.date | None = None, before: dt.date | None = None
) -> None:
    """Delete the closed periods of ``tc`` from ``since`` on, or before ``before``, with every
    system's rows of them."""
    which = Periods(tc, since, before)
    for system in registry.SYSTEMS:
        system.delete(db, which)
    queries.delete_periods(db, tc, since=since, before=before)
