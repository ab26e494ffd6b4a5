"""The closed periods' named queries (tracker.db.queries.periods): adding and deleting
periods and their history, stale marks, PostgreSQL's sequences."""

from __future__ import annotations

from tests.helpers import Services, close, game, month, seeded
from tracker.db.driver import Db
from tracker.db.queries import lists
from tracker.db.queries import periods as q

JAN, FEB, MAR = month("2026-01"), month("2026-02"), month("2026-03")


def _stale(s: Db, tc: str = "standard") -> dict[str, bool]:
    rows = s.all(
        "SELECT month, stale FROM rating_periods WHERE tc = :tc ORDER BY month", {"tc": tc}
    )
    return {str(m)[:7]: bool(stale) for m, stale in rows}


def test_periods_added_marked_stale_and_freshened(db: Services) -> None:
    with db.transaction() as s:
        assert q.first_closed_month(s, "standard") is None
        assert q.time_controls_closed(s) == set()
        for m in (JAN, FEB, MAR):
            q.add_period(s, "standard", m)
        q.add_period(s, "blitz", FEB)
        assert q.first_closed_month(s, "standard") == JAN
        assert q.time_controls_closed(s) == {"standard", "blitz"}
        assert q.mark_stale_from(s, "standard", FEB) == (FEB, MAR)
        assert _stale(s) == {"2026-01": False, "2026-02": True, "2026-03": True}
        assert _stale(s, "blitz") == {"2026-02": False}
        assert q.stale_from(s, "standard", MAR) == (MAR,)
        assert _stale(s) == {"2026-01": False, "2026-02": False, "2026-03": True}
        assert q.stale_from(s, "standard", None) == ()
        assert not any(_stale(s).values())
        assert q.mark_all_stale(s) == {"blitz": [FEB], "standard": [JAN, FEB, MAR]}


def test_deleting_periods_since_or_before_a_month(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        game(s, "Hart", "Sato", "1-0", "2026-01-10")
        game(s, "Hart", "Sato", "1-0", "2026-02-10")
    db(close, "2026-03")
    with db.transaction() as s:
        jan, feb = (lists.period_id(s, "standard", m) for m in (JAN, FEB))
        assert q.players_rated_by_period(s) == {jan: 2, feb: 2}  # March: no games
        q.delete_history(s, "elo_history", "standard", since=FEB)
        months = s.scalars(
            "SELECT DISTINCT r.month FROM elo_history h JOIN rating_periods r"
            " ON r.id = h.period_id ORDER BY r.month"
        )
        assert [str(m)[:7] for m in months] == ["2026-01"]
        q.delete_history(s, "glicko_history", "standard", since=FEB)
        q.delete_history(s, "list_entries", "standard", since=FEB)
        q.delete_periods(s, "standard", since=FEB)
        assert list(_stale(s)) == ["2026-01"]


def test_player_names_and_birth_years_by_id(db: Services) -> None:
    with db.transaction() as s:
        hart = seeded(s, "Hart", 2000, born=1975).id
        sato = seeded(s, "Sato", 2000, born=None).id
        assert q.player_names(s, [hart, sato]) == {hart: "Hart", sato: "Sato"}
        assert q.player_birth_years(s, [hart, sato]) == {hart: 1975, sato: None}


def test_sequences_are_put_back(db: Services) -> None:
    with db.transaction() as s:
        before = q.sequence_values(s)
        if s.sqlite:
            assert before == []  # SQLite's counters roll back with the transaction
            return
        seeded(s, "Hart", 2000)
        moved = {v.name: v for v in q.sequence_values(s)}
        assert any(v.last_value is not None for v in moved.values())
        q.restore_sequences(s, before)
        assert q.sequence_values(s) == before
