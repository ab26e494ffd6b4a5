"""Which games a rating period rates (tracker.ratings.fide.events): the events that ended in
the month (or were stated to be rated in it, §7.1.3), the month's part of every league, the
month's games without an event; and what the first-event rule of a newcomer needs to know of
his first event.
"""

import datetime as dt
from collections.abc import Collection, Iterable
from decimal import Decimal
from itertools import chain
from typing import NamedTuple

from tracker.db.driver import IN_CHUNK, Db
from tracker.db.queries import rated_games as queries
from tracker.db.queries.history import event_names
from tracker.db.queries.lists import first_game_day
from tracker.months import month_label, month_of, next_month
from tracker.ratings.fide.events import LEAGUE_DAYS, OPEN_MONTH, EventSpan, event_span, rating_from
from tracker.ratings.fide.records import FirstEvent, PlayerState
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import SCORES, TimeControl


def event_spans(
    db: Db,
    tc: TimeControl,
    event_ids: Iterable[int],
    bounds: dict[int, queries.EventBounds] | None = None,
    known: dict[int, EventSpan] | None = None,
) -> dict[int, EventSpan]:
    """The spans of ``event_ids`` (those with played games in ``tc``: a forfeit is no game,
    §5.1, and does not make an event last longer); ``bounds``: their bounds, if read;
    ``known``: spans read before in this transaction, the ones read here added to them."""
    if known is not None:
        wanted = set(event_ids)
        if missing := wanted - known.keys():
            known.update(event_spans(db, tc, missing, bounds))
        return {e: known[e] for e in wanted if e in known}
    if bounds is None:
        bounds = queries.event_bounds(db, tc, event_ids)
    return {
        event: event_span(
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
    tc: TimeControl,
    month: dt.date,
    played: list[MonthGame] | None = None,
    players: Collection[int] | None = None,
    spans: dict[int, EventSpan] | None = None,
) -> list[MonthGame]:
    """The games rated in the period ``month`` (see :mod:`tracker.ratings.fide.events`), in
    date order, each with ``event_start`` set to the day whose list rates it and
    ``rules_from`` to its event's start, whose rules rate it (``players``: those with one
    of them on a side only). ``played``: the month's played games (:func:`queries.month_games`),
    if the caller has them; ``spans``: the events' spans known (see :func:`event_spans`)."""
    if players is not None and len(players) > IN_CHUNK:  # the month's, theirs kept
        ids = set(players)
        everyone = period_games(db, tc, month, played, spans=spans)
        return [g for g in everyone if g.white_id in ids or g.black_id in ids]
    if played is None:
        played = queries.month_games(db, tc, month, players)
    # the events stated to be rated in this period (§7.1.3): none of their games need be in it
    stated = queries.events_rated_from(db, month, month)
    # some players': their events begun before that end this month, whether or not they play
    # in them this month (everyone's are found from the month's games below)
    going_on = queries.events_going_on(db, tc, month, players) if players is not None else []
    spans = event_spans(
        db,
        tc,
        {g.event_id for g in played if g.event_id is not None} | {*stated, *going_on},
        known=spans,
    )
    earlier = {e for e in stated if e in spans and spans[e].rated_in(spans[e].end) == month}
    earlier |= {
        e
        for e in going_on
        if not spans[e].league
        and spans[e].start < month
        and spans[e].rated_in(spans[e].end) == month
    }
    out = _rated_now(played, spans, month, earlier)
    if earlier:
        before = queries.month_games(db, tc, month, players, events=earlier)
        out.extend(g._replace(event_start=spans[int(g.event_id or 0)].start) for g in before)
        out.sort(key=lambda g: (g.played_on, g.id))
    return out


def _rated_now(
    played: list[MonthGame], spans: dict[int, EventSpan], month: dt.date, earlier: set[int]
) -> list[MonthGame]:
    """The month's played games the period ``month`` rates, each with the day whose list
    rates it and its event's start; adds to ``earlier`` the events ending this month that
    began before it (their earlier games are rated now too)."""
    out: list[MonthGame] = []
    # By event: the day whose list rates its games and the event's start (whose rules rate
    # them), or None while it goes on (rated when it ends). The same for all its games of
    # the month: a league's are rated in their month, this one.
    rating: dict[int, tuple[dt.date, dt.date] | None] = {}
    for g in played:
        event_id = g.event_id
        if event_id is None:
            out.append(g)
            continue
        if event_id not in rating:
            span = spans[event_id]
            rating[event_id] = None
            if span.rated_in(g.played_on) == month:
                rating[event_id] = (rating_from(span, month), span.start)
                if span.start < month and not span.league:
                    earlier.add(event_id)
        rated = rating[event_id]
        if rated is not None:
            out.append(g.rated_from(*rated))
    return out


def pending(db: Db, tc: TimeControl, since: dt.date) -> dict[dt.date, int]:
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
        if event is not None and not spans[event].ended:
            continue  # rated once its last round is played: no period yet
        month = month_of(played_on) if event is None else spans[event].rated_in(played_on)
        if month >= since:
            counts[month] = counts.get(month, 0) + n
    return dict(sorted(counts.items()))


def first_events(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    players: Iterable[int],
    played: Iterable[MonthGame] | None = None,
    spans: dict[int, EventSpan] | None = None,
) -> dict[int, FirstEvent]:
    """Each player's first event (§8.2.1) as the close of ``month`` sees it: the event of his
    first played game, his score in its games rated up to ``month``, and whether its last
    game is rated by then (see :class:`tracker.ratings.fide.FirstEvent`). ``played``: the
    month's played games (:func:`queries.month_games`), if the caller has them: only the earlier
    games are read then, and none when nothing of ``tc`` was played before ``month`` (the
    first month a close rates). ``spans``: the events' spans known (see :func:`event_spans`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    mine: dict[int, list[tuple[dt.date, int, int | None, Decimal]]] = {p: [] for p in wanted}
    games: Iterable[queries.PlayedGame | MonthGame]
    if played is None:
        games = queries.games_of_players(db, tc, wanted, next_month(month))
    else:
        first = first_game_day(db, tc)
        earlier = first is not None and first < month
        games = chain(queries.games_of_players(db, tc, wanted, month) if earlier else (), played)
    for g in games:
        white = mine.get(g.white_id)
        black = mine.get(g.black_id)
        if white is not None or black is not None:
            white_score, black_score = SCORES[g.result]
            if white is not None:
                white.append((g.played_on, g.id, g.event_id, white_score))
            if black is not None:
                black.append((g.played_on, g.id, g.event_id, black_score))
    firsts = {pid: min(games) for pid, games in mine.items() if games}
    spans = event_spans(db, tc, {e for _, _, e, _ in firsts.values() if e is not None}, known=spans)
    out: dict[int, FirstEvent] = {}
    for pid, (first_day, _, event_id, _) in firsts.items():
        if event_id is None:  # unnamed games: one event per day
            score = sum((s for d, _, e, s in mine[pid] if e is None and d == first_day), Decimal(0))
            out[pid] = FirstEvent(f"day:{first_day.isoformat()}", score, True)
            continue
        span = spans[event_id]
        score = sum(
            (s for d, _, e, s in mine[pid] if e == event_id and span.rated_in(d) <= month),
            Decimal(0),
        )
        out[pid] = FirstEvent(event_id, score, span.rated_in(span.end) <= month)
    return out


def unsettled(state: PlayerState | None) -> bool:
    """Whether §8.2.1 may still apply: an unrated player whose first event is not judged."""
    return state is None or (state.rating is None and not state.first_event_settled)


def first_event(
    db: Db, tc: TimeControl, month: dt.date, player_id: int, state: PlayerState
) -> FirstEvent | None:
    """One player's first event (:func:`first_events`), if §8.2.1 may still apply to him."""
    return first_events(db, tc, month, [player_id]).get(player_id) if unsettled(state) else None


def progress_of(
    db: Db, tc: TimeControl, event_ids: Iterable[int]
) -> "tuple[dict[int, Progress], dict[int, EventSpan]]":
    """How far each of ``event_ids`` has got in ``tc`` (of those with played games), and its
    span."""
    bounds = queries.event_bounds(db, tc, event_ids)
    progress = {e: Progress(b.round_played, b.rounds, b.last) for e, b in bounds.items()}
    return progress, event_spans(db, tc, bounds, bounds)


def span_of(db: Db, tc: TimeControl, event_id: int | None) -> EventSpan | None:
    """The span of one event in ``tc`` (None: no event, or no game of it in ``tc``)."""
    if event_id is None:
        return None
    return event_spans(db, tc, [event_id]).get(event_id)


def later_by_event(
    db: Db, tc: TimeControl, player_id: int, before: dt.date, today: dt.date | None = None
) -> "dict[dt.date, list[HeldEvent]]":
    """For each month the player's games dated before ``before`` were played in, the events
    a later period rates some of them with (an event is rated in the month it ends)."""
    played = [g for g in queries.games_of_players(db, tc, [player_id], before) if g.event_id]
    ids = {g.event_id for g in played if g.event_id is not None}
    bounds = queries.event_bounds(db, tc, ids)
    spans = event_spans(db, tc, ids, bounds)
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
            _held(names[e], n, spans[e], bounds[e], today)
            for e, n in sorted(by_event.items(), key=lambda item: names[item[0]])
        ]
        for month, by_event in sorted(counts.items())
    }


