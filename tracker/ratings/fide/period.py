"""A rated player's change over one rating period (FIDE Rating Regulations 2024 §8.3.2-§8.3.4)."""

from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal, localcontext
from typing import NamedTuple

from tracker.ratings.fide.arithmetic import CTX, ZERO, check_score, round_half_away
from tracker.ratings.fide.game import capped_difference, logistic_expected, table_expected
from tracker.ratings.fide.rules import EventKey, Formula, GameStatus, rules_and_note
from tracker.vocabulary import TimeControl


class RatedGame(NamedTuple):
    """One game to be rated: the player's rating Ro for the event, the opponent's, the score.

    ``own`` and ``opponent`` are the ratings on the list in force when the event started
    (FIDE Rating Regulations 2024 §8.3.1, §5); ``event_start`` selects the rule set.
    """

    own: int
    opponent: int
    score: Decimal
    event_start: date
    tc: TimeControl = "standard"
    event_key: EventKey = ""


class GameDetail(NamedTuple):
    """What one game of a period contributed.

    ``status``: ``rated`` (counted with ``expected``/``delta``/``change``), ``pooled`` (an
    unrated player's result added to the initial-rating pool), ``held`` (pooled but not
    counted while the first event, a league, has a zero score so far, §8.2.1),
    ``disregarded`` (zero score in the first event, §8.2.1), ``unrated_opponent`` (not
    rated, §8.3.1) or ``not_rated_600`` (Rapid & Blitz §7.3.1).
    """

    opponent: int | None
    score: Decimal
    event_start: date
    event_key: EventKey
    status: GameStatus
    own: int | None = None
    rules: str | None = None
    difference: int | None = None
    expected: Decimal | None = None
    delta: Decimal | None = None
    change: Decimal | None = None


class PeriodChange(NamedTuple):
    """The change of one rating period (FIDE Rating Regulations 2024 §8.3.2-§8.3.4)."""

    k: int
    details: tuple[GameDetail, ...]
    score: Decimal
    expected: Decimal
    change_exact: Decimal
    change: int
    notes: tuple[str, ...]

    @property
    def games(self) -> int:
        return len(self.details)


def period_change(games: Sequence[RatedGame], k: int) -> PeriodChange:
    """Rate one player's games of one period with K already reduced by the 700 rule.

    FIDE Rating Regulations 2024 §8.3.2: Delta R = S - PD per game; §8.3.3: the change is
    K x Sigma Delta R; §8.3.4: only the period total is rounded, 0.5 away from zero. Every game
    given is rated; filter with :func:`game_is_rated` first.
    """
    details, score, expected, change_exact, notes = rate_games(
        [(g.own, g.opponent, g.score, g.event_start, g.tc, g.event_key) for g in games],
        k,
        "table",
    )
    return PeriodChange(
        k=k,
        details=tuple(details),
        score=score,
        expected=expected,
        change_exact=change_exact,
        change=round_half_away(change_exact),
        notes=tuple(notes),
    )


def rate_games(
    games: Iterable[tuple[int, int, Decimal, date, TimeControl, EventKey]],
    k: int,
    formula: Formula,
    *,
    details: bool = True,
    checked: bool = False,
) -> tuple[list[GameDetail], Decimal, Decimal, Decimal, list[str]]:
    """The fold behind :func:`period_change` over ``(own, opponent, score, event_start, tc,
    event_key)``: the details (none without ``details``), the score, the expected score,
    K x Sigma Delta R and the notes of the rule sets used (and of the logistic formula).
    ``checked``: the scores are known to be valid."""
    if formula not in ("table", "logistic"):
        raise ValueError(f"unknown formula {formula!r}")
    out: list[GameDetail] = []
    notes: list[str] = []
    score = ZERO
    expected = ZERO
    delta_sum = ZERO
    table = formula == "table"
    expect = table_expected if table else logistic_expected
    with localcontext(CTX):
        for own, opponent, s, event_start, tc, event_key in games:
            if not checked:
                check_score(s)
            rules, note = rules_and_note(tc, event_start)
            if note is not None and note not in notes:
                notes.append(note)
            d = capped_difference(own, opponent, rules)
            pd = expect(d)
            if details or not table:
                delta = s - pd
                delta_sum += delta
                if details:
                    out.append(
                        GameDetail(
                            opponent=opponent,
                            score=s,
                            event_start=event_start,
                            event_key=event_key,
                            status="rated",
                            own=own,
                            rules=rules.name,
                            difference=d,
                            expected=pd,
                            delta=delta,
                            change=k * delta,
                        )
                    )
            score += s
            expected += pd
        if table:
            # PD has two decimals (table 8.1.2), so Sigma (S - PD) = Sigma S - Sigma PD exactly,
            # the same decimal (its exponent the smallest of the scores' and the PDs' either
            # way): two additions a game instead of four operations.
            delta_sum = score - expected
        change_exact = k * delta_sum
    if not table:
        notes.append("logistic expectancy used instead of FIDE table 8.1.2")
    return out, score, expected, change_exact, notes
