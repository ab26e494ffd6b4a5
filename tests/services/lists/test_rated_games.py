"""The games a period rates (tracker.services.lists.rated_games): an event is rated in the
month it ends (FIDE Rating Regulations §7.1.3), a game of no event in its own month; what
waits for a later period, and what a close assumed of an event with nothing declared."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, game, month, seeded
from tracker.db.driver import Db
from tracker.db.queries.rated_games import month_games
from tracker.services.events.declare import Declaration, add_event
from tracker.services.lists import rated_games

JAN, FEB, MAR = month("2026-01"), month("2026-02"), month("2026-03")


def _event_id(s: Db, name: str) -> int:
    return int(s.scalar("SELECT id FROM events WHERE name = :n", {"n": name}))


@pytest.fixture
def season(db: Services) -> Services:
    """An open spanning January and February (nothing declared), a declared 5-round swiss
    that has played 2 rounds by 10 February, and a game of no event in January."""
    with db.transaction() as s:
        for name in ("Hart", "Sato", "Berg", "Cruz"):
            seeded(s, name, 2000)
        game(s, "Hart", "Sato", "1-0", "2026-01-28", event="Winter Open", round_="1")
        game(s, "Berg", "Cruz", "1-0", "2026-01-28", event="Winter Open", round_="1")
        game(s, "Sato", "Berg", "1-0", "2026-02-03", event="Winter Open", round_="2")
        game(s, "Hart", "Cruz", "1-0", "2026-01-15")
        add_event(s, "Club Swiss", Declaration(start=day("2026-02-02"), rounds=5, kind="swiss"))
        game(s, "Hart", "Berg", "1-0", "2026-02-02", event="Club Swiss", round_="1")
        game(s, "Cruz", "Hart", "1-0", "2026-02-09", event="Club Swiss", round_="2")
    return db


def test_each_period_rates_the_events_that_end_in_it(season: Services) -> None:
    with season.transaction() as s:
        jan = rated_games.period_games(s, "standard", JAN)
        feb = rated_games.period_games(s, "standard", FEB)
        played_in_jan = month_games(s, "standard", JAN)
    assert len(played_in_jan) == 3
    # January: only the game of no event; the open ends in February, the swiss is not over
    assert [(g.played_on, g.event_id) for g in jan] == [(day("2026-01-15"), None)]
    assert sorted(g.played_on for g in feb) == [
        day("2026-01-28"), day("2026-01-28"), day("2026-02-03"),
    ]  # fmt: skip
    # each rated with the list in force at its event's start (January's games: 1 January)
    assert {g.event_start for g in feb} == {day("2026-01-28")}


def test_what_each_period_will_rate_and_what_waits(season: Services) -> None:
    with season.transaction() as s:
        pending = rated_games.pending(s, "standard", JAN)
        held = rated_games.held_events(s, "standard", JAN, day("2026-02-10"))
        swiss = _event_id(s, "Club Swiss")
        progress, spans = rated_games.progress_of(s, "standard", [swiss])
        span = rated_games.span_of(s, "standard", swiss)
        assumed = rated_games.assumed_events(s, "standard", [FEB])
    assert pending == {JAN: 1, FEB: 3}  # the swiss has no period yet: 5 rounds, 2 played
    assert [(h.name, h.games, h.rated_in, h.assumed) for h in held] == [
        ("Winter Open", 2, FEB, True)
    ]
    assert progress[swiss] == rated_games.Progress(2, 5, day("2026-02-09"))
    assert progress[swiss].text == "round 2 of 5"
    assert span == spans[swiss] and span is not None and not span.ended
    assert assumed == (rated_games.AssumedEvent("Winter Open", day("2026-02-03"), False),)
    assert rated_games.Progress(None, 5, None).text == ""
