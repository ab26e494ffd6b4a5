"""An event's games with what the title norms need of their players
(:mod:`tracker.services.norms`)."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, stored_tc
from tracker.vocabulary import TimeControl


class NormGame(NamedTuple):
    """One game of the event and its players' titles, federations, sex and kind."""

    white_id: int
    black_id: int
    result: str
    tc: TimeControl
    played_on: dt.date
    round: str | None
    white_rating: int | None
    black_rating: int | None


class NormPlayer(NamedTuple):
    id: int
    name: str
    title: str | None
    federation: str | None
    sex: str | None
    external: bool


def event_games(db: Db, event_id: int) -> list[NormGame]:
    rows = db.all(
        """
        SELECT white_id, black_id, result, tc, played_on, round, white_rating, black_rating
        FROM games WHERE event_id = :id ORDER BY played_on, id""",
        {"id": event_id},
    )
    return [
        NormGame(int(w), int(b), str(r), stored_tc(tc), day(on), rnd, wr, br)
        for w, b, r, tc, on, rnd, wr, br in rows
    ]


def event_players(db: Db, event_id: int) -> list[NormPlayer]:
    rows = db.all(
        """
        SELECT p.id, p.name, p.title, p.federation, p.sex, p.external FROM players p
        WHERE p.id IN (SELECT white_id FROM games WHERE event_id = :id
                       UNION SELECT black_id FROM games WHERE event_id = :id)
        ORDER BY p.name, p.id""",
        {"id": event_id},
    )
    return [NormPlayer(int(i), str(n), t, f, s, bool(e)) for i, n, t, f, s, e in rows]
