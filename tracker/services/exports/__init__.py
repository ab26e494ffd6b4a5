"""Getting games, histories and rating lists back out of the database.

The games come out as the database's :class:`~tracker.db.queries.exports.GameLine`
(everything stored about a game, plus what a file needs to recreate its players: FIDE ids,
titles); :func:`game_record` turns one into the importers' plain :class:`GameRecord`,
which the game file formats' writers (:data:`tracker.importers.detect.FORMATS`) write as
CSV, PGN or TRF (:func:`games_text`). Histories and lists come from
:mod:`tracker.services.periods.history`.

What a game file cannot carry: whether a player is tracked or external, a tracked player's
seed (his FIDE state before tracking started) and birth year. The players file
(:func:`export_players`) carries them: importing it, then the games, rebuilds a database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from tracker.db.driver import Db
from tracker.db.queries.exports import GameLine, game_lines
from tracker.db.queries.players import PlayerRow
from tracker.errors import InvalidInputError
from tracker.importers.detect import FORMATS
from tracker.importers.records import GameRecord, PlayerInfo
from tracker.importers.writers import TrfExportError
from tracker.months import month_of, previous_month
from tracker.services import lists
from tracker.services.games import game_filter
from tracker.services.periods.history import History, history
from tracker.services.players.files import players_rows
from tracker.services.players.refs import PlayerView
from tracker.services.players.roster import list_players
from tracker.vocabulary import TimeControl


def game_record(g: GameLine) -> GameRecord:
    """The game as the importers' plain record (what the format writers take)."""

    def info(player: PlayerRow, rating: int | None) -> PlayerInfo:
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
        white=info(g.white, g.white_rating),
        black=info(g.black, g.black_rating),
        result=g.result,
        played_on=g.played_on,
        event=g.event,
        event_start=g.event_start,
        site=g.site,
        round=g.round,
        tc=g.tc,
    )


def games_text(games: Sequence[GameLine], fmt: str) -> str:
    """The games written in the game file format ``fmt`` (one of :data:`GAME_FORMATS`); a
    user error if they cannot be (a TRF holds one event with numbered rounds)."""
    try:
        return FORMATS[fmt].write([game_record(g) for g in games])
    except TrfExportError as exc:
        raise InvalidInputError(f"cannot write a TRF: {exc}") from None


#: The formats games are written in: the game file formats (read back by ``import``).
GAME_FORMATS: Final = tuple(FORMATS)


def export_games(
    db: Db,
    *,
    player: str | None = None,
    month: dt.date | None = None,
    tc: TimeControl | None = None,
    event: str | None = None,
    ratings_in_force: bool = False,
) -> tuple[GameLine, ...]:
    """Games in date order (then in the order they were stored), optionally filtered. With
    ``ratings_in_force``, a tracked player's game without a recorded rating carries his
    rating on the list in force when its event started (or on its day): what a TRF's
    player record says."""
    out = game_lines(db, game_filter(db, player=player, month=month, event=event, tc=tc))
    if ratings_in_force:
        return tuple(_with_ratings_in_force(db, out))
    return tuple(out)


def _with_ratings_in_force(db: Db, games: list[GameLine]) -> list[GameLine]:
    """The games, a tracked player's missing recorded rating filled with his rating on the
    list in force (see :func:`export_games`)."""

    def in_force(g: GameLine) -> tuple[TimeControl, dt.date]:  # the close of the month before
        return g.tc, previous_month(month_of(g.event_start or g.played_on))

    wanted: dict[tuple[TimeControl, dt.date], set[int]] = {}
    for g in games:
        for player, rating in ((g.white, g.white_rating), (g.black, g.black_rating)):
            if rating is None and not player.external:
                wanted.setdefault(in_force(g), set()).add(player.id)
    closed = {tc: [m for m, _, _ in lists.closed_months(db, tc)] for tc in {t for t, _ in wanted}}
    found = {key: _ratings_in_force(db, *key, ids, closed[key[0]]) for key, ids in wanted.items()}
    out = []
    for g in games:
        ratings = found.get(in_force(g), {})
        white, black = ratings.get(g.white.id), ratings.get(g.black.id)
        out.append(
            g._replace(white_rating=g.white_rating or white, black_rating=g.black_rating or black)
        )
    return out


def _ratings_in_force(
    db: Db, tc: TimeControl, month: dt.date, players: set[int], closed: list[dt.date]
) -> dict[int, int]:
    """Each player's rating on the list that closed ``month`` or, if that period is not
    closed, the latest one before (``closed``: the closed periods), else his seed (before
    tracking began)."""
    last = max((m for m in closed if m <= month), default=None)
    lines = lists.ratings_at(db, tc, last, players) if last is not None else {}
    out = {pid: rating for pid, rating in lines.items() if rating is not None}
    # an unrated line keeps his seed out on its own list only: a later list does not carry it
    missing = players - set(lines if last == month else out)
    if missing:
        out.update((pid, seed.rating) for pid, seed in lists.seeds(db, tc, only=missing).items())
    return out


def export_history(db: Db, player: str, tc: TimeControl, month: dt.date | None = None) -> History:
    """A player's history (as ``tracker history``), optionally one month only."""
    found = history(db, player, tc)
    if month is None:
        return found
    return found._replace(rows=tuple(r for r in found.rows if r.month == month))


def export_players(db: Db) -> tuple[list[dict[str, object]], tuple[PlayerView, ...]]:
    """Every player, as players-file rows (CSV) and as views (JSON), in name order."""
    return players_rows(db), list_players(db)
