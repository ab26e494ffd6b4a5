"""One player's rating-period fold: his state on a list + the period's games -> the next
list's state and the period's outcome (FIDE Rating Regulations 2024 §7-§8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from tracker.months import month_index, next_month
from tracker.ratings.fide.arithmetic import ZERO, check_score, round_half_away
from tracker.ratings.fide.game import apply_700_rule, game_is_rated, k_factor
from tracker.ratings.fide.initial import InitialRating, initial_rating
from tracker.ratings.fide.period import GameDetail, rate_games
from tracker.ratings.fide.rules import (
    K_2300,
    K_2400,
    MIN_INITIAL_GAMES,
    POOL_MONTHS,
    RATING_FLOOR,
    EventKey,
    Formula,
    GameStatus,
    check_tc_name,
    rules_for,
    rules_note,
)
from tracker.vocabulary import TimeControl


@dataclass(frozen=True)
class PoolGame:
    """An unrated player's pending result against a rated opponent (§7.1.4 pool).

    ``month`` is the first day of the rating period in which the game was reported.
    """

    month: date
    opponent: int
    score: Decimal
    event_key: EventKey
    event_start: date


@dataclass(frozen=True)
class PlayerState:
    """A player's position on one list of one time control, as the fold carries it.

    - ``rating``: the published rating on the list (``None`` = unrated).
    - ``rated_games``: all games rated so far, including those of the initial-rating pool
      (they count towards the 30 games of §8.3.3); kept when the player drops below 1400.
    - ``ever_2400`` / ``ever_2300``: sticky, ever *published* at or above 2400 / 2300.
    - ``pool``: an unrated player's pending results (empty for a rated player).
    - ``k``: the K published with this list, in force for the next period (``None`` when
      unrated; recomputed from the other fields if ``None`` for a rated player).
    - ``has_counted_results``: the player has had results that counted, so the §8.2.1
      "zero score in the first event" rule no longer applies.
    """

    rating: int | None = None
    rated_games: int = 0
    ever_2400: bool = False
    ever_2300: bool = False
    birth_year: int | None = None
    pool: tuple[PoolGame, ...] = ()
    k: int | None = None
    has_counted_results: bool = False


@dataclass(frozen=True)
class PeriodGame:
    """One game of the player in a period, as given to :func:`close_period`.

    ``opponent``: the opponent's rating on the list in force at the event start (``None`` =
    unrated: the game is not rated). ``own_rating``: the player's rating Ro for the event;
    ``None`` uses ``state.rating`` (also §8.2.4: a newly published player is rated with his
    current rating). ``tc``, if given, must equal the period's time control. Forfeits must not
    be passed (§5.1).
    """

    opponent: int | None
    score: Decimal
    event_start: date
    event_key: EventKey = ""
    own_rating: int | None = None
    tc: TimeControl | None = None


@dataclass(frozen=True)
class PeriodOutcome:
    """The result of closing one rating period for one player.

    ``k_in_force`` is the K from the previous list, ``k`` the K used after the 700 rule
    (``None`` without rated games). ``games``/``score`` count the games that were rated (for a
    rated player) or added to the pool (for an unrated player); ``expected``, ``change_exact``
    and ``change`` are zero for an unrated player. ``initial`` is set whenever a first rating
    was computed (published or not). ``next_k`` is the K published on the new list.
    """

    month: date
    list_date: date
    tc: TimeControl
    rating_before: int | None
    rating_after: int | None
    k_in_force: int | None
    k: int | None
    games: int
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    next_k: int | None
    initial: InitialRating | None
    details: tuple[GameDetail, ...]
    notes: tuple[str, ...]
    rated_games_after: int
    pool_size: int

    @property
    def became_rated(self) -> bool:
        return self.rating_before is None and self.rating_after is not None

    @property
    def dropped_to_unrated(self) -> bool:
        return self.rating_before is not None and self.rating_after is None


def _check_month(month: date, what: str = "month") -> None:
    if month.day != 1:
        raise ValueError(f"{what} must be the first day of a month, not {month.isoformat()}")


def k_for_state(state: PlayerState, list_year: int) -> int:
    """K for ``state`` as published on a list of year ``list_year`` (§8.3.3, see k_factor)."""
    return k_factor(
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        ever_2300=state.ever_2300,
        birth_year=state.birth_year,
        list_year=list_year,
    )


def seed_state(
    rating: int | None,
    games: int,
    ever_2400: bool,
    ever_2300: bool,
    birth_year: int | None,
    first_month: date,
) -> PlayerState:
    """A starting state for a player whose history before ``first_month`` is not replayed.

    A seeded rating counts as published: it sets ``ever_2400`` / ``ever_2300`` when it reaches
    2400 / 2300. ``k`` is the K of the list dated ``first_month`` (the list in force during
    that period), computed with that list's year (FIDE Rating Regulations 2024 §8.3.3).
    """
    _check_month(first_month, "first_month")
    if games < 0:
        raise ValueError("the number of rated games must not be negative")
    if rating is not None and rating <= 0:
        raise ValueError("a rating must be positive")
    state = PlayerState(
        rating=None,
        rated_games=games,
        ever_2400=ever_2400,
        ever_2300=ever_2300 or ever_2400,
        birth_year=birth_year,
        has_counted_results=games > 0,
    )
    if rating is None:
        return replace(state, ever_2300=ever_2300)
    return published(state, rating, rated_games=games, list_year=first_month.year)


def published(state: PlayerState, rating: int, *, rated_games: int, list_year: int) -> PlayerState:
    """The state of a player whose ``rating`` is published on a list of year ``list_year``.

    The one place for what publication does (FIDE Rating Regulations 2024 §8.3.3): the sticky
    flags (ever published at 2400 / 2300 or more) take the new rating into account, the
    pending pool is settled, and K is the K of the new list, in force for the next period.
    """
    ever_2400 = state.ever_2400 or rating >= K_2400
    ever_2300 = state.ever_2300 or rating >= K_2300
    return PlayerState(
        rating=rating,
        rated_games=rated_games,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        birth_year=state.birth_year,
        pool=(),
        k=k_factor(
            rated_games=rated_games,
            ever_2400=ever_2400,
            ever_2300=ever_2300,
            birth_year=state.birth_year,
            list_year=list_year,
        ),
        has_counted_results=True,
    )


def _add_note(notes: list[str], note: str | None) -> None:
    if note is not None and note not in notes:
        notes.append(note)


def close_period(
    state: PlayerState,
    games: Sequence[PeriodGame],
    *,
    month: date,
    tc: TimeControl,
    formula: Formula = "table",
    details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    """Fold one monthly rating period into a player's state (FIDE Rating Regulations 2024 §7-8).

    ``month`` is the first day of the period; the new list is dated the first day of the next
    month (§7.1). A rated player is rated with the K of the previous list (``state.k``) after
    the 700 rule over all the period's rated games (§8.3.3); the period total is rounded once
    (§8.3.4); below 1400 he becomes unrated (§7.2.1), keeping his game count, with an empty
    pool. An unrated player's results against rated opponents are pooled for at most 26
    monthly periods (§7.1.4); a zero score in his first event is disregarded (§8.2.1); from 5
    pooled games an initial rating is computed (§8.2) and published if at least 1400.

    ``details=False`` leaves the outcome's per-game ``details`` empty (everything else is the
    same), for callers that store only the period's figures.
    """
    _check_month(month)
    check_tc_name(tc)
    for g in games:
        check_score(g.score)
        if g.tc is not None and g.tc != tc:
            raise ValueError(f"a {g.tc} game cannot be rated on the {tc} list")
    if state.rating is not None:
        return _close_rated(state, state.rating, games, month, tc, formula, details)
    return _close_unrated(state, games, month, tc, details)


def close_idle(state: PlayerState, *, month: date) -> PlayerState | None:
    """The new state of a rated player without games in the period, or ``None`` when he is
    not rated (or rated below the floor, which :func:`close_period` handles).

    The same state as ``close_period(state, [], month=month, tc=...)``, whose outcome is then
    empty: no games, no change, no notes, the rating unchanged, ``k`` None and ``next_k`` the
    new state's K. Most players of a federation's list have no games in a given month; this
    spares building their (empty) reports.
    """
    _check_month(month)
    rating = state.rating
    if rating is None or rating < RATING_FLOOR:
        return None
    # _close_rated with n = 0: the same rating published again on the new list
    return published(state, rating, rated_games=state.rated_games, list_year=next_month(month).year)


def _close_rated(
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
        rules = rules_for(tc, g.event_start)
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif not game_is_rated(ro, g.opponent, rules):
            status = "not_rated_600"
            rule_600 += 1
        else:
            counted_slots.append(len(slots))
            slots.append(None)
            counted.append((ro, g.opponent, g.score, g.event_start, tc, g.event_key))
            continue
        if not with_details:
            continue
        slots.append(
            GameDetail(
                opponent=g.opponent,
                score=g.score,
                event_start=g.event_start,
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
        if formula not in ("table", "logistic"):
            raise ValueError(f"unknown formula {formula!r}")
        rated, score, expected, change_exact, rule_notes = rate_games(
            counted, k_used, formula, details=with_details, checked=True
        )
        if formula == "logistic":
            rule_notes.append("logistic expectancy used instead of FIDE table 8.1.2")
        change = round_half_away(change_exact)
        if with_details:
            for slot, detail in zip(counted_slots, rated, strict=True):
                slots[slot] = detail
        for note in rule_notes:
            _add_note(notes, note)
        if k_used != k_in_force:
            notes.append(f"700 rule: K {k_in_force} reduced to {k_used} for {n} games (§8.3.3)")
    if unrated_opp:
        notes.append(f"{unrated_opp} game(s) against unrated opponents not rated (§8.3.1)")
    if rule_600:
        notes.append(
            f"{rule_600} game(s) not rated: 600 or more points apart with a player above 2600 "
            "(rapid/blitz §7.3.1)"
        )

    new_rating = rating + change
    rated_games = state.rated_games + n
    rating_after: int | None
    next_k: int | None
    if new_rating < RATING_FLOOR:
        rating_after = None
        next_k = None
        new_state = PlayerState(
            rating=None,
            rated_games=rated_games,
            ever_2400=state.ever_2400,
            ever_2300=state.ever_2300,
            birth_year=state.birth_year,
            pool=(),
            k=None,
            has_counted_results=True,
        )
        notes.append(
            f"rating {new_rating} is below {RATING_FLOOR}: shown as unrated on the "
            f"{list_date.isoformat()} list (§7.2.1)"
        )
    else:
        rating_after = new_rating
        new_state = published(state, new_rating, rated_games=rated_games, list_year=list_date.year)
        next_k = new_state.k

    details = tuple(d for d in slots if d is not None)
    outcome = PeriodOutcome(
        month=month,
        list_date=list_date,
        tc=tc,
        rating_before=rating,
        rating_after=rating_after,
        k_in_force=k_in_force,
        k=k_used,
        games=n,
        score=score,
        expected=expected,
        change_exact=change_exact,
        change=change,
        next_k=next_k,
        initial=None,
        details=details,
        notes=tuple(notes),
        rated_games_after=rated_games,
        pool_size=0,
    )
    return new_state, outcome


def _close_unrated(
    state: PlayerState,
    games: Sequence[PeriodGame],
    month: date,
    tc: TimeControl,
    with_details: bool = True,
) -> tuple[PlayerState, PeriodOutcome]:
    list_date = next_month(month)
    notes: list[str] = []
    now = month_index(month)

    kept = tuple(pg for pg in state.pool if now - month_index(pg.month) < POOL_MONTHS)
    expired = len(state.pool) - len(kept)
    if expired:
        notes.append(f"{expired} pooled result(s) older than {POOL_MONTHS} months dropped (§7.1.4)")

    # Events of this period with results against rated opponents, in order of start date.
    event_order: list[tuple[date, EventKey]] = []
    event_score: dict[tuple[date, EventKey], Decimal] = {}
    for g in games:
        if g.opponent is None:
            continue
        ident = (g.event_start, g.event_key)
        if ident not in event_score:
            event_order.append(ident)
            event_score[ident] = ZERO
        event_score[ident] += g.score
    event_order.sort(key=lambda ident: ident[0])  # stable: same-day events keep input order

    disregarded: set[tuple[date, EventKey]] = set()
    has_counted = state.has_counted_results or state.rated_games > 0 or bool(state.pool)
    if not has_counted:
        for ident in event_order:
            if event_score[ident] == ZERO:
                disregarded.add(ident)
                notes.append(
                    f"zero score in the first event (started {ident[0].isoformat()}) "
                    "disregarded (§8.2.1)"
                )
                continue
            has_counted = True
            break

    details: list[GameDetail] = []
    added: list[PoolGame] = []
    unrated_opp = 0
    for g in games:
        _add_note(notes, rules_note(tc, g.event_start) if g.opponent is not None else None)
        status: GameStatus
        if g.opponent is None:
            status = "unrated_opponent"
            unrated_opp += 1
        elif (g.event_start, g.event_key) in disregarded:
            status = "disregarded"
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

    pool = kept + tuple(added)
    new_state = replace(state, pool=pool, has_counted_results=has_counted, k=None)
    initial: InitialRating | None = None
    rating_after: int | None = None
    next_k: int | None = None
    if len(pool) >= MIN_INITIAL_GAMES:
        initial = initial_rating([(pg.opponent, pg.score) for pg in pool])
        if initial.published:
            rating_after = initial.ru
            new_state = published(
                state,
                initial.ru,
                rated_games=state.rated_games + len(pool),
                list_year=list_date.year,
            )
            next_k = new_state.k
            notes.append(
                f"first rating {initial.ru} from {initial.n} games published on the "
                f"{list_date.isoformat()} list (§8.2)"
            )
        else:
            notes.append(
                f"initial rating {initial.ru} below {RATING_FLOOR}: not published; the results "
                "stay in the pool (§7.1.4)"
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
        score=sum((pg.score for pg in added), ZERO),
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
