"""An unrated player's period: his results against rated opponents are pooled until they give
a first rating (FIDE Rating Regulations 2024 §7.1.4, §8.2), his first event judged by §8.2.1.

The first rating follows the rules in force for the rating period that works it out
(:func:`~.rules.select_initial_rules`): the 2024 rules from the March 2024 period, the 2022
rules (Ra + 20 a half point over 50 %, published from 1000) from January 2022 to February 2024.
The events' rule sets (:func:`~.rules.select_rules`: the 400-point rule and its amendments)
play no part in it, so their notes are not given here.

§8.2.1: "If an unrated player scores zero in their first event this score is disregarded.
Otherwise, their rating is calculated using all their results as in 7.1.4." Readings (the
text says no more; see "Interpretations and limits" in docs/rules.md):

- the first event is the event of the player's first played game, not the event that
  started first;
- its score is the event score: every played game of the event, against rated and unrated
  opponents alike (forfeits are not games, §5.1);
- only that one event is judged: a zero in a later event counts like any other result;
- the event is judged as a whole: a league rated month by month whose first parts score
  zero has those results *held* (pooled, not counted) until the event scores (then they
  count) or ends on zero (then all of it is disregarded).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from tracker.months import month_index, next_month
from tracker.ratings.fide.arithmetic import ZERO
from tracker.ratings.fide.initial import InitialRating, initial_rating
from tracker.ratings.fide.period import GameDetail
from tracker.ratings.fide.records import (
    FirstEvent,
    PeriodGame,
    PeriodOutcome,
    PlayerState,
    PoolGame,
)
from tracker.ratings.fide.rules import (
    EventKey,
    GameStatus,
    select_initial_rules,
)
from tracker.ratings.fide.state import published
from tracker.vocabulary import TimeControl


def first_event_of(games: Sequence[PeriodGame]) -> FirstEvent | None:
    """The first event when only this period's games are known (callers without a database):
    the event of the first game given, with its score over the games given."""
    if not games:
        return None
    key = games[0].event_key
    return FirstEvent(key, sum((g.score for g in games if g.event_key == key), ZERO), True)


def _first_event(
    first: FirstEvent | None,
    games: Sequence[PeriodGame],
    kept: tuple[PoolGame, ...],
    notes: list[str],
) -> tuple[str, EventKey | None, tuple[PoolGame, ...]]:
    """§8.2.1 for a player whose first event is not settled: the verdict, the first event's
    key when disregarded or held, and the pool once the verdict applies to its held results.
    The verdict: ``settle`` when the first event has a score (everything counts),
    ``disregard`` when it ended on zero, ``hold`` while a league's score is zero so far,
    ``wait`` when the first event is not rated yet (nothing of it is here)."""
    held = any(pg.held for pg in kept)
    if first is None or not (held or any(g.event_key == first.key for g in games)):
        return "wait", None, kept
    if first.score > 0:
        return "settle", None, tuple(pg._replace(held=False) if pg.held else pg for pg in kept)
    if not first.over:
        notes.append(
            "zero score so far in the first event, which goes on: its results are held until "
            "it ends (§8.2.1)"
        )
        return "hold", first.key, kept
    notes.append("zero score in the first event disregarded (§8.2.1)")
    dropped = sum(1 for pg in kept if pg.held)
    if dropped:
        notes.append(f"{dropped} held result(s) of the first event disregarded (§8.2.1)")
    return "disregard", first.key, tuple(pg for pg in kept if not pg.held)


def _sorted_games(
    games: Sequence[PeriodGame],
    month: date,
    verdict: str,
    special: EventKey | None,
    with_details: bool,
    notes: list[str],
) -> tuple[list[PoolGame], list[GameDetail]]:
    """The period's games: pooled, held (the first event's, while it has no score),
    disregarded, or against an unrated opponent (§7.1.4: not counted); the pool's new
    results, and each game's detail."""
    details: list[GameDetail] = []
    added: list[PoolGame] = []
    unrated_opp = 0
    for g in games:
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif special is not None and g.event_key == special:
            status = "disregarded" if verdict == "disregard" else "held"
            if verdict == "hold":
                added.append(PoolGame(month, g.opponent, g.score, g.event_key, g.event_start, True))
        else:
            status = "pooled"
            added.append(PoolGame(month, g.opponent, g.score, g.event_key, g.event_start))
        if with_details:
            details.append(
                GameDetail(
                    opponent=g.opponent,
                    score=g.score,
                    event_start=g.event_start,
                    event_key=g.event_key,
                    status=status,
                )
            )
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not counted (§7.1.4)")
    return added, details


def close_unrated(
    state: PlayerState,
    games: Sequence[PeriodGame],
    month: date,
    tc: TimeControl,
    first: FirstEvent | None,
    with_details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    """An unrated player's period (see the module docstring); ``first`` is his first event
    (None: taken from ``games`` by :func:`first_event_of`)."""
    list_date = next_month(month)
    notes: list[str] = []
    now = month_index(month)
    selection = select_initial_rules(tc, month)
    initial_rules = selection.rules
    pool_months = initial_rules.pool_months

    kept = tuple(pg for pg in state.pool if now - month_index(pg.month) < pool_months)
    expired = len(state.pool) - len(kept)
    if expired:
        notes.append(f"{expired} pooled result(s) older than {pool_months} months dropped (§7.1.4)")

    settled = state.first_event_settled or state.rated_games > 0
    special: EventKey | None = None  # the first event's key, when disregarded or held
    verdict = "settle"
    if not settled:
        first = first if first is not None else first_event_of(games)
        verdict, special, kept = _first_event(first, games, kept, notes)
        settled = verdict in ("settle", "disregard")
    added, details = _sorted_games(games, month, verdict, special, with_details, notes)
    pool = kept + tuple(added)
    counted = [pg for pg in pool if not pg.held]
    new_state = state._replace(pool=pool, first_event_settled=settled, k=None)
    initial: InitialRating | None = None
    rating_after: int | None = None
    next_k: int | None = None
    if len(counted) >= initial_rules.min_games:
        initial = initial_rating([(pg.opponent, pg.score) for pg in counted], initial_rules)
        if selection.note is not None:
            notes.append(selection.note)
        if initial.published:
            rating_after = initial.ru
            new_state = published(
                state,
                initial.ru,
                rated_games=state.rated_games + len(counted),
                list_year=list_date.year,
            )
            next_k = new_state.k
            notes.append(
                f"first rating {initial.ru} from {initial.n} games published on the "
                f"{list_date.isoformat()} list (§8.2)"
            )
            held = len(pool) - len(counted)
            if held:  # a first event that goes on (§8.2.1, §8.2.4)
                notes.append(
                    f"{held} held result(s) of the first event not counted: rated before it "
                    "ended; its later games are rated with the new rating (§8.2.1, §8.2.4)"
                )
        else:
            notes.append(
                f"initial rating {initial.ru} below {initial_rules.floor}: not published; the "
                "results stay in the pool (§7.1.4)"
            )

    outcome = PeriodOutcome(
        month=month,
        list_date=list_date,
        tc=tc,
        rating_before=None,
        rating_after=rating_after,
        k_in_force=None,
        k=None,
        games=len(added),
        score=sum((pg.score for pg in added), Decimal(0)),
        expected=ZERO,
        change_exact=ZERO,
        change=0,
        next_k=next_k,
        initial=initial,
        details=tuple(details),
        notes=tuple(notes),
        rated_games_after=new_state.rated_games,
        pool_size=len(new_state.pool),
    )
    return new_state, outcome
