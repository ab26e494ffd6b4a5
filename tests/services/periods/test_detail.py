"""A closed period game by game (``history PLAYER --month``), at the service layer, on the
worked example V02 of reference/fide-rules.md §9: a 1500 player (K 20) beats a 1400, draws a
1600 and loses to a 1550 in one event: PD .64 / .36 / .43, +7.2 +2.8 -8.6, +1.40 -> 1501."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from tests.helpers import Services, cli_on, ok
from tracker.errors import InvalidInputError, NotFoundError
from tracker.months import next_month
from tracker.services import games
from tracker.services.periods import closing
from tracker.services.periods.detail import period_detail
from tracker.services.players import roster as players
from tracker.vocabulary import TIME_CONTROLS

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
        closing.close(session, tc="standard", month=JAN, today=dt.date(2026, 11, 29))


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


@pytest.mark.slow
@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("few", [500, 2], ids=["by-ids", "month-kept"])
def test_some_players_periods_are_everyones_restricted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, few: int
) -> None:
    """The demo season's every closed period worked out for one player, for some, and for
    everyone: each player's period is the same (their games read by their ids, or, past
    ``IN_CHUNK``, the month's games kept for them)."""
    from tracker.db.queries import rated_games
    from tracker.db.queries.players import players_by_ids
    from tracker.services import lists
    from tracker.services.lists import rated_games as rated_games_service
    from tracker.services.periods.detail import month_details

    monkeypatch.setattr(rated_games, "IN_CHUNK", few)
    monkeypatch.setattr(rated_games_service, "IN_CHUNK", few)
    db = tmp_path / "demo.db"
    ok(cli_on(str(db))("demo", "--file", str(db)))
    compared = 0
    with Services(f"sqlite:///{db}").transaction() as session:
        for tc in TIME_CONTROLS:
            closed = lists.closed_months(session, tc)
            for month, _, _ in closed:
                everyone = month_details(session, tc, month, closed, None)
                ids = sorted(everyone)
                for some in ([ids[0]], ids[::2], ids[1::3], ids) if ids else ():
                    rows = players_by_ids(session, some)
                    found = month_details(session, tc, month, closed, rows)
                    assert found == {pid: everyone[pid] for pid in some}, (tc, month, some)
                    compared += len(found)
    assert compared > 50


def test_a_players_period_holds_his_games_of_an_event_that_ends_after_them(db_url: str) -> None:
    """An event from 28 September to 3 October is rated in October (§7.1.3): A played only
    on the 28th, yet October's period of A alone, as everyone's, holds his game."""
    from tracker.db.queries.players import players_by_ids
    from tracker.services import lists
    from tracker.services.periods.detail import month_details

    with Services(db_url).transaction() as session:
        for name in ("A", "B", "C", "D"):
            players.add_player(session, name=name, birth_year=1980, seed=players.Seed(1800, 100))
        for white, black, day in (
            ("A", "B", dt.date(2026, 9, 28)),
            ("C", "D", dt.date(2026, 10, 3)),
        ):
            games.add_game(
                session, white=white, black=black, result="1-0", played_on=day, event="Cusp Open"
            )
        closing.close(
            session, tc="standard", month=dt.date(2026, 10, 1), today=dt.date(2026, 11, 29)
        )
        closed = lists.closed_months(session, "standard")
        october = dt.date(2026, 10, 1)
        everyone = month_details(session, "standard", october, closed, None)
        (a,) = players_by_ids(session, [1])
        alone = month_details(session, "standard", october, closed, [a])
    assert [g.played_on for g in everyone[1].games] == [dt.date(2026, 9, 28)]
    assert alone == {1: everyone[1]}


@pytest.mark.slow
@pytest.mark.backends("sqlite")
def test_a_few_players_ratings_are_the_lists_restricted(tmp_path: Path) -> None:
    """``ListRatings(players=...)`` (a report on a few: an event's players) reads only their
    lines, and each is the whole list's: every demo list, seeds and rapid's standard too."""
    from tracker.services import lists

    db = tmp_path / "demo.db"
    ok(cli_on(str(db))("demo", "--file", str(db)))
    with Services(f"sqlite:///{db}").transaction() as session:
        ids = [1, 3, 4, 99]  # 99: nobody
        for tc in TIME_CONTROLS:
            days = [next_month(m) for m, _, _ in lists.closed_months(session, tc)]
            for day in [dt.date(2026, 1, 5), *days]:
                whole = lists.ListRatings(session, tc).on_list_of(day)
                few = lists.ListRatings(session, tc, players=ids).on_list_of(day)
                assert few == {p: r for p, r in whole.items() if p in ids}, (tc, day)
                assert whole, (tc, day)
