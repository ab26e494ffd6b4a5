"""A player's history: his line on every list he was on or played for, each system's
reading beside it, and what FIDE's inputs given for his events changed."""

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.db.queries import history as queries
from tracker.db.queries.lists import ClosedMonth
from tracker.db.queries.players import PlayerRow, earlier_lists_of
from tracker.errors import NotFoundError
from tracker.months import month_label, month_of, months_between, next_month, previous_month
from tracker.ratings.fide.events import EventSpan
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.periods import registry
from tracker.services.periods.standing import ListPlaces, Peak, Standing, peak
from tracker.services.players.refs import find
from tracker.services.shadow.config import get_config
from tracker.services.systems import Beside, Reading
from tracker.user_input import today
from tracker.vocabulary import TimeControl


class HistoryRow(NamedTuple):
    month: dt.date
    list_date: dt.date
    rating_before: int | None
    rating: int | None
    k: int | None
    games: int
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    stale: bool
    note: str | None
    glicko: float | None = None
    glicko_display: str | None = None
    rd: float | None = None
    volatility: float | None = None
    provisional: bool | None = None
    standing: Standing | None = None  # his place on the list (None: not rated on it)
    # every system's beside the official list (History.beside), the shadow's also above
    readings: tuple[Reading | None, ...] = ()


class History(NamedTuple):
    player_id: int
    name: str
    tc: TimeControl
    seed_rating: int | None
    seed_games: int | None
    rows: tuple[HistoryRow, ...]
    stale_months: tuple[dt.date, ...]
    external_rd: float = 60.0
    # Whether the rows count games against external opponents (the shadow gives them a fixed
    # RD), and the RD from which the preset marks a shadow rating provisional ('?').
    external_opponents: bool = False
    provisional_rd: float | None = None
    peak: Peak | None = None  # the highest published rating, and its first list
    beside: Beside = Beside()  # the systems beside the official list: each row's readings


def not_rated_here(player: PlayerRow) -> NotFoundError:
    """The error for asking an external player's ratings."""
    return NotFoundError(
        f"{player.name} is an external player: tracker does not rate them (each game "
        f"records their rating; see `tracker game list --player id:{player.id}`)"
    )


class Shared:
    """What every player's history of one time control reads alike (the closed months, the
    shadow's settings), read once for a page per player (``tracker site build``)."""

    def __init__(self, db: Db, tc: TimeControl) -> None:
        self.tc = tc
        self.closed = lists.closed_months(db, self.tc)
        self.config = get_config(db)
        self.beside = Beside.of(db, registry.beside())


def history(db: Db, ref: str, tc: TimeControl, shared: Shared | None = None) -> History:
    """One row per closed period the player played in or was listed on (``shared``: the
    reads of :class:`Shared`, when many players' histories are wanted)."""
    player = find(db, ref)
    if player.external:
        raise not_rated_here(player)
    shared = shared or Shared(db, tc)
    assert shared.tc == tc
    closed, config, beside = shared.closed, shared.config, shared.beside
    lines = lists.player_lines(db, tc, player.id, closed)
    standings = ListPlaces(db, tc, player.id)
    listed = [
        HistoryRow(
            month=month,
            list_date=next_month(month),
            rating_before=h.rating_before,
            rating=h.rating,
            k=h.k,
            games=h.games,
            score=lists.from_hundredths(h.score_c),
            expected=lists.from_hundredths(h.expected_c),
            change_exact=lists.from_hundredths(h.change_exact_c),
            change=h.change,
            stale=stale,
            note=h.note,
            standing=standings.place(month),
        )
        for month, stale, h in lines
        # every period they were listed on or played in (a note says why nothing counted)
        if h.games > 0 or h.rating is not None or h.note is not None
    ]
    rows = _with_fide_inputs(
        db,
        player.id,
        tc,
        _with_systems(
            db, player.id, _with_later(db, tc, player.id, listed, closed), tc, closed, beside
        ),
    )
    seed = lists.seeds(db, tc, only=[player.id]).get(player.id)
    until = rows[-1].list_date if rows else None
    return History(
        player_id=player.id,
        name=player.name,
        tc=tc,
        seed_rating=seed.rating if seed else None,
        seed_games=seed.games if seed else None,
        rows=rows,
        stale_months=tuple(m for m, _, stale in closed if stale),
        external_rd=config.external_rd,
        external_opponents=queries.plays_external(db, tc, until, player.id),
        provisional_rd=config.glicko_preset().provisional_rd,
        peak=peak(lines),
        beside=beside,
    )


