"""Title norms in an event (``tracker event show EVENT --norms``): for each
player, whether the event gives a GM, IM, WGM or WIM norm under the FIDE Title Regulations
applied from 1 January 2024 (rules and sources: :mod:`tracker.ratings.fide.norms`), and while
it runs (``rounds`` given), what the remaining rounds still require.

What tracker stores and what it does not:

- ratings (§1.4.6 a): a tracked player's rating on tracker's standard list in force at the
  event's start; an external opponent's rating recorded on his game (below 1400 none from
  the March 2024 list on, as in the rating calculation:
  :func:`tracker.ratings.fide.recorded_rating`); unrated: 1400 (§1.4.6 d);
- the games a player may leave out (§1.4.1e-f, :func:`tracker.ratings.fide.norms.best`),
  taken in the order played (by date, then round); whether the pairings were predetermined
  (a round robin, where no later games may be left out) is for the caller to say;
- titles and federations (§1.4.3-1.4.5): the players' stored ``title`` and ``federation``
  (as stored today: a title gained since the event counts; §0.4.3 would not count it);
  where a federation is missing, the federation rules are not checked and say so;
- §1.4.2 b: in an event declared a round robin, the games against an unrated opponent who
  scores zero against the rated ones are not included;
- women's norms (WGM, WIM) are assessed for players stored as women only, and no norm for
  a title the player holds (:func:`tracker.ratings.fide.norms.open_to`);
- not checked (nothing stored for them): §1.1 (time control, rounds a day, arbiters,
  registration), the exceptions of §1.4.1 b, the exemptions of §1.4.3 a-d (national
  championships, team championships, zonals, large Swiss opens), §1.4.5 f (double round
  robins), §1.1.4 (events over 30 days), and the application rules of §1.5.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from tracker.db.driver import Db
from tracker.db.queries import events as queries
from tracker.db.queries.byes import event_byes
from tracker.db.queries.games import EventRow, GameRow
from tracker.db.queries.players import PlayerRow
from tracker.errors import InvalidInputError
from tracker.months import month_of
from tracker.ratings.fide import norms as rules
from tracker.ratings.fide.events import recorded_rating
from tracker.services.events.lookup import find_event
from tracker.services.lists import ListRatings
from tracker.services.lists.rated_games import span_of
from tracker.services.players.refs import find
from tracker.vocabulary import FORFEITS, POINTS, SCORES, round_number, round_order

#: What no norm here checks, for want of stored data (said beside every answer).
NOT_CHECKED: tuple[str, ...] = (
    "§1.1 (time control, rounds a day, arbiters, registration)",
    "§1.4.1 b (fewer games in team events and the World Cup)",
    "§1.4.3 a-d (federation exemptions: national and team championships, zonals, "
    "large Swiss opens)",
    "§1.4.5 f (double round robins)",
    "§1.1.4 (events over 30 days)",
)


@dataclass(frozen=True)
class CountedGame:
    """One game counted for the norms, in the order played: the opponent, the rating the
    norms count for him (None: unrated) and the player's points."""

    round: str | None
    played_on: dt.date
    opponent: str
    opponent_id: int
    rating: int | None
    score: Decimal


@dataclass(frozen=True)
class PlayerNorms:
    """One player's games in the event and each norm assessed for him (each result's
    ``dropped`` are places in ``played``)."""

    id: int
    name: str
    title: str | None
    federation: str | None
    games: int  # counted: played, not forfeited
    forfeits: int
    score: Decimal
    remaining: int  # rounds still to play (0: done, or --rounds not given)
    results: tuple[rules.NormResult, ...]  # none: no norm left to gain (open_to)
    outlooks: tuple[rules.Outlook | None, ...]  # beside each result: None when done
    played: tuple[CountedGame, ...] = ()

    @property
    def achieved(self) -> tuple[str, ...]:
        return tuple(r.norm for r in self.results if r.achieved)


@dataclass(frozen=True)
class EventNorms:
    event: str
    start: dt.date
    list_date: dt.date  # the list in force at the start (§1.4.6 a)
    rounds: int | None
    players: tuple[PlayerNorms, ...]
    not_checked: tuple[str, ...]
    round_robin: bool = False


def event_norms(db: Db, name: str, *, player: str | None = None, today: dt.date) -> EventNorms:
    """Every tracked player's norms in the event ``name`` (or only ``player``'s, who may be
    external), as it is declared: while it runs (``today`` before its end, or its declared
    last round not played), what its remaining rounds still require; a round robin's
    pairings were predetermined (§1.4.1e)."""
    event = find_event(db, name)
    if "standard" not in queries.event_tcs(db, event.id):
        raise InvalidInputError(
            f"{event.name} has no standard games: title norms are for standard chess "
            "(Title Regulations §0.5: 'Rating refers to a player's Standard FIDE rating')"
        )
    facts = _NormEvent.of(db, event, today)
    wanted = None
    if player is not None:
        chosen = find(db, player)
        if chosen.id not in facts.people:
            raise InvalidInputError(f"{chosen.name} plays no game in {event.name}")
        wanted = chosen.id
    found = []
    for pid, who in facts.people.items():
        if (wanted is not None and pid != wanted) or (wanted is None and who.external):
            continue  # an external player's games are only those against tracked players
        norms = facts.player_norms(who)
        if norms is not None:
            found.append(norms)
    return EventNorms(
        event.name,
        event.start_date,
        facts.list_date,
        facts.rounds,
        tuple(found),
        NOT_CHECKED,
        facts.round_robin,
    )


