"""Which games a rating period rates (tracker.ratings.fide.events): the events that ended in
the month, the month's part of every league, the month's games without an event; and what
the first-event rule of a newcomer needs to know of his first event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.db.driver import Db, chunks, day
from tracker.db.planner import not_indexed
from tracker.months import month_of, next_month
from tracker.ratings import fide
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import FORFEITS, SCORES

if TYPE_CHECKING:
    from tracker.db.driver import Source

#: Played games: not forfeits (FIDE Rating Regulations §5.1: a forfeit is no game).
_PLAYED = "g.result NOT IN ({})".format(", ".join(f"'{r}'" for r in sorted(FORFEITS)))

_MONTH_GAMES = f"""
    SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id,
        coalesce(e.start_date, g.played_on), g.white_rating, g.black_rating,
        w.external, b.external
    FROM games g
    JOIN players w ON w.id = g.white_id
    JOIN players b ON b.id = g.black_id
    LEFT JOIN events e ON e.id = g.event_id
    WHERE {_PLAYED}"""


def month_games(
    source: Source,
    tc: str,
    month: dt.date,
    player_id: int | None = None,
    *,
    events: Iterable[int] | None = None,
) -> list[MonthGame]:
    """The month's played games in date order (ties in the order they were entered); with
    ``events``, instead the games of those events played before the month."""
    params: dict[str, Any] = {"tc": tc, "month": month}
    if events is None:
        where = "g.tc = :tc AND g.played_on >= :month AND g.played_on < :end"
        params["end"] = next_month(month)
    else:  # by the events' index
        where = (
            f"{not_indexed('g.tc')} = :tc AND {not_indexed('g.played_on')} < :month "
            "AND g.event_id IN (:events)"
        )
        params["events"] = sorted(set(events))
    if player_id is not None:
        where += " AND (g.white_id = :pid OR g.black_id = :pid)"
        params["pid"] = player_id
    rows = Db.of(source).all(f"{_MONTH_GAMES} AND {where} ORDER BY g.played_on, g.id", params)
    days: dict[Any, dt.date] = {}  # a month's games fall on a few dozen days

    def on(value: Any) -> dt.date:
        found = days.get(value)
        if found is None:
            found = days[value] = day(value)
        return found

    return [
        MonthGame(gid, w, b, result, on(played), event, on(start), wr, br, bool(wx), bool(bx))
        for gid, w, b, result, played, event, start, wr, br, wx, bx in rows
    ]


class EventSpan(NamedTuple):
    """An event's start (its recorded start date) and its last played game, in one time
    control."""

    start: dt.date
    end: dt.date

    def rated_in(self, played_on: dt.date) -> dt.date:
        return fide.rated_in(self.start, self.end, played_on)


def event_spans(source: Source, tc: str, event_ids: Iterable[int]) -> dict[int, EventSpan]:
    """The spans of ``event_ids`` (those with played games in ``tc``: a forfeit is no game,
    §5.1, and does not make an event last longer)."""
    db = Db.of(source)
    out: dict[int, EventSpan] = {}
    for chunk in chunks(sorted(set(event_ids))):
        starts: dict[int, Any] = dict(
            db.all("SELECT id, start_date FROM events WHERE id IN (:ids)", {"ids": chunk})
        )
        rows = db.all(
            f"""
            SELECT g.event_id, min(g.played_on), max(g.played_on) FROM games g
            WHERE g.event_id IN (:ids) AND {not_indexed("g.tc")} = :tc AND {_PLAYED}
            GROUP BY g.event_id""",  # the events' own index, not the (tc, day) one
            {"ids": chunk, "tc": tc},
        )
        for event_id, first, last in rows:
            assert event_id is not None
            out[event_id] = EventSpan(min(day(starts[event_id]), day(first)), day(last))
    return out


def period_games(
    source: Source,
    tc: str,
    month: dt.date,
    played: list[MonthGame] | None = None,
    player_id: int | None = None,
) -> list[MonthGame]:
    """The games rated in the period ``month`` (see :mod:`tracker.ratings.fide.events`), in
    date order, each with ``event_start`` set to the day whose list rates it. ``played``:
    the month's played games (:func:`month_games`), if the caller has them."""
    db = Db.of(source)
    if played is None:
        played = month_games(db, tc, month, player_id)
    spans = event_spans(db, tc, {g.event_id for g in played if g.event_id is not None})
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
        before = month_games(db, tc, month, player_id, events=earlier)
        out.extend(g._replace(event_start=spans[int(g.event_id or 0)].start) for g in before)
        out.sort(key=lambda g: (g.played_on, g.id))
    return out


