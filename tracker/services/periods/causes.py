"""Why tracker's list and FIDE's differ (``tracker list --against FILE``): for each player
whose rating or K differs, the likely causes, most likely first, each with what a rating
officer would enter.

The causes are worked out from tracker's own data for the period that produced the player's
line (the list's month, or the last month before it he played in): the period is rated
again as closing rates it, then again with one thing changed the way FIDE may have had it,
and a change that gives FIDE's rating exactly counts as the likelier. Nothing is certain
(FIDE's list shows neither the games nor the Ro it used), so each cause is a "likely" or a
question, never a fact:

- ``rated_in``: an event that ended after the list's closing date (FIDE Rating Regulations
  2024 §7.1.3: "3 days before the date of the list") which tracker rated in the month while
  FIDE may have rated it a list later; or one tracker was told to rate later (``event edit
  --rated-in``) that FIDE rated in the month it ended. Enter ``event edit EVENT --rated-in``.
- ``earlier_list``: an event that began before the month, under a list tracker did not
  publish (its period is not closed) and for which no rating on FIDE's earlier list was
  given: tracker rated it with the seed. Enter ``player seed NAME --list MONTH --rating R``
  (R: a rating that gives FIDE's, when one does).
- ``ro``: FIDE rated the player in one event with a Ro a few points off his list rating (a
  corrected rating, F-P04). Enter ``event edit EVENT --ro NAME=R``.
- ``k``: the K differs (the games count, ever 2400, a junior's birth year).
- ``rounding``: a difference of 1 where the period's exact change lies near a half point,
  or where rounding each event on its own gives FIDE's rating (FIDE rounds the period once,
  §8.3.4): nothing to enter.
- ``missing_event``: FIDE rated games tracker has not (its list counts more games than
  ours, the player has none with us in the month, or nothing else explains the size): the
  score above expectation FIDE's rating needs, roughly (difference / K).
- ``unrated_here``: FIDE rates a tracked player whom tracker does not (yet).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from shlex import quote

from tracker.db.driver import Db
from tracker.db.queries.history import event_names
from tracker.db.queries.lists import ClosedMonth, official_ratings
from tracker.db.queries.players import PlayerRow
from tracker.db.queries.rated_games import month_games
from tracker.months import month_label, month_of, next_month, previous_month
from tracker.ratings.fide.arithmetic import round_half_away
from tracker.ratings.fide.events import EventSpan
from tracker.ratings.fide.month import rated_from_standard
from tracker.ratings.fide.period import GameDetail
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.month_games import MonthGame
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.players.refs import find
from tracker.vocabulary import TimeControl

CLOSING_DAYS = 3  # §7.1.3: the closing date is 3 days before the date of the list
RO_CORRECTIONS = 5  # a corrected Ro is tried up to this many points off the list's
EARLIER_LIST_SPAN = 400  # an earlier list's rating is sought this far from the Ro used


@dataclass(frozen=True)
class Cause:
    """One likely cause of a difference."""

    kind: str  # rated_in | earlier_list | ro | k | rounding | missing_event | unrated_here
    hint: str  # one short line, worded as a likelihood
    command: str | None  # what to enter (None: nothing to enter)
    exact: bool  # rating the period again with it gives FIDE's rating
    rank: float  # lower is likelier (the order of the list)


@dataclass(frozen=True)
class EventPart:
    """One event of the analysed period, as tracker rated it for the player."""

    event: str  # the event's name ("(no event)": games without one)
    start: dt.date
    end: dt.date
    stated: dt.date | None  # the rating period given for it (event edit --rated-in)
    games: int
    ro: int | None  # the player's Ro in it
    list_date: dt.date  # the list whose rating is the Ro
    ro_from: str  # tracker's list | earlier list | seed | corrected
    change: Decimal  # K x sum(score - expected) over its rated games


@dataclass(frozen=True)
class Explanation:
    month: dt.date | None  # the period analysed (None: no period with games)
    rating_before: int | None
    k: int | None  # the K used in the period
    games: int  # the games tracker rated in the list's month
    official_games: int | None  # FIDE's games of the list's period (its Gms column)
    change_exact: Decimal
    change: int
    events: tuple[EventPart, ...]
    causes: tuple[Cause, ...]


class _Periods:
    """The states and list ratings at the start of each period asked for (read once)."""

    def __init__(self, db: Db, tc: TimeControl, closed: list[ClosedMonth]) -> None:
        self.db = db
        self.tc = tc
        self.closed = closed
        self.closed_months = {c.month for c in closed}
        self.ratings = lists.ListRatings(db, tc)
        self._states: dict[dt.date, dict[int, PlayerState]] = {}

    def states(self, month: dt.date) -> dict[int, PlayerState]:
        if month not in self._states:
            states, lines = lists.states_at_start(self.db, self.tc, month, self.closed[0].month)
            if lines is not None:
                self.ratings.give(previous_month(month), lines)
            self._states[month] = states
        return self._states[month]


@dataclass
class _Rating:
    """One player's period, ready to be rated again with a change; his events in it."""

    month: dt.date
    state: PlayerState
    own: list[MonthGame]  # his games, in the order of ``mine``
    mine: list[PeriodGame]
    rate: Callable[[Sequence[PeriodGame]], PeriodOutcome]
    by_event: dict[int, list[int]]  # the indexes of his games (in ``mine``), by event
    spans: dict[int, EventSpan]  # of his events
    names: dict[int, str]


