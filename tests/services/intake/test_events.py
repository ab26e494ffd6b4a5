"""A file's events and rounds in the plan (tracker.services.intake.events): matched to the
stored events (case and spacing aside), refused where stored in another time control;
rounds cleaned; byes placed."""

from __future__ import annotations

from tests.helpers import Services, game, unrated
from tests.services.intake.conftest import plan_of
from tracker.services.imports.people import match_people
from tracker.services.intake.events import clean_rounds, match_events


def test_the_files_events_matched_to_the_stored_ones(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        game(s, "Hart", "Sato", "1-0", "2025-12-05", event="Winter Cup", round_="1")
        game(s, "Hart", "Sato", "1-0", "2025-12-06", event="Blitz Night", tc="blitz")
        stored = s.scalar("SELECT id FROM events WHERE name = 'Winter Cup'")
        plan = plan_of(
            "2026-01-05,Hart,Sato,1-0,winter   CUP,02,,,,\n"
            "2026-01-06,Hart,Sato,1-0,Spring Open,Round 3,,,,\n"
            "2026-01-07,Hart,Sato,1-0,blitz night,1,,,,\n"
        )
        match_people(s, plan, "auto")
        match_events(s, "club.csv", plan)
        problems = clean_rounds(plan)
    cup, spring, blitz = plan.events
    assert (cup.name, cup.event_id) == ("winter CUP", stored)  # blanks collapsed, matched
    assert cup.stored is not None and cup.stored.name == "Winter Cup"
    assert (spring.name, spring.event_id, spring.stored) == ("Spring Open", None, None)
    assert blitz.event_id is not None and plan.state[2] == 1  # refused: a blitz event
    assert [str(p) for p in plan.problems] == [
        "club.csv:4: event 'blitz night' is a blitz event in the database and the file's "
        "games are standard: an event is rated on one list; give each time control its own "
        "event"
    ]
    assert plan.rounds == ["2", "3", "1"]  # leading zeros and 'Round' dropped
    assert problems == [[], [], []]