def pending(source: Source, tc: str, since: dt.date) -> dict[dt.date, int]:
    """How many played games of ``tc`` each rating period from ``since`` (a month) on rates,
    by the rule :func:`period_games` follows (an event is rated in the month it ends, a
    league by its months, a game without an event in its own month): the games played from
    ``since`` on, and the earlier games of their events that are rated from then on."""
    db = Db.of(source)
    rows = db.all(
        f"""
        SELECT g.event_id, g.played_on, count(*) FROM games g
        WHERE g.tc = :tc AND g.played_on >= :since AND {_PLAYED}
        GROUP BY g.event_id, g.played_on""",
        {"tc": tc, "since": since},
    )
    events = sorted({event for event, _, _ in rows if event is not None})
    for chunk in chunks(events):
        rows += db.all(
            f"""
            SELECT g.event_id, g.played_on, count(*) FROM games g
            WHERE g.event_id IN (:ids) AND {not_indexed("g.tc")} = :tc
                AND {not_indexed("g.played_on")} < :since AND {_PLAYED}
            GROUP BY g.event_id, g.played_on""",
            {"ids": chunk, "tc": tc, "since": since},
        )
    spans = event_spans(db, tc, events)
    counts: dict[dt.date, int] = {}
    for event, played, n in rows:
        played_on = day(played)
        month = month_of(played_on) if event is None else spans[event].rated_in(played_on)
        if month >= since:
            counts[month] = counts.get(month, 0) + int(n)
    return dict(sorted(counts.items()))


def first_events(
    source: Source, tc: str, month: dt.date, players: Iterable[int]
) -> dict[int, fide.FirstEvent]:
    """Each player's first event (§8.2.1) as the close of ``month`` sees it: the event of his
    first played game, his score in its games rated up to ``month``, and whether its last
    game is rated by then (see :class:`tracker.ratings.fide.FirstEvent`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    db = Db.of(source)
    end = next_month(month)
    mine: dict[int, list[tuple[dt.date, int, int | None, Decimal]]] = {p: [] for p in wanted}
    seen: set[int] = set()
    for chunk in chunks(wanted):
        for side in ("g.white_id", "g.black_id"):  # each by its own index (not an OR)
            rows = db.all(
                f"""
                SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id
                FROM games g
                WHERE {side} IN (:ids) AND {not_indexed("g.tc")} = :tc
                    AND {not_indexed("g.played_on")} < :end AND {_PLAYED}""",
                {"ids": chunk, "tc": tc, "end": end},
            )
            for gid, white, black, result, played, event_id in rows:
                played_on = day(played)
                if gid in seen:  # both players asked for: seen from both sides
                    continue
                seen.add(gid)
                white_score, black_score = SCORES[result]
                for pid, score in ((white, white_score), (black, black_score)):
                    if pid in mine:
                        mine[pid].append((played_on, gid, event_id, score))
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


def span_of(source: Source, tc: str, event_id: int | None) -> EventSpan | None:
    """The span of one event in ``tc`` (None: no event, or no game of it in ``tc``)."""
    if event_id is None:
        return None
    return event_spans(source, tc, [event_id]).get(event_id)
