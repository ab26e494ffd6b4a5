"""Giving FIDE's inputs for an event (``event edit``), and merging two spellings of one event
(``event merge``).

An event exists as the name its games share. Two of FIDE's inputs belong to an event:

- the rating period it is rated in, when FIDE rated it after the month it ended in (an
  event ending after the list's closing date, FIDE Rating Regulations 2024 §7.1.3: "The
  closing date for tournaments for a list is 3 days before the date of the list;
  tournaments ending before or on that day may be rated on the list", or one reported late,
  §9.1). It is at most two periods after the month it ends in (§9.1: an event not reported
  in time for the third list after it ends is not rated). It is never
  earlier than the month the event ends in; a league (rated month by month) has none;
- the rating Ro FIDE rated a player with in it, where FIDE's calculation shows another
  rating than his list rating (a corrected rating): his Ro, and his rating as the others'
  opponent in the event.

Either change marks the periods it touches stale, as a corrected game does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import byes as bye_queries
from tracker.db.queries import events as queries
from tracker.db.queries import games as game_queries
from tracker.db.queries.games import EventRow
from tracker.db.queries.players import players_by_ids
from tracker.errors import ConflictError, InvalidInputError
from tracker.months import month_label, month_of, next_month
from tracker.ratings.fide.events import EventSpan
from tracker.services import lists, log
from tracker.services.events.declare import Declaration, declare
from tracker.services.events.lookup import find_event
from tracker.services.intake import clean_event_name, natural_key
from tracker.services.lists import rated_games
from tracker.services.lists.stale import mark_stale
from tracker.services.players.refs import find
from tracker.user_input import check_plausible_rating
from tracker.vocabulary import TimeControl, event_key

#: §9.1: an event not reported in time for "the third rating list after it ends" is not
#: rated: the periods it may be rated in are the month it ends in and the two after.
LATEST_PERIODS = 3


@dataclass(frozen=True)
class EventEdit:
    """What ``event edit`` did."""

    name: str
    changes: tuple[str, ...]  # one line per change made; empty: nothing differed
    stale: tuple[tuple[TimeControl, tuple[dt.date, ...]], ...]


def edit_event(
    db: Db,
    name: str,
    *,
    rated_in: dt.date | None = None,
    ratings: tuple[tuple[str, int], ...] = (),
    cleared: tuple[str, ...] = (),
) -> EventEdit:
    """Give the event's rating period (``rated_in``; the month it ends in clears a stated
    one) and the ratings FIDE rated players with in it (``ratings``: player reference and
    rating; ``cleared``: players whose given rating goes)."""
    event = find_event(db, name)
    played = _played(db, event)
    changes: list[str] = []
    touched: dict[TimeControl, dt.date] = {}  # the first period each change touches, by tc

    def touch(on: dt.date) -> None:
        for tc, span in played.items():
            earliest(touched, tc, month_of(span.start) if span.league else on)

    if rated_in is not None:
        stated = _stated(event, played, rated_in)
        if stated != event.rated_in:
            queries.set_rated_in(db, event.id, stated)
            for tc, span in played.items():  # from the earlier of the two periods
                touched[tc] = min(
                    span.rated_in(span.end), span._replace(stated=stated).rated_in(span.end)
                )
            changes.append(
                f"rated in {month_label(rated_in)}"
                + ("" if stated is not None else " (the month it ends in)")
            )
    given = queries.event_ratings_of(db, event.id)
    for ref, rating in ratings:
        player = find(db, ref)
        _check_plays(db, event, player.id, player.name, player.external)
        check_plausible_rating(rating, "rating")
        _check_rated(db, event, played, player.id, player.name)
        if given.get(player.id) != rating:
            queries.put_event_rating(db, queries.EventRatingRow(event.id, player.id, rating))
            given[player.id] = rating
            changes.append(f"{player.name}: rated with {rating} in it")
            touch(_first_touched(played.values()) or dt.date.max)
    for ref in cleared:
        player = find(db, ref)
        if queries.delete_event_rating(db, event.id, player.id):
            given.pop(player.id, None)
            changes.append(f"{player.name}: rated with the list's rating again")
            touch(_first_touched(played.values()) or dt.date.max)
        else:
            raise InvalidInputError(f"no rating is given for {player.name} in {event.name}")
    for change in changes:
        log.note(db, "changed", f"event {event.name}: {change}", events=[event.id])
    return EventEdit(event.name, tuple(changes), _stale_from(db, touched))


def rate_in(db: Db, event_id: int, month: dt.date) -> bool:
    """State the rating period of an event of an imported file (``import --rated-in``),
    checked as ``event edit --rated-in`` checks it; whether it changed (the import marks
    what goes stale)."""
    event = game_queries.event_by_id(db, event_id)
    assert event is not None
    stated = _stated(event, _played(db, event), month)
    if stated == event.rated_in:
        return False
    queries.set_rated_in(db, event.id, stated)
    return True


def _played(db: Db, event: EventRow) -> dict[TimeControl, EventSpan]:
    """The event's span in each time control it has played games in."""
    spans = {tc: rated_games.span_of(db, tc, event.id) for tc in queries.event_tcs(db, event.id)}
    return {tc: span for tc, span in spans.items() if span is not None}


