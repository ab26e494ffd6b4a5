"""Which games a rating period rates (tracker.ratings.fide.events): the events that ended in
the month (or were stated to be rated in it, §7.1.3), the month's part of every league, the
month's games without an event; and what the first-event rule of a newcomer needs to know of
his first event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from tracker.db.driver import Db
from tracker.db.queries import rated_games as queries
from tracker.db.queries.history import event_names
from tracker.months import month_of, next_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import SCORES


def month_games(
    db: Db,
    tc: str,
    month: dt.date,
    player_id: int | None = None,
    *,
    events: Iterable[int] | None = None,
) -> list[MonthGame]:
    """The month's played games in date order (ties in the order they were entered); with
    ``events``, instead the games of those events played before the month."""
    return queries.month_games(db, tc, month, player_id, events=events)


EventSpan = fide.EventSpan


def event_spans(db: Db, tc: str, event_ids: Iterable[int]) -> dict[int, EventSpan]:
    """The spans of ``event_ids`` (those with played games in ``tc``: a forfeit is no game,
    §5.1, and does not make an event last longer)."""
    bounds = queries.event_bounds(db, tc, event_ids)
    return {
        event: fide.event_span(
            min(b.start_date, b.first),
            b.last,
            end=b.end_date,
            rounds=b.rounds,
            last_round=b.last_round,
            kind=b.kind,
            stated=b.rated_in,
        )
        for event, b in bounds.items()
    }


def period_games(
    db: Db,
    tc: str,
    month: dt.date,
    played: list[MonthGame] | None = None,
    player_id: int | None = None,
) -> list[MonthGame]:
    """The games rated in the period ``month`` (see :mod:`tracker.ratings.fide.events`), in
    date order, each with ``event_start`` set to the day whose list rates it and
    ``rules_from`` to its event's start, whose rules rate it. ``played``:
    the month's played games (:func:`month_games`), if the caller has them."""
    if played is None:
        played = month_games(db, tc, month, player_id)
    # the events stated to be rated in this period (§7.1.3): none of their games need be in it
    stated = queries.events_rated_from(db, month, month)
    # one player's: his events begun before that end this month, whether or not he plays in
    # them this month (everyone's are found from the month's games below)
    going_on = queries.events_going_on(db, tc, month, player_id) if player_id is not None else []
    spans = event_spans(
        db, tc, {g.event_id for g in played if g.event_id is not None} | {*stated, *going_on}
    )
    out: list[MonthGame] = []
    earlier = {e for e in stated if e in spans and spans[e].rated_in(spans[e].end) == month}
    earlier |= {
        e
        for e in going_on
        if not spans[e].league
        and spans[e].start < month
        and spans[e].rated_in(spans[e].end) == month
    }
    for g in played:  # ... and the events ending this month that began before it
        if g.event_id is None:
            out.append(g)
            continue
        span = spans[g.event_id]
        if span.rated_in(g.played_on) != month:
            continue  # the event goes on: rated when it ends
        listed = fide.rating_from(span, month)
        out.append(g._replace(event_start=listed, rules_from=span.start))
        if span.start < month and not span.league:
            earlier.add(g.event_id)
    if earlier:
        before = month_games(db, tc, month, player_id, events=earlier)
        out.extend(g._replace(event_start=spans[int(g.event_id or 0)].start) for g in before)
        out.sort(key=lambda g: (g.played_on, g.id))
    return out


def pending(db: Db, tc: str, since: dt.date) -> dict[dt.date, int]:
    """How many played games of ``tc`` each rating period from ``since`` (a month) on rates,
    by the rule :func:`period_games` follows (an event is rated in the month it ends, a
    league by its months, a game without an event in its own month): the games played from
    ``since`` on, and the earlier games of their events that are rated from then on."""
    rows = queries.played_by_event_day(db, tc, since)
    events = sorted(
        {row.event_id for row in rows if row.event_id is not None}
        | {*queries.events_rated_from(db, since)}  # ended before, rated later (§7.1.3)
    )
    rows += queries.played_before_by_event_day(db, tc, events, since)
    spans = event_spans(db, tc, events)
    counts: dict[dt.date, int] = {}
    for event, played_on, n in rows:
        month = month_of(played_on) if event is None else spans[event].rated_in(played_on)
        if month >= since:
            counts[month] = counts.get(month, 0) + n
    return dict(sorted(counts.items()))


