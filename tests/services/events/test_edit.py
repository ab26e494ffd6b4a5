"""Editing events (tracker.services.events.edit): the rating period and ratings given for an
event, renaming and declaring, merging two spellings of one event."""

from __future__ import annotations

import pytest

from tests.helpers import Services, close, game, month, seeded
from tracker.db.queries import events as queries
from tracker.errors import ConflictError, InvalidInputError
from tracker.services.events.declare import Declaration
from tracker.services.events.edit import edit_event, edit_event_facts, merge_events
from tracker.services.events.lookup import find_event


@pytest.fixture
def cup(db: Services) -> Services:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Sato", "Hart", "1-0", "2026-01-12", event="Winter Cup", round_="2")
    db(close, "2026-02")
    return db


def test_a_rating_period_and_a_rating_given_for_an_event(cup: Services) -> None:
    out = cup(edit_event, "winter cup", rated_in=month("2026-02"), ratings=(("Sato", 1990),))
    assert out.name == "Winter Cup"
    assert out.changes == ("rated in 2026-02", "Sato: rated with 1990 in it")
    assert out.stale == (("standard", (month("2026-01"), month("2026-02"))),)
    with cup.transaction() as s:
        event = find_event(s, "Winter Cup")
        assert event.rated_in == month("2026-02")
        sato = s.scalar("SELECT id FROM players WHERE name = 'Sato'")
        assert queries.event_ratings_of(s, event.id) == {sato: 1990}
    again = cup(edit_event, "Winter Cup", ratings=(("Sato", 1990),))
    assert again.changes == ()  # nothing differed
    cleared = cup(edit_event, "Winter Cup", cleared=("Sato",))
    assert cleared.changes == ("Sato: rated with the list's rating again",)
    with pytest.raises(InvalidInputError, match="no rating is given for Sato in Winter Cup"):
        cup(edit_event, "Winter Cup", cleared=("Sato",))


def test_an_event_renamed_and_declared(cup: Services) -> None:
    out = cup(edit_event_facts, "Winter Cup", new_name="Winter Cup 2026",
              declaration=Declaration(rounds=2, kind="round-robin"))  # fmt: skip
    assert out.name == "Winter Cup 2026"
    with cup.transaction() as s:
        event = find_event(s, "winter cup 2026")
    assert (event.rounds, event.kind, event.declared) == (2, "round-robin", "user")
    with pytest.raises(ConflictError):
        cup(edit_event_facts, "Winter Cup 2026", declaration=Declaration(rounds=1))


def test_two_spellings_of_one_event_merged(cup: Services) -> None:
    with cup.transaction() as s:
        moved = game(s, "Hart", "Sato", "1/2-1/2", "2026-01-19", event="Winter Cup II", round_="3")
    out = cup(merge_events, "Winter Cup", "Winter Cup II")
    assert (out.name, out.merged, out.games) == ("Winter Cup", "Winter Cup II", (moved.id,))
    with cup.transaction() as s:
        event = find_event(s, "Winter Cup")
        assert [g.round for g in queries.event_games(s, event.id)] == ["1", "2", "3"]
        assert queries.event_names(s) == ["Winter Cup"]
    with pytest.raises(InvalidInputError, match="name the same event"):
        cup(merge_events, "Winter Cup", "WINTER CUP")
