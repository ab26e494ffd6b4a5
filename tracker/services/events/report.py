"""Reading events (``tracker event list``, ``event show``): when each is rated, its standings
and crosstable, and each player's share of the close in it.

An event is rated as a whole in the period it ends in (or the one stated for it), a league
month by month (:mod:`tracker.ratings.fide.events`): until then its games wait. Whether an
event has ended tracker cannot know; it takes its last game so far: an event whose last game
is in the current month is *running*, one whose last month is over waits for that month's
close.
"""

import datetime as dt
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import byes as bye_queries
from tracker.db.queries import events as queries
from tracker.db.queries import games as game_queries
from tracker.db.queries.games import GameRow
from tracker.db.queries.lists import ClosedMonth
from tracker.db.queries.players import PlayerRow, players_by_ids
from tracker.months import month_label, month_of, month_span, months_between, next_month
from tracker.ratings.fide.events import EventSpan
from tracker.ratings.fide.initial import performance_rating
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.periods.detail import (
    DetailGame,
    MonthDetails,
    computable,
    month_details,
)
from tracker.vocabulary import BYE_POINTS, FORFEITS, POINTS, TimeControl, round_order


class RatedStatus(NamedTuple):
    """When an event is rated: ``status`` is ``rated`` (its period is closed), ``stated``
    (rated in a later period, as stated with ``--rated-in``), ``running`` (its last game is
    in the current month), ``waiting`` (its last month is over, not closed yet), ``league``
    (rated month by month) or ``unplayed`` (no played game); ``text`` says it in words;
    ``lists``: the lists its games went on so far; ``to_come``: the periods still to rate
    some (a running event's: the month of its last game so far)."""

    status: str
    text: str
    lists: tuple[dt.date, ...]
    to_come: tuple[dt.date, ...]


def _league_status(
    span: EventSpan, first: dt.date, last: dt.date, closed: dict[dt.date, bool]
) -> RatedStatus:
    """A league's: rated month by month, the months rated and to come."""
    end = span.end if span.ended and not span.assumed else last
    months = months_between(month_of(first), month_of(max(end, last)))
    done = tuple(m for m in months if m in closed)
    waiting = tuple(m for m in months if m not in closed)
    parts = []
    if done:
        parts.append(f"{month_span(done)} rated")
    if waiting:
        parts.append(f"{month_span(waiting)} to come")
    return RatedStatus(
        "league",
        "league, rated monthly: " + ", ".join(parts),
        tuple(next_month(m) for m in done),
        waiting,
    )


def rated_status(
    span: EventSpan | None,
    first: dt.date | None,
    closed: dict[dt.date, bool],
    today: dt.date,
    progress: rated_games.Progress,
) -> RatedStatus:
    """When an event spanning ``span`` (its first played game ``first``) is rated, given the
    closed periods (month: stale) of its time control; ``progress``: its rounds played of
    those declared, and its last game so far."""
    if span is None or first is None:
        return RatedStatus("unplayed", "no played games yet", (), ())
    current = month_of(today)
    last = progress.last if progress.last is not None else span.end
    if span.league:
        return _league_status(span, first, last, closed)
    period = span.rated_in(span.end)
    listed = next_month(period).isoformat() if span.ended else ""
    if span.ended and period in closed:
        stale = " (stale)" if closed[period] else ""
        return RatedStatus("rated", f"rated on the {listed} list{stale}", (next_month(period),), ())
    if span.stated is not None and span.ended:
        return RatedStatus(
            "stated", f"rated in {month_label(period)} as stated ({listed} list)", (), (period,)
        )
    if span.assumed:
        if month_of(span.end) >= current:
            return RatedStatus(
                "running",
                f"no end declared: rated on the {listed} list unless it goes on",
                (),
                (period,),
            )
    elif not span.ended or span.end >= today:
        so_far = progress.text
        when = (
            f"rated on the {listed} list"
            if span.ended
            else f"rated once round {progress.rounds} is played"
        )
        return RatedStatus(
            "running",
            f"running{f' ({so_far})' if so_far else ''}: {when}",
            (),
            (period,) if span.ended else (),
        )
    return RatedStatus("waiting", f"will be rated on the {listed} list", (), (period,))


