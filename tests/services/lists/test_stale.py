"""Stale marks (tracker.services.lists.stale): a change marks its period and every later
closed one stale, each noted in the change log; a restore takes back the marks of the
removal it undoes."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, close, day, game, month, seeded
from tracker.db.queries.lists import closed_months
from tracker.ratings.fide.events import EventSpan
from tracker.services import log
from tracker.services.lists import stale

JAN, FEB, MAR = month("2026-01"), month("2026-02"), month("2026-03")
AT = dt.datetime(2026, 11, 29, 12, 0)


def _marks(db: Services) -> list[tuple[dt.date, bool]]:
    with db.transaction() as s:
        return [(c.month, c.stale) for c in closed_months(s, "standard")]


def _closed(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
    with db.transaction() as s:
        close(s, "2026-03")
        assert log.write_entry(s, "period close 2026-03", AT) is not None  # "closed" noted


def test_a_change_marks_its_period_and_the_later_ones(db: Services) -> None:
    with db.transaction() as s:
        assert stale.mark_stale(s, "standard", day("2026-02-10")) == ()  # nothing closed
    _closed(db)
    with db.transaction() as s:
        s.journal.clear()
        assert stale.mark_stale(s, "standard", day("2026-02-10")) == (FEB, MAR)
        assert s.journal == [{
            "did": "stale", "what": "standard periods made stale: 2026-02, 2026-03",
            "tc": "standard", "months": ["2026-02", "2026-03"],
        }]  # fmt: skip
    assert _marks(db) == [(JAN, False), (FEB, True), (MAR, True)]
    with db.transaction() as s:
        assert stale.mark_stale(s, "standard", day("2025-06-01")) == (JAN, FEB, MAR)  # earlier
        assert stale.mark_stale(s, "rapid", day("2026-02-10")) == ()


def test_every_list_stale_at_once(db: Services) -> None:
    _closed(db)
    with db.transaction() as s:
        assert stale.mark_all_stale(s) == (("standard", (JAN, FEB, MAR)),)
    assert all(marked for _, marked in _marks(db))


def test_a_restore_takes_back_only_the_marks_of_the_removal(db: Services) -> None:
    _closed(db)
    with db.transaction() as s:
        stale.mark_stale(s, "standard", day("2026-03-02"))
        other = log.write_entry(s, "game add", AT)
        stale.mark_stale(s, "standard", day("2026-01-20"))
        removal = log.write_entry(s, "game remove", AT)
    assert other is not None and removal is not None
    with db.transaction() as s:
        assert stale.stale_back(s, "standard", but=removal) == (MAR,)
    assert _marks(db) == [(JAN, False), (FEB, False), (MAR, True)]
    with db.transaction() as s:
        assert stale.stale_back(s, "rapid", but=removal) is None  # no close of rapid logged


def test_the_month_a_change_reaches() -> None:
    """The game's own month (the shadow's), or its event's period if earlier."""
    assert stale.changed_month(None, None, day("2026-02-10")) == FEB
    open_ = EventSpan(day("2025-12-01"), day("2026-03-31"))  # rated in March
    assert stale.changed_month(open_, open_, day("2026-02-10")) == FEB
    # a game that makes an event ending in January end in February: January's list changes
    before, after = (
        EventSpan(day("2026-01-10"), day("2026-01-31")),
        EventSpan(day("2026-01-10"), day("2026-02-10")),
    )
    assert stale.changed_month(before, after, day("2026-02-10")) == JAN
