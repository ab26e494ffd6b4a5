"""Games and the events they belong to."""

import datetime as dt
import json
from typing import Any, NamedTuple, TypeVar, cast

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.db.queries import games as queries
from tracker.db.queries import log as log_queries
from tracker.db.queries import players as player_queries
from tracker.db.queries.games import EventRow, GameFields, GameFilter, GameRow
from tracker.errors import ConflictError, InvalidInputError, NotFoundError
from tracker.months import next_month
from tracker.ratings.fide.events import EventSpan
from tracker.services import log
from tracker.services.events.lookup import event_by_name
from tracker.services.games.door import TypedGame, check_typed
from tracker.services.intake import (
    EventFit,
    Twin,
    clean_event_name,
    clean_round,
    is_fide_rating,
    natural_key,
    typed_rating,
)
from tracker.services.lists import rated_games
from tracker.services.lists.stale import changed_month, mark_stale, stale_back
from tracker.services.players.refs import find
from tracker.user_input import parse_result
from tracker.vocabulary import FORFEITS, TimeControl, event_key


class GameView(NamedTuple):
    id: int
    played_on: dt.date
    white: str
    white_id: int
    black: str
    black_id: int
    result: str
    tc: TimeControl
    event: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    stale: tuple[dt.date, ...] = ()  # closed periods the change made stale
    warnings: tuple[str, ...] = ()  # what the intake's rules changed or want known
    stale_why: str | None = None  # why a closed period went stale, where it is not plain

    @property
    def rated(self) -> bool:
        """Forfeits are stored but never rated."""
        return self.result not in FORFEITS


def _view(db: Db, game_id: int) -> GameView:
    return GameView(**queries.listing_by_id(db, game_id)._asdict())


def get_game(db: Db, game_id: int) -> GameRow:
    game = queries.game_by_id(db, game_id)
    if game is None:
        raise NotFoundError(f"no game {game_id}")
    return game


def get_or_create_event(db: Db, name: str, played_on: dt.date) -> EventRow:
    """The event of that name, created on first use (``tracker event add`` declares one);
    its start date follows the earliest game unless it was declared."""
    clean = clean_event_name(name)
    found = event_by_name(db, clean)
    if found is None:
        event = EventRow(0, clean, played_on, False)
        return event._replace(id=queries.insert_event(db, event, event_key(clean)))
    if played_on < found.start_date and not found.start_fixed:
        event = found._replace(start_date=played_on)  # a fixed start: the game is refused
        queries.update_event_start(db, event)
        return event
    return found


def twins_of(
    db: Db, white_id: int, black_id: int, played_on: dt.date, tc: TimeControl, but_game: int | None
) -> list[Twin]:
    """The stored games of the same two players (either colour) on the same day in ``tc``,
    but game ``but_game`` (:class:`tracker.services.intake.Twin`)."""
    pair = {white_id, black_id}
    return [
        Twin(g.id, g.white, g.black, g.played_on, g.tc, g.event, g.round)
        for g in queries.games_on_days(db, [played_on], pair)
        if {g.white_id, g.black_id} == pair and g.tc == tc and g.id != but_game
    ]


def fit_of(db: Db, event: EventRow, tc: TimeControl, played_on: dt.date) -> EventFit:
    """What a round of ``tc`` on ``played_on`` must fit in ``event`` (its declaration, or its
    games so far)."""
    before = after = None
    if event.end_date is None and event.kind != "league":
        before, after = event_queries.event_neighbours(db, event.id, played_on)
    declared_tc, tc_from = event.tc, "declared"
    if declared_tc is None:
        declared_tc, tc_from = queries.event_tc(db, event.id, tc), "its games so far"
    return EventFit(
        event.name,
        start=event.start_date if event.start_fixed else None,
        end=event.end_date,
        rounds=event.rounds,
        strict=event.declared == "user",
        tc=declared_tc,
        tc_from=tc_from,
        league=event.kind == "league",
        before=before,
        after=after,
    )


class _Prepared(NamedTuple):
    fields: GameFields
    warnings: tuple[str, ...]


