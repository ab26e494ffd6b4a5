"""Byes typed in (``game add PLAYER bye``, a ``bye`` line of ``game add-round``) and taken out
(``game remove-bye``): a round of an event in which the player had no opponent. A bye
counts in the standings, the crosstable and the norms' rounds, never in a rating (FIDE rates
played games only), so it marks no period stale.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import byes as queries
from tracker.db.queries import games as game_queries
from tracker.db.queries.players import PlayerRow
from tracker.errors import ConflictError, InvalidInputError, NotFoundError
from tracker.services import log
from tracker.services.events.lookup import event_by_name
from tracker.services.games import fit_of, get_or_create_event
from tracker.services.intake import clean_round
from tracker.services.intake.checks import date_bounds
from tracker.services.players.refs import find
from tracker.vocabulary import BYE_WORDS, TimeControl


@dataclass(frozen=True)
class ByeView:
    """A bye as stored: whose, in which event and round, on what day, of which kind."""

    id: int
    player: str
    player_id: int
    event: str
    round: str
    played_on: dt.date
    tc: TimeControl
    code: str

    @property
    def points(self) -> str:
        """``1``, ``1/2`` or ``0``."""
        return {"F": "1", "U": "1", "H": "1/2", "Z": "0"}[self.code]

    @property
    def words(self) -> str:
        """``Smith, Anna: pairing-allocated bye (1 point), Autumn Swiss round 3``."""
        points = {"1": "1 point", "0": "no point", "1/2": "1/2 point"}[self.points]
        return (
            f"{self.player}: {BYE_WORDS[self.code]} ({points}), {self.event} round {self.round}, "
            f"{self.played_on.isoformat()}"
        )


def add_bye(
    db: Db,
    *,
    player: str,
    code: str,
    event: str | None,
    round_: str | None,
    played_on: dt.date,
    tc: TimeControl | None = None,
    today: dt.date | None = None,
    yes: bool = False,
    playing: PlayerRow | None = None,
) -> ByeView:
    """Record a bye: the player's round of an event without an opponent. It fits the event
    as a game must (its dates, rounds and time control); one of a player who plays a game
    in that round, or has a bye in it already, is refused. ``playing``: the player, if the
    caller found him."""
    if today is not None:
        date_bounds(db, today).check(played_on, yes=yes)
    if not event:
        raise InvalidInputError("a bye is part of an event's round: give --event and --round")
    round_text = clean_round(round_)
    if round_text is None:
        raise InvalidInputError("a bye is part of an event's round: give --round N")
    who = playing or find(db, player)
    found = get_or_create_event(db, event, played_on)
    own_tc = tc or found.tc or game_queries.event_tc(db, found.id) or "standard"
    problems = fit_of(db, found, own_tc, played_on).problems(played_on, round_text, own_tc)
    if problems:
        raise InvalidInputError(
            problems[0] if len(problems) == 1 else f"the bye does not fit {found.name!r}",
            problems if len(problems) > 1 else (),
        )
    game = game_queries.game_in_round(db, found.id, who.id, round_text)
    if game is not None:
        raise ConflictError(
            f"{who.name} plays game {game} in round {round_text} of {found.name}: a bye is a "
            "round without a game"
        )
    if queries.bye_of(db, found.id, who.id, round_text) is not None:
        raise ConflictError(f"{who.name} has a bye in round {round_text} of {found.name} already")
    fields = queries.ByeFields(found.id, who.id, round_text, played_on, own_tc, code)
    bye_id = queries.insert_bye(db, fields)
    view = ByeView(bye_id, who.name, who.id, found.name, round_text, played_on, own_tc, code)
    log.note(db, "added", f"bye {view.words}", players=[who.id], events=[found.id])
    return view


def remove_bye(db: Db, *, player: str, event: str, round_: str) -> ByeView:
    """Take out a bye typed by mistake (it was never rated: nothing goes stale)."""
    who = find(db, player)
    found = event_by_name(db, event)
    round_text = clean_round(round_)
    if found is None or round_text is None:
        raise NotFoundError(f"no event {event!r}" if found is None else "give --round N")
    bye = queries.bye_of(db, found.id, who.id, round_text)
    if bye is None:
        raise NotFoundError(f"{who.name} has no bye in round {round_text} of {found.name}")
    queries.delete_bye(db, bye.id)
    view = ByeView(bye.id, who.name, who.id, found.name, bye.round, bye.played_on, bye.tc, bye.code)
    log.note(db, "removed", f"bye {view.words}", players=[who.id], events=[found.id])
    return view
