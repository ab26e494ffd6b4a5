"""The site's stored configuration and the date of its data (tracker.db.queries.site)."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, external, game, unrated
from tracker.db.queries import site as q


def test_the_configuration_is_one_row_saved_and_replaced(db: Services) -> None:
    with db.transaction() as s:
        assert q.site_config(s) is None
        q.save_site_config(s, q.SiteConfigRow("Riverside", None, None, None, None))
        q.save_site_config(
            s, q.SiteConfigRow("Riverside CC", "A club", "https://x.example", b"\x89PNG", "png")
        )
    with db.transaction() as s:
        assert q.site_config(s) == q.SiteConfigRow(
            "Riverside CC", "A club", "https://x.example", b"\x89PNG", "png"
        )
        assert s.scalar("SELECT count(*) FROM site_config") == 1


def test_the_last_game_day(db: Services) -> None:
    with db.transaction() as s:
        assert q.last_game_day(s) is None
        unrated(s, "Hart")
        external(s, "Guest")
        game(s, "Hart", "Guest", "1-0", "2026-03-07")
        game(s, "Guest", "Hart", "1-0", "2026-01-05", tc="blitz")
        assert q.last_game_day(s) == dt.date(2026, 3, 7)
