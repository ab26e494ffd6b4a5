"""Games and the events they belong to."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import Select, func, or_, select
from sqlalchemy.orm import Session, aliased

from tracker.db.models import Event, Game, Player, RatingPeriod
from tracker.errors import ConflictError, InvalidInputError, NotFoundError
from tracker.months import month_label, month_of, next_month
from tracker.ratings import fide
from tracker.services import rated_games
from tracker.services.players import resolve
from tracker.services.stale import mark_stale
from tracker.user_input import check_plausible_rating, check_tc, parse_result
from tracker.vocabulary import FORFEITS


@dataclass(frozen=True)
class GameView:
    id: int
    played_on: dt.date
    white: str
    white_id: int
    black: str
    black_id: int
    result: str
    tc: str
    event: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    stale: tuple[dt.date, ...] = ()  # closed periods the change made stale

    @property
    def rated(self) -> bool:
        """Forfeits are stored but never rated."""
        return self.result not in FORFEITS


@dataclass(frozen=True)
class DateBounds:
    """The dates a game may plausibly have: not after ``today``, and not more than a year
    before the month the database's records start (its first rating period, else its first
    game; a database without games takes any past date). A date outside them is most often a
    mistyped year, which would otherwise make closing create a rating period for every month
    in between.

    For every game entered by hand (``game add``/``edit``/``add-round`` refuse such a date
    unless told ``--yes``); an importer checks each record's date with :meth:`problem`."""

    today: dt.date
    start: dt.date | None

    @classmethod
    def of(cls, session: Session, today: dt.date) -> DateBounds:
        first = session.scalar(select(func.min(RatingPeriod.month)))
        if first is None:
            first = session.scalar(select(func.min(Game.played_on)))
        return cls(today, month_of(first) if first is not None else None)

    @property
    def earliest(self) -> dt.date | None:
        """The first day accepted without confirmation (None: any past day, in a database
        without games yet)."""
        if self.start is None:
            return None
        return dt.date(self.start.year - 1, self.start.month, 1)

    def problem(self, played_on: dt.date) -> str | None:
        """Why ``played_on`` is implausible, or None."""
        if played_on > self.today:
            return f"the date {played_on} is in the future (today is {self.today})"
        if self.start is not None and self.earliest is not None and played_on < self.earliest:
            return (
                f"the date {played_on} is more than a year before this database's records "
                f"start ({month_label(self.start)})"
            )
        return None

    def check(self, played_on: dt.date, *, yes: bool) -> None:
        """Refuse an implausible date unless ``yes``."""
        reason = None if yes else self.problem(played_on)
        if reason is not None:
            raise InvalidInputError(f"{reason}: check the year, or give --yes if it is right")


def natural_key(
    played_on: dt.date, white_id: int, black_id: int, event_id: int | None, round_: str | None
) -> str:
    """Same date, same players (as coloured), same event and round: the same game."""
    return f"{played_on.isoformat()}|{white_id}|{black_id}|{event_id or ''}|{round_ or ''}"


def _view(game: Game) -> GameView:
    return GameView(
        id=game.id,
        played_on=game.played_on,
        white=game.white.name,
        white_id=game.white_id,
        black=game.black.name,
        black_id=game.black_id,
        result=game.result,
        tc=game.tc,
        event=game.event.name if game.event else None,
        round=game.round,
        white_rating=game.white_rating,
        black_rating=game.black_rating,
    )