def _stated(
    event: EventRow, played: dict[TimeControl, EventSpan], month: dt.date
) -> dt.date | None:
    """The rating period to store for ``event`` when the user gives ``month``: None for the
    month it ends in; refused before it, and for a league."""
    for span in played.values():
        if not span.ended:
            raise InvalidInputError(
                f"{event.name} has not ended (its last round is still to be played): its "
                "rating period can be given once it has"
            )
        if span.league:
            days = (span.end - span.start).days + 1
            raise InvalidInputError(
                f"{event.name} lasts {days} days (a league): it is rated month by month, "
                "each month's games in their own period"
            )
        ends = month_of(span.end)
        if month < ends:
            raise InvalidInputError(
                f"{event.name} ends on {span.end.isoformat()}: it cannot be rated before "
                f"{month_label(ends)}"
            )
        last = ends
        for _ in range(LATEST_PERIODS - 1):
            last = next_month(last)
        if month > last:
            raise InvalidInputError(
                f"{event.name} ends on {span.end.isoformat()}: FIDE rates it by the period "
                f"{month_label(last)} or not at all (§9.1: the third list after it ends)"
            )
    if not played:
        return month
    return None if all(month == month_of(s.end) for s in played.values()) else month


def _check_rated(
    db: Db,
    event: EventRow,
    played: dict[TimeControl, EventSpan],
    player_id: int,
    name: str,
) -> None:
    """A corrected Ro is a rated player's, in an event rated whole (a league's months are
    each rated with their month's list)."""
    for tc, span in played.items():
        if span.league:
            raise InvalidInputError(
                f"{event.name} lasts {(span.end - span.start).days + 1} days (a league): each "
                "month is rated with that month's list, so one Ro cannot be given for it"
            )
        listed = lists.ListRatings(db, tc).on_list_of(span.start).get(player_id)
        if listed is None:
            raise InvalidInputError(
                f"{name} is unrated on the {tc} list in force when {event.name} started "
                f"({month_label(month_of(span.start))}): a Ro is a rated player's"
            )


def _check_plays(db: Db, event: EventRow, player_id: int, name: str, external: bool) -> None:
    if external:
        raise InvalidInputError(
            f"{name} is external: tracker does not rate them, so no rating is given for them"
        )
    if not queries.player_games_in(db, event.id, player_id):
        raise InvalidInputError(f"{name} plays no game in {event.name}")


def _first_touched(
    spans: Iterable[EventSpan | None], played: Iterable[dt.date] = ()
) -> dt.date | None:
    """The first period any of ``spans`` (an event before and after a change) rates: a
    league's first month, else the period it is rated in; or the month of its first game
    (``played``: the days of the games the change moves), if earlier (the shadow rates every
    game in its own month)."""
    months = [month_of(s.start) if s.league else s.rated_in(s.end) for s in spans if s is not None]
    return min([*months, *map(month_of, played)], default=None)


def earliest(marks: dict[TimeControl, dt.date], tc: TimeControl, on: dt.date | None) -> None:
    """Keep in ``marks`` the first period a change touches in ``tc`` (``on``: one it
    touches; None: none)."""
    if on is not None:
        marks[tc] = min(marks.get(tc, on), on)


def _stale_from(
    db: Db, marks: dict[TimeControl, dt.date]
) -> tuple[tuple[TimeControl, tuple[dt.date, ...]], ...]:
    return tuple(
        (tc, months) for tc, on in sorted(marks.items()) if (months := mark_stale(db, tc, on))
    )


