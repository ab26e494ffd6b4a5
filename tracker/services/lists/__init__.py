"""Reads of the published lists, and stale marks: what closing, history, the live view
and the shadow share.

A closed period's list is its ``elo_history`` rows: every tracked player with a FIDE state
has one row per closed period, so the state at the start of a month is exactly the previous
period's rows (plus the seeds of players not listed yet). Exact decimals are stored as
integer hundredths; an unrated player's pending results as JSON.

Corrections (a game added, edited or removed in a closed month; a seed or birth year
changed) mark that period and every later one stale. Reads warn about stale periods;
``rerate`` (and the next ``period close``) recomputes them.
"""

import datetime as dt
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple

from tracker.db.driver import IN_CHUNK, Db
from tracker.db.queries import lists as queries
from tracker.db.queries.lists import ClosedMonth, Entry, Line, ListSeed
from tracker.db.queries.lists import closed_months as closed_months  # the lists' own reads
from tracker.db.queries.lists import period_id as period_id
from tracker.db.queries.lists import seeds as seeds
from tracker.db.rows import EloRow
from tracker.months import month_label, month_of, next_month, previous_month
from tracker.ratings.fide.records import PeriodGame, PlayerState, PoolGame
from tracker.ratings.fide.state import carries_over, publication, seed_publication, seed_state
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import TIME_CONTROLS, TimeControl

if TYPE_CHECKING:
    from tracker.db.models import PlayerSeed


def hundredths(value: Decimal) -> int:
    if not value:
        return 0
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not exact in hundredths")
    return int(scaled)


def from_hundredths(value: int) -> Decimal:
    return Decimal(value) / 100


def first_game_month(db: Db, tc: TimeControl) -> dt.date | None:
    first = queries.first_game_day(db, tc)
    return month_of(first) if first is not None else None


# ---------------------------------------------------------------------------------------
# The lines of a published list. A closed period stores the lines that changed: every player
# who played, every unrated player with something pending, every first rating and every
# drop. A rated player without games carries his line over: his rating, flags and game count
# stay, only K is that of the new list (FIDE Rating Regulations 2024 §8.3.3). Such a line is
# derived when read, from his latest stored line (or his seed), exactly as closing the
# period would have made it (tracker.ratings.fide.close_idle).


def carried(line: Line, month: dt.date) -> Line | None:
    """``line`` (stored for an earlier period) carried over to the list closing ``month``:
    for a rated player, his line with no games and the K of that list; None for an unrated
    one (he is not listed: an unrated player with anything pending has a stored line)."""
    if line.rating is None:
        return None
    flags = publication(  # as fide.close_idle publishes it again
        line.rating,
        line.rated_games,
        line.ever_2400,
        line.ever_2300,
        line.birth_year,
        next_month(month).year,
    )
    return Line(
        line.player_id, line.rating, line.rating, None, flags.k, 0, 0, 0, 0, 0,
        line.rated_games, flags.ever_2400, flags.ever_2300, _COUNTED_EMPTY_POOL, None,
        line.birth_year, line.external, stored=False,
    )  # fmt: skip


def seed_line(seed: ListSeed, first_month: dt.date, month: dt.date) -> Line:
    """A seeded player's line on the list closing ``month``, before he has stored one: his
    seed (published on the list in force during ``first_month``) carried over, as
    :func:`carried` carries a line."""
    flags = seed_publication(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, seed.birth_year, first_month,
        next_month(month).year,
    )  # fmt: skip
    return Line(
        seed.player_id, seed.rating, seed.rating, None, flags.k, 0, 0, 0, 0, 0, seed.games,
        flags.ever_2400, flags.ever_2300, _COUNTED_EMPTY_POOL, None, seed.birth_year, False,
        stored=False,
    )  # fmt: skip


