"""The games' and events' named queries (tracker.db.queries.games): reads by id, key, day
and filter; a game written, corrected and removed; an event's start following its games."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, day, game, hart_beats_sato, unrated
from tracker.db.queries import games as q
from tracker.db.queries import lists, periods


def test_games_read_by_id_key_day_and_filter(db: Services) -> None:
    with db.transaction() as s:
        assert lists.first_game_day(s) is None and periods.first_closed_month(s) is None
        hart, sato, berg = (unrated(s, n).id for n in ("Hart", "Sato", "Berg"))
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1").id
        b = game(s, "Sato", "Berg", "0-1", "2026-01-12", tc="rapid").id
        c = game(s, "Berg", "Hart", "1/2-1/2", "2026-02-02").id
        row = q.game_by_id(s, a)
        assert row is not None and (row.white_id, row.black_id, row.result) == (hart, sato, "1-0")
        assert q.game_by_id(s, 0) is None
        assert q.game_id_by_natural_key(s, row.natural_key) == a
        assert q.game_id_by_natural_key(s, "no such key") is None
        listing = q.listing_by_id(s, a)
        assert (listing.white, listing.black, listing.event, listing.round) == (
            "Hart", "Sato", "Winter Cup", "1",
        )  # fmt: skip
        assert lists.first_game_day(s) == dt.date(2026, 1, 5)
        on_days = q.games_on_days(s, [day("2026-01-05"), day("2026-01-12")], [hart, sato])
        assert [g.id for g in on_days] == [a]  # Berg's game is not of two of them
        assert [g.id for g in q.listings(s, q.GameFilter())] == [a, b, c]
        assert [g.id for g in q.listings(s, q.GameFilter(player_id=berg))] == [b, c]
        assert [g.id for g in q.listings(s, q.GameFilter(tc="standard"))] == [a, c]
        window = q.GameFilter(played_from=day("2026-01-06"), played_before=day("2026-02-02"))
        assert [g.id for g in q.listings(s, window)] == [b]
        where, params = q.filter_condition(q.GameFilter(tc="rapid", player_id=sato))
        assert params == {"player_id": sato, "tc": "rapid"}
        assert "g.tc = :tc" in where and where.startswith("1 = 1 AND ")


def test_a_game_corrected_and_removed(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05").id
        row = q.game_by_id(s, a)
        assert row is not None
        fields = q.GameFields(*row[1:])
        q.update_game(s, a, fields._replace(result="0-1", round="2"))
        corrected = q.game_by_id(s, a)
        assert corrected is not None and (corrected.result, corrected.round) == ("0-1", "2")
        again = q.insert_game(s, fields._replace(played_on=day("2026-01-06"), natural_key="k2"))
        assert again > a and q.game_id_by_natural_key(s, "k2") == again
        q.delete_game(s, a)
        assert q.game_by_id(s, a) is None


def test_an_events_rows_round_and_time_control(db: Services) -> None:
    with db.transaction() as s:
        hart = unrated(s, "Hart").id
        unrated(s, "Sato")
        a = game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1").id
        game(s, "Sato", "Hart", "1-0", "2026-01-12", event="Winter Cup", round_="2")
        event_id, key = s.first("SELECT id, name_key FROM events")
        event = q.event_by_id(s, event_id)
        assert event is not None
        assert (event.name, event.start_date, event.start_fixed) == (
            "Winter Cup", day("2026-01-05"), False,
        )  # fmt: skip
        assert q.events_with_key(s, key) == [event]
        assert q.event_tc(s, event_id) == "standard"
        assert q.event_tc(s, event_id, "standard") is None
        assert q.event_tc(s, event_id, "rapid") == "standard"
        assert q.game_in_round(s, event_id, hart, "1") == a
        assert q.game_in_round(s, event_id, hart, "3") is None
        q.delete_game(s, a)
        q.follow_earliest_game(s, event_id)  # its start was not given: it moves
        moved = q.event_by_id(s, event_id)
        assert moved is not None and moved.start_date == day("2026-01-12")
        new = q.insert_event(
            s, q.EventRow(0, "Spring Open", day("2026-03-01"), True, rounds=7), "spring open"
        )
        q.declare_event(s, q.EventRow(new, "Spring Open", day("2026-03-02"), True, rounds=9))
        declared = q.event_by_id(s, new)
        assert declared is not None and (declared.start_date, declared.rounds) == (
            day("2026-03-02"), 9,
        )  # fmt: skip


def test_the_first_closed_period_of_any_time_control(db: Services) -> None:
    hart_beats_sato(db, "2026-03-05", "2026-03")
    with db.transaction() as s:
        assert periods.first_closed_month(s) == day("2026-03-01")
