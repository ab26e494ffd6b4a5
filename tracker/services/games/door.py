"""The typed doors (``game add``, ``game edit``, each line of ``game add-round``) through the
one check pipeline every file goes through (:mod:`tracker.services.intake`): a game typed in
is a record as a file's reader gives it, of players already found, checked by the same code
with the same words: its date, the players' ages, a player against himself, its round, its
fit in its event (dates, rounds, time control, a month or more from the rest), an external
opponent without a rating, a recorded rating that is no FIDE rating.
"""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries.players import PlayerRow
from tracker.importers.records import GameRecord, GameStream, PlayerInfo
from tracker.services.intake.checks import check_games, set_aside
from tracker.services.intake.columns import FileGames
from tracker.services.intake.events import clean_rounds, match_events
from tracker.services.intake.plan import Identity, Plan
from tracker.vocabulary import TimeControl


class TypedGame(NamedTuple):
    """A game as typed: its players (found), result (canonical), day, time control, event
    name and round (as typed), recorded ratings."""

    white: PlayerRow
    black: PlayerRow
    result: str
    played_on: dt.date
    tc: TimeControl
    event: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None


class Checked(NamedTuple):
    """What the pipeline found of a typed game: its problems (refused) and warnings, each a
    line's reason."""

    problems: tuple[str, ...]
    warnings: tuple[str, ...]


#: The source typed games are checked as (never shown: a typed game's reasons are bare).
TYPED = "typed"


def check_typed(db: Db, entry: TypedGame, *, yes: bool, but_game: int | None = None) -> Checked:
    """Check a typed game as a file's are checked (``but_game``: the game it corrects)."""
    people = {entry.white.id: entry.white, entry.black.id: entry.black}
    record = GameRecord(
        source=TYPED,
        line=1,
        white=_info(entry.white, entry.white_rating),
        black=_info(entry.black, entry.black_rating),
        result=entry.result,
        played_on=entry.played_on,
        event=entry.event,
        round=entry.round,
        tc=entry.tc,
    )
    games = FileGames.read(GameStream.of(TYPED, [record]))
    plan = Plan(games, typed=True, but_game=but_game)
    plan.side_identity = [
        _identity(people[int(side.name.removeprefix("id:"))], n)
        for n, side in enumerate(games.sides)
    ]
    match_events(db, TYPED, plan)
    check_games(db, TYPED, yes, plan, clean_rounds(plan))
    warnings = (*set_aside(TYPED, games), *plan.warnings)
    return Checked(tuple(p.reason for p in plan.problems), tuple(w.reason for w in warnings))


def _info(player: PlayerRow, rating: int | None) -> PlayerInfo:
    """The player as a record names him: by his id (two players may share a name)."""
    return PlayerInfo(name=f"id:{player.id}", rating=rating)


def _identity(player: PlayerRow, number: int) -> Identity:
    return Identity(
        name=player.name,
        fide_id=player.fide_id,
        first_line=1,
        number=number,
        player_id=player.id,
        stored_birth_year=player.birth_year,
        external=player.external,
    )