def _prepare(
    db: Db,
    *,
    white: str,
    black: str,
    result: str,
    played_on: dt.date,
    tc: TimeControl,
    event: str | None,
    round_: str | None,
    white_rating: int | None,
    black_rating: int | None,
    game_id: int | None = None,
    again: bool = False,
    yes: bool = False,
) -> _Prepared:
    """Check everything that can be wrong with a game, through the pipeline every file goes
    through (:mod:`tracker.services.games.door`), then whether it is stored already; its
    columns, and what the rules want known."""
    canonical = parse_result(result)
    round_ = clean_round(round_)
    white_player = find(db, white)
    black_player = find(db, black)
    for rating, option in ((white_rating, "--white-rating"), (black_rating, "--black-rating")):
        if rating is not None:
            typed_rating(rating, f"{option} {rating}")
    found = get_or_create_event(db, event, played_on) if event else None
    event_id, event_name = (found.id, found.name) if found is not None else (None, None)
    entry = TypedGame(
        white_player,
        black_player,
        canonical,
        played_on,
        tc,
        event_name,
        round_,
        white_rating=white_rating,
        black_rating=black_rating,
    )
    checked = check_typed(db, entry, yes=yes, but_game=game_id)
    if checked.problems:  # one game: one line, its problems side by side
        raise InvalidInputError("; and ".join(checked.problems))
    warnings = checked.warnings
    ratings = [r if r is None or is_fide_rating(r) else None for r in (white_rating, black_rating)]
    key = natural_key(played_on, white_player.id, black_player.id, event_id, round_)
    existing = queries.game_id_by_natural_key(db, key)
    if existing is not None and existing != game_id:
        if not again:
            raise ConflictError(
                f"this game is already recorded as game {existing} (same date, players, "
                "event and round); give a --round to tell two games apart, or --again if it "
                "is another game"
            )
        n = 2
        while queries.game_id_by_natural_key(db, f"{key}|#{n}") not in (None, game_id):
            n += 1
        key = f"{key}|#{n}"
    elif not again:
        twins = twins_of(db, white_player.id, black_player.id, played_on, tc, game_id)
        suspect = [t for t in twins if t.is_twin_of(event_name)]
        if suspect:
            raise ConflictError(
                f"this looks like {suspect[0]} again (the same players on the same day, "
                f"{tc}): if it is another game of theirs, give --again"
            )
    fields = GameFields(
        white_id=white_player.id,
        black_id=black_player.id,
        result=canonical,
        played_on=played_on,
        tc=tc,
        event_id=event_id,
        round=round_,
        white_rating=ratings[0],
        black_rating=ratings[1],
        natural_key=key,
    )
    return _Prepared(fields, warnings)


def add_game(
    db: Db,
    *,
    white: str,
    black: str,
    result: str,
    played_on: dt.date,
    tc: TimeControl | None = None,
    event: str | None = None,
    round_: str | None = None,
    white_rating: int | None = None,
    black_rating: int | None = None,
    yes: bool = False,
    again: bool = False,
) -> GameView:
    """Record one game after checking everything that can be wrong with it: a date that
    cannot be right is refused, and an old one unless ``yes``
    (:class:`~tracker.services.intake.DateBounds`); a game that looks like a stored one (the
    same players on the same day) unless ``again``."""
    tc = game_tc(db, tc, event)
    before = _span_before(db, tc, event)
    fields, warnings = _prepare(
        db,
        white=white,
        black=black,
        result=result,
        played_on=played_on,
        tc=tc,
        event=event,
        round_=round_,
        white_rating=white_rating,
        black_rating=black_rating,
        again=again,
        yes=yes,
    )
    game_id = queries.insert_game(db, fields)
    view = _view(db, game_id)
    _note(db, "added", view, fields)
    stale = _mark(db, fields.tc, fields.event_id, played_on, before)
    why = _extends(view, before, rated_games.span_of(db, fields.tc, fields.event_id), stale)
    return view._replace(stale=stale, warnings=warnings, stale_why=why)


UNCHANGED: Any = object()
T = TypeVar("T")

#: A result seen from the other side of the board: what swapping the colours makes of it.
FLIPPED = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "+-": "-+", "-+": "+-", "0-0": "0-0"}