class Progress(NamedTuple):
    """How far an event has got: the highest round played so far, of the ``rounds``
    declared (None: none declared), and its last game so far."""

    round_played: int | None
    rounds: int | None
    last: dt.date | None

    @property
    def text(self) -> str:
        """``round 3 of 5`` (``round 3`` without rounds declared; '' before any round)."""
        if self.round_played is None:
            return ""
        of = f" of {self.rounds}" if self.rounds is not None else ""
        return f"round {self.round_played}{of}"


class HeldEvent(NamedTuple):
    """An event whose games played up to a closed period wait for a later one: ``games``
    of them, rated in ``period`` as things stand (``stated``: as stated with --rated-in);
    ``running``: it has not ended by today (declared to go on, or its last game so far in
    the current month); what is declared of it: its ``end`` (None: none declared), its
    ``rounds`` and the highest round played so far; ``assumed``: nothing declared, its last
    game so far (``end``) is taken for its end, which a later game moves."""

    name: str
    games: int
    period: dt.date
    stated: bool
    running: bool = False
    end: dt.date | None = None
    rounds: int | None = None
    round_played: int | None = None
    assumed: bool = False

    @property
    def rated_in(self) -> dt.date | None:
        """The period rating its games as things stand (None: it has not ended, and its
        end is not known: no period yet)."""
        return None if self.period == OPEN_MONTH else self.period

    @property
    def why(self) -> str:
        """Where its games wait, in words: ``round 3 of 5, ends 2026-10-04``."""
        if self.stated:
            return f"rated in {month_label(self.period)} as stated"
        if self.assumed:
            last = "" if self.end is None else f" so far is on {self.end.isoformat()}"
            return (
                f"no end declared: its last game{last}, rated with it in {month_label(self.period)}"
            )
        so_far = Progress(self.round_played, self.rounds, None).text
        parts = [so_far] if so_far else []
        if self.end is not None:
            parts.append(f"ends {self.end.isoformat()}")
        elif self.rounds is not None:
            parts.append(f"rated once round {self.rounds} is played")
        return ", ".join(parts) or f"rated in {month_label(self.period)}"


