"""Head-to-head (``tracker h2h A B``): every game two players played against each other, and
the score between them, overall, by colour and by time control; with one player
(``tracker h2h A``), his score against each opponent.

Scores are the first player's (A's). A forfeit (``+-``, ``-+``) is listed but is no game
played: it counts in no score, no colour and no time control, and is no meeting (FIDE Rating
Regulations 2024 §5.1: unplayed games are not counted).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from tracker.db.driver import Db
from tracker.db.queries import h2h as queries
from tracker.db.queries.periods import player_names
from tracker.errors import InvalidInputError
from tracker.services.players.refs import find
from tracker.vocabulary import FORFEITS, SCORES, TIME_CONTROLS, TimeControl


@dataclass(frozen=True)
class H2hGame:
    """One game between the two, from A's side."""

    id: int
    played_on: dt.date
    event: str | None
    round: str | None
    colour: str  # A's colour: "white" or "black"
    result: str  # as stored (white's result first)
    tc: TimeControl
    score: Decimal | None  # A's points; None for a forfeit
    forfeit: bool


@dataclass(frozen=True)
class Tally:
    """Played games and A's points in them (B's are ``games - score``)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: Decimal = Decimal(0)

    @property
    def against(self) -> Decimal:
        return self.games - self.score

    def add(self, points: Decimal) -> Tally:
        return Tally(
            self.games + 1,
            self.wins + (points == 1),
            self.draws + (points == Decimal("0.5")),
            self.losses + (points == 0),
            self.score + points,
        )


@dataclass(frozen=True)
class HeadToHead:
    """Two players' games against each other and the score (A's first)."""

    a: str
    a_id: int
    b: str
    b_id: int
    tc: TimeControl | None  # the time control asked for; None: all
    games: tuple[H2hGame, ...]
    total: Tally
    by_colour: tuple[tuple[str, Tally], ...]  # ("white", ...) is A with white; both always
    by_tc: tuple[tuple[str, Tally], ...]  # each time control asked for (None: all three)
    forfeits: int
    first: H2hGame | None  # the first and last games played (forfeits are no meeting)
    last: H2hGame | None


def head_to_head(db: Db, a_ref: str, b_ref: str, tc: TimeControl | None = None) -> HeadToHead:
    """The games of the player ``a_ref`` against ``b_ref`` (of ``tc`` if given)."""
    a = find(db, a_ref)
    b = find(db, b_ref)
    if a.id == b.id:
        raise InvalidInputError(f"{a.name} twice: name two different players")
    games: list[H2hGame] = []
    total = Tally()
    colours: dict[str, Tally] = {}
    tcs: dict[str, Tally] = {}
    for m in queries.games_between(db, a.id, b.id, tc):
        colour = "white" if m.white_id == a.id else "black"
        forfeit = m.result in FORFEITS
        points = None if forfeit else SCORES[m.result][0 if colour == "white" else 1]
        games.append(
            H2hGame(m.id, m.played_on, m.event, m.round, colour, m.result, m.tc, points, forfeit)
        )
        if points is not None:
            total = total.add(points)
            colours[colour] = colours.get(colour, Tally()).add(points)
            tcs[m.tc] = tcs.get(m.tc, Tally()).add(points)
    played = [g for g in games if not g.forfeit]
    return HeadToHead(
        a.name,
        a.id,
        b.name,
        b.id,
        tc,
        tuple(games),
        total,
        tuple((c, colours.get(c, Tally())) for c in ("white", "black")),
        tuple((t, tcs.get(t, Tally())) for t in ((tc,) if tc else TIME_CONTROLS)),
        sum(g.forfeit for g in games),
        played[0] if played else None,
        played[-1] if played else None,
    )


@dataclass(frozen=True)
class OpponentLine:
    """A's games against one opponent: the score of the played ones, the forfeits beside."""

    id: int
    name: str
    total: Tally
    forfeits: int
    last: dt.date | None  # the last game played (forfeits are no meeting)


@dataclass(frozen=True)
class Opponents:
    a: str
    a_id: int
    tc: TimeControl | None  # the time control asked for; None: all
    lines: tuple[OpponentLine, ...]  # most games played first, then by name
    total: Tally


def opponents(db: Db, a_ref: str, tc: TimeControl | None = None) -> Opponents:
    """``tracker h2h A``: the score of the player ``a_ref`` against each of his opponents."""
    a = find(db, a_ref)
    tallies: dict[int, Tally] = {}
    forfeits: dict[int, int] = {}
    last: dict[int, dt.date] = {}
    total = Tally()
    for m in queries.games_between(db, a.id, None, tc):
        white = m.white_id == a.id
        other = m.black_id if white else m.white_id
        tallies.setdefault(other, Tally())
        if m.result in FORFEITS:
            forfeits[other] = forfeits.get(other, 0) + 1
            continue
        points = SCORES[m.result][0 if white else 1]
        tallies[other] = tallies[other].add(points)
        total = total.add(points)
        last[other] = m.played_on
    names = player_names(db, list(tallies))
    lines = [
        OpponentLine(pid, names[pid], t, forfeits.get(pid, 0), last.get(pid))
        for pid, t in tallies.items()
    ]
    lines.sort(key=lambda o: (-o.total.games, -o.forfeits, o.name, o.id))
    return Opponents(a.name, a.id, tc, tuple(lines), total)