def clean_round(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text or text in ("?", "-"):
        return None
    if len(text) > 16:
        raise InvalidInputError(f"round {value!r} is longer than 16 characters")
    return text


def get_or_create_event(
    session: Session, name: str, played_on: dt.date, start: dt.date | None = None
) -> Event:
    """The event of that name, created on first use; its start date follows the earliest game
    unless it was given."""
    clean = " ".join(name.split())
    if not clean:
        raise InvalidInputError("an event needs a name")
    if len(clean) > 200:
        raise InvalidInputError("an event name is limited to 200 characters")
    event = session.scalar(select(Event).where(Event.name == clean))
    if event is None:
        event = Event(name=clean, start_date=start or played_on, start_fixed=start is not None)
        session.add(event)
        session.flush()
    elif start is not None and start != event.start_date:
        if event.start_fixed:
            raise ConflictError(
                f"event {clean!r} already starts on {event.start_date}; it cannot also start "
                f"on {start}"
            )
        event.start_date = start
        event.start_fixed = True
    if played_on < event.start_date:
        if event.start_fixed:
            raise InvalidInputError(
                f"the game's date {played_on} is before {clean!r} starts ({event.start_date})"
            )
        event.start_date = played_on
    return event


def _prepare(
    session: Session,
    *,
    white: str,
    black: str,
    result: str,
    played_on: dt.date,
    tc: str,
    event: str | None,
    event_start: dt.date | None,
    round_: str | None,
    white_rating: int | None,
    black_rating: int | None,
    game_id: int | None = None,
) -> dict[str, Any]:
    """Check everything that can be wrong with a game; its columns."""
    canonical = parse_result(result)
    tc = check_tc(tc)
    round_ = clean_round(round_)
    for value, side in ((white_rating, "white"), (black_rating, "black")):
        if value is not None:
            check_plausible_rating(value, f"{side}'s recorded rating")
    white_player = resolve(session, white)
    black_player = resolve(session, black)
    if white_player.id == black_player.id:
        raise InvalidInputError(f"{white_player.name} cannot play themselves")
    for player, rating, flag in (
        (white_player, white_rating, "--white-rating"),
        (black_player, black_rating, "--black-rating"),
    ):
        if player.external and rating is None:
            raise InvalidInputError(
                f"{player.name} is an external player: give their rating with {flag}"
            )
    if event_start is not None and event is None:
        raise InvalidInputError("--event-start needs --event")
    event_row = None
    if event:
        event_row = get_or_create_event(session, event, played_on, event_start)
    key = natural_key(
        played_on, white_player.id, black_player.id, event_row.id if event_row else None, round_
    )
    existing = session.scalar(select(Game.id).where(Game.natural_key == key))
    if existing is not None and existing != game_id:
        raise ConflictError(
            f"this game is already recorded as game {existing} (same date, players, event "
            "and round); give a --round to tell two games apart"
        )
    fields = {
        "white": white_player,
        "black": black_player,
        "result": canonical,
        "played_on": played_on,
        "tc": tc,
        "event": event_row,
        "round": round_,
        "white_rating": white_rating,
        "black_rating": black_rating,
        "natural_key": key,
    }
    return fields


def add_game(
    session: Session,
    *,
    white: str,
    black: str,
    result: str,
    played_on: dt.date,
    tc: str = "standard",
    event: str | None = None,
    event_start: dt.date | None = None,
    round_: str | None = None,
    white_rating: int | None = None,
    black_rating: int | None = None,
    today: dt.date | None = None,
    yes: bool = False,
) -> GameView:
    """Record one game after checking everything that can be wrong with it. Given ``today``,
    an implausible date (:class:`DateBounds`) is refused unless ``yes``."""
    if today is not None:
        DateBounds.of(session, today).check(played_on, yes=yes)
    before = _span_before(session, tc, event)
    fields = _prepare(
        session,
        white=white,
        black=black,
        result=result,
        played_on=played_on,
        tc=tc,
        event=event,
        event_start=event_start,
        round_=round_,
        white_rating=white_rating,
        black_rating=black_rating,
    )
    game = Game(**fields)
    session.add(game)
    session.flush()
    stale = _mark(session, fields["tc"], game.event_id, played_on, before)
    return replace(_view(game), stale=stale)


UNCHANGED: Any = object()


def edit_game(
    session: Session,
    game_id: int,
    *,
    white: str | None = None,
    black: str | None = None,
    result: str | None = None,
    played_on: dt.date | None = None,
    tc: str | None = None,
    event: str | None = UNCHANGED,
    round_: str | None = UNCHANGED,
    white_rating: int | None = UNCHANGED,
    black_rating: int | None = UNCHANGED,
    today: dt.date | None = None,
    yes: bool = False,
) -> tuple[GameView, bool]:
    """Correct a game in place (same id); the periods rating it, before and after, go stale.
    Returns the game and whether anything changed: a correction that changes nothing
    leaves every period as it was.

    ``event``, ``round_`` and the ratings left at ``UNCHANGED`` keep their values; None
    clears them. Given ``today``, a new date that is implausible (:class:`DateBounds`) is
    refused unless ``yes``."""
    game = get_game(session, game_id)
    if today is not None and played_on is not None and played_on != game.played_on:
        DateBounds.of(session, today).check(played_on, yes=yes)
    old_tc, old_event, old_day = game.tc, game.event, game.played_on
    old_before = rated_games.span_of(session, old_tc, game.event_id)
    new_event = (old_event.name if old_event else None) if event is UNCHANGED else event
    new_tc = tc if tc is not None else game.tc
    new_before = _span_before(session, new_tc, new_event)
    fields = _prepare(
        session,
        white=white if white is not None else f"#{game.white_id}",
        black=black if black is not None else f"#{game.black_id}",
        result=result if result is not None else game.result,
        played_on=played_on if played_on is not None else game.played_on,
        tc=tc if tc is not None else game.tc,
        event=new_event,
        event_start=None,
        round_=game.round if round_ is UNCHANGED else round_,
        white_rating=game.white_rating if white_rating is UNCHANGED else white_rating,
        black_rating=game.black_rating if black_rating is UNCHANGED else black_rating,
        game_id=game.id,
    )
    if all(getattr(game, name) == value for name, value in fields.items()):
        return _view(game), False
    for name, value in fields.items():
        setattr(game, name, value)
    session.flush()
    if old_event is not None and not old_event.start_fixed:
        _follow_earliest_game(session, old_event)
    session.flush()
    stale = _mark(session, old_tc, old_event.id if old_event else None, old_day, old_before)
    stale += _mark(session, fields["tc"], game.event_id, game.played_on, new_before)
    return replace(_view(game), stale=tuple(sorted(set(stale)))), True


def _span_before(session: Session, tc: str, event: str | None) -> rated_games.EventSpan | None:
    """The span of the named event in ``tc`` before a change (None: no such event yet)."""
    if not event:
        return None
    event_id = session.scalar(select(Event.id).where(Event.name == " ".join(event.split())))
    return rated_games.span_of(session, tc, event_id)


def _mark(
    session: Session,
    tc: str,
    event_id: int | None,
    day: dt.date,
    before: rated_games.EventSpan | None,
) -> tuple[dt.date, ...]:
    """Mark stale what a change of a game on ``day`` can change: the period in which its
    event is rated, before and after the change (tracker.ratings.fide.changed_period)."""
    after = rated_games.span_of(session, tc, event_id)
    return mark_stale(session, tc, fide.changed_period(before, after, day))


def _follow_earliest_game(session: Session, event: Event) -> None:
    earliest = session.scalar(select(func.min(Game.played_on)).where(Game.event_id == event.id))
    if earliest is not None:
        event.start_date = earliest


Q = TypeVar("Q", bound="Select[*tuple[Any, ...]]")


def filter_games(
    session: Session,
    query: Q,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    event: str | None = None,
    tc: str | None = None,
) -> Q:
    """Restrict a query over ``games`` to a player, a month, an event and a time control."""
    if player is not None:
        pid = resolve(session, player).id
        query = query.where(or_(Game.white_id == pid, Game.black_id == pid))
    if month is not None:
        query = query.where(Game.played_on >= month, Game.played_on < next_month(month))
    if event is not None:
        event_id = session.scalar(select(Event.id).where(Event.name == " ".join(event.split())))
        if event_id is None:
            raise NotFoundError(f"no event named {event!r}")
        query = query.where(Game.event_id == event_id)
    if tc is not None:
        query = query.where(Game.tc == check_tc(tc))
    return query


def list_games(
    session: Session,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    event: str | None = None,
    tc: str | None = None,
) -> tuple[GameView, ...]:
    white, black = aliased(Player), aliased(Player)
    query = (
        select(Game, white.name, black.name, Event.name)
        .join(white, Game.white_id == white.id)
        .join(black, Game.black_id == black.id)
        .outerjoin(Event, Game.event_id == Event.id)
        .order_by(Game.played_on, Game.id)
    )
    query = filter_games(session, query, player=player, month=month, event=event, tc=tc)
    return tuple(
        GameView(
            id=g.id,
            played_on=g.played_on,
            white=wname,
            white_id=g.white_id,
            black=bname,
            black_id=g.black_id,
            result=g.result,
            tc=g.tc,
            event=ename,
            round=g.round,
            white_rating=g.white_rating,
            black_rating=g.black_rating,
        )
        for g, wname, bname, ename in session.execute(query)
    )


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError(f"no game {game_id}")
    return game


def remove_game(session: Session, game_id: int) -> GameView:
    """Delete a game; an event's derived start date follows its remaining games."""
    game = get_game(session, game_id)
    removed = _view(game)
    event = game.event
    before = rated_games.span_of(session, removed.tc, game.event_id)
    session.delete(game)
    session.flush()
    if event is not None and not event.start_fixed:
        _follow_earliest_game(session, event)
        session.flush()
    stale = _mark(session, removed.tc, event.id if event else None, removed.played_on, before)
    return replace(removed, stale=stale)
