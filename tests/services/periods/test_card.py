"""``player show`` at the service (tracker.services.periods.card): a player's rating on each
list, his place, his peak and his live line (the open months closed as of today)."""

from __future__ import annotations

from tests.helpers import TODAY, Services, month
from tracker.services.periods.card import player_card
from tracker.services.periods.standing import Standing


def test_the_latest_list_and_the_live_line(season: Services) -> None:
    card = season(player_card, "Hart", TODAY)
    assert card.player.name == "Hart"
    (standard,) = card.ratings
    assert (standard.tc, standard.list_date, standard.rating, standard.k) == (
        "standard", month("2026-04"), 1994, 20,
    )  # fmt: skip
    assert standard.standing == Standing(1, 2, 50.0)
    assert standard.peak is not None and standard.peak.rating == 2007
    assert not standard.stale
    live = standard.live
    # November's win over Sato (1906 after March: 88 below, PD .62): +7.6 on December's live list
    assert (live.months, live.games, live.change, live.rating) == (
        (month("2026-11"),), 1, 8, 2002,
    )  # fmt: skip
    assert live.list_date == month("2026-12")


def test_an_unrated_player_has_no_rating(season: Services) -> None:
    card = season(player_card, "Berg", TODAY)
    assert card.player.name == "Berg"
    assert all(r.rating is None for r in card.ratings)