def seed_entry(seed: ListSeed, first_month: dt.date, month: dt.date) -> Entry:
    """What the list closing ``month`` shows of a seeded player without a line of his own:
    :func:`entry` of :func:`seed_line`, made directly (a first list carries thousands)."""
    flags = seed_publication(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, seed.birth_year, first_month,
        next_month(month).year,
    )  # fmt: skip
    return Entry(
        seed.player_id, 0, seed.rating, 0, 0, flags.k, seed.games, flags.ever_2400,
        flags.ever_2300,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# The published lists stored once (``list_entries``): the close (and the rerate) stores each
# list it publishes, made from the lines above; the readers of a list read it back.


def entry(line: Line | EloRow) -> Entry | None:
    """What the list shows of ``line`` (unranked; as read, or as just stored), if it is
    rated."""
    if line.rating is None:
        return None
    return Entry(
        line.player_id, 0, line.rating, line.change, line.games, line.next_k,
        line.rated_games, line.ever_2400, line.ever_2300,
    )  # fmt: skip


def store_list(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    period: int,
    lines: Sequence[Line | EloRow] | None = None,
    read_seeds: Callable[[], Mapping[int, ListSeed]] | None = None,
) -> None:
    """Store the list that closed ``month`` (its period ``period``), once its lines are:
    the stored list before it carried over (as :func:`carried` carries a line), the lines
    of the period over it; the first list from the seeds and its lines. The entries of
    :func:`player_lines` on that list, without reading every player's lines, and without
    holding the list in memory: the list before is copied in the database, then its K and
    flags published again, then the period's players' entries replaced. ``lines``: the
    period's lines, as just stored (else read); ``read_seeds``: see :func:`states_at_start`."""
    before = period_id(db, tc, previous_month(month))
    if before is None:
        _store_first_list(db, tc, month, period, lines, read_seeds)
        return
    if lines is None:
        lines = queries.period_lines(db, period)
    year = next_month(month).year
    queries.copy_entries(db, before, period)
    if year != month.year:  # a line carried over changes its K (a junior's) at a new year only
        queries.republish(db, period, _republished(db, period, year))
    if all(line.rating is None for line in lines) and not queries.any_listed(
        db, before, [line.player_id for line in lines]
    ):
        # the period's lines are unrated players' (their pools), none of them on the list:
        # nobody else's entry changes (a live list closes every empty month up to today's)
        return
    rated = (e for line in lines if (e := entry(line)) is not None)
    queries.replace_entries(db, period, {line.player_id for line in lines}, rated)


def _republished(db: Db, period: int, year: int) -> list[queries.EntryFlags]:
    """The entries of the list of the period ``period`` whose K or flags change when they
    are published on a list of ``year`` (a junior's K at a new year)."""
    changed = []
    for e, born, _ in queries.entries_with_players(db, period):  # streamed
        flags = publication(e.rating, e.rated_games, e.ever_2400, e.ever_2300, born, year)
        if (flags.k, flags.ever_2400, flags.ever_2300) != (e.k, e.ever_2400, e.ever_2300):
            changed.append(
                queries.EntryFlags(e.player_id, flags.k, flags.ever_2400, flags.ever_2300)
            )
    return changed


def _store_first_list(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    period: int,
    lines: Sequence[Line | EloRow] | None,
    read_seeds: Callable[[], Mapping[int, ListSeed]] | None,
) -> None:
    """:func:`store_list` of a list with no list before it (the closed periods follow each
    other from the first): the first list, from the seeds carried over
    (:func:`seed_entry`) and the period's lines over them."""
    if lines is None:
        lines = queries.period_lines(db, period)
    listed = {line.player_id for line in lines}
    found = seeds(db, tc) if read_seeds is None else read_seeds()
    # made as they are written: a federation's first list holds 600,000 seeded players
    carried_over = (seed_entry(s, month, month) for pid, s in found.items() if pid not in listed)
    shown = (e for line in lines if (e := entry(line)) is not None)
    queries.write_entries(db, period, chain(carried_over, shown))


def restore_players(db: Db, players: Collection[int], *, leaving: bool = False) -> None:
    """The stored lists after a change to ``players`` that is not a rerate (a seed, a birth
    year, a player made external or removed): their entries made again from what the lists
    derive, and the ranks of the lists their entries change (a list where none of theirs
    changes is not read: adding a player without a seed reads his rows only). ``leaving``:
    they leave every list (a player about to be removed)."""
    wanted = set(players)
    for tc in TIME_CONTROLS:
        closed = closed_months(db, tc)
        if not closed or not wanted:
            continue
        if len(wanted) > IN_CHUNK:
            for month, period, _ in closed:
                store_list(db, tc, month, period)
            continue
        made: dict[dt.date, list[Entry]] = {}
        for pid in () if leaving else wanted:
            for month, _, line in player_lines(db, tc, pid, closed):
                if (e := entry(line)) is not None:
                    made.setdefault(month, []).append(e)
        had = queries.players_entries(db, wanted)
        for month, period, _ in closed:
            theirs = set(made.get(month, []))
            if theirs != had.get(period, set()):  # else as stored: nobody's rank moves
                queries.replace_entries(db, period, wanted, theirs)


def ratings_at(
    db: Db, tc: TimeControl, month: dt.date, players: Collection[int] | None = None
) -> dict[int, int | None]:
    """The rating of every line of the list that closed ``month`` (of ``players``
    only, if given): its stored entries, and None for each unrated
    line stored on it (pending results); read from the stored list and that period's own
    lines."""
    period = period_id(db, tc, month)
    if period is None:
        return {}
    out: dict[int, int | None] = dict.fromkeys(queries.unrated_lines(db, period, players))
    out.update(queries.entry_ratings(db, period, players))
    return out


def player_lines(
    db: Db,
    tc: TimeControl,
    player_id: int,
    closed: list[ClosedMonth] | None = None,
) -> list[tuple[dt.date, bool, Line]]:
    """The player's line on every closed list he is on, oldest first: (month, stale, line).
    ``closed``: :func:`closed_months`, if the caller has read them."""
    closed = closed_months(db, tc) if closed is None else closed
    stored = queries.player_lines(db, tc, player_id)
    seed = seeds(db, tc, only=[player_id]).get(player_id)
    out: list[tuple[dt.date, bool, Line]] = []
    previous: Line | None = None
    started = False  # a stored line or the seed has put him on a list
    for month, _, stale in closed:
        line = stored.get(month)
        if line is None and previous is not None:
            line = carried(previous, month)
        elif line is None and not started and seed is not None:
            line = seed_line(seed, closed[0].month, month)
        if line is not None:
            out.append((month, stale, line))
        previous = line
        started = started or line is not None
    return out


class ListRatings:
    """Published ratings by list, for Ro and the opponents' ratings (the list in force
    when the event started). A list before the first closed period is the seeds, except for
    the players whose rating on that earlier list was given (``player seed --list``)."""

    def __init__(
        self,
        db: Db,
        tc: TimeControl,
        *,
        fallback_to_latest: bool = False,
        keep: int | None = None,
        players: Collection[int] | None = None,
    ) -> None:
        self.db = db
        self.tc = tc
        # Rapid & Blitz Rating Regulations §7.2.1: a player unrated in rapid (blitz) who has a
        # standard rating at the start of the tournament is rated with that rating.
        self.standard = (
            ListRatings(
                db, "standard", fallback_to_latest=fallback_to_latest, keep=keep, players=players
            )
            if tc != "standard"
            else None
        )
        self.cache: dict[dt.date, dict[int, int | None]] = {}
        self.closed = {m: pid for m, pid, _ in closed_months(db, tc)}
        self.fallback_to_latest = fallback_to_latest
        self.keep = keep  # the lists held (the last asked for), if not all
        # Only these players' ratings are read (a report on a few: an event's players and
        # their opponents); any other reads as unlisted.
        self.players = None if players is None else frozenset(players)
        self._seeds: dict[int, int | None] | None = None
        self._seed_rows: dict[int, ListSeed] | None = None
        self._given: dict[dt.date, dict[int, int | None]] = {}

    def give(self, period: dt.date, ratings: dict[int, int | None]) -> None:
        """The published ratings of the closed ``period`` (every line of it), when the caller
        has read them already."""
        self._given[period] = ratings
        self._bound(self._given)

    def on_list_of(self, day: dt.date) -> dict[int, int | None]:
        """Ratings on the list in force on ``day`` (the list dated the 1st of its month)."""
        period = previous_month(month_of(day))
        ratings = self.cache.pop(period, None)
        if ratings is None:
            ratings = self._load(period)
            if self.standard is not None:
                standard = self.standard.on_list_of(day)
                ratings = {**standard, **{p: r for p, r in ratings.items() if r is not None}}
        self.cache[period] = ratings  # the last asked for is the last to go
        self._bound(self.cache)
        return ratings

    def _bound(self, held: dict[dt.date, dict[int, int | None]]) -> None:
        while self.keep is not None and len(held) > self.keep:
            del held[next(iter(held))]

    def lists_for(self, games: Iterable[MonthGame]) -> dict[dt.date, dict[int, int | None]]:
        """The list in force at each event start among ``games``, by that start."""
        return {start: self.on_list_of(start) for start in {g.event_start for g in games}}

    def player_games(
        self, games: Sequence[MonthGame], month: dt.date, only: Container[int] | None = None
    ) -> dict[int, list[PeriodGame]]:
        """Each tracked player's games among ``games`` (``only`` those players') as the close
        of ``month`` takes them, rated with these lists
        (:func:`tracker.ratings.fide.month.player_games`)."""
        from tracker.ratings.fide.month import player_games  # not loaded by the list readers

        on_lists, corrected = self.lists_for(games), self.corrected(games)
        return player_games(games, on_lists, month, only=only, corrected=corrected)

    def corrected(self, games: Iterable[MonthGame]) -> dict[tuple[int, int], int]:
        """The ratings FIDE rated players with in the events of ``games`` where they are not
        their list ratings (``event edit --ro``), by (event, player)."""
        events = {g.event_id for g in games if g.event_id is not None}
        return queries.event_ratings(self.db, events) if events else {}

    def _load(self, period: dt.date) -> dict[int, int | None]:
        if period in self._given and period in self.closed:
            return self._given[period]
        month: dt.date | None = period if period in self.closed else None
        if month is None and self.fallback_to_latest:
            # The live view: a list not published yet is stood in for by the latest one.
            earlier = [m for m in self.closed if m <= period]
            month = max(earlier) if earlier else None
        if month is None:  # a list tracker did not publish: the seeds, or an earlier list
            given = queries.official_ratings(self.db, self.tc, next_month(period))
            seeded = self._seed_ratings()
            return {**seeded, **given} if given else seeded
        return ratings_at(self.db, self.tc, month, self.players)

    def seeds(self) -> dict[int, ListSeed]:
        """The seeds (of the players read), read once: a list before the first closed period
        is made of them, and so is the state at the start of that period."""
        if self._seed_rows is None:
            self._seed_rows = seeds(self.db, self.tc, only=self.players)
        return self._seed_rows

    def _seed_ratings(self) -> dict[int, int | None]:
        if self._seeds is None:
            self._seeds = {pid: s.rating for pid, s in self.seeds().items()}
        return self._seeds


# The pool column: ``{"counted": first event settled (§8.2.1), "games": [[month, opponent,
# score, event key, event start, held], ...]}``; what is written for every rated player
# (nothing pending), precomputed. Rows of revision 0004 and before have no "held" element.
_COUNTED_EMPTY_POOL = '{"counted": true, "games": []}'  # json.dumps of it: no json to load


def pool_to_json(state: PlayerState) -> str | None:
    if not state.pool:
        return _COUNTED_EMPTY_POOL if state.first_event_settled else None
    import json  # only when a line holds a pool: most readers load no json

    return json.dumps(
        {
            "counted": state.first_event_settled,
            "games": [
                [
                    g.month.isoformat(),
                    g.opponent,
                    str(g.score),
                    g.event_key,
                    g.event_start.isoformat(),
                    int(g.held),
                ]
                for g in state.pool
            ],
        }
    )


def pool_from_json(text: str | None) -> tuple[tuple[PoolGame, ...], bool]:
    if not text:
        return (), False
    if text == _COUNTED_EMPTY_POOL:
        return (), True
    import json  # only when a line holds a pool: most readers load no json

    data = json.loads(text)
    games = tuple(
        PoolGame(
            month=dt.date.fromisoformat(m),
            opponent=int(opp),
            score=Decimal(score),
            event_key=key,
            event_start=dt.date.fromisoformat(start),
            held=bool(held[0]) if held else False,
        )
        for m, opp, score, key, start, *held in data["games"]
    )
    return games, bool(data["counted"])


def states_after(db: Db, tc: TimeControl, month: dt.date, player_id: int) -> dict[int, PlayerState]:
    """The player's state as published on the list that closed ``month`` (none if it is
    not closed, or he is not on it), by his id."""
    period = period_id(db, tc, month)
    return {} if period is None else list_lines(db, period, players=[player_id])[0]


def list_lines(
    db: Db,
    period: int,
    *,
    needed: Container[int] | None = None,
    players: Collection[int] | None = None,
) -> tuple[dict[int, PlayerState], dict[int, int | None]]:
    """The tracked players' states on the list of the period ``period``, and the rating of
    every line of it. ``needed``: the states of these players and of those whose line does
    not carry over (unrated, or below the floor) only, the others' left out. Read from the
    stored list (every rated line: nothing pending, its pool is :data:`_COUNTED_EMPTY_POOL`)
    and the unrated lines stored on it; ``players``: those players' lines only (a report on
    a few)."""
    states: dict[int, PlayerState] = {}
    ratings: dict[int, int | None] = {}
    for e, born, external in queries.entries_with_players(db, period, players):
        ratings[e.player_id] = e.rating
        if not external and (needed is None or e.player_id in needed or not carries_over(e.rating)):
            states[e.player_id] = PlayerState(
                rating=e.rating,
                rated_games=e.rated_games,
                ever_2400=e.ever_2400,
                ever_2300=e.ever_2300,
                birth_year=born,
                pool=(),
                k=e.k,
                first_event_settled=True,
            )
    for line in queries.period_lines(db, period, unrated=True, players=players):
        ratings[line.player_id] = None
        if not line.external:
            states[line.player_id] = line_state(line, line.birth_year)
    return states, ratings


def line_state(line: Line | EloRow, birth_year: int | None) -> PlayerState:
    """A player's state from his line on a list (stored in ``elo_history``) and his birth
    year."""
    games, counted = pool_from_json(line.pool)
    return PlayerState(
        rating=line.rating,
        rated_games=line.rated_games,
        ever_2400=bool(line.ever_2400),
        ever_2300=bool(line.ever_2300),
        birth_year=birth_year,
        pool=games,
        k=line.next_k,
        first_event_settled=counted or line.rated_games > 0 or line.rating is not None,
    )


def seeded_state(
    seed: "PlayerSeed | ListSeed", birth_year: int | None, first_month: dt.date
) -> PlayerState:
    return seed_state(
        seed.rating, seed.games, seed.ever_2400, seed.ever_2300, birth_year, first_month
    )


class PublishedList(NamedTuple):
    """A list just published in this transaction, exactly as reading it back would give it
    (closing months one after another, as ``rerate`` does, then reads nothing back)."""

    period: int
    states: dict[int, PlayerState]  # tracked players' states (:func:`list_lines`)
    lines: dict[int, int | None]  # every line's rating


def states_at_start(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    first_month: dt.date,
    published: PublishedList | None = None,
    *,
    needed: Container[int] | None = None,
    players: Collection[int] | None = None,
    read_seeds: Callable[[], Mapping[int, ListSeed]] | None = None,
) -> tuple[dict[int, PlayerState], dict[int, int | None] | None]:
    """Tracked players' states on the list in force during ``month``, and the ratings of every
    line of that list (None before the first closed period). ``published``: that list, just
    published in this transaction. ``needed``: see :func:`list_lines` (a close that does not
    hand its list on needs the states of its players and of the unrated only: a federation's
    list holds 600,000 players, 50,000 of them active in a month); ``players``: those
    players' states and lines only (a report on a few). ``read_seeds``: where the seeds come
    from before the first closed period, if not read here (:meth:`ListRatings.seeds`, read
    once for both)."""
    if published is not None:
        return dict(published.states), published.lines
    period = period_id(db, tc, previous_month(month))
    if period is not None:
        # seeded players not listed yet included
        return list_lines(db, period, needed=needed, players=players)
    found = seeds(db, tc, only=players) if read_seeds is None else read_seeds()
    states = {
        pid: seeded_state(seed, seed.birth_year, first_month)
        for pid, seed in found.items()
        if needed is None or pid in needed or not carries_over(seed.rating)
    }
    return states, None


#: FIDE's first rating list (1971): no earlier list exists.
FIRST_FIDE_LIST = dt.date(1971, 1, 1)


def fide_list_problem(list_date: dt.date, today: dt.date) -> str | None:
    """Why there is no FIDE list of ``list_date``, or None: it is not out yet, or predates
    FIDE's lists."""
    label = month_label(list_date)
    if list_date > month_of(today):
        return f"the {label} list is not out yet"
    if list_date < FIRST_FIDE_LIST:
        return f"there is no FIDE list of {label}: the first is of 1971"
    return None


def earlier_list_problem(db: Db, tc: TimeControl, list_date: dt.date, today: dt.date) -> str | None:
    """Why FIDE's list of ``list_date`` cannot be given as an earlier list, or None: it is
    not out yet, predates FIDE's lists, or is one tracker publishes itself (after the list in
    force during its first closed period: tracker's own lists rate everything from there)."""
    problem = fide_list_problem(list_date, today)
    if problem is not None:
        return problem
    closed = closed_months(db, tc)
    first = closed[0].month if closed else None
    if first is not None and list_date > first:
        return (
            f"tracker publishes the {tc} lists from {month_label(next_month(first))} on "
            f"itself (its first closed period is {month_label(first)}): an earlier list is "
            "one before"
        )
    return None
