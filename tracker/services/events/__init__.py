"""Events (``tracker event``): finding the one a user means, and giving FIDE's inputs for it.

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
import difflib
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import events as queries
from tracker.errors import AmbiguousError, InvalidInputError, NotFoundError
from tracker.months import month_label, month_of, next_month
from tracker.services import lists, log
from tracker.services.intake import event_key
from tracker.services.lists import rated_games
from tracker.services.lists.stale import mark_stale
from tracker.services.players.refs import find
from tracker.user_input import check_plausible_rating

#: §9.1: an event not reported in time for "the third rating list after it ends" is not
#: rated: the periods it may be rated in are the month it ends in and the two after.
LATEST_PERIODS = 3


def find_event(db: Db, name: str) -> queries.EventFacts:
    """The event named ``name`` (case and spacing do not count; an exact spelling picks one
    of two stored spellings)."""
    found = queries.events_named(db, event_key(name))
    exact = [f for f in found if f[1] == name]
    if len(found) > 1 and len(exact) == 1:
        found = exact
    if len(found) == 1:
        return queries.event_facts(db, found[0][0])
    if found:
        spelled = "; ".join(f"{spelling!r}" for _, spelling in found)
        raise AmbiguousError(f"{name!r} names {len(found)} events ({spelled}): spell it exactly")
    close = difflib.get_close_matches(name, queries.event_names(db), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    raise NotFoundError(f"no event {name!r}{hint}")


@dataclass(frozen=True)
class EventEdit:
    """What ``event edit`` did."""

    name: str
    changes: tuple[str, ...]  # one line per change made; empty: nothing differed
    stale: tuple[tuple[str, tuple[dt.date, ...]], ...]


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
    touched: dict[str, dt.date] = {}  # the first period each change touches, by tc

    def touch(on: dt.date) -> None:
        for tc, span in played.items():
            first = month_of(span.start) if span.league else on
            touched[tc] = min(touched.get(tc, first), first)

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
            queries.put_event_rating(db, event.id, player.id, rating)
            given[player.id] = rating
            changes.append(f"{player.name}: rated with {rating} in it")
            touch(_rated_period(played))
    for ref in cleared:
        player = find(db, ref)
        if queries.delete_event_rating(db, event.id, player.id):
            given.pop(player.id, None)
            changes.append(f"{player.name}: rated with the list's rating again")
            touch(_rated_period(played))
        else:
            raise InvalidInputError(f"no rating is given for {player.name} in {event.name}")
    for change in changes:
        log.note(db, "changed", f"event {event.name}: {change}", events=[event.id])
    stale = tuple(
        (tc, months) for tc, on in sorted(touched.items()) if (months := mark_stale(db, tc, on))
    )
    return EventEdit(event.name, tuple(changes), stale)


def rate_in(db: Db, event_id: int, month: dt.date) -> bool:
    """State the rating period of an event of an imported file (``import --rated-in``),
    checked as ``event edit --rated-in`` checks it; whether it changed (the import marks
    what goes stale)."""
    event = queries.event_facts(db, event_id)
    stated = _stated(event, _played(db, event), month)
    if stated == event.rated_in:
        return False
    queries.set_rated_in(db, event.id, stated)
    return True


def _played(db: Db, event: queries.EventFacts) -> dict[str, rated_games.EventSpan]:
    """The event's span in each time control it has played games in."""
    spans = {tc: rated_games.span_of(db, tc, event.id) for tc in event.tcs}
    return {tc: span for tc, span in spans.items() if span is not None}


def _rated_period(played: dict[str, rated_games.EventSpan]) -> dt.date:
    """The first period rating any game of the event (a league: its first month)."""
    months = [month_of(s.start) if s.league else s.rated_in(s.end) for s in played.values()]
    return min(months) if months else dt.date.max


def _stated(
    event: queries.EventFacts, played: dict[str, rated_games.EventSpan], month: dt.date
) -> dt.date | None:
    """The rating period to store for ``event`` when the user gives ``month``: None for the
    month it ends in; refused before it, and for a league."""
    for span in played.values():
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
    event: queries.EventFacts,
    played: dict[str, rated_games.EventSpan],
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


def _check_plays(
    db: Db, event: queries.EventFacts, player_id: int, name: str, external: bool
) -> None:
    if external:
        raise InvalidInputError(
            f"{name} is external: tracker does not rate them, so no rating is given for them"
        )
    if not queries.player_games_in(db, event.id, player_id):
        raise InvalidInputError(f"{name} plays no game in {event.name}")
