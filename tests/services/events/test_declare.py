"""Declaring events (tracker.services.events.declare): an event added before its games, more
declared of it later, refused where its games say otherwise."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, game, unrated
from tracker.errors import ConflictError, InvalidInputError
from tracker.services.events.declare import Declaration, add_event, declare, describe
from tracker.services.events.lookup import find_event


def test_an_event_added_with_what_is_declared(db: Services) -> None:
    swiss = Declaration(start=day("2026-09-05"), end=day("2026-10-04"), rounds=5, kind="swiss",
                        tc="standard", site="  Riverside ")  # fmt: skip
    event = db(add_event, "Autumn Swiss", swiss)
    assert (event.name, event.start_date, event.start_fixed, event.rounds) == (
        "Autumn Swiss", day("2026-09-05"), True, 5,
    )  # fmt: skip
    assert (event.site, event.declared) == ("Riverside", "user")
    assert describe(event) == "swiss, 5 rounds, 2026-09-05 to 2026-10-04, standard, Riverside"
    with pytest.raises(ConflictError, match="there is already an event 'Autumn Swiss'"):
        db(add_event, "autumn  swiss", Declaration(start=day("2026-09-05")))
    with pytest.raises(InvalidInputError, match="an event needs its start"):
        db(add_event, "Winter Swiss", Declaration(rounds=5))


def test_a_declaration_checked_on_its_own() -> None:
    with pytest.raises(InvalidInputError, match="invalid event type 'cup'"):
        Declaration(kind="cup").checked()
    with pytest.raises(InvalidInputError, match="--rounds 0"):
        Declaration(rounds=0).checked()
    with pytest.raises(InvalidInputError, match="the end 2026-01-01 is before the start"):
        Declaration(start=day("2026-02-01"), end=day("2026-01-01")).checked()
    assert not Declaration() and Declaration(rounds=3)


def test_more_declared_of_an_event_its_games_do_not_contradict(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Sato", "Hart", "1-0", "2026-01-12", event="Winter Cup", round_="6")
        cup = find_event(s, "Winter Cup")
        fixed, fixing = declare(s, cup, Declaration(start=cup.start_date))
        assert fixed.start_fixed and not cup.start_fixed
        cup = fixed
        new, changes = declare(s, cup, Declaration(end=day("2026-01-31"), rounds=7))
        assert changes == ("ends on 2026-01-31", "has 7 rounds")
        assert (new.end_date, new.rounds, new.declared) == (day("2026-01-31"), 7, "user")
        assert find_event(s, "Winter Cup") == new
        with pytest.raises(ConflictError) as refused:
            declare(s, new, Declaration(start=day("2026-01-10"), rounds=5))
    assert fixing == ("starts on 2026-01-05",)  # given now: it followed its first game
    assert refused.value.problems == (
        "it has a game on 2026-01-05, before its start 2026-01-10",
        "it has games of round 6: more than 5 rounds",
    )