def explain(
    db: Db,
    tc: TimeControl,
    list_month: dt.date,
    closed: list[ClosedMonth],
    wanted: Sequence[tuple[int, int, int | None, int, int | None, int | None]],
) -> dict[int, Explanation]:
    """The explanations of the players ``wanted``: (player id, our rating, our K, FIDE's
    rating, FIDE's K, FIDE's games of the period), on our list that closed ``list_month``."""
    periods = _Periods(db, tc, closed)
    return {
        pid: _explain(db, tc, periods, list_month, pid, rating, k, official, official_k, gms)
        for pid, rating, k, official, official_k, gms in wanted
    }


def unrated_here(name: str, official: int) -> Cause:
    """FIDE rates a tracked player tracker does not."""
    return Cause(
        "unrated_here",
        "not rated by tracker yet: seed FIDE's rating?",
        f"tracker player seed {quote(name)} --rating {official} --games N",
        False,
        1,
    )


def _explain(
    db: Db,
    tc: TimeControl,
    periods: _Periods,
    list_month: dt.date,
    pid: int,
    rating: int,
    k: int | None,
    official: int,
    official_k: int | None,
    official_games: int | None,
) -> Explanation:
    player = find(db, f"#{pid}")
    lines = lists.player_lines(db, tc, pid, periods.closed)
    played = [m for m, _, line in lines if line.games > 0 and m <= list_month]
    games_now = next((line.games for m, _, line in lines if m == list_month), 0)
    month = played[-1] if played else None
    causes: list[Cause] = []
    events: tuple[EventPart, ...] = ()
    outcome: PeriodOutcome | None = None
    period = _period(db, tc, periods, month, pid, player.birth_year) if month is not None else None
    if period is not None and period.mine:
        outcome = period.rate(period.mine)
        events = _events(db, tc, periods, pid, period, outcome)
    difference = rating - official
    if difference:
        causes += _differences(
            db,
            tc,
            periods,
            (period, outcome, month),
            player,
            difference,
            (official, official_games),
            games_now,
            list_month,
            k,
        )
    if official_k is not None and k is not None and official_k != k:
        causes.append(_k(db, tc, period, outcome, list_month, player, k, official_k, official))
    causes.sort(key=lambda c: c.rank)
    return Explanation(
        month=month,
        rating_before=outcome.rating_before if outcome else None,
        k=outcome.k if outcome else None,
        games=games_now,
        official_games=official_games,
        change_exact=outcome.change_exact if outcome else Decimal(0),
        change=outcome.change if outcome else 0,
        events=events,
        causes=tuple(causes),
    )


