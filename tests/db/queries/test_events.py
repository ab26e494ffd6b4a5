"""The events' named queries (tracker.db.queries.events): what ``event list`` and ``event
show`` read, and the writes of an event's edits and merges."""

from __future__ import annotations

from tests.helpers import Services, day, game, unrated
from tracker.db.queries import events as q
from tracker.db.queries.byes import ByeFields, event_byes, insert_bye


def _cup(db: Services) -> dict[str, int]:
    with db.transaction() as s:
        ids = {n: unrated(s, n).id for n in ("Hart", "Sato", "Berg")}
        ids["g1"] = game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1").id
        ids["g2"] = game(s, "Sato", "Berg", "+-", "2026-01-12", event="Winter Cup", round_="2").id
        ids["g3"] = game(s, "Berg", "Hart", "0-1", "2026-01-19", event="Winter Cup", round_="3").id
        game(s, "Hart", "Berg", "1-0", "2026-02-02", event="Blitz Night", tc="blitz")
        ids["cup"] = int(s.scalar("SELECT id FROM events WHERE name = 'Winter Cup'"))
        ids["blitz"] = int(s.scalar("SELECT id FROM events WHERE name = 'Blitz Night'"))
    return ids


def test_an_events_summary_games_and_players(db: Services) -> None:
    ids = _cup(db)
    with db.transaction() as s:
        (cup,) = q.event_summaries(s, ids["cup"])
        assert (cup.name, cup.tc, cup.games, cup.played) == ("Winter Cup", "standard", 3, 2)
        assert (cup.first, cup.last) == (day("2026-01-05"), day("2026-01-19"))  # no forfeit
        assert [e.name for e in q.event_summaries(s)] == ["Winter Cup", "Blitz Night"]
        assert q.event_player_counts(s) == {(ids["cup"], "standard"): 3, (ids["blitz"], "blitz"): 2}
        assert q.event_names(s) == ["Blitz Night", "Winter Cup"]
        assert q.event_tcs(s, ids["cup"]) == ("standard",)
        assert q.player_games_in(s, ids["cup"], ids["Hart"]) == 2
        assert q.player_games_in(s, ids["cup"], ids["Sato"]) == 2  # the forfeit counts
        assert [g.id for g in q.event_games(s, ids["cup"])] == [ids["g1"], ids["g2"], ids["g3"]]
        assert sorted(p.name for p in q.event_players(s, ids["cup"])) == ["Berg", "Hart", "Sato"]


def test_an_events_days_extent_and_neighbours(db: Services) -> None:
    ids = _cup(db)
    with db.transaction() as s:
        days = [day("2026-01-05"), day("2026-01-12"), day("2026-01-19")]
        assert q.event_days(s, ids["cup"]) == days
        assert q.event_days(s, ids["cup"], but_game=ids["g2"]) == [days[0], days[2]]
        assert q.event_neighbours(s, ids["cup"], day("2026-01-10")) == (days[0], days[1])
        assert q.event_neighbours(s, ids["cup"], day("2026-01-20")) == (days[2], None)
        insert_bye(s, ByeFields(ids["cup"], ids["Hart"], "4", day("2026-01-26"), "standard", "U"))
        extent = q.event_extent(s, ids["cup"])
        assert (extent.first, extent.last) == (days[0], day("2026-01-26"))  # the bye too
        assert sorted(extent.rounds) == ["1", "2", "3", "4"]


def test_an_events_ratings_and_the_events_a_player_started(db: Services) -> None:
    ids = _cup(db)
    with db.transaction() as s:
        assert q.event_ratings_of(s, ids["cup"]) == {}
        q.put_event_rating(s, q.EventRatingRow(ids["cup"], ids["Sato"], 1850))
        q.put_event_rating(s, q.EventRatingRow(ids["cup"], ids["Sato"], 1860))  # replaced
        assert q.event_ratings_of(s, ids["cup"]) == {ids["Sato"]: 1860}
        assert q.delete_event_rating(s, ids["cup"], ids["Sato"]) == 1
        assert q.delete_event_rating(s, ids["cup"], ids["Sato"]) == 0
        started = q.events_started_in(s, ids["Hart"], "standard", [day("2026-01-01")])
        assert started == [(ids["cup"], "Winter Cup")]
        assert q.events_started_in(s, ids["Hart"], "standard", [day("2026-02-01")]) == []
        assert q.events_started_in(s, ids["Hart"], "standard", []) == []


def test_an_event_renamed_moved_and_merged(db: Services) -> None:
    ids = _cup(db)
    with db.transaction() as s:
        q.rename_event(s, ids["cup"], "Winter Cup 2026", "winter cup 2026")
        q.fix_event_start(s, ids["cup"], day("2026-01-03"))
        q.set_rated_in(s, ids["cup"], day("2026-02-01"))
        (cup,) = q.event_summaries(s, ids["cup"])
        assert (cup.name, cup.start_date, cup.start_fixed, cup.rated_in) == (
            "Winter Cup 2026", day("2026-01-03"), True, day("2026-02-01"),
        )  # fmt: skip
        assert q.games_with_keys(s, ["k-1", "k-2"]) == {}
        key = s.scalar("SELECT natural_key FROM games WHERE id = :id", {"id": ids["g1"]})
        assert q.games_with_keys(s, [key]) == {key: ids["g1"]}
        assert q.set_event_games_tc(s, ids["blitz"], "rapid") == 1
        insert_bye(s, ByeFields(ids["cup"], ids["Hart"], "4", day("2026-01-26"), "standard", "U"))
        for g in q.event_games(s, ids["cup"]):
            q.move_game(s, g.id, ids["blitz"], f"{g.natural_key}-moved")
        q.move_byes(s, ids["cup"], ids["blitz"])
        q.delete_event(s, ids["cup"])
        assert q.event_names(s) == ["Blitz Night"]
        assert len(q.event_games(s, ids["blitz"])) == 4
        assert [b.round for b in event_byes(s, ids["blitz"])] == ["4"]