def _held(
    name: str,
    games: int,
    span: EventSpan,
    bounds: queries.EventBounds,
    today: dt.date | None,
) -> HeldEvent:
    ended = span.ended and (today is None or span.end < today)
    if span.assumed:
        ended = today is None or month_of(span.end) < month_of(today)
    return HeldEvent(
        name,
        games,
        span.rated_in(span.end),
        span.stated is not None,
        not ended,
        span.end if span.ended else None,
        bounds.rounds,
        bounds.round_played,
        span.assumed,
    )


def held_events(db: Db, tc: TimeControl, month: dt.date, today: dt.date) -> tuple[HeldEvent, ...]:
    """The events whose played games of ``tc`` dated up to ``month`` a later period rates:
    among those stated to be rated after it (§7.1.3), those declared to end after it, and
    those with games after it in the days an event that began by then can last without
    being a league (rated month by month), so that a close reads the events going on, not
    every later game on file."""
    after = next_month(month)
    within = after + dt.timedelta(days=LEAGUE_DAYS)
    events = sorted(
        {*queries.events_played(db, tc, after, within)}
        | {*queries.events_rated_from(db, after)}
        | {*queries.events_declared_past(db, after)}
    )
    # their games up to the month (most of them begin after it: only those that do not are
    # read further)
    before = queries.played_before_by_event_day(db, tc, events, after)
    begun = sorted({e for e, _, _ in before if e is not None})
    bounds = queries.event_bounds(db, tc, begun)
    spans = event_spans(db, tc, begun, bounds)
    waiting: dict[int, int] = {}
    for event_id, played_on, n in before:
        if event_id is not None and spans[event_id].rated_in(played_on) > month:
            waiting[event_id] = waiting.get(event_id, 0) + n
    names = event_names(db, list(waiting))
    return tuple(
        _held(names[e], n, spans[e], bounds[e], today)
        for e, n in sorted(waiting.items(), key=lambda item: names[item[0]])
    )


class AssumedEvent(NamedTuple):
    """An event a close rated as ended with nothing declared of it: it is taken to end on
    its last game (``end``), or (``league``) to be a league because its games span more
    than 90 days."""

    name: str
    end: dt.date
    league: bool


def assumed_events(db: Db, tc: TimeControl, months: list[dt.date]) -> tuple[AssumedEvent, ...]:
    """The events with nothing declared whose games the periods ``months`` rate as ended
    (or as a league's months): what the close assumed of them."""
    if not months:
        return ()
    first, after = months[0], next_month(months[-1])
    events = sorted(queries.events_played(db, tc, first, after))
    spans = event_spans(db, tc, events)
    names = event_names(db, events)
    out = [
        AssumedEvent(names[e], span.end, span.league)
        for e, span in spans.items()
        if span.assumed and (span.league or first <= span.rated_in(span.end) < after)
    ]
    return tuple(sorted(out, key=lambda a: (a.end, a.name)))