def edit_game(
    db: Db,
    game_id: int,
    *,
    white: str | None = None,
    black: str | None = None,
    result: str | None = None,
    played_on: dt.date | None = None,
    tc: TimeControl | None = None,
    event: str | None = UNCHANGED,
    round_: str | None = UNCHANGED,
    white_rating: int | None = UNCHANGED,
    black_rating: int | None = UNCHANGED,
    yes: bool = False,
    again: bool = False,
) -> tuple[GameView, bool]:
    """Correct a game in place (same id); the periods rating it, before and after, go stale.
    Returns the game and whether anything changed: a correction that changes nothing
    leaves every period as it was.

    ``event``, ``round_`` and the ratings left at ``UNCHANGED`` keep their values; None
    clears them. A new date is checked as :func:`add_game` checks it."""
    game = get_game(db, game_id)
    old_event = queries.event_by_id(db, game.event_id) if game.event_id else None
    old_before = rated_games.span_of(db, game.tc, game.event_id)
    new_event = _kept(event, old_event.name if old_event else None)
    new_tc = _given(tc, game.tc)
    new_before = _span_before(db, new_tc, new_event)
    swapped = _colours_swapped(db, game, white, black) if result is None else None
    moved = any(v is not None for v in (white, black, played_on, tc))
    moved = moved or event is not UNCHANGED or round_ is not UNCHANGED
    fields, warnings = _prepare(
        db,
        white=_given(white, f"#{game.white_id}"),
        black=_given(black, f"#{game.black_id}"),
        result=_given(swapped or result, game.result),
        played_on=_given(played_on, game.played_on),
        tc=new_tc,
        event=new_event,
        round_=_kept(round_, game.round),
        white_rating=_kept(white_rating, game.white_rating),
        black_rating=_kept(black_rating, game.black_rating),
        game_id=game.id,
        # a game whose players, day and event stay is no new twin of a game stored beside it
        again=again or not moved,
        yes=yes or played_on in (None, game.played_on),  # a new date is checked
    )
    if swapped is not None:
        warnings += (
            f"colours swapped: the result is now {swapped}, the same player winning (give "
            "--result to say otherwise)",
        )
    if all(getattr(game, name) == getattr(fields, name) for name in queries.CORRECTABLE):
        return _view(db, game.id)._replace(warnings=warnings), False
    queries.update_game(db, game.id, fields)
    queries.follow_earliest_game(db, game.event_id)
    view = _view(db, game.id)
    changed = [
        name
        for name in queries.CORRECTABLE
        if name != "natural_key" and getattr(game, name) != getattr(fields, name)
    ]
    log.note(
        db,
        "changed",
        f"game {_describe(view)} ({', '.join(c.replace('_', ' ') for c in changed)})",
        players=(game.white_id, game.black_id, fields.white_id, fields.black_id),
        events=(game.event_id, fields.event_id),
    )
    stale = _mark(db, game.tc, game.event_id, game.played_on, old_before)
    stale += _mark(db, fields.tc, fields.event_id, fields.played_on, new_before)
    return view._replace(stale=tuple(sorted(set(stale))), warnings=warnings), True


def _given(value: T | None, old: T) -> T:
    """A correction's value where one is given (None: keep the old)."""
    return old if value is None else value


def _kept(value: Any, old: T) -> T:
    """A correction's value where one is given (:data:`UNCHANGED`: keep the old; None
    clears)."""
    return old if value is UNCHANGED else cast(T, value)


def _colours_swapped(db: Db, game: GameRow, white: str | None, black: str | None) -> str | None:
    """The result seen from the other side when a correction swaps the game's players (the
    colours were wrong, not who won); None when it does not."""
    if white is None or black is None:
        return None
    if (find(db, white).id, find(db, black).id) != (game.black_id, game.white_id):
        return None
    return FLIPPED[game.result]


def game_tc(db: Db, tc: TimeControl | None, event: str | None) -> TimeControl:
    """A new game's time control: the one given, else its event's declared one, else
    standard."""
    if tc is not None:
        return tc
    found = event_by_name(db, event) if event else None
    return found.tc if found is not None and found.tc else "standard"


def _span_before(db: Db, tc: TimeControl, event: str | None) -> EventSpan | None:
    """The span of the named event in ``tc`` before a change (None: no such event yet)."""
    if not event:
        return None
    return rated_games.span_of(db, tc, _event_id(db, event))


def _event_id(db: Db, name: str) -> int | None:
    """The id of the event that name means (:func:`event_by_name`), if there is one."""
    found = event_by_name(db, name)
    return None if found is None else found.id


def _mark(
    db: Db, tc: TimeControl, event_id: int | None, on: dt.date, before: EventSpan | None
) -> tuple[dt.date, ...]:
    """Mark stale what a change of a game on ``on`` can change: the period in which its
    event is rated, before and after the change, or its own month if earlier (the shadow's;
    see tracker.services.lists.stale.changed_month)."""
    after = rated_games.span_of(db, tc, event_id)
    return mark_stale(db, tc, changed_month(before, after, on))


def _extends(
    game: GameView,
    before: EventSpan | None,
    after: EventSpan | None,
    stale: tuple[dt.date, ...],
) -> str | None:
    """Why a game made closed periods stale when it extends an event with nothing declared
    that a closed period rated as ended (at its last game then), and how declaring the event
    would have kept the list: None for any other change."""
    if not stale or before is None or after is None or not before.assumed or before == after:
        return None
    if after.league and not before.league:
        what = "its games now span over 90 days: it is rated month by month as a league"
    else:
        what = f"this game on {game.played_on.isoformat()} extends it"
    return (
        f"{game.event} was rated as ended {before.end.isoformat()}, its last game then (no "
        f"end declared); {what}, so the lists that rated it change. An event declared "
        f"before its last round (`tracker event edit {game.event!r} --end DATE --rounds N`, "
        "or `tracker event add`) is held back until it ends"
    )


