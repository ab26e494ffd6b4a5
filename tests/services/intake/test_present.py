"""The file's games already stored (tracker.services.intake.present): the same game present,
a game that looks like a stored one (the same players on the same day) held back."""

from __future__ import annotations

from tests.helpers import Services, game, unrated
from tests.services.intake.conftest import plan_of
from tracker.services.imports.people import match_people
from tracker.services.intake.checks import check_games
from tracker.services.intake.events import clean_rounds, match_events, plan_byes
from tracker.services.intake.present import find_present, find_twins


def test_present_games_and_twins(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        stored = game(s, "Hart", "Sato", "1-0", "2026-01-20").id
        plan = plan_of(
            "2026-01-05,Hart,Sato,1-0,Winter Cup,1,,,,\n"  # stored already
            "2026-01-20,Hart,Sato,1/2-1/2,Club Night,,,,,\n"  # like the game of no event
            "2026-02-02,Sato,Hart,1-0,,,,,,\n"  # new
        )
        match_people(s, plan, "auto")
        match_events(s, "club.csv", plan)
        round_problems = clean_rounds(plan)
        plan_byes(plan)
        groups = check_games(s, "club.csv", False, plan, round_problems)
        find_present(s, "club.csv", plan, groups)
        assert (plan.present, list(plan.state)) == (1, [2, 0, 0])
        find_twins(s, "club.csv", plan)
    assert [str(p) for p in plan.problems] == [
        f"club.csv:3: this looks like game {stored} (Hart - Sato, 2026-01-20, standard, no "
        "event) again (the same players on the same day, standard): games entered without an "
        "event? remove them, or import with another date"
    ]
