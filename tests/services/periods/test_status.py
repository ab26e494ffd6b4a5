"""``tracker status`` at the service (tracker.services.periods.status): counts, and for each
time control the last close, what waits, what can be closed and the biggest movers."""

from __future__ import annotations

from tests.helpers import TODAY, Services, month
from tracker.services.periods.status import status


def test_the_database_at_a_glance(season: Services) -> None:
    out = season(status, TODAY)
    assert (out.tracked, out.external, out.games, out.last_import) == (3, 0, 3, None)
    (standard,) = out.lists  # the only time control with games
    assert (standard.last_closed, standard.list_date, standard.open_month) == (
        month("2026-03"), month("2026-04"), month("2026-04"),
    )  # fmt: skip
    assert (standard.waiting_games, standard.waiting_months) == (1, (month("2026-11"),))
    assert standard.closable == ()  # November is the current month
    assert standard.stale_months == () and standard.rerate_games == 0
    # March's list: Hart -13, Sato +13
    assert [(m.name, m.before, m.rating, m.change) for m in standard.movers] == [
        ("Hart", 2007, 1994, -13), ("Sato", 1893, 1906, 13),
    ]  # fmt: skip


def test_an_empty_database(db: Services) -> None:
    out = db(status, TODAY)
    assert (out.tracked, out.external, out.games, out.lists) == (0, 0, 0, ())
