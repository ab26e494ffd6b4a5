"""The intake's rules (tracker.services.intake): the values every door checks the same way."""

from __future__ import annotations

import datetime as dt

from tracker.services.intake import DateBounds

TODAY = dt.date(2026, 11, 29)  # TRACKER_TODAY in every test


def test_date_bounds() -> None:
    bounds = DateBounds(TODAY, dt.date(2026, 9, 1))
    assert bounds.earliest == dt.date(2025, 9, 1)
    assert bounds.refused(dt.date(2025, 9, 1)) is None
    assert bounds.unconfirmed(dt.date(2025, 9, 1)) is None
    assert bounds.refused(TODAY) is None
    assert bounds.refused(dt.date(2026, 11, 30)) == (
        "the date 2026-11-30 is in the future (today is 2026-11-29)"
    )
    assert bounds.unconfirmed(dt.date(2016, 1, 5)) == (
        "the date 2016-01-05 is more than a year before this database's records start (2026-09)"
    )
    assert bounds.refused(dt.date(1969, 12, 31)) == (
        "the date 1969-12-31 is before 1970: FIDE's first list rated the games of 1970"
    )
    assert DateBounds(TODAY, None).unconfirmed(dt.date(1970, 1, 5)) is None
