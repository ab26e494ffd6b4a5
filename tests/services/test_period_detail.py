"""A closed period game by game (``history PLAYER --month``), at the service layer, on the
worked example V02 of reference/fide-rules.md §9: a 1500 player (K 20) beats a 1400, draws a
1600 and loses to a 1550 in one event: PD .64 / .36 / .43, +7.2 +2.8 -8.6, +1.40 -> 1501."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tests.helpers import Services
from tracker.errors import InvalidInputError, NotFoundError
from tracker.services import games, periods, players
from tracker.services.periods.detail import period_detail

D = Decimal
JAN = dt.date(2026, 1, 1)


def season(url: str) -> None:
    with Services(url).transaction() as session:
        for name, rating in (("P", 1500), ("A", 1400), ("B", 1600), ("C", 1550)):
            seed = players.Seed(rating, 100)
            players.add_player(session, name=name, birth_year=1980, seed=seed)
        players.add_player(session, name="Q", birth_year=1990)  # no games
        for white, black, result, day in (
            ("P", "A", "1-0", 10),
            ("B", "P", "1/2-1/2", 11),
            ("P", "C", "0-1", 12),
        ):
            games.add_game(
                session,
                white=white,
                black=black,
                result=result,
                played_on=dt.date(2026, 1, day),
                event="January Open",
            )
        periods.close(session, tc="standard", month=JAN, today=dt.date(2026, 11, 29))


def test_the_period_game_by_game(db_url: str) -> None:
    season(db_url)
    with Services(db_url).transaction() as session:
        detail = period_detail(session, "P", "standard", JAN)
        with pytest.raises(InvalidInputError, match="not a closed standard period"):
            period_detail(session, "P", "standard", dt.date(2026, 2, 1))
        with pytest.raises(InvalidInputError, match="not a closed rapid period"):
            period_detail(session, "P", "rapid", JAN)
        with pytest.raises(NotFoundError, match="no standard games rated in 2026-01"):
            period_detail(session, "Q", "standard", JAN)
    assert (detail.rating_before, detail.rating_after, detail.k) == (1500, 1501, 20)
    assert [(g.opponent, g.opponent_rating, g.colour) for g in detail.games] == [
        ("A", 1400, "white"),
        ("B", 1600, "black"),
        ("C", 1550, "white"),
    ]
    assert [g.expected for g in detail.games] == [D("0.64"), D("0.36"), D("0.43")]
    assert [g.change for g in detail.games] == [D("7.2"), D("2.8"), D("-8.6")]
    assert {g.status for g in detail.games} == {"rated"}
    assert (detail.wins, detail.draws, detail.losses) == (1, 1, 1)
    assert (detail.score, detail.expected) == (D("1.5"), D("1.43"))
    assert (detail.change_exact, detail.change) == (D("1.4"), 1)
    # performance: average opponent 1516.67, p = .50 -> dp 0
    assert detail.performance == 1517
    assert detail.list_date == dt.date(2026, 2, 1) and not detail.stale
