"""Which games a rating period rates (tracker.ratings.fide.events): the events that ended in
the month, the month's part of every league, the month's games without an event; and what
the first-event rule of a newcomer needs to know of his first event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from tracker.db.models import Event, Game, Player
from tracker.db.planner import not_indexed
from tracker.months import month_of, next_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import FORFEITS, SCORES


def month_games(
    session: Session,
    tc: str,
    month: dt.date,
    player_id: int | None = None,
    *,
    events: Iterable[int] | None = None,
) -> list[MonthGame]:
    """The month's played games in date order (ties in the order they were entered); with
    ``events``, instead the games of those events played before the month."""
    white, black = aliased(Player), aliased(Player)
    query = (
        select(
            Game.id,
            Game.white_id,
            Game.black_id,
            Game.result,
            Game.played_on,
            Game.event_id,
            func.coalesce(Event.start_date, Game.played_on),
            Game.white_rating,
            Game.black_rating,
            white.external,
            black.external,
        )
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .outerjoin(Event, Event.id == Game.event_id)
        .where(Game.result.not_in(FORFEITS))
        .order_by(Game.played_on, Game.id)
    )
    if events is None:
        query = query.where(
            Game.tc == tc, Game.played_on >= month, Game.played_on < next_month(month)
        )
    else:  # by the events' index
        query = query.where(
            not_indexed(Game.tc) == tc,
            not_indexed(Game.played_on) < month,
            Game.event_id.in_(sorted(set(events))),
        )
    if player_id is not None:
        query = query.where((Game.white_id == player_id) | (Game.black_id == player_id))
    return [MonthGame(*row) for row in session.execute(query)]


class EventSpan(NamedTuple):
    """An event's start (its recorded start date) and its last played game, in one time
    control."""

    start: dt.date
    end: dt.date

    def rated_in(self, played_on: dt.date) -> dt.date:
        return fide.rated_in(self.start, self.end, played_on)


def event_spans(session: Session, tc: str, event_ids: Iterable[int]) -> dict[int, EventSpan]:
    """The spans of ``event_ids`` (those with played games in ``tc``: a forfeit is no game,
    §5.1, and does not make an event last longer)."""
    wanted = sorted(set(event_ids))
    out: dict[int, EventSpan] = {}
    for chunk in _chunks(wanted):
        starts = dict(
            session.execute(select(Event.id, Event.start_date).where(Event.id.in_(chunk))).all()
        )
        rows = session.execute(
            select(Game.event_id, func.min(Game.played_on), func.max(Game.played_on))
            .where(
                Game.event_id.in_(chunk),
                not_indexed(Game.tc) == tc,  # the events' own index, not the (tc, day) one
                Game.result.not_in(FORFEITS),
            )
            .group_by(Game.event_id)
        )
        for event_id, first, last in rows:
            assert event_id is not None
            out[event_id] = EventSpan(min(starts[event_id], first), last)
    return out


def period_games(
    session: Session,
    tc: str,
    month: dt.date,
    played: list[MonthGame] | None = None,
    player_id: int | None = None,
) -> list[MonthGame]:
    """The games rated in the period ``month`` (see :mod:`tracker.ratings.fide.events`), in
    date order, each with ``event_start`` set to the day whose list rates it. ``played``:
    the month's played games (:func:`month_games`), if the caller has them."""
    if played is None:
        played = month_games(session, tc, month, player_id)
    spans = event_spans(session, tc, {g.event_id for g in played if g.event_id is not None})
    out: list[MonthGame] = []
    earlier: set[int] = set()  # events ending this month that began before it
    for g in played:
        if g.event_id is None:
            out.append(g)
            continue
        span = spans[g.event_id]
        if span.rated_in(g.played_on) != month:
            continue  # the event goes on: rated when it ends
        out.append(g._replace(event_start=fide.rating_from(span.start, span.end, month)))
        if span.start < month and not fide.is_league(span.start, span.end):
            earlier.add(g.event_id)
    if earlier:
        before = month_games(session, tc, month, player_id, events=earlier)
        out.extend(g._replace(event_start=spans[int(g.event_id or 0)].start) for g in before)
        out.sort(key=lambda g: (g.played_on, g.id))
    return out


def event_rated_from(session: Session, tc: str, event_id: int) -> dt.date | None:
    """The first period in which a game of the event is rated (None: no game in ``tc``)."""
    span = event_spans(session, tc, [event_id]).get(event_id)
    if span is None:
        return None
    return month_of(span.start) if fide.is_league(span.start, span.end) else month_of(span.end)


def first_events(
    session: Session, tc: str, month: dt.date, players: Iterable[int]
) -> dict[int, fide.FirstEvent]:
    """Each player's first event (§8.2.1) as the close of ``month`` sees it: the event of his
    first played game, his score in its games rated up to ``month``, and whether its last
    game is rated by then (see :class:`tracker.ratings.fide.FirstEvent`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    end = next_month(month)
    mine: dict[int, list[tuple[dt.date, int, int | None, Decimal]]] = {p: [] for p in wanted}
    seen: set[int] = set()
    for chunk in _chunks(wanted):
        for side in (Game.white_id, Game.black_id):  # each by its own index (not an OR)
            rows = session.execute(
                select(
                    Game.id,
                    Game.white_id,
                    Game.black_id,
                    Game.result,
                    Game.played_on,
                    Game.event_id,
                ).where(
                    side.in_(chunk),
                    not_indexed(Game.tc) == tc,
                    not_indexed(Game.played_on) < end,
                    Game.result.not_in(FORFEITS),
                )
            )
            for gid, white, black, result, played_on, event_id in rows:
                if gid in seen:  # both players asked for: seen from both sides
                    continue
                seen.add(gid)
                white_score, black_score = SCORES[result]
                for pid, score in ((white, white_score), (black, black_score)):
                    if pid in mine:
                        mine[pid].append((played_on, gid, event_id, score))
    firsts = {pid: min(games) for pid, games in mine.items() if games}
    spans = event_spans(session, tc, {e for _, _, e, _ in firsts.values() if e is not None})
    out: dict[int, fide.FirstEvent] = {}
    for pid, (day, _, event_id, _) in firsts.items():
        if event_id is None:  # unnamed games: one event per day
            score = sum((s for d, _, e, s in mine[pid] if e is None and d == day), Decimal(0))
            out[pid] = fide.FirstEvent(f"day:{day.isoformat()}", score, True)
            continue
        span = spans[event_id]
        score = sum(
            (s for d, _, e, s in mine[pid] if e == event_id and span.rated_in(d) <= month),
            Decimal(0),
        )
        out[pid] = fide.FirstEvent(event_id, score, span.rated_in(span.end) <= month)
    return out


def _chunks(ids: list[int], size: int = 500) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def span_of(session: Session, tc: str, event_id: int | None) -> EventSpan | None:
    """The span of one event in ``tc`` (None: no event, or no game of it in ``tc``)."""
    if event_id is None:
        return None
    return event_spans(session, tc, [event_id]).get(event_id)
