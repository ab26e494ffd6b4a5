"""``tracker forecast``: what an event being played or planned would do to a player's rating.

The forecast games join the player's games of the period their event is rated in (the month
it starts: the event is taken to end in it), and the period is closed for every way the
results can fall with the close's own fold (:mod:`tracker.ratings.fide.forecast`): his state
on the list in force (K, game count, sticky flags, an unrated player's pending results), his
other games of the period, the opponents' ratings on that list, the rules of the event's
start. Nothing is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from tracker.db.driver import Db
from tracker.db.queries.players import PlayerRow
from tracker.errors import InvalidInputError, NotFoundError, UsageError
from tracker.months import (
    month_label,
    month_of,
    month_span,
    months_between,
    next_month,
    previous_month,
)
from tracker.ratings.fide import forecast as whatif
from tracker.ratings.fide.events import recorded_rating
from tracker.ratings.fide.game import expected_score
from tracker.ratings.fide.month import rated_from_standard
from tracker.ratings.fide.player import close_period
from tracker.ratings.fide.records import PeriodGame, PlayerState
from tracker.ratings.fide.rules import rules_for
from tracker.ratings.month_games import MonthGame
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.players.refs import find
from tracker.user_input import check_plausible_rating
from tracker.vocabulary import TimeControl, plays_self

#: The draw rate is stated with this many decimals (it is rounded to them before use, so
#: every probability is an exact decimal and the distribution sums to 1 exactly).
DRAW_RATE_PLACES = 3

DRAW_MODEL = (
    "P(draw) = c x 2 min(E, 1 - E), E from table 8.1.2 at the full rating difference; "
    "P(win) = E - P(draw)/2"
)


@dataclass(frozen=True)
class ForecastOpponent:
    """One forecast game's opponent: ``rating`` as the close counts it (None: unrated, the
    game is not rated); ``name`` None for an opponent given by his rating."""

    text: str
    name: str | None
    player_id: int | None
    rating: int | None
    counted: bool  # the close counts the game for the player
    expected: Decimal | None  # PD the close uses (a rated player's counted games)


@dataclass(frozen=True)
class Result:
    """The close of the period for one score: the next published rating (None: unrated),
    a rated player's change, K used and the next K, a newcomer's initial rating."""

    rating: int | None
    change_exact: Decimal | None
    change: int | None
    k: int | None
    next_k: int | None
    initial: int | None  # computed, published or not
    pooled: int  # an unrated player's results pending after the close


@dataclass(frozen=True)
class ScoreRow:
    """One total score over the forecast games: the lowest and the highest result over the
    ways of making it (the same unless the games differ in what counts, see the module)."""

    score: Decimal
    low: Result
    high: Result


@dataclass(frozen=True)
class Outcome:
    rating: int | None
    change: int | None
    probability: Fraction


@dataclass(frozen=True)
class Distribution:
    """The next published rating's exact distribution."""

    model: str
    draw_rate: Decimal
    fitted_games: int | None  # None: the draw rate was given
    strength: int | None  # the player's rating the probabilities assume
    expected_score: Fraction
    outcomes: tuple[Outcome, ...]  # by rating, unrated first


@dataclass(frozen=True)
class Target:
    rating: int
    score: Decimal | None  # None: out of reach
    reached: int | None  # the rating at that score


@dataclass(frozen=True)
class Forecast:
    player: str
    player_id: int
    tc: TimeControl
    start: dt.date
    month: dt.date  # the period rating the event
    list_date: dt.date  # the list in force at the start
    rating: int | None  # Ro
    k_in_force: int | None
    rated_games: int
    pending: int  # an unrated player's pending results
    other_games: int  # his other games of the period
    opponents: tuple[ForecastOpponent, ...]
    k_used: int | None
    rows: tuple[ScoreRow, ...]
    target: Target | None
    distribution: Distribution | None
    notes: tuple[str, ...]


