"""What a player's history reads (tracker.db.queries.history): his games' days, whether he
meets external players, his stored shadow, names by id."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, close, external, game, month, seeded, unrated
from tracker.db.queries import history as q
from tracker.db.queries import players as pq


def test_a_players_game_days(db: Services) -> None:
    with db.transaction() as s:
        hart = unrated(s, "Hart").id
        unrated(s, "Sato")
        assert q.last_game_day(s, "standard", hart) is None
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05").id
        b = game(s, "Sato", "Hart", "1-0", "2026-02-07").id
        c = game(s, "Sato", "Hart", "1-0", "2026-03-09", tc="rapid").id
        assert q.last_game_day(s, "standard", hart) == dt.date(2026, 2, 7)
        assert q.last_game_day(s, "rapid", hart) == dt.date(2026, 3, 9)
        assert q.game_days(s, hart) == {
            "standard": {a: dt.date(2026, 1, 5), b: dt.date(2026, 2, 7)},
            "rapid": {c: dt.date(2026, 3, 9)},
        }


def test_plays_external_before_a_day(db: Services) -> None:
    with db.transaction() as s:
        hart, sato = unrated(s, "Hart").id, unrated(s, "Sato").id
        external(s, "Guest")
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
        game(s, "Hart", "Guest", "1-0", "2026-02-10", black_rating=1900)
        assert not q.plays_external(s, "standard", dt.date(2026, 2, 10))  # before it: no
        assert q.plays_external(s, "standard", dt.date(2026, 2, 11))
        assert q.plays_external(s, "standard", dt.date(2026, 2, 11), hart)
        assert not q.plays_external(s, "standard", dt.date(2026, 2, 11), sato)
        assert not q.plays_external(s, "rapid", dt.date(2026, 12, 1))


def test_the_stored_shadow_after_each_game_and_month(db: Services) -> None:
    with db.transaction() as s:
        hart = seeded(s, "Hart", 2000).id
        seeded(s, "Sato", 2000)
        first = game(s, "Hart", "Sato", "1-0", "2026-01-05").id
        second = game(s, "Sato", "Hart", "1-0", "2026-01-20").id
    db(close, "2026-01")
    with db.transaction() as s:
        rows = q.stored_shadow(s, "standard", hart)
    # the default preset rates game by game: a row after each game, in the order played,
    # and one at the month's end (where it sorts among them, NULL, differs by backend)
    after_games = [r for r in rows if r.game_id is not None]
    (month_end,) = [r for r in rows if r.game_id is None]
    assert [(r.month, r.game_id, r.played_on) for r in after_games] == [
        (month("2026-01"), first, dt.date(2026, 1, 5)),
        (month("2026-01"), second, dt.date(2026, 1, 20)),
    ]
    assert after_games[0].rating > 2000 > after_games[1].rating  # a win, then a loss
    assert [r.games for r in after_games] == [1, 2]
    assert (month_end.month, month_end.played_on, month_end.games) == (month("2026-01"), None, 2)
    assert month_end.last_played == dt.date(2026, 1, 20)


def test_names_by_id(db: Services) -> None:
    with db.transaction() as s:
        hart, guest = unrated(s, "Hart").id, external(s, "Guest").id
        game(s, "Hart", "Guest", "1-0", "2026-01-05", event="Winter Cup")
        event = s.scalar("SELECT id FROM events")
        assert dict(pq.all_names(s)) == {hart: "Hart", guest: "Guest"}
        assert q.event_names(s, [event]) == {event: "Winter Cup"}
        assert q.event_names(s, []) == {}
