"""Games one at a time (tracker.services.games): added, listed, corrected, removed and
restored, each marking stale the closed periods it changes."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.helpers import Services, close, day, game, month, seeded, unrated
from tracker.errors import ConflictError, InvalidInputError, NotFoundError
from tracker.services import games, log
from tracker.services.events.declare import Declaration, add_event

NOW = dt.datetime(2026, 11, 29, 12, 0)


@pytest.fixture
def club(db: Services) -> Services:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        unrated(s, "Berg")
    return db


def test_a_game_added_and_listed(club: Services) -> None:
    added = club(games.add_game, white="hart", black="SATO", result="1-0",
                 played_on=day("2026-01-05"), event="Winter Cup", round_="1")  # fmt: skip
    assert (added.white, added.black, added.result, added.tc) == ("Hart", "Sato", "1-0", "standard")
    assert (added.event, added.round, added.rated, added.stale) == ("Winter Cup", "1", True, ())
    club(game, "Berg", "Hart", "+-", "2026-02-01", tc="rapid")
    listed = club(games.list_games, player="Hart")
    assert [(g.white, g.black, g.tc) for g in listed] == [
        ("Hart", "Sato", "standard"), ("Berg", "Hart", "rapid"),
    ]  # fmt: skip
    assert not listed[1].rated  # a forfeit is stored, never rated
    assert [g.black for g in club(games.list_games, tc="rapid")] == ["Hart"]
    assert [g.id for g in club(games.list_games, month=month("2026-01"))] == [added.id]
    assert club(games.list_games, event="winter cup") == (listed[0],)
    with pytest.raises(NotFoundError, match="no event named 'Summer'"):
        club(games.list_games, event="Summer")
    with pytest.raises(ConflictError):  # the same game again
        club(game, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")


def test_a_correction_and_a_removal_mark_the_closed_periods_stale(club: Services) -> None:
    first = club(game, "Hart", "Sato", "1-0", "2026-01-05")
    club(close, "2026-01")
    view, changed = club(games.edit_game, first.id, result="0-1")
    assert changed and view.result == "0-1" and view.id == first.id
    assert view.stale == (month("2026-01"),)
    same, changed = club(games.edit_game, first.id, result="0-1")
    assert not changed and same.stale == ()
    with club.transaction() as s:
        removed = games.remove_game(s, first.id)
        log.write_entry(s, f"game remove {first.id}", NOW)  # what the command writes with it
    assert removed.id == first.id
    with pytest.raises(NotFoundError):
        club(games.get_game, first.id)
    back = club(games.restore_game, first.id)
    assert (back.id, back.result) == (first.id, "0-1")
    with pytest.raises(InvalidInputError, match=f"game {first.id} is not removed"):
        club(games.restore_game, first.id)


def test_a_new_games_time_control_and_its_date(club: Services) -> None:
    with club.transaction() as s:
        assert games.game_tc(s, None, None) == "standard"
        assert games.game_tc(s, "blitz", None) == "blitz"
        add_event(s, "Rapid Night", Declaration(start=day("2026-01-05"), tc="rapid"))
        assert games.game_tc(s, None, "rapid night") == "rapid"  # the event's declared one
        assert games.game_tc(s, "blitz", "Rapid Night") == "blitz"
    with pytest.raises(InvalidInputError, match="in the future"):
        club(
            games.add_game, white="Hart", black="Sato", result="1-0", played_on=day("2026-12-01")
        )  # the tests run on 2026-11-29