def forecast(
    db: Db,
    player_ref: str,
    opponents: list[str],
    *,
    tc: TimeControl,
    start: dt.date,
    target: int | None = None,
    probabilities: bool = False,
    draw_rate: Decimal | None = None,
    strength: int | None = None,
) -> Forecast:
    """The change for each score of ``opponents`` in an event starting on ``start``."""
    if not opponents:
        raise UsageError("give at least one opponent: a player or a rating such as 2150")
    if target is not None:
        check_plausible_rating(target, "target rating")
    if strength is not None:
        check_plausible_rating(strength, "strength")
    if draw_rate is not None and not 0 <= draw_rate <= 1:
        raise InvalidInputError(f"a draw rate lies within 0..1, not {draw_rate}")
    player = find(db, player_ref)
    if player.external:
        raise InvalidInputError(f"{player.name} is an external player: tracker does not rate him")
    month = month_of(start)
    notes: list[str] = []
    ratings = lists.ListRatings(db, tc, fallback_to_latest=True)
    state = _state_at(db, tc, player, month, ratings, notes)
    on_list = dict(ratings.on_list_of(start))
    closed = lists.closed_months(db, tc)
    if not closed or closed[-1].month < previous_month(month):
        # The list in force is not published yet: each tracked player stands on it as the
        # close of the open months before will put him (the latest list only stands in for
        # the ratings of the untracked), the player's Ro as every opponent's rating.
        on_list[player.id] = state.rating
        for text in opponents:
            other = _tracked(db, text)
            if other is not None and other.id != player.id:
                on_list[other.id] = _state_at(db, tc, other, month, ratings, []).rating
    own = on_list.get(player.id)
    chosen = [_opponent(db, text, player, on_list, month) for text in opponents]
    games = [
        PeriodGame(
            opponent=rating,
            score=Decimal(0),
            event_start=start,
            event_key=whatif.FORECAST_EVENT,
            own_rating=own,
            rules_from=start,
        )
        for _, _, _, rating in chosen
    ]
    existing = _existing(db, tc, player.id, month, ratings)
    first = rated_games.first_event(db, tc, month, player.id, state)
    start_state = rated_from_standard(state, [*existing, *games], tc)
    counted = whatif.counted_games(start_state, games, tc)
    classes = whatif.close_classes(state, existing, games, month=month, tc=tc, first_event=first)
    ro = own if own is not None else start_state.rating
    rules = rules_for(tc, start)
    opponent_rows = tuple(
        ForecastOpponent(
            text=text,
            name=name,
            player_id=pid,
            rating=rating,
            counted=c,
            expected=expected_score(ro, rating, rules)
            if c and ro is not None and rating is not None
            else None,
        )
        for (text, name, pid, rating), c in zip(chosen, counted, strict=True)
    )
    rows = _rows(classes)
    any_close = next(iter(classes.values())).outcome
    notes.extend(_common_notes(classes))
    distribution = None
    if probabilities:
        distribution = _distribution(
            db, tc, classes, counted, opponent_rows, ro, strength, draw_rate
        )
    return Forecast(
        player=player.name,
        player_id=player.id,
        tc=tc,
        start=start,
        month=month,
        list_date=month,
        rating=start_state.rating,
        k_in_force=any_close.k_in_force,
        rated_games=start_state.rated_games,
        pending=len(start_state.pool),
        other_games=len(existing),
        opponents=opponent_rows,
        k_used=any_close.k,
        rows=rows,
        target=_target(rows, target) if target is not None else None,
        distribution=distribution,
        notes=tuple(notes),
    )