class EventListing(NamedTuple):
    """One event in one time control (``event list``): its start, its end (declared; else
    its last played game so far), what else is declared of it (``kind``, ``rounds``), how
    far it has got (``progress``), and when it is rated."""

    id: int
    name: str
    tc: TimeControl | None
    start: dt.date
    end: dt.date | None
    end_declared: bool
    kind: str | None
    progress: rated_games.Progress
    games: int  # forfeits included
    players: int
    stated: dt.date | None  # the rating period stated for it (--rated-in)
    rated: RatedStatus


def list_events(db: Db, today: dt.date, tc: TimeControl | None = None) -> tuple[EventListing, ...]:
    """Every event (of ``tc``, if given): dates, rounds, games, players, when it is rated."""
    players = queries.event_player_counts(db)
    summaries = [s for s in queries.event_summaries(db) if tc is None or s.tc == tc]
    closed: dict[TimeControl | None, dict[dt.date, bool]] = {}
    progress: dict[TimeControl | None, dict[int, rated_games.Progress]] = {}
    spans: dict[TimeControl | None, dict[int, EventSpan]] = {}
    for one in sorted({s.tc for s in summaries if s.tc is not None}):
        closed[one] = {m: stale for m, _, stale in lists.closed_months(db, one)}
        ids = [s.id for s in summaries if s.tc == one]
        progress[one], spans[one] = rated_games.progress_of(db, one, ids)
    out = []
    for s in summaries:
        span = spans.get(s.tc, {}).get(s.id)
        so_far = progress.get(s.tc, {}).get(s.id) or rated_games.Progress(None, s.rounds, s.last)
        status = rated_status(span, s.first, closed.get(s.tc, {}), today, so_far)
        out.append(
            EventListing(
                id=s.id,
                name=s.name,
                tc=s.tc,
                start=span.start if span is not None else s.start_date,
                end=s.end_date or s.last,
                end_declared=s.end_date is not None,
                kind=s.kind,
                progress=so_far,
                games=s.games,
                players=players.get((s.id, s.tc or ""), 0),
                stated=s.rated_in,
                rated=status,
            )
        )
    return tuple(out)


class Cell(NamedTuple):
    """One game of a player in the crosstable: the opponent's rank (shared by players on
    the same score) and start number (his own), the colour, the result from the player's side
    (``1``, ``=``, ``0``; ``+``/``-`` a forfeit won or lost)."""

    round: str | None
    opponent_rank: int
    opponent_id: int
    colour: str  # "w" | "b" ("" for a bye)
    result: str
    opponent_number: int = 0
    bye: str | None = None  # a bye (no opponent): its code (tracker.vocabulary.BYE_POINTS)


class EventStanding(NamedTuple):
    """A player's line of ``event show``. ``score``: points in the event (forfeits count, as
    the crosstable's); the rated figures are the close's for the event's games (None where
    none counts: an external player, or a period that cannot be worked out yet)."""

    rank: int
    player_id: int
    name: str
    external: bool
    number: int  # the start number (:func:`start_numbers`)
    games: int  # forfeits included
    score: Decimal
    rating: int | None  # Ro: the rating the event is rated with (None: unrated)
    rated_games: int  # of the event's games, those rated or pooled for him
    expected: Decimal | None
    performance: int | None
    change: Decimal | None  # K x sum(score - expected) over the event's games, unrounded
    lists: tuple[dt.date, ...]  # the lists the event's change goes on
    cells: tuple[Cell, ...]
    tie_breaks: "TieBreaks"


class EventReport(NamedTuple):
    """``event show``: the event (its end: declared, else its last played game so far; its
    kind and rounds as declared, with ``progress``), when it is rated, its standings."""

    id: int
    name: str
    tc: TimeControl
    start: dt.date
    end: dt.date | None
    rated: RatedStatus
    live: bool  # some figures are what closing the open period now would give
    waits: tuple[dt.date, ...]  # periods not worked out yet (an earlier open one comes first)
    rounds: bool  # every game has a round and no player plays twice in one
    standings: tuple[EventStanding, ...]
    kind: str | None = None
    progress: rated_games.Progress | None = None

    @property
    def tie_break_names(self) -> tuple[str, ...]:
        """The tie-breaks that order its standings (:data:`TIE_BREAKS`)."""
        return tie_breaks_of(self.kind)


