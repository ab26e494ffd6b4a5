"""The games a period rates (tracker.db.queries.rated_games): a month's played games, the
events' bounds, the games counted by event and day."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.helpers import Services, day, external, game, month, unrated
from tracker.db.driver import Db
from tracker.db.queries import rated_games as q
from tracker.services.events.declare import Declaration, add_event

JAN, FEB = month("2026-01"), month("2026-02")


def _club(db: Services) -> dict[str, int]:
    with db.transaction() as s:
        ids = {n: unrated(s, n).id for n in ("Hart", "Sato", "Berg")}
        ids["Guest"] = external(s, "Guest").id
        add_event(s, "Winter Cup", Declaration(start=day("2026-01-29")))
        ids["g1"] = game(s, "Hart", "Sato", "1-0", "2026-01-30", event="Winter Cup", round_="1").id
        ids["g2"] = game(s, "Sato", "Hart", "+-", "2026-02-01", event="Winter Cup", round_="2").id
        ids["g3"] = game(s, "Hart", "Sato", "0-1", "2026-02-02", event="Winter Cup", round_="3").id
        ids["g4"] = game(s, "Berg", "Guest", "1/2-1/2", "2026-02-02", black_rating=1900).id
        ids["g5"] = game(s, "Berg", "Hart", "1-0", "2026-02-03", tc="rapid").id
        ids["cup"] = int(s.scalar("SELECT id FROM events WHERE name = 'Winter Cup'"))
    return ids


def test_a_months_played_games_in_date_order(db: Services) -> None:
    ids = _club(db)
    with db.transaction() as s:
        feb = q.month_games(s, "standard", FEB)
        assert [g.id for g in feb] == [ids["g3"], ids["g4"]]  # the forfeit is never given
        cup, evening = feb
        assert (cup.event_id, cup.event_start, cup.result) == (ids["cup"], day("2026-01-29"), "0-1")
        assert (evening.event_start, evening.black_rating) == (day("2026-02-02"), 1900)
        assert (evening.white_external, evening.black_external) == (False, True)
        assert [g.id for g in q.month_games(s, "standard", FEB, [ids["Guest"]])] == [ids["g4"]]
        before = q.month_games(s, "standard", FEB, events=[ids["cup"]])
        assert [g.id for g in before] == [ids["g1"]]  # the event's games before the month
        assert [g.id for g in q.month_games(s, "rapid", FEB)] == [ids["g5"]]


def test_an_events_bounds_and_its_games_by_day(db: Services) -> None:
    ids = _club(db)
    with db.transaction() as s:
        bounds = q.event_bounds(s, "standard", [ids["cup"]])
        assert q.event_bounds(s, "rapid", [ids["cup"]]) == {}
        played = set(q.played_by_event_day(s, "standard"))
        assert q.events_played(s, "standard", FEB, month("2026-03")) == [ids["cup"]]
        before = q.played_before_by_event_day(s, "standard", [ids["cup"]], FEB)
        going_on = q.events_going_on(s, "standard", FEB, [ids["Hart"]])
        assert q.events_going_on(s, "standard", FEB, [ids["Berg"]]) == []
        mine = q.games_of_players(s, "standard", [ids["Hart"], ids["Sato"]], day("2026-02-03"))
    cup = bounds[ids["cup"]]
    assert (cup.start_date, cup.first, cup.last) == (day("2026-01-29"), day("2026-01-30"),
                                                      day("2026-02-02"))  # fmt: skip
    assert cup.rated_in is None and cup.end_date is None
    assert played == {  # the forfeit of 1 February is not counted
        q.DayCount(ids["cup"], day("2026-01-30"), 1),
        q.DayCount(None, day("2026-02-02"), 1),
        q.DayCount(ids["cup"], day("2026-02-02"), 1),
    }
    assert before == [q.DayCount(ids["cup"], day("2026-01-30"), 1)]
    assert going_on == [ids["cup"]]
    assert sorted(g.id for g in mine) == [ids["g1"], ids["g3"]]  # each once, no forfeit


@pytest.mark.parametrize(("earlier", "way"), [(0, "EXISTS"), (6, "IN (SELECT h.event_id")])
def test_the_events_going_on_either_way(
    db: Services, earlier: int, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The events going on into a month are read from the players' earlier games, or from
    the month's games when those are fewer (here Hart's six more January games outnumber
    February's four): the same events either way."""
    ids = _club(db)
    with db.transaction() as s:
        for i in range(earlier):
            game(s, "Hart", "Berg", "1-0", f"2026-01-{10 + i}")
    read: list[str] = []
    scalars = Db.scalars

    def recorded(self: Db, sql: str, params: Any = None) -> Any:
        read.append(sql)
        return scalars(self, sql, params)

    monkeypatch.setattr(Db, "scalars", recorded)
    with db.transaction() as s:
        assert q.events_going_on(s, "standard", FEB, [ids["Hart"]]) == [ids["cup"]]
        assert q.events_going_on(s, "standard", FEB, [ids["Berg"]]) == []
    assert len(read) == 2 and all(way in sql for sql in read), read


def test_events_rated_later_or_declared_to_run_on(db: Services) -> None:
    ids = _club(db)
    with db.transaction() as s:
        assert q.events_rated_from(s, JAN) == []
        s.run(
            "UPDATE events SET rated_in = :m WHERE id = :id",
            {"m": month("2026-03"), "id": ids["cup"]},
        )
        assert q.events_rated_from(s, FEB) == [ids["cup"]]
        assert q.events_rated_from(s, FEB, until=FEB) == []
        assert q.events_declared_past(s, FEB) == []
        s.run(
            "UPDATE events SET end_date = :d WHERE id = :id",
            {"d": dt.date(2026, 2, 28), "id": ids["cup"]},
        )
        assert q.events_declared_past(s, FEB) == [ids["cup"]]
        assert q.events_declared_past(s, month("2026-03")) == []
