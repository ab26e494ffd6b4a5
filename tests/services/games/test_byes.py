"""Byes (tracker.services.games.byes): a player's round of an event without an opponent,
recorded where it fits the event and taken out again."""

from __future__ import annotations

import pytest

from tests.helpers import Services, day, game, unrated
from tracker.errors import ConflictError, InvalidInputError, NotFoundError
from tracker.services.games.byes import add_bye, remove_bye


@pytest.fixture
def swiss(db: Services) -> Services:
    with db.transaction() as s:
        for name in ("Hart", "Sato", "Berg"):
            unrated(s, name)
        game(s, "Hart", "Sato", "1-0", "2026-03-07", event="Spring Swiss", round_="1", tc="rapid")
    return db


def test_a_bye_recorded_in_the_events_time_control(swiss: Services) -> None:
    bye = swiss(add_bye, player="berg", code="U", event="spring swiss", round_="1",
                played_on=day("2026-03-07"))  # fmt: skip
    assert (bye.player, bye.event, bye.round, bye.tc, bye.code) == (
        "Berg", "Spring Swiss", "1", "rapid", "U",
    )  # fmt: skip
    assert bye.points == "1"
    assert bye.words == "Berg: pairing-allocated bye (1 point), Spring Swiss round 1, 2026-03-07"
    half = swiss(add_bye, player="Hart", code="H", event="Spring Swiss", round_="2",
                 played_on=day("2026-03-14"))  # fmt: skip
    assert (half.points, half.words.split(": ")[1][:25]) == ("1/2", "half-point bye (1/2 point")


def test_a_bye_where_there_is_a_game_or_a_bye_already_is_refused(swiss: Services) -> None:
    with pytest.raises(ConflictError, match="Hart plays game 1 in round 1 of Spring Swiss"):
        swiss(add_bye, player="Hart", code="U", event="Spring Swiss", round_="1",
              played_on=day("2026-03-07"))  # fmt: skip
    swiss(add_bye, player="Berg", code="Z", event="Spring Swiss", round_="1",
          played_on=day("2026-03-07"))  # fmt: skip
    with pytest.raises(ConflictError, match="Berg has a bye in round 1 of Spring Swiss already"):
        swiss(add_bye, player="Berg", code="F", event="Spring Swiss", round_="1",
              played_on=day("2026-03-07"))  # fmt: skip
    with pytest.raises(InvalidInputError, match="give --event and --round"):
        swiss(add_bye, player="Berg", code="F", event=None, round_="1", played_on=day("2026-03-07"))


def test_a_bye_taken_out(swiss: Services) -> None:
    added = swiss(add_bye, player="Berg", code="H", event="Spring Swiss", round_="1",
                  played_on=day("2026-03-07"))  # fmt: skip
    removed = swiss(remove_bye, player="Berg", event="Spring Swiss", round_="1")
    assert removed == added
    with pytest.raises(NotFoundError, match="Berg has no bye in round 1 of Spring Swiss"):
        swiss(remove_bye, player="Berg", event="Spring Swiss", round_="1")
    with pytest.raises(NotFoundError, match="no event 'Autumn'"):
        swiss(remove_bye, player="Berg", event="Autumn", round_="1")