def _differences(
    db: Db,
    tc: TimeControl,
    periods: _Periods,
    rated: tuple[_Rating | None, PeriodOutcome | None, dt.date | None],
    player: PlayerRow,
    difference: int,
    official: tuple[int, int | None],
    games_now: int,
    list_month: dt.date,
    k: int | None,
) -> list[Cause]:
    """What may make tracker's rating differ from FIDE's by ``difference``: the month it is
    rated in, an earlier list, an Ro, rounding (``rated``: the player's last period rated,
    its outcome and month), a game missing on either side (``official``: FIDE's rating and
    rated games)."""
    period, outcome, month = rated
    rating, official_games = official
    causes: list[Cause] = []
    if period is not None and outcome is not None:
        causes += _rated_in(db, tc, periods, period, player.id, rating)
        if outcome.rating_before is not None:
            causes += _earlier_list(db, tc, periods, period, player.id, player.name, rating)
            if official_games is None or month != list_month or official_games == games_now:
                causes += _ro(period, player.name, rating, difference)
            causes += _rounding(period, outcome, rating, difference)
    fewer = official_games is not None and official_games < games_now
    if not (fewer and causes):  # FIDE rated fewer games: a missing one is unlikely
        causes += _missing(
            list_month, month, outcome, k, rating, difference, games_now, official_games
        )
    return causes


def _period(
    db: Db, tc: TimeControl, periods: _Periods, month: dt.date, pid: int, birth_year: int | None
) -> _Rating:
    states = periods.states(month)  # first: it gives the list in force
    games = rated_games.period_games(db, tc, month, players=(pid,))
    mine = periods.ratings.player_games(games, month, (pid,)).get(pid, [])
    own = [g for g in games if pid in (g.white_id, g.black_id)]
    state = rated_from_standard(states.get(pid) or PlayerState(birth_year=birth_year), mine, tc)
    first = rated_games.first_event(db, tc, month, pid, state)
    by_event: dict[int, list[int]] = {}
    for i, g in enumerate(own):
        if g.event_id is not None:
            by_event.setdefault(g.event_id, []).append(i)

    def rate(pgs: Sequence[PeriodGame], state: PlayerState = state) -> PeriodOutcome:
        return close_period(state, pgs, month=month, tc=tc, first_event=first)[1]

    spans = rated_games.event_spans(db, tc, by_event)
    return _Rating(month, state, own, mine, rate, by_event, spans, event_names(db, list(by_event)))


def _rated_after(period: _Rating, pgs: Sequence[PeriodGame]) -> int | None:
    return period.rate(pgs).rating_after if pgs else period.state.rating


def _events(
    db: Db,
    tc: TimeControl,
    periods: _Periods,
    pid: int,
    period: _Rating,
    outcome: PeriodOutcome,
) -> tuple[EventPart, ...]:
    names, spans = period.names, period.spans
    parts: dict[int | None, list[tuple[MonthGame, PeriodGame, GameDetail]]] = {}
    for g, pg, d in zip(period.own, period.mine, outcome.details, strict=True):
        parts.setdefault(g.event_id, []).append((g, pg, d))
    out = []
    for event_id, rows in parts.items():
        g, pg, _ = rows[0]
        span = spans.get(event_id) if event_id is not None else None
        list_date = month_of(pg.event_start)
        if pg.corrected:
            source = "corrected"
        elif previous_month(list_date) in periods.closed_months:
            source = "tracker's list"
        elif pid in official_ratings(db, tc, list_date):
            source = "earlier list"
        else:
            source = "seed"
        out.append(
            EventPart(
                event=names.get(event_id, "?") if event_id is not None else "(no event)",
                start=span.start if span else min(r[0].played_on for r in rows),
                end=span.end if span else max(r[0].played_on for r in rows),
                stated=span.stated if span else None,
                games=len(rows),
                ro=pg.own_rating if pg.own_rating is not None else period.state.rating,
                list_date=list_date,
                ro_from=source,
                change=sum((d.change for _, _, d in rows if d.change is not None), Decimal(0)),
            )
        )
    return tuple(sorted(out, key=lambda e: (e.start, e.event)))