def _with_fide_inputs(
    db: Db, player_id: int, tc: TimeControl, rows: tuple[HistoryRow, ...]
) -> tuple[HistoryRow, ...]:
    """Each row noted with FIDE's inputs given for the events it rates (``event edit``): an
    event rated after the month it ended in, the rating FIDE rated the player with in one."""
    noted = event_queries.noted_events(db, player_id)
    given = {e.list_date: e.rating for e in earlier_lists_of(db, player_id) if e.tc == tc}
    earlier = event_queries.events_started_in(db, player_id, tc, sorted(given))
    if not (noted or earlier) or not rows:
        return rows
    spans = rated_games.event_spans(
        db, tc, [e.event_id for e in noted] + [event_id for event_id, _ in earlier]
    )
    notes: dict[dt.date, list[str]] = {}
    closed = {m for m, _, _ in lists.closed_months(db, tc)}
    for event_id, name in earlier:  # rated with an earlier list given for the player
        span = spans.get(event_id)
        if span is None or span.league or previous_month(month_of(span.start)) in closed:
            continue  # tracker's own list rated it
        if not span.ended:
            continue  # not rated yet
        on = month_of(span.start)
        notes.setdefault(span.rated_in(span.end), []).append(
            f"{name} rated with the {month_label(on)} list ({given[on]})"
        )
    ratings = lists.ListRatings(db, tc)
    for event in noted:
        span = spans.get(event.event_id)
        if span is not None and span.ended:  # (else no game of this time control, or not
            _note_inputs(notes, event, span, ratings, player_id)  # rated yet)
    return tuple(
        row._replace(note="; ".join(filter(None, [row.note, *notes[row.month]])))
        if row.month in notes
        else row
        for row in rows
    )


def _note_inputs(
    notes: dict[dt.date, list[str]],
    event: event_queries.NotedEvent,
    span: EventSpan,
    ratings: lists.ListRatings,
    player_id: int,
) -> None:
    """The notes of an event rated with FIDE's inputs given for it: rated after the month it
    ended in, or with a given Ro (each month that rates it)."""
    months = (
        months_between(month_of(span.start), month_of(span.end))
        if span.league
        else [span.rated_in(span.end)]
    )
    if event.rated_in is not None and not span.league and event.rated_in == months[0]:
        notes.setdefault(months[0], []).append(
            f"{event.name} ended {span.end.isoformat()}, rated in {month_label(months[0])}"
        )
    if event.ro is not None:
        listed = ratings.on_list_of(span.start).get(player_id)
        shown = "unrated" if listed is None else str(listed)
        for month in months:
            notes.setdefault(month, []).append(f"Ro {event.ro} in {event.name} (list: {shown})")


def _with_later(
    db: Db, tc: TimeControl, player_id: int, rows: list[HistoryRow], closed: list[ClosedMonth]
) -> tuple[HistoryRow, ...]:
    """``rows`` and a row for every closed month the player played in whose games a later
    period rates with their event (he may be on no list yet: nothing counted there), each
    such month's note saying where its games went."""
    if not closed:
        return tuple(rows)
    later = rated_games.later_by_event(db, tc, player_id, next_month(closed[-1].month), today())
    if not later:
        return tuple(rows)
    by_month = {row.month: row for row in rows}
    done = {m for m, _, _ in closed}
    for month, _, stale in closed:
        waiting = later.get(month)
        if waiting is None:
            continue
        rated: dict[dt.date, int] = {}
        held: list[str] = []
        for w in waiting:
            if w.period in done or not (w.stated or w.running):
                rated[w.period] = rated.get(w.period, 0) + w.games
            elif w.stated:
                held.append(
                    f"{w.games} game(s) of {w.name} rated in {month_label(w.period)} as stated"
                )
            else:
                held.append(f"{w.games} game(s) of {w.name} wait for it to end ({w.why})")
        note = "; ".join(
            [
                *(
                    f"{n} game(s) rated with their event in {month_label(period)}"
                    for period, n in sorted(rated.items())
                ),
                *held,
            ]
        )
        row = by_month.get(month)
        if row is None:
            zero = Decimal(0)
            row = HistoryRow(
                month, next_month(month), None, None, None, 0, zero, zero, zero, 0, stale, None
            )
        by_month[month] = row._replace(note=note if row.note is None else f"{row.note}; {note}")
    return tuple(by_month[m] for m in sorted(by_month))


def _with_systems(
    db: Db,
    player_id: int,
    rows: tuple[HistoryRow, ...],
    tc: TimeControl,
    closed: list[ClosedMonth],
    beside: Beside,
) -> tuple[HistoryRow, ...]:
    """Each row with every system's reading at its list date beside the Elo, the shadow's
    also as the row's own fields."""
    months = [m for m, _, _ in closed]
    read = [system.of_player(db, tc, player_id, months) for system in beside.systems]
    names = [system.name for system in beside.systems]
    out = []
    for row in rows:
        readings = tuple(by_month.get(row.month) for by_month in read)
        shadow = dict(zip(names, readings, strict=True)).get("shadow") or Reading(None)
        row = row._replace(
            readings=readings,
            glicko=shadow.rating,
            glicko_display=shadow.shown,
            rd=shadow.rd,
            volatility=shadow.volatility,
            provisional=shadow.provisional,
        )
        out.append(row)
    return tuple(out)