def show_event(
    db: Db,
    event: game_queries.EventRow,
    today: dt.date,
    months: Mapping[TimeControl, MonthDetails] | None = None,
) -> EventReport:
    """``event show``: standings, crosstable and each player's rated figures (``months``:
    each time control's periods worked out already, shared by many events' reports)."""
    games = queries.event_games(db, event.id)
    tc: TimeControl = games[0].tc if games else "standard"
    when = _When.of(db, event, tc, today)
    span, closed_list = when.span, when.closed_list
    byes = bye_queries.event_byes(db, event.id)
    ids = [p for g in games for p in (g.white_id, g.black_id)] + [b.player_id for b in byes]
    players = {p.id: p for p in players_by_ids(db, ids)}
    scores = _scores(games, byes, players)
    # the periods rating the event's games, and each tracked player's details in them
    periods = _periods(span, games)
    first_game = lists.first_game_month(db, tc)
    ready = [m for m in periods if computable(closed_list, first_game, m)]
    shared = months.get(tc) if months is not None else None
    details, on_lists = _details(db, tc, games, players, (ready, closed_list), shared)
    perf = {pid: _performance(d) for pid, d in details.items()}
    listed: dict[int, int | None] = {}
    if span is not None and not span.league:  # the list in force at its start
        ratings = (
            shared.ratings if shared is not None else lists.ListRatings(db, tc, players=players)
        )
        listed = ratings.on_list_of(span.start)
    breaks = _tie_breaks(games, scores)
    names = tie_breaks_of(when.declared.kind)

    def place(pid: int) -> tuple[Decimal, ...]:  # what decides a place: score, tie-breaks
        return (scores[pid], *(breaks[pid].value(n) for n in names))

    order = sorted(
        players,
        key=lambda pid: (*(-v for v in place(pid)), -(perf.get(pid) or 0), players[pid].name),
    )
    ranks = _ranks(order, place)
    # Ro: the rating each player is rated with in the event (None: unrated)
    ro = {pid: details[pid][0].own_rating if pid in details else listed.get(pid) for pid in players}
    numbers = start_numbers(
        {pid: (rating, players[pid].name) for pid, rating in _starting(ro, games, players).items()}
    )
    cells = _cells(games, byes, players, ranks, numbers)
    standings = [
        _standing(
            pid,
            players[pid],
            (ranks[pid], numbers[pid], scores[pid]),
            ro[pid],
            details.get(pid, []),
            perf.get(pid),
            tuple(on_lists.get(pid, ())),
            tuple(cells[pid]),
            breaks[pid],
        )
        for pid in order
    ]
    return EventReport(
        id=event.id,
        name=event.name,
        tc=tc,
        start=span.start if span is not None else event.start_date,
        end=when.end,
        rated=when.status,
        live=any(m not in when.closed for m in ready),
        waits=tuple(m for m in periods if m not in ready),
        rounds=_clean_rounds(games),
        standings=tuple(standings),
        kind=when.declared.kind,
        progress=when.so_far,
    )


class _When(NamedTuple):
    """When an event is rated: its span, its progress so far, its declaration, its last day
    (declared, else its last game), and the closed periods of its time control."""

    span: EventSpan | None
    so_far: rated_games.Progress
    declared: game_queries.EventRow
    end: dt.date | None
    status: RatedStatus
    closed_list: list[ClosedMonth]
    closed: dict[dt.date, bool]

    @classmethod
    def of(cls, db: Db, event: game_queries.EventRow, tc: TimeControl, today: dt.date) -> "_When":
        summary = next((s for s in queries.event_summaries(db, event.id) if s.tc == tc), None)
        closed_list = lists.closed_months(db, tc)
        closed = {m: stale for m, _, stale in closed_list}
        progress, spans = rated_games.progress_of(db, tc, [event.id])
        span = spans.get(event.id)
        last = summary.last if summary is not None else None
        so_far = progress.get(event.id) or rated_games.Progress(None, event.rounds, last)
        first = summary.first if summary is not None else None
        status = rated_status(span, first, closed, today, so_far)
        end = event.end_date or last
        return cls(span, so_far, event, end, status, closed_list, closed)


