"""A rated player's period: K of the previous list after the 700 rule, the period change
rounded once, the 1400 floor (FIDE Rating Regulations 2024 §7.2.1, §8.3; 1000 before the
March 2024 period: :func:`~.events.rated_floor`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from tracker.months import next_month
from tracker.ratings.fide.arithmetic import ZERO, round_half_away
from tracker.ratings.fide.events import rated_floor
from tracker.ratings.fide.game import apply_700_rule, game_is_rated
from tracker.ratings.fide.period import GameDetail, rate_games
from tracker.ratings.fide.records import PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.rules import EventKey, Formula, GameStatus, rules_and_note
from tracker.ratings.fide.state import k_for_state, published
from tracker.vocabulary import TimeControl


def _corrected_base(games: Sequence[PeriodGame], month: date) -> int | None:
    """The rating the period's change is added to when FIDE corrected it: the Ro FIDE gave
    the player (``corrected``) in an event that started under the list in force during the
    period (from ``month`` on), the latest such event's; None when there is none.

    FIDE's published calculations show a corrected Ro now and then (2053 where the list
    shows 2052); its next list follows the corrected rating (F-P04: Ro 2053, change -0.20,
    published 2053; so F-M04, F-M11, F-M01, F-M17, F-M14), not the list's (F-M02 is the one
    exception found). A corrected Ro in an event that started under an earlier list rates
    that event only."""
    found = [g for g in games if g.corrected and g.event_start >= month]
    if not found:
        return None
    return max(found, key=lambda g: g.event_start).own_rating


def close_rated(
    state: PlayerState,
    rating: int,
    games: Sequence[PeriodGame],
    month: date,
    tc: TimeControl,
    formula: Formula,
    with_details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    list_date = next_month(month)
    k_in_force = state.k if state.k is not None else k_for_state(state, month.year)
    notes: list[str] = []
    slots: list[GameDetail | None] = []
    counted: list[tuple[int, int, Decimal, date, TimeControl, EventKey]] = []
    counted_slots: list[int] = []
    unrated_opp = 0
    rule_600 = 0
    for g in games:
        ro = g.own_rating if g.own_rating is not None else rating
        day = g.rules_day
        rules = rules_and_note(tc, day)[0]
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif not game_is_rated(ro, g.opponent, rules):
            status = "not_rated_600"
            rule_600 += 1
        else:
            counted.append((ro, g.opponent, g.score, day, tc, g.event_key))
            if with_details:
                counted_slots.append(len(slots))
                slots.append(None)
            continue
        if not with_details:
            continue
        slots.append(
            GameDetail(
                opponent=g.opponent,
                score=g.score,
                event_start=g.rules_day,
                event_key=g.event_key,
                status=status,
                own=ro,
                rules=rules.name,
            )
        )

    n = len(counted)
    k_used: int | None = None
    score = expected = change_exact = ZERO
    change = 0
    if n:
        k_used = apply_700_rule(k_in_force, n)
        # period_change(counted, k_used), without building its report
        rated, score, expected, change_exact, rule_notes = rate_games(
            counted, k_used, formula, details=with_details, checked=True
        )
        change = round_half_away(change_exact)
        if with_details:
            for slot, detail in zip(counted_slots, rated, strict=True):
                slots[slot] = detail
        notes += rule_notes  # each once: rate_games gives a note once
        if k_used != k_in_force:
            notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {n} games (§8.3.3)")
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not rated (§8.3.1)")
    if rule_600:
        notes.append(
            f"{rule_600} game(s) not rated: 600 or more points apart with a player above 2600 "
            "(rapid/blitz §7.3.1)"
        )

    base = _corrected_base(games, month)
    if base is not None and base != rating:
        notes.append(
            f"rated from {base}, FIDE's corrected rating (the Ro it used in the period), "
            f"not {rating}"
        )
    new_rating = (rating if base is None else base) + change
    rated_games = state.rated_games + n
    new_state = _after(state, new_rating, rated_games, month, notes)

    details = tuple(d for d in slots if d is not None) if with_details else ()
    outcome = PeriodOutcome(
        month=month,
        list_date=list_date,
        tc=tc,
        rating_before=rating,
        rating_after=new_state.rating,
        k_in_force=k_in_force,
        k=k_used,
        games=n,
        score=score,
        expected=expected,
        change_exact=change_exact,
        change=change,
        next_k=new_state.k,
        initial=None,
        details=details,
        notes=tuple(notes),
        rated_games_after=rated_games,
        pool_size=0,
    )
    return new_state, outcome


def _after(
    state: PlayerState, new_rating: int, rated_games: int, month: date, notes: list[str]
) -> PlayerState:
    """The rated player's state on the next list: ``new_rating`` published, or below the
    floor (1000 before the March 2024 period) unrated, with a note (§7.2.1)."""
    floor = rated_floor(month)
    list_date = next_month(month)
    if new_rating >= floor:
        return published(state, new_rating, rated_games=rated_games, list_year=list_date.year)
    notes.append(
        f"rating {new_rating} is below {floor}: shown as unrated on the "
        f"{list_date.isoformat()} list (§7.2.1)"
    )
    return state._replace(
        rating=None, rated_games=rated_games, pool=(), k=None, first_event_settled=True
    )