def edit_event_facts(
    db: Db,
    name: str,
    *,
    new_name: str | None = None,
    declaration: Declaration = Declaration(),
) -> EventEdit:
    """Rename an event (refused if another has that name, case and spacing aside) and declare
    what is known of it (:mod:`tracker.services.events.declare`: its dates, rounds, kind,
    site; a time control puts all its games in it). A change of when it is rated, or of
    its games' time control, marks stale the periods it touches, as a game edit does."""
    event = find_event(db, name)
    changes: list[str] = []
    marks: dict[TimeControl, dt.date] = {}
    if new_name is not None:
        clean = clean_event_name(new_name)
        others = [e for e in game_queries.events_with_key(db, event_key(clean)) if e.id != event.id]
        if others:
            taken = others[0].name
            raise ConflictError(
                f"there is already an event {taken!r}: to make the two one, "
                f"`tracker event merge {taken!r} {event.name!r}`"
            )
        if clean != event.name:
            queries.rename_event(db, event.id, clean, event_key(clean))
            changes.append(f"renamed {event.name!r} to {clean!r}")
            log.note(db, "changed", f"event {clean}: {changes[-1]}", events=[event.id])
            event = event._replace(name=clean)
    declaration = declaration.checked()
    tcs = queries.event_tcs(db, event.id)
    if declaration.tc is not None and tcs and tcs != (declaration.tc,):
        wanted = declaration.tc
        games = queries.event_games(db, event.id)
        for t in tcs:
            played = [g.played_on for g in games if g.tc == t]
            if played:
                earliest(marks, t, _first_touched([rated_games.span_of(db, t, event.id)], played))
        queries.set_event_games_tc(db, event.id, wanted)
        now = rated_games.span_of(db, wanted, event.id)  # the same games, all of ``wanted``
        earliest(marks, wanted, _first_touched([now], [g.played_on for g in games]))
        changes.append(f"its games are {wanted}")
        log.note(db, "changed", f"event {event.name}: {changes[-1]}", events=[event.id])
        tcs = (wanted,)
    if declaration:
        before = {t: rated_games.span_of(db, t, event.id) for t in tcs}
        _, declared = declare(db, event, declaration)
        moved = (
            f"is {declaration.tc}" if any(c.startswith("its games are") for c in changes) else ""
        )
        changes += [c for c in declared if c != moved]
        for t, span in before.items():
            after = rated_games.span_of(db, t, event.id)
            if after != span:
                earliest(marks, t, _first_touched([span, after]))
    return EventEdit(event.name, tuple(changes), _stale_from(db, marks))


@dataclass(frozen=True)
class EventMerge:
    """What ``event merge`` did: the event kept, the one merged into it, the games moved
    (their ids kept) and the periods now stale."""

    name: str
    merged: str
    games: tuple[int, ...]
    stale: tuple[tuple[TimeControl, tuple[dt.date, ...]], ...]


def merge_events(db: Db, keep: str, other: str) -> EventMerge:
    """Make two spellings of one event one: ``other``'s games move to ``keep`` (same ids) and
    ``other`` goes. Refused, with one line per problem, where a game would become a
    duplicate of one of ``keep`` (same date, players and round), where the two are in
    different time controls, or where FIDE's inputs given for them differ."""
    target = find_event(db, keep)
    source = find_event(db, other)
    if target.id == source.id:
        raise InvalidInputError(f"{keep!r} and {other!r} name the same event ({target.name})")
    moving = queries.event_games(db, source.id)
    keys = {
        g.id: natural_key(g.played_on, g.white_id, g.black_id, target.id, g.round)
        + _suffix(g.natural_key)
        for g in moving
    }
    problems = [
        *_facts_differ(db, target, source),
        *_games_clash(db, target, moving, keys),
        *_starts_clash(target, source, moving),
        *_byes_clash(db, target, source),
    ]
    if problems:
        raise ConflictError(
            f"cannot merge {source.name!r} into {target.name!r}: "
            + (problems[0] if len(problems) == 1 else f"{len(problems)} problems (above)"),
            problems if len(problems) > 1 else (),
        )
    source_tcs = queries.event_tcs(db, source.id)
    before = {
        t: rated_games.span_of(db, t, target.id)
        for t in source_tcs or queries.event_tcs(db, target.id)
    }
    before_source = {t: rated_games.span_of(db, t, source.id) for t in source_tcs}
    for g in moving:
        queries.move_game(db, g.id, target.id, keys[g.id])
    queries.move_byes(db, source.id, target.id)
    given = queries.event_ratings_of(db, target.id)
    for pid, rating in queries.event_ratings_of(db, source.id).items():
        if pid not in given:
            queries.put_event_rating(db, queries.EventRatingRow(target.id, pid, rating))
    if source.start_date < target.start_date:
        queries.fix_event_start(db, target.id, source.start_date, source.start_fixed)
    queries.delete_event(db, source.id)
    marks: dict[TimeControl, dt.date] = {}
    for t in before:
        spans = [before[t], before_source.get(t), rated_games.span_of(db, t, target.id)]
        earliest(marks, t, _first_touched(spans, [g.played_on for g in moving if g.tc == t]))
    log.note(
        db,
        "changed",
        f"event {target.name}: merged {source.name!r} into it ({len(moving)} games moved)",
        events=[target.id, source.id],
    )
    return EventMerge(target.name, source.name, tuple(g.id for g in moving), _stale_from(db, marks))


