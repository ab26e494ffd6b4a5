"""The games an export writes (tracker.db.queries.exports): each with its event and both
players whole."""

from __future__ import annotations

from tests.helpers import Services, day, external, game, unrated
from tracker.db.queries.exports import game_lines
from tracker.db.queries.games import GameFilter
from tracker.services.events.declare import Declaration, add_event
from tracker.services.players import roster


def test_game_lines_with_the_event_and_both_players(db: Services) -> None:
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart", fide_id=4100123, federation="NOR", title="FM").id
        unrated(s, "Sato")
        external(s, "Guest")
        add_event(s, "Winter Cup", Declaration(start=day("2026-01-04"), site="Oslo"))
        b = game(s, "Sato", "Guest", "0-1", "2026-01-12", black_rating=1900).id
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1").id
        lines = game_lines(s, GameFilter())
        assert [g.id for g in lines] == [a, b]  # by date
        cup = lines[0]
        assert (cup.event, cup.event_start, cup.site, cup.round) == (
            "Winter Cup", day("2026-01-04"), "Oslo", "1",
        )  # fmt: skip
        assert cup.white.id == hart
        assert (cup.white.name, cup.white.fide_id, cup.white.federation, cup.white.title) == (
            "Hart", 4100123, "NOR", "FM",
        )  # fmt: skip
        assert (cup.black.name, cup.black.external) == ("Sato", False)
        night = lines[1]
        assert (night.event, night.black.name, night.black.external, night.black_rating) == (
            None, "Guest", True, 1900,
        )  # fmt: skip
        assert [g.id for g in game_lines(s, GameFilter(player_id=hart))] == [a]
