"""Every game of a file checked (tracker.services.intake.checks): a date that cannot be right
refused, games sharing their key grouped, the values the rules set aside warned of."""

from __future__ import annotations

import datetime as dt

from tests.helpers import TODAY, Services, game, unrated
from tests.services.intake.conftest import plan_of
from tracker.services.imports.people import match_people
from tracker.services.intake.checks import check_games, date_bounds, set_aside
from tracker.services.intake.events import clean_rounds, match_events, plan_byes

ROWS = (
    "2026-01-05,Hart,Sato,1-0,,,,,,\n"
    "2026-12-01,Hart,Sato,1-0,,,,,,\n"  # in the future
    "2026-02-02,Sato,Hart,1-0,,,,,,\n"
    "2026-02-02,Sato,Hart,1-0,,,,,,\n"  # the same key as the line before
    "2026-02-03,Sato,Hart,1-0,,,471,,,\n"  # a national rating
)


def test_the_dates_a_database_takes(db: Services) -> None:
    with db.transaction() as s:
        assert date_bounds(s, TODAY).start is None  # no games: any past date from 1970
        unrated(s, "Hart")
        unrated(s, "Sato")
        game(s, "Hart", "Sato", "1-0", "2026-03-20")
        bounds = date_bounds(s, TODAY)
    assert (bounds.today, bounds.start) == (TODAY, dt.date(2026, 3, 1))


def test_a_files_games_checked(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        plan = plan_of(ROWS)
        match_people(s, plan, "auto")
        match_events(s, "club.csv", plan)
        round_problems = clean_rounds(plan)
        plan_byes(plan)
        groups = check_games(s, "club.csv", False, plan, round_problems)
    assert [str(p) for p in plan.problems] == [
        "club.csv:3: the date 2026-12-01 is in the future (today is 2026-11-29): check the "
        "file's dates"
    ]
    assert list(plan.state) == [0, 1, 0, 0, 0]  # the future game refused
    assert groups == {2: [2, 3]}  # lines 4 and 5 share their key
    assert [str(w) for w in set_aside("club.csv", plan.games)] == [
        "club.csv:6: recorded rating 471 is not a FIDE rating (FIDE's lie within 1000..3000; "
        "a national rating?): stored as no rating"
    ]