def _state_at(
    db: Db,
    tc: TimeControl,
    player: PlayerRow,
    month: dt.date,
    ratings: lists.ListRatings,
    notes: list[str],
) -> PlayerState:
    """The player's state on the list in force during ``month``: as published, or (when
    earlier months are still open) his published state with those months' games folded in."""
    closed = lists.closed_months(db, tc)
    seed = lists.seeds(db, tc, only=[player.id]).get(player.id)
    state = PlayerState(birth_year=player.birth_year)
    if closed:
        last = closed[-1].month
        if month <= last:
            raise InvalidInputError(
                f"the {month_label(month)} {tc} period is closed: a forecast is for an event "
                f"rated in an open period (from {month_label(next_month(last))})"
            )
        listed = lists.states_after(db, tc, last, player.id)
        if player.id in listed:
            state = listed[player.id]
        elif seed is not None:
            state = lists.seeded_state(seed, player.birth_year, closed[0].month)
        open_from = next_month(last)
        if any(stale for _, _, stale in closed):
            notes.append("closed periods are stale: run `tracker rerate` for exact figures")
    else:
        first_games = lists.first_game_month(db, tc)
        open_from = min(first_games, month) if first_games is not None else month
        if seed is not None:
            state = lists.seeded_state(seed, player.birth_year, open_from)
    if open_from < month:
        gap = months_between(open_from, previous_month(month))
        notes.append(
            f"{month_span(gap)} not closed yet: the player's games there are folded in, the latest "
            "published list standing in for the lists not published yet"
        )
        for m in gap:
            mine = _existing(db, tc, player.id, m, ratings)
            state = rated_from_standard(state, mine, tc)
            first = rated_games.first_event(db, tc, m, player.id, state)
            state, _ = close_period(state, mine, month=m, tc=tc, details=False, first_event=first)
    return state


def _existing(
    db: Db, tc: TimeControl, pid: int, month: dt.date, ratings: lists.ListRatings
) -> list[PeriodGame]:
    """The player's games the period ``month`` rates, as its close takes them."""
    games = rated_games.period_games(db, tc, month, players=(pid,))
    return ratings.player_games(games, month, (pid,)).get(pid, [])


def _tracked(db: Db, text: str) -> PlayerRow | None:
    """The tracked player an opponent's text names (None: a rating, or an external)."""
    raw = text.strip()
    if raw.lower().startswith("ext:") or (raw.isascii() and raw.isdigit() and len(raw) <= 4):
        return None
    found = find(db, raw)
    return None if found.external else found


def _opponent(
    db: Db, text: str, player: PlayerRow, on_list: dict[int, int | None], month: dt.date
) -> tuple[str, str | None, int | None, int | None]:
    """(text, name, player id, rating as the close counts it) of one opponent given as a
    rating (``2150``, ``ext:2150``) or a player."""
    raw = text.strip()
    word = raw[4:].strip() if raw.lower().startswith("ext:") else None
    if word is not None or (raw.isascii() and raw.isdigit() and len(raw) <= 4):
        number = word if word is not None else raw
        if not (number.isascii() and number.isdigit()):
            raise InvalidInputError(f"bad opponent rating {text!r}: give a number such as 2150")
        rating = check_plausible_rating(int(number), "opponent rating")
        return raw, None, None, recorded_rating(rating, month)
    opp = find(db, raw)
    if opp.id == player.id:
        raise InvalidInputError(plays_self(player.name))
    if opp.external:
        raise InvalidInputError(
            f"{opp.name} is an external player, without a list rating: give the rating "
            "he plays with instead (e.g. 2150 or ext:2150)"
        )
    return raw, opp.name, opp.id, on_list.get(opp.id)


def _result(closed: whatif.Closed) -> Result:
    o = closed.outcome
    rated = o.rating_before is not None
    return Result(
        rating=o.rating_after,
        change_exact=o.change_exact if rated else None,
        change=o.change if rated else None,
        k=o.k,
        next_k=o.next_k,
        initial=o.initial.ru if o.initial is not None else None,
        pooled=o.pool_size,
    )


def _key(r: Result) -> tuple[int, Decimal, int]:
    return (
        r.rating if r.rating is not None else -1,
        r.change_exact if r.change_exact is not None else Decimal(0),
        r.initial if r.initial is not None else -1,
    )


def _rows(classes: dict[whatif.ScoreClass, whatif.Closed]) -> tuple[ScoreRow, ...]:
    out = []
    for score, closes in whatif.by_score(classes).items():
        results = sorted((_result(c) for c in closes), key=_key)
        out.append(ScoreRow(score, results[0], results[-1]))
    return tuple(out)


