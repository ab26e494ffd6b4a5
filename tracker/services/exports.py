"""Getting games, histories and rating lists back out of the database.

The games come out as :class:`ExportedGame` (everything stored about a game, plus what a
file needs to recreate its players: FIDE ids, titles); :meth:`ExportedGame.record` turns
one into the importers' plain :class:`GameRecord`, which the writers of
:mod:`tracker.importers.writers` format as CSV, PGN or TRF. Histories and lists come from
:mod:`tracker.services.history`.

What a game file cannot carry: whether a player is tracked or external, a tracked player's
seed (his FIDE state before tracking started) and birth year. The players file
(:func:`export_players`) carries them: importing it, then the games, rebuilds a database.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from tracker.db.models import Event, Game, Player
from tracker.errors import InvalidInputError
from tracker.importers.records import GameRecord, PlayerInfo
from tracker.importers.writers import TrfExportError, write_trf
from tracker.services.games import filter_games
from tracker.services.history import History, RatingList, history, rating_list
from tracker.services.player_files import players_rows
from tracker.services.players import PlayerView, list_players
from tracker.vocabulary import FORFEITS


@dataclass(frozen=True)
class ExportedPlayer:
    id: int
    name: str
    fide_id: int | None
    title: str | None
    federation: str | None
    birth_year: int | None
    sex: str | None
    external: bool


@dataclass(frozen=True)
class ExportedGame:
    id: int
    played_on: dt.date
    white: ExportedPlayer
    black: ExportedPlayer
    result: str
    tc: str
    event: str | None
    event_start: dt.date | None
    site: str | None
    round: str | None
    white_rating: int | None
    black_rating: int | None
    import_id: int | None

    @property
    def rated(self) -> bool:
        return self.result not in FORFEITS

    def record(self) -> GameRecord:
        """The game as the importers' plain record (what the writers take)."""

        def info(player: ExportedPlayer, rating: int | None) -> PlayerInfo:
            sex = player.sex if player.sex in ("m", "f") else None
            return PlayerInfo(
                name=player.name,
                fide_id=player.fide_id,
                rating=rating,
                federation=player.federation,
                birth_year=player.birth_year,
                sex=sex,  # type: ignore[arg-type]  # checked just above
                title=player.title,
            )

        return GameRecord(
            source="database",
            line=0,
            white=info(self.white, self.white_rating),
            black=info(self.black, self.black_rating),
            result=self.result,
            played_on=self.played_on,
            event=self.event,
            event_start=self.event_start,
            site=self.site,
            round=self.round,
            tc=self.tc,  # type: ignore[arg-type]  # a stored tc is always valid
        )


def export_games(
    session: Session,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    tc: str | None = None,
    event: str | None = None,
) -> tuple[ExportedGame, ...]:
    """Games in date order (then in the order they were stored), optionally filtered."""
    white, black = aliased(Player), aliased(Player)
    query = (
        select(Game, white, black, Event)
        .join(white, Game.white_id == white.id)
        .join(black, Game.black_id == black.id)
        .outerjoin(Event, Game.event_id == Event.id)
        .order_by(Game.played_on, Game.id)
    )
    query = filter_games(session, query, player=player, month=month, event=event, tc=tc)

    def person(p: Player) -> ExportedPlayer:
        return ExportedPlayer(
            p.id, p.name, p.fide_id, p.title, p.federation, p.birth_year, p.sex, p.external
        )

    return tuple(
        ExportedGame(
            id=g.id,
            played_on=g.played_on,
            white=person(w),
            black=person(b),
            result=g.result,
            tc=g.tc,
            event=e.name if e is not None else None,
            event_start=e.start_date if e is not None else None,
            site=e.site if e is not None else None,
            round=g.round,
            white_rating=g.white_rating,
            black_rating=g.black_rating,
            import_id=g.import_id,
        )
        for g, w, b, e in session.execute(query)
    )


def event_as_trf(games: tuple[ExportedGame, ...]) -> str:
    """One event's games as TRF text (the games must all belong to one event)."""
    try:
        return write_trf([g.record() for g in games])
    except TrfExportError as exc:
        raise InvalidInputError(f"cannot write a TRF: {exc}") from None


def export_history(session: Session, player: str, tc: str, month: dt.date | None = None) -> History:
    """A player's history (as ``tracker history``), optionally one month only."""
    found = history(session, player, tc)
    if month is None:
        return found
    rows = tuple(r for r in found.rows if r.month == month)
    return History(
        player_id=found.player_id,
        name=found.name,
        tc=found.tc,
        seed_rating=found.seed_rating,
        seed_games=found.seed_games,
        rows=rows,
        stale_months=found.stale_months,
    )


def export_list(session: Session, tc: str, list_month: dt.date | None) -> RatingList:
    """A published rating list (as ``tracker list``): ``list_month`` names it by its date."""
    return rating_list(session, tc, list_month)


def export_players(session: Session) -> tuple[list[dict[str, object]], tuple[PlayerView, ...]]:
    """Every player, as players-file rows (CSV) and as views (JSON), in name order."""
    return players_rows(session), list_players(session)