def _rated_in(
    db: Db, tc: TimeControl, periods: _Periods, period: _Rating, pid: int, official: int
) -> list[Cause]:
    """An event rated here in the month that FIDE may have rated a list later (ended after
    the closing date), or one stated to be rated later that FIDE may have rated here."""
    month = period.month
    closing = next_month(month) - dt.timedelta(days=CLOSING_DAYS)
    out = []
    for event_id, indexes in period.by_event.items():
        span, event = period.spans[event_id], period.names[event_id]
        if span.league or span.end < closing or month_of(span.end) != month:
            continue
        rest = [pg for i, pg in enumerate(period.mine) if i not in indexes]
        late = f"{event} ended {span.end}, after the closing date {closing}"
        exact = _rated_after(period, rest) == official
        out.append(_moved(event, f"{late}: FIDE rated it a list later?", next_month(month), exact))
    out += _stated_later(db, tc, periods, period, pid, official)
    return out


def _moved(event: str, hint: str, month: dt.date, exact: bool) -> Cause:
    """FIDE rated ``event`` in ``month``? (``exact``: that gives FIDE's rating.)"""
    command = f"tracker event edit {quote(event)} --rated-in {month_label(month)}"
    return Cause("rated_in", hint, command, exact, 0 if exact else 2)


def _stated_later(
    db: Db, tc: TimeControl, periods: _Periods, period: _Rating, pid: int, official: int
) -> list[Cause]:
    """The player's events ending in the month that tracker was told to rate later."""
    month = period.month
    mine = month_games(db, tc, month, (pid,))
    ids = {g.event_id for g in mine if g.event_id is not None}
    spans = rated_games.event_spans(db, tc, ids)
    waiting = {
        e
        for e in ids
        if spans[e].stated is not None
        and (spans[e].stated or month) > month
        and month_of(spans[e].end) == month
        and not spans[e].league
    }
    if not waiting:
        return []
    names = event_names(db, sorted(waiting))
    out = []
    for event_id in sorted(waiting):
        span = spans[event_id]
        games = [g for g in mine if g.event_id == event_id]
        if span.start < month:
            games += month_games(db, tc, month, (pid,), events=[event_id])
        games = [g._replace(event_start=span.start, rules_from=span.start) for g in games]
        added = periods.ratings.player_games(games, month, (pid,)).get(pid, [])
        exact = _rated_after(period, [*period.mine, *added]) == official
        event = names[event_id]
        hint = (
            f"{event} ended {span.end} but is rated in "
            f"{month_label(span.stated or month)}: FIDE rated it in {month_label(month)}?"
        )
        out.append(_moved(event, hint, month, exact))
    return out


def _earlier_list(
    db: Db, tc: TimeControl, periods: _Periods, period: _Rating, pid: int, name: str, official: int
) -> list[Cause]:
    """Events that began under a list tracker did not publish, rated with the seed."""
    month = period.month
    seeded = lists.seeds(db, tc, only=[pid]).get(pid)
    if seeded is None:
        return []
    out = []
    for list_date in sorted({month_of(pg.event_start) for pg in period.mine}):
        if list_date >= month or previous_month(list_date) in periods.closed_months:
            continue
        if pid in official_ratings(db, tc, list_date):
            continue
        under = [
            i
            for i, pg in enumerate(period.mine)
            if month_of(pg.event_start) == list_date and not pg.corrected
        ]
        if not under:
            continue
        ro = period.mine[under[0]].own_rating or seeded.rating

        def rated(r: int, under: list[int] = under) -> int | None:
            pgs = [
                pg._replace(own_rating=r) if i in under else pg for i, pg in enumerate(period.mine)
            ]
            return _rated_after(period, pgs)

        found = _solve(rated, official, ro)
        value = str(found) if found is not None else "R"
        out.append(
            Cause(
                "earlier_list",
                f"an earlier list: {len(under)} game(s) began under FIDE's "
                f"{month_label(list_date)} list, rated with the seed {ro}",
                f"tracker player seed {quote(name)} --list {month_label(list_date)} "
                f"--rating {value}",
                found is not None,
                0 if found is not None else 2,
            )
        )
    return out