def _periods(span: EventSpan | None, games: list[GameRow]) -> list[dt.date]:
    """The periods rating the event's played games (none until it has ended)."""
    if span is None or not span.ended:
        return []
    return sorted({span.rated_in(g.played_on) for g in games if g.result not in FORFEITS})


def _scores(
    games: list[GameRow], byes: list[bye_queries.ByeRow], players: Mapping[int, object]
) -> dict[int, Decimal]:
    """Each player's points (a bye scores in the standings, as the event's rules give it)."""
    scores: dict[int, Decimal] = {pid: Decimal(0) for pid in players}
    for g in games:
        white, black = POINTS[g.result]
        scores[g.white_id] += white
        scores[g.black_id] += black
    for b in byes:
        scores[b.player_id] += BYE_POINTS[b.code]
    return scores


def _details(
    db: Db,
    tc: TimeControl,
    games: list[GameRow],
    players: Mapping[int, PlayerRow],
    periods: tuple[list[dt.date], list[ClosedMonth]],
    shared: MonthDetails | None,
) -> tuple[dict[int, list[DetailGame]], dict[int, list[dt.date]]]:
    """Each tracked player's rated figures of the event's games in the periods ready to be
    worked out (``periods``: those, and the closed ones), and the lists they went on."""
    ready, closed_list = periods
    ids = {g.id for g in games}
    details: dict[int, list[DetailGame]] = {}
    on_lists: dict[int, list[dt.date]] = {}
    tracked = [pid for pid, p in players.items() if not p.external]
    rows = [players[pid] for pid in sorted(tracked)] if shared is None else []  # by id
    for month in ready if tracked else []:
        if shared is not None:
            everyone = shared.month(month)
            found = {pid: everyone[pid] for pid in tracked if pid in everyone}
        else:
            found = month_details(db, tc, month, closed_list, rows)
        for pid, detail in found.items():
            mine = [d for d in detail.games if d.game_id in ids]
            if mine:
                details.setdefault(pid, []).extend(mine)
                on_lists.setdefault(pid, []).append(detail.list_date)
    return details, on_lists


def _ranks(order: list[int], place: Callable[[int], tuple[Decimal, ...]]) -> dict[int, int]:
    """Each player's place in ``order``: players with the same score and tie-breaks share
    one (the first of theirs)."""
    first: dict[tuple[Decimal, ...], int] = {}
    return {pid: first.setdefault(place(pid), i) for i, pid in enumerate(order, 1)}


def _starting(
    ro: dict[int, int | None],
    games: list[GameRow],
    players: Mapping[int, PlayerRow],
) -> dict[int, int | None]:
    """Each player's rating at the start: his Ro, an external player's the rating recorded
    on his first game."""
    starting = dict(ro)
    for g in reversed(games):
        for pid, recorded in ((g.white_id, g.white_rating), (g.black_id, g.black_rating)):
            if players[pid].external and recorded is not None:
                starting[pid] = recorded
    return starting


def _cells(
    games: list[GameRow],
    byes: list[bye_queries.ByeRow],
    players: Mapping[int, object],
    ranks: dict[int, int],
    numbers: dict[int, int],
) -> dict[int, list[Cell]]:
    """Each player's crosstable cells, round by round (games and byes)."""
    placed: dict[int, list[tuple[dt.date, tuple[int, ...], Cell]]] = {pid: [] for pid in players}
    for g in games:
        white, black = POINTS[g.result]
        forfeit = g.result in FORFEITS
        for pid, opp, colour, points in (
            (g.white_id, g.black_id, "w", white),
            (g.black_id, g.white_id, "b", black),
        ):
            cell = Cell(g.round, ranks[opp], opp, colour, _result(points, forfeit), numbers[opp])
            placed[pid].append((g.played_on, round_order(g.round), cell))
    for b in byes:
        cell = Cell(b.round, 0, 0, "", _result(BYE_POINTS[b.code], False), 0, b.code)
        placed[b.player_id].append((b.played_on, round_order(b.round), cell))
    return {pid: [c for *_, c in sorted(mine, key=lambda p: p[:2])] for pid, mine in placed.items()}


