"""One player's rating-period fold: his state on a list + the period's games -> the next
list's state and the period's outcome (FIDE Rating Regulations 2024 §7-§8)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from tracker.ratings.fide.arithmetic import check_score
from tracker.ratings.fide.newcomer import close_unrated
from tracker.ratings.fide.rated import close_rated
from tracker.ratings.fide.records import FirstEvent, PeriodGame, PeriodOutcome, PlayerState
from tracker.ratings.fide.rules import Formula, check_tc_name
from tracker.ratings.fide.state import check_month
from tracker.vocabulary import TimeControl


def close_period(
    state: PlayerState,
    games: Sequence[PeriodGame],
    *,
    month: date,
    tc: TimeControl,
    formula: Formula = "table",
    details: bool = True,
    first_event: FirstEvent | None = None,
) -> tuple[PlayerState, PeriodOutcome]:
    """Fold one monthly rating period into a player's state (FIDE Rating Regulations 2024 §7-8).

    ``month`` is the first day of the period; the new list is dated the first day of the next
    month (§7.1). A rated player is rated with the K of the previous list (``state.k``) after
    the 700 rule over all the period's rated games (§8.3.3); the period total is rounded once
    (§8.3.4); below 1400 he becomes unrated (§7.2.1), keeping his game count, with an empty
    pool. An unrated player's results against rated opponents are pooled for at most 26
    monthly periods (§7.1.4); a zero score in his first event is disregarded (§8.2.1); from 5
    pooled games an initial rating is computed (§8.2) and published if at least 1400.

    ``first_event``: an unrated player's first event (§8.2.1; see :mod:`.newcomer`); None
    takes it from ``games``.

    ``details=False`` leaves the outcome's per-game ``details`` empty (everything else is the
    same), for callers that store only the period's figures.
    """
    check_month(month)
    check_tc_name(tc)
    for g in games:
        check_score(g.score)
        if g.tc is not None and g.tc != tc:
            raise ValueError(f"a {g.tc} game cannot be rated on the {tc} list")
    if state.rating is not None:
        return close_rated(state, state.rating, games, month, tc, formula, details)
    return close_unrated(state, games, month, tc, first_event, details)