def _facts_differ(db: Db, target: EventRow, source: EventRow) -> list[str]:
    """What two events to merge say differently: their time controls, the month they are
    stated to be rated in, a player's Ro."""
    problems = []
    tcs, source_tcs = queries.event_tcs(db, target.id), queries.event_tcs(db, source.id)
    if tcs and source_tcs and tcs != source_tcs:
        problems.append(
            f"{source.name} is {'/'.join(source_tcs)} and {target.name} "
            f"{'/'.join(tcs)}: give both one time control first (`event edit --tc`)"
        )
    if source.rated_in is not None and source.rated_in != target.rated_in:
        problems.append(
            f"{source.name} is stated to be rated in {month_label(source.rated_in)} and "
            f"{target.name} is not: give {target.name} --rated-in first"
        )
    given = queries.event_ratings_of(db, target.id)
    for pid, rating in queries.event_ratings_of(db, source.id).items():
        if given.get(pid, rating) != rating:
            problems.append(
                f"player #{pid} has Ro {rating} in {source.name}, {given[pid]} in {target.name}"
            )
    return problems


def _games_clash(
    db: Db, target: EventRow, moving: list[game_queries.GameRow], keys: dict[int, str]
) -> list[str]:
    """The games that would be games of ``target`` again once moved (same key)."""
    taken = queries.games_with_keys(db, list(keys.values()))
    ids = [p for g in moving for p in (g.white_id, g.black_id)]
    names = {p.id: p for p in players_by_ids(db, ids)}
    problems = []
    for g in moving:
        clash = taken.get(keys[g.id])
        if clash is not None:
            round_ = f" round {g.round}" if g.round else ""
            problems.append(
                f"game {g.id} ({g.played_on.isoformat()} {names[g.white_id].name} - "
                f"{names[g.black_id].name}{round_}) is game {clash} of {target.name}: remove "
                f"one (`tracker game remove {g.id}`) or give it another --round"
            )
    return problems


def _starts_clash(
    target: EventRow, source: EventRow, moving: list[game_queries.GameRow]
) -> list[str]:
    """A game that would come before the declared start of ``target``."""
    if target.start_date <= source.start_date or not target.start_fixed:
        return []
    first = min((g.played_on for g in moving), default=source.start_date)
    if first >= target.start_date:
        return []
    return [
        f"{target.name} starts on {target.start_date.isoformat()} and {source.name} "
        f"has a game on {first.isoformat()}"
    ]


def _byes_clash(db: Db, target: EventRow, source: EventRow) -> list[str]:
    """A player with a bye in the same round of both."""
    kept = {(b.player_id, b.round) for b in bye_queries.event_byes(db, target.id)}
    return [
        f"player #{b.player_id} has a bye in round {b.round} of both: remove one "
        f"(`tracker game remove-bye id:{b.player_id} --event {source.name!r} --round "
        f"{b.round}`)"
        for b in bye_queries.event_byes(db, source.id)
        if (b.player_id, b.round) in kept
    ]


def _suffix(key: str) -> str:
    """The ``|#n`` a natural key carries for the n-th game of one key (a double round)."""
    _head, sep, n = key.rpartition("|#")
    return f"|#{n}" if sep and n.isdigit() else ""