def game_filter(
    db: Db,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    event: str | None = None,
    tc: TimeControl | None = None,
) -> GameFilter:
    """Which games are a player's, a month's, an event's and a time control's: the player and
    the event resolved (either unknown is an error), the time control checked."""
    player_id = find(db, player).id if player is not None else None
    end = next_month(month) if month is not None else None
    event_id = None
    if event is not None:
        event_id = _event_id(db, event)
        if event_id is None:
            raise NotFoundError(f"no event named {event!r}")
    return GameFilter(
        player_id=player_id,
        played_from=month,
        played_before=end,
        event_id=event_id,
        tc=tc,
    )


def list_games(
    db: Db,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    event: str | None = None,
    tc: TimeControl | None = None,
) -> tuple[GameView, ...]:
    which = game_filter(db, player=player, month=month, event=event, tc=tc)
    return tuple(GameView(**game._asdict()) for game in queries.listings(db, which))


def remove_game(db: Db, game_id: int) -> GameView:
    """Delete a game; an event's derived start date follows its remaining games."""
    game = get_game(db, game_id)
    removed = _view(db, game.id)
    before = rated_games.span_of(db, removed.tc, game.event_id)
    queries.delete_game(db, game.id)
    queries.follow_earliest_game(db, game.event_id)
    after = rated_games.span_of(db, removed.tc, game.event_id)
    kept = {**game._asdict(), "played_on": game.played_on.isoformat()}
    log.note(
        db,
        "removed",
        f"game {_describe(removed)} (`tracker game restore {game.id}` brings it back)",
        players=(game.white_id, game.black_id),
        events=(game.event_id,),
        tc=removed.tc,
        months=[changed_month(before, after, removed.played_on)],
        removed_game=kept,
    )
    stale = _mark(db, removed.tc, game.event_id, removed.played_on, before)
    return removed._replace(stale=stale)


def _describe(g: GameView) -> str:
    event = f", {g.event}" if g.event else ""
    return f"{g.id}: {g.white} {g.result} {g.black}, {g.played_on.isoformat()}, {g.tc}{event}"


def _note(db: Db, did: str, view: GameView, fields: GameFields) -> None:
    log.note(
        db,
        did,
        f"game {_describe(view)}",
        players=(fields.white_id, fields.black_id),
        events=(fields.event_id,),
    )


def restore_game(db: Db, game_id: int) -> GameView:
    """Bring back a removed game, with its id. Before a close or rerate of the period its
    removal changed, the periods are as they were before the removal (stale only where
    another change made them so, as the change log says); after one, it comes back as a
    correction, and marks stale the periods it touches."""
    removed = log_queries.removed_game(db, game_id)
    if removed is None:
        if queries.game_by_id(db, game_id) is not None:
            raise InvalidInputError(f"game {game_id} is not removed")
        raise NotFoundError(f"no removed game {game_id} to restore")
    row: dict[str, Any] = json.loads(removed.game)
    row["played_on"] = dt.date.fromisoformat(row["played_on"])
    settled = log.settled_since(db, removed.log_id, row["tc"], removed.month)
    gone = [
        f"player #{pid}"
        for pid in (row["white_id"], row["black_id"])
        if player_queries.player_by_id(db, pid) is None
    ]
    if row["event_id"] is not None and queries.event_by_id(db, row["event_id"]) is None:
        gone.append("its event (merged into another since?)")
    if gone:
        raise InvalidInputError(
            f"game {game_id} cannot come back: {' and '.join(gone)} no longer there; add it "
            "again with `tracker game add`"
        )
    twin = queries.game_id_by_natural_key(db, row["natural_key"])
    if twin is not None:
        raise ConflictError(f"game {game_id} is stored again, as game {twin}")
    fields = GameFields(**{name: row[name] for name in GameFields._fields})
    before = rated_games.span_of(db, fields.tc, fields.event_id)
    log_queries.insert_game_with_id(db, game_id, fields._asdict())
    log_queries.delete_removed_game(db, game_id)
    queries.follow_earliest_game(db, fields.event_id)
    view = _view(db, game_id)
    _note(db, "restored", view, fields)
    if not settled and stale_back(db, fields.tc, but=removed.log_id) is not None:
        return view  # the removal undone: nothing of it stays stale
    stale = _mark(db, fields.tc, fields.event_id, fields.played_on, before)
    return view._replace(stale=stale)