@dataclass
class _NormEvent:
    """What the norms of an event's players are worked out from: its standard games, its
    people, their byes, the rounds declared and scheduled, the list in force."""

    games: list[GameRow]
    people: dict[int, PlayerRow]
    listed: dict[int, int | None]
    list_date: dt.date  # the list in force at the start (§1.4.6 a)
    byes: Counter[int]
    allocated: Counter[int]  # pairing-allocated byes
    rounds: int | None  # declared, while the event runs
    scheduled: int  # as declared, else the highest of its games and byes
    round_robin: bool
    scoreless: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, db: Db, event: EventRow, today: dt.date) -> _NormEvent:
        span = span_of(db, "standard", event.id)
        running = span is not None and (not span.ended or span.end >= today)
        stored_byes = event_byes(db, event.id)
        games = [g for g in queries.event_games(db, event.id) if g.tc == "standard"]
        numbers = [round_number(g.round) for g in games]
        numbers += [round_number(b.round) for b in stored_byes]
        facts = cls(
            games=games,
            people={p.id: p for p in queries.event_players(db, event.id)},
            listed=ListRatings(db, "standard").on_list_of(event.start_date),
            list_date=month_of(event.start_date),
            byes=Counter(b.player_id for b in stored_byes),
            allocated=Counter(b.player_id for b in stored_byes if b.code == "U"),
            rounds=event.rounds if running else None,
            scheduled=event.rounds or max((n for n in numbers if n is not None), default=0),
            round_robin=event.kind == "round-robin",
        )
        if facts.round_robin:
            facts.scoreless = {pid for pid in facts.people if facts.is_scoreless(pid)}
        return facts

    def rating_of(self, g: GameRow, pid: int) -> int | None:
        """The rating the norms count for player ``pid`` in game ``g`` (§1.4.6)."""
        if self.people[pid].external:
            recorded = g.white_rating if g.white_id == pid else g.black_rating
            return recorded_rating(recorded, self.list_date)
        return self.listed.get(pid)

    def is_scoreless(self, pid: int) -> bool:
        """§1.4.2b: in a round robin, an unrated opponent who scores zero against the rated
        ones is no opponent (his games are not included)."""
        played = [
            g for g in self.games if pid in (g.white_id, g.black_id) and g.result not in FORFEITS
        ]
        against_rated = [
            g for g in played if self.rating_of(g, g.black_id if g.white_id == pid else g.white_id)
        ]
        unrated = all(self.rating_of(g, pid) is None for g in played)
        points = sum(SCORES[g.result][0 if g.white_id == pid else 1] for g in against_rated)
        return bool(played and unrated and against_rated and points == 0)

    def player_norms(self, who: PlayerRow) -> PlayerNorms | None:
        """A player's norms in the event (None: he played no game of it)."""
        pid = who.id
        mine = sorted(
            (g for g in self.games if pid in (g.white_id, g.black_id)),
            key=lambda g: (g.played_on, round_order(g.round)),
        )
        if not mine:
            return None
        opponents, counted, forfeits, forfeit_wins = self._opponents(pid, mine)
        played = len(opponents) + forfeits + self.byes[pid]  # the rounds he is done with
        remaining = 0 if self.rounds is None else max(self.rounds - played, 0)
        norms = [n for n in rules.NORMS if rules.open_to(n, who.title, who.sex)]
        # §1.4.1c: 9 rounds, 8 games and the ninth a forfeit win or a pairing-allocated bye
        short = self.scheduled == 9 and len(opponents) == 8 and played == self.scheduled
        short = short and forfeit_wins + self.allocated[pid] == 1
        results = tuple(
            rules.best(n, who.federation, opponents, round_robin=self.round_robin, short=short)
            for n in norms
        )
        outlooks = tuple(
            rules.outlook(n, opponents, remaining) if remaining else None for n in norms
        )
        score = sum((o.score for o in opponents), Decimal(0))
        return PlayerNorms(
            pid,
            who.name,
            who.title,
            who.federation,
            len(opponents),
            forfeits,
            score,
            remaining,
            results,
            outlooks,
            tuple(counted),
        )

    def _opponents(
        self, pid: int, mine: list[GameRow]
    ) -> tuple[list[rules.Opponent], list[CountedGame], int, int]:
        """A player's opponents as the norms count them, his games counted, his forfeits
        and the forfeits he won (§1.4.2 c: a forfeit is not counted)."""
        opponents: list[rules.Opponent] = []
        counted: list[CountedGame] = []
        forfeits = forfeit_wins = 0
        for g in mine:
            white = g.white_id == pid
            if g.result in FORFEITS:  # §1.4.2 c
                forfeits += 1
                forfeit_wins += POINTS[g.result][0 if white else 1] == 1
                continue
            other = self.people[g.black_id if white else g.white_id]
            if other.id in self.scoreless:
                continue  # §1.4.2b
            rating = self.rating_of(g, other.id)
            points = SCORES[g.result][0 if white else 1]
            opponents.append(rules.Opponent(rating, other.title, other.federation, points))
            counted.append(CountedGame(g.round, g.played_on, other.name, other.id, rating, points))
        return opponents, counted, forfeits, forfeit_wins