def _standing(
    pid: int,
    player: PlayerRow,
    place: tuple[int, int, Decimal],
    rating: int | None,
    mine: list[DetailGame],
    performance: int | None,
    on_lists: tuple[dt.date, ...],
    cells: tuple[Cell, ...],
    tie_breaks: "TieBreaks",
) -> EventStanding:
    """A player's line of the standings (``place``: his rank, start number and score), with
    his rated figures."""
    rank, number, score = place
    counted = [d for d in mine if d.status in ("rated", "pooled")]
    rated_ones = [d for d in mine if d.expected is not None]

    def total(values: list[Decimal | None]) -> Decimal | None:
        return sum((v or Decimal(0) for v in values), Decimal(0)) if rated_ones else None

    return EventStanding(
        rank=rank,
        player_id=pid,
        name=player.name,
        external=player.external,
        number=number,
        games=sum(1 for c in cells if c.bye is None),
        score=score,
        rating=rating,
        rated_games=len(counted),
        expected=total([d.expected for d in rated_ones]),
        performance=performance,
        change=total([d.change for d in rated_ones]),
        lists=on_lists,
        cells=cells,
        tie_breaks=tie_breaks,
    )


def start_numbers(players: Mapping[int, tuple[int | None, str]]) -> dict[int, int]:
    """Each player's start number (1, 2...), given his rating at the start (None: unrated)
    and name: the highest rated first, the unrated last, then by name (the initial order of
    a Swiss, FIDE C.04.2, without the titles it also sorts by)."""
    order = sorted(
        players,
        key=lambda pid: (players[pid][0] is None, -(players[pid][0] or 0), players[pid][1], pid),
    )
    return {pid: i for i, pid in enumerate(order, 1)}


def _result(points: Decimal, forfeit: bool) -> str:
    if forfeit:
        return "+" if points else "-"
    return "1" if points == 1 else "=" if points else "0"


def _clean_rounds(games: list[GameRow]) -> bool:
    """Whether every game has a round and no player plays twice in one round."""
    seen: set[tuple[str, int]] = set()
    for g in games:
        if g.round is None:
            return False
        for pid in (g.white_id, g.black_id):
            if (g.round, pid) in seen:
                return False
            seen.add((g.round, pid))
    return bool(games)


def _performance(games: list[DetailGame]) -> int | None:
    """The performance rating Ra + dp over every game of the event the player played
    against a rated opponent (FIDE Rating Regulations 2024 §8.1.1: a zero score is Ra - 800),
    each opponent rated as the close counts him: a newcomer's games too, whether they counted
    yet or not (held, or disregarded in a first event scoring zero)."""
    return performance_rating(
        [(d.opponent_rating, d.score) for d in games if d.opponent_rating is not None]
    )


class TieBreaks(NamedTuple):
    """A player's tie-breaks (FIDE Handbook C.07, without its cuts or virtual opponents):
    Buchholz, the scores of his opponents added; Sonneborn-Berger, each opponent's score
    times the points he made against him (a bye has no opponent: it adds nothing)."""

    buchholz: Decimal
    sonneborn_berger: Decimal

    def value(self, name: str) -> Decimal:
        """The tie-break called ``name`` (``BH`` or ``SB``)."""
        return self.buchholz if name == "BH" else self.sonneborn_berger


#: The tie-breaks that order each kind of event's standings after the score, in order (an
#: event of no declared kind: both): Buchholz for a Swiss, Sonneborn-Berger where everyone
#: meets everyone.
TIE_BREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("BH",),
    "round-robin": ("SB",),
    "league": ("SB",),
}


def tie_breaks_of(kind: str | None) -> tuple[str, ...]:
    return TIE_BREAKS.get(kind or "", ("BH", "SB"))


def _tie_breaks(games: list[GameRow], scores: dict[int, Decimal]) -> dict[int, TieBreaks]:
    """Each player's :class:`TieBreaks` from the event's games."""
    bh = {pid: Decimal(0) for pid in scores}
    sb = {pid: Decimal(0) for pid in scores}
    for g in games:
        white, black = POINTS[g.result]
        for pid, opp, points in ((g.white_id, g.black_id, white), (g.black_id, g.white_id, black)):
            bh[pid] += scores[opp]
            sb[pid] += scores[opp] * points
    return {pid: TieBreaks(bh[pid], sb[pid]) for pid in scores}
