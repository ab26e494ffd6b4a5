"""A typed game through the intake's checks (tracker.services.games.door): the same pipeline
as a file's games, its reasons bare."""

from __future__ import annotations

from tests.helpers import Services, day, game, unrated
from tracker.db.queries.players import player_by_id
from tracker.services.games.door import TypedGame, check_typed
from tracker.vocabulary import TimeControl


def test_a_typed_game_checked_as_a_files_are(db: Services) -> None:
    with db.transaction() as s:
        hart, sato = unrated(s, "Hart").id, unrated(s, "Sato").id
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        white, black = player_by_id(s, hart), player_by_id(s, sato)
        assert white is not None and black is not None

        def typed(tc: TimeControl, event: str | None, round_: str | None) -> TypedGame:
            return TypedGame(white, black, "0-1", day("2026-01-12"), tc, event, round_, None, None)

        fine = check_typed(s, typed("standard", "Winter Cup", "2"), yes=False)
        blitz = check_typed(s, typed("blitz", "Winter Cup", "2"), yes=False)
        no_event = check_typed(s, typed("blitz", None, None), yes=False)
    assert fine.problems == () and fine.warnings == ()
    assert blitz.problems == (
        "event 'Winter Cup' is a standard event in the database and the file's games are blitz: "
        "an event is rated on one list; give each time control its own event",
    )
    assert no_event.problems == ()