def _solve(rated: Callable[[int], int | None], official: int, ro: int) -> int | None:
    """The Ro nearest ``ro`` that rates the period to ``official`` (the new rating falls as Ro
    rises), or None."""
    lo, hi = ro - EARLIER_LIST_SPAN, ro + EARLIER_LIST_SPAN

    def first_at_most(target: int) -> int:  # the smallest r in [lo, hi + 1] rated <= target
        a, b = lo, hi + 1
        while a < b:
            mid = (a + b) // 2
            got = rated(mid)
            if got is not None and got <= target:
                b = mid
            else:
                a = mid + 1
        return a

    first = first_at_most(official)
    last = first_at_most(official - 1) - 1
    if first > hi or last < first or rated(first) != official:
        return None
    return min(max(ro, first), last)


def _ro(period: _Rating, name: str, official: int, difference: int) -> list[Cause]:
    """A Ro a few points off the list's in one event rated whole (FIDE's corrected rating:
    ``event edit --ro`` refuses a league)."""
    spans = period.spans
    by_event = {e: at for e, at in period.by_event.items() if e in spans and not spans[e].league}
    for step in range(1, RO_CORRECTIONS + 1):
        for sign in (-1, 1) if difference > 0 else (1, -1):
            for event_id, indexes in by_event.items():
                ro = period.mine[indexes[0]].own_rating
                if ro is None:
                    continue
                r = ro + sign * step
                pgs = [
                    pg._replace(own_rating=r, corrected=True) if i in indexes else pg
                    for i, pg in enumerate(period.mine)
                ]
                if _rated_after(period, pgs) != official:
                    continue
                event = period.names[event_id]
                return [
                    Cause(
                        "ro",
                        f"a Ro correction: FIDE rated {event} with {r} (list: {ro})?",
                        f"tracker event edit {quote(event)} --ro {quote(f'{name}={r}')}",
                        True,
                        # a point off: a corrected Ro is as likely as rounding, no likelier
                        1.5 if abs(difference) == 1 else 0.5,
                    )
                ]
    return []


def _rounding(
    period: _Rating, outcome: PeriodOutcome, official: int, difference: int
) -> list[Cause]:
    """A point's difference from rounding (FIDE rounds the period once, §8.3.4)."""
    if abs(difference) != 1 or outcome.rating_after is None:
        return []
    exact = outcome.change_exact
    per_event: dict[str, Decimal] = {}
    for g, d in zip(period.own, outcome.details, strict=True):
        if d.change is not None:
            key = str(g.event_id) if g.event_id is not None else f"day:{g.played_on}"
            per_event[key] = per_event.get(key, Decimal(0)) + d.change
    if len(per_event) > 1:
        rounded = sum(round_half_away(c) for c in per_event.values())
        if rounded - outcome.change == -difference:
            return [
                Cause(
                    "rounding",
                    f"rounding: {len(per_event)} events rounded one by one give "
                    f"{rounded:+d}, the period {exact:+.2f} -> {outcome.change:+d} (§8.3.4)",
                    None,
                    False,
                    0.2,
                )
            ]
    boundary = Decimal(outcome.change) - Decimal(difference) / 2  # on FIDE's side
    distance = abs(exact - boundary)
    if distance >= Decimal("0.5"):
        return []
    return [
        Cause(
            "rounding",
            f"rounding: the change {exact:+.2f} is {distance:.2f} from {boundary:+.1f}; FIDE "
            "rounds the period once (§8.3.4)",
            None,
            False,
            1,
        )
    ]


