"""The Glicko shadow's named queries (tracker.db.queries.shadow): its settings, seeds'
games, the month-end shadows by period, by player and the latest of everyone."""

from __future__ import annotations

from tests.helpers import Services, close, game, month, seeded, unrated
from tracker.db.queries import lists
from tracker.db.queries import shadow as q

JAN, FEB = month("2026-01"), month("2026-02")


def test_settings_saved_once_and_read_back(db: Services) -> None:
    with db.transaction() as s:
        assert q.settings(s) is None
        q.save_settings(s, q.Settings()._asdict())
        q.save_settings(s, q.Settings(preset="glickman", external_rd=100.0)._asdict())
        stored = q.settings(s)
    assert stored == q.Settings(preset="glickman", external_rd=100.0)
    assert stored is not None and stored.seed_rd is None  # auto


def test_seeds_games(db: Services) -> None:
    with db.transaction() as s:
        hart = seeded(s, "Hart", 2000, games=12).id
        sato = seeded(s, "Sato", 2000, games=300).id
        new = unrated(s, "New").id
        assert q.seed_games(s, "standard", [hart, sato, new]) == {hart: 12, sato: 300}
        assert q.seed_games(s, "rapid", [hart, sato]) == {}


def _two_months(db: Services) -> dict[str, int]:
    """Hart and Sato play in January, Hart and Berg in February (Sato idle)."""
    with db.transaction() as s:
        ids = {n: seeded(s, n, 2000).id for n in ("Hart", "Sato", "Berg")}
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
        game(s, "Berg", "Hart", "1-0", "2026-02-05")
    db(close, "2026-02")
    return ids


def test_month_end_shadows_by_period_player_and_latest(db: Services) -> None:
    ids = _two_months(db)
    with db.transaction() as s:
        jan, feb = (lists.period_id(s, "standard", m) for m in (JAN, FEB))
        assert jan is not None and feb is not None
        assert q.closed_periods_from_latest(s, "standard", FEB) == [(feb, FEB), (jan, JAN)]
        assert q.closed_periods_from_latest(s, "standard", JAN) == [(jan, JAN)]
        in_jan = q.month_ends_of_period(s, jan)
        in_feb = q.month_ends_of_period(s, feb)
        assert set(in_jan) == {ids["Hart"], ids["Sato"]}
        assert set(in_feb) == {ids["Hart"], ids["Berg"]}  # no row for the idle one
        assert set(q.month_ends_of_period(s, feb, only={ids["Berg"]})) == {ids["Berg"]}
        latest = q.latest_month_ends(s, "standard", FEB)
        of_players = q.latest_month_ends_of_players(
            s, [ids["Sato"], ids["Hart"]], {jan: JAN, feb: FEB}
        )
        hart = q.player_month_ends(s, "standard", ids["Hart"])
    assert latest[ids["Sato"]] == in_jan[ids["Sato"]]  # his January row is his latest
    assert latest[ids["Hart"]] == in_feb[ids["Hart"]]
    assert of_players == {ids["Sato"]: in_jan[ids["Sato"]], ids["Hart"]: in_feb[ids["Hart"]]}
    assert hart == {JAN: in_jan[ids["Hart"]], FEB: in_feb[ids["Hart"]]}
    assert in_jan[ids["Hart"]].state.rating > 2000 > in_feb[ids["Hart"]].state.rating
    assert (in_feb[ids["Hart"]].games, in_feb[ids["Hart"]].last_played) == (
        2, month("2026-02").replace(day=5),
    )  # fmt: skip


def test_deleting_a_time_controls_shadow(db: Services) -> None:
    _two_months(db)
    with db.transaction() as s:
        q.delete_shadow(s, "rapid")
        assert s.scalar("SELECT count(*) FROM glicko_history") > 0
        q.delete_shadow(s, "standard")
        assert s.scalar("SELECT count(*) FROM glicko_history") == 0