def first_events(
    db: Db, tc: str, month: dt.date, players: Iterable[int]
) -> dict[int, fide.FirstEvent]:
    """Each player's first event (§8.2.1) as the close of ``month`` sees it: the event of his
    first played game, his score in its games rated up to ``month``, and whether its last
    game is rated by then (see :class:`tracker.ratings.fide.FirstEvent`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    mine: dict[int, list[tuple[dt.date, int, int | None, Decimal]]] = {p: [] for p in wanted}
    for g in queries.games_of_players(db, tc, wanted, next_month(month)):
        white_score, black_score = SCORES[g.result]
        for pid, score in ((g.white_id, white_score), (g.black_id, black_score)):
            if pid in mine:
                mine[pid].append((g.played_on, g.id, g.event_id, score))
    firsts = {pid: min(games) for pid, games in mine.items() if games}
    spans = event_spans(db, tc, {e for _, _, e, _ in firsts.values() if e is not None})
    out: dict[int, fide.FirstEvent] = {}
    for pid, (first_day, _, event_id, _) in firsts.items():
        if event_id is None:  # unnamed games: one event per day
            score = sum((s for d, _, e, s in mine[pid] if e is None and d == first_day), Decimal(0))
            out[pid] = fide.FirstEvent(f"day:{first_day.isoformat()}", score, True)
            continue
        span = spans[event_id]
        score = sum(
            (s for d, _, e, s in mine[pid] if e == event_id and span.rated_in(d) <= month),
            Decimal(0),
        )
        out[pid] = fide.FirstEvent(event_id, score, span.rated_in(span.end) <= month)
    return out


def span_of(db: Db, tc: str, event_id: int | None) -> EventSpan | None:
    """The span of one event in ``tc`` (None: no event, or no game of it in ``tc``)."""
    if event_id is None:
        return None
    return event_spans(db, tc, [event_id]).get(event_id)


def rated_later(
    db: Db, tc: str, player_id: int, before: dt.date
) -> dict[dt.date, dict[dt.date, int]]:
    """The player's played games dated before ``before`` that a later period rates (an event
    is rated in the month it ends): by the month they were played in, how many of them each
    later period rates."""
    out: dict[dt.date, dict[dt.date, int]] = {}
    for month, waiting in later_by_event(db, tc, player_id, before).items():
        counts = out.setdefault(month, {})
        for w in waiting:
            counts[w.period] = counts.get(w.period, 0) + w.games
    return out


def later_by_event(
    db: Db, tc: str, player_id: int, before: dt.date, today: dt.date | None = None
) -> dict[dt.date, list[HeldEvent]]:
    """:func:`rated_later` by event: for each month the player's games dated before
    ``before`` were played in, the events a later period rates some of them with."""
    played = [g for g in queries.games_of_players(db, tc, [player_id], before) if g.event_id]
    spans = event_spans(db, tc, {g.event_id for g in played if g.event_id is not None})
    counts: dict[dt.date, dict[int, int]] = {}
    for g in played:
        event_id = int(g.event_id or 0)
        month = month_of(g.played_on)
        if spans[event_id].rated_in(g.played_on) > month:
            mine = counts.setdefault(month, {})
            mine[event_id] = mine.get(event_id, 0) + 1
    names = event_names(db, [e for by_event in counts.values() for e in by_event])
    return {
        month: [
            HeldEvent(
                names[e],
                n,
                spans[e].rated_in(spans[e].end),
                spans[e].stated is not None,
                today is not None and spans[e].end >= month_of(today),
            )
            for e, n in sorted(by_event.items(), key=lambda item: names[item[0]])
        ]
        for month, by_event in sorted(counts.items())
    }


@dataclass(frozen=True)
class HeldEvent:
    """An event whose games played up to a closed period wait for a later one: ``games``
    of them, rated in ``period`` as things stand (``stated``: as stated with --rated-in;
    else the month of its last game so far, which moves on while it goes on)."""

    name: str
    games: int
    period: dt.date
    stated: bool
    running: bool = False  # its last game so far is in the current month (or later)


def held_events(db: Db, tc: str, month: dt.date, today: dt.date) -> tuple[HeldEvent, ...]:
    """The events whose played games of ``tc`` dated up to ``month`` a later period rates:
    among those stated to be rated after it (§7.1.3) or with games after it, in the days an
    event that began by then can last without being a league (rated month by month), so that
    a close reads the events going on, not every later game on file."""
    after = next_month(month)
    within = after + dt.timedelta(days=fide.LEAGUE_DAYS)
    events = sorted(
        {e for e, _, _ in queries.played_by_event_day(db, tc, after, within) if e is not None}
        | {*queries.events_rated_from(db, after)}
    )
    spans = event_spans(db, tc, events)
    waiting: dict[int, int] = {}
    for event_id, played_on, n in queries.played_before_by_event_day(db, tc, events, after):
        if event_id is not None and spans[event_id].rated_in(played_on) > month:
            waiting[event_id] = waiting.get(event_id, 0) + n
    names = event_names(db, list(waiting))
    return tuple(
        HeldEvent(
            names[e],
            n,
            spans[e].rated_in(spans[e].end),
            spans[e].stated is not None,
            spans[e].end >= month_of(today),
        )
        for e, n in sorted(waiting.items(), key=lambda item: names[item[0]])
    )
