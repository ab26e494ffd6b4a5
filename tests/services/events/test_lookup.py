"""Finding an event by its name (tracker.services.events.lookup): case and spacing do not
count; a name not found suggests the closest."""

from __future__ import annotations

import pytest

from tests.helpers import Services, game, unrated
from tracker.errors import NotFoundError
from tracker.services.events.lookup import event_by_name, find_event


def test_an_event_found_whatever_its_case_and_spacing(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup 2026")
        found = find_event(s, "  winter   CUP 2026 ")
        assert found.name == "Winter Cup 2026"
        assert event_by_name(s, "WINTER CUP 2026") == found
        assert event_by_name(s, "Summer Cup") is None
        with pytest.raises(NotFoundError) as typo:
            find_event(s, "Winter Cp 2026")
        with pytest.raises(NotFoundError) as nothing_close:
            find_event(s, "Blitz")
    assert str(typo.value) == "no event 'Winter Cp 2026' (did you mean 'Winter Cup 2026'?)"
    assert str(nothing_close.value) == "no event 'Blitz'"