def _missing(
    list_month: dt.date,
    month: dt.date | None,
    outcome: PeriodOutcome | None,
    k: int | None,
    official: int,
    difference: int,
    games_now: int,
    official_games: int | None,
) -> list[Cause]:
    """Games FIDE rated that tracker has not: always possible, likelier when FIDE's list
    counts more games or tracker has none in the month."""
    used = (outcome.k if outcome and outcome.k else None) or k or 20
    points = Decimal(-difference) / used
    counted = ""
    rank = 3.0
    if official_games is not None and official_games > games_now:
        counted = f"; FIDE rated {official_games} game(s), tracker {games_now}"
        rank = 0.3
    elif games_now == 0:
        counted = f"; no games with us in {month_label(list_month)}"
        rank = 0.8 if official_games is None else 2.5
    hint = f"an event missing from the database? {points:+.1f} points over expectation at K {used}"
    out = [
        Cause("missing_event", hint + counted, "tracker game add ... --event EVENT", False, rank)
    ]
    if games_now == 0 and month is not None and month != list_month:
        out.append(
            Cause(
                "earlier_period",
                f"a difference from {month_label(month)}, the last month with games? compare "
                f"FIDE's list of {month_label(next_month(month))}",
                f"tracker list {month_label(next_month(month))} --against FILE",
                False,
                1.2 if official_games in (0, None) else 2.6,
            )
        )
    return out


def _k(
    db: Db,
    tc: TimeControl,
    period: _Rating | None,
    outcome: PeriodOutcome | None,
    list_month: dt.date,
    player: PlayerRow,
    k: int,
    official_k: int,
    official: int,
) -> Cause:
    """Which of K's rules differ (§8.3.3), from the player's state on our list."""
    pid, name, born = player.id, player.name, player.birth_year
    state = lists.states_after(db, tc, list_month, pid).get(pid)
    games = state.rated_games if state else 0
    seed = lists.seeds(db, tc, only=[pid]).get(pid)
    seeded = f"--rating {seed.rating} --games {seed.games}" if seed else "--rating R --games N"
    year = next_month(list_month).year
    junior = born is not None and year - born <= 18 and not (state and state.ever_2300)
    command: str | None = None
    if official_k == 10:
        why = "FIDE's K 10: once published at 2400?"
        command = f"tracker player seed {quote(name)} {seeded} --ever-2400"
    elif k == 10:
        why = f"tracker's K 10 (ever 2400); FIDE's {official_k}: never published at 2400?"
    elif k == 40 and junior:
        why = f"tracker's junior K 40 (born {born}); FIDE's {official_k}: another birth year?"
        command = f"tracker player edit {quote(name)} --born YEAR"
    elif k == 40:
        why = f"tracker counts {games} rated games (K 40 until 30); FIDE's K {official_k}: more?"
        command = f"tracker player seed {quote(name)} --rating R --games N"
    elif official_k == 40 and born is None:
        why = "FIDE's K 40: a junior (no birth year given)? or fewer than 30 games"
        command = f"tracker player edit {quote(name)} --born YEAR"
    elif official_k == 40:
        why = f"FIDE's K 40: fewer than 30 rated games (tracker counts {games})?"
        command = f"tracker player seed {quote(name)} --rating R --games N"
    else:
        why = f"K differs: tracker's {k}, FIDE's {official_k}"
    exact = False
    if (
        period is not None
        and outcome is not None
        and period.state.rating is not None
        and outcome.rating_after != official
    ):
        with_k = period.state._replace(k=official_k)
        _, again = close_period(with_k, period.mine, month=period.month, tc=tc)
        exact = again.rating_after == official
    return Cause("k", why, command, exact, 0.1 if exact else 1.8)