def _common_notes(classes: dict[whatif.ScoreClass, whatif.Closed]) -> list[str]:
    """The close's notes that hold whatever the results (the 700 rule, games not rated)."""
    all_notes = [c.outcome.notes for c in classes.values()]
    return [n for n in all_notes[0] if all(n in other for other in all_notes[1:])]


def _target(rows: tuple[ScoreRow, ...], target: int) -> Target:
    """The lowest score from which the next published rating is at least ``target`` whatever
    the split."""
    found: ScoreRow | None = None
    for row in reversed(rows):
        if row.low.rating is None or row.low.rating < target:
            break
        found = row
    if found is None:
        return Target(target, None, None)
    return Target(target, found.score, found.low.rating)


def _distribution(
    db: Db,
    tc: TimeControl,
    classes: dict[whatif.ScoreClass, whatif.Closed],
    counted: tuple[bool, ...],
    opponents: tuple[ForecastOpponent, ...],
    own: int | None,
    strength: int | None,
    draw_rate: Decimal | None,
) -> Distribution:
    fitted: int | None = None
    if draw_rate is None:
        rate, fitted = _fit(db, tc)
        if rate is None:
            raise NotFoundError(
                f"no {tc} games between rated players in closed periods to fit a draw rate "
                "on: give --draw-rate"
            )
        draw_rate = Decimal(rate.numerator) / Decimal(rate.denominator)
    c = draw_rate.quantize(Decimal(1).scaleb(-DRAW_RATE_PLACES), rounding=ROUND_HALF_UP)
    if strength is None:
        strength = own
    if strength is None:
        rated = [o.rating for o in opponents if o.rating is not None]
        strength = _half_away(Fraction(sum(rated), len(rated))) if rated else None
    probs = [
        whatif.game_probabilities(whatif.expectation(strength, o.rating), Fraction(c))
        for o in opponents
    ]
    dist = whatif.class_distribution(probs, counted)
    by_rating = whatif.rating_distribution(classes, dist)
    change_of = {
        c.outcome.rating_after: (c.outcome.change if c.outcome.rating_before is not None else None)
        for c in classes.values()
    }
    outcomes = tuple(
        Outcome(r, change_of.get(r), p)
        for r, p in sorted(by_rating.items(), key=lambda kv: -1 if kv[0] is None else kv[0])
    )
    expected = sum((w + d / 2 for w, d, _ in probs), Fraction(0))
    return Distribution(DRAW_MODEL, c, fitted, strength, expected, outcomes)


def _half_away(q: Fraction) -> int:
    return int((2 * q.numerator + q.denominator) // (2 * q.denominator))


def rated_pairs(
    db: Db, tc: TimeControl, months: Iterable[dt.date]
) -> Iterator[tuple[MonthGame, int, int]]:
    """The games of the months (closed) whose two players had a rating as the close took it:
    the list's in force when its event started, an external player's recorded one (a game
    of two external players is none of tracker's); each with white's and black's."""
    ratings = lists.ListRatings(db, tc)
    for month in months:
        for g in rated_games.period_games(db, tc, month):
            on_list = ratings.on_list_of(g.event_start)
            w = recorded_rating(g.white_rating, month)
            b = recorded_rating(g.black_rating, month)
            w = w if g.white_external else on_list.get(g.white_id)
            b = b if g.black_external else on_list.get(g.black_id)
            if w is not None and b is not None and not (g.white_external and g.black_external):
                yield g, w, b


def _fit(db: Db, tc: TimeControl) -> tuple[Fraction | None, int]:
    """The draw rate c fitted on the closed periods' games between two rated players (their
    ratings as the close took them: the list in force at the event's start, recorded ratings
    for external players)."""
    months = [m for m, _, _ in lists.closed_months(db, tc)]
    pairs = rated_pairs(db, tc, months)
    return whatif.fit_draw_rate(
        [(whatif.expectation(w, b), g.result == "1/2-1/2") for g, w, b in pairs]
    )
