"""The published lists' named queries (tracker.db.queries.lists): closed periods, seeds, the
stored lines and entries, a player's places."""

from __future__ import annotations

import datetime as dt

from tests.helpers import Services, close, game, month, seeded, unrated
from tracker.db.queries import lists as q

JAN, FEB = month("2026-01"), month("2026-02")


def _season(db: Services) -> dict[str, int]:
    """Four seeded players, one unrated and one external-free month: January closed with a
    game (Hart beats Sato), February closed without games."""
    with db.transaction() as s:
        ids = {
            "Hart": seeded(s, "Hart", 2100).id,
            "Sato": seeded(s, "Sato", 2100, born=2012).id,
            "Berg": seeded(s, "Berg", 1900).id,
            "Cruz": seeded(s, "Cruz", 1900).id,
            "New": unrated(s, "New").id,
        }
        game(s, "Hart", "Sato", "1-0", "2026-01-10")
    db(close, "2026-02")
    return ids


def test_closed_months_and_their_periods(db: Services) -> None:
    with db.transaction() as s:
        assert q.closed_months(s, "standard") == []
        assert q.first_game_day(s, "standard") is None
    ids = _season(db)
    with db.transaction() as s:
        closed = q.closed_months(s, "standard")
        assert [(c.month, c.stale) for c in closed] == [(JAN, False), (FEB, False)]
        assert q.period_id(s, "standard", JAN) == closed[0].period_id
        assert q.period_id(s, "standard", month("2026-03")) is None
        assert q.closed_months(s, "rapid") == []
        assert q.first_game_day(s, "standard") == dt.date(2026, 1, 10)
        assert set(q.seeds(s, "standard")) == {ids["Hart"], ids["Sato"], ids["Berg"], ids["Cruz"]}
        sato = q.seeds(s, "standard", only=[ids["Sato"], ids["New"]])
        assert sato == {ids["Sato"]: q.ListSeed(ids["Sato"], 2100, 100, False, False, 2012)}


def test_the_stored_lines_and_entries(db: Services) -> None:
    ids = _season(db)
    with db.transaction() as s:
        jan = q.period_id(s, "standard", JAN)
        assert jan is not None
        hart = q.player_lines(s, "standard", ids["Hart"])
        assert hart[JAN].rating_before == 2100 and hart[JAN].games == 1
        assert hart[JAN].rating == 2110  # K 20, an even game won: +10
        assert dict(q.period_games(s, jan)) == {ids["Hart"]: 1, ids["Sato"]: 1}
        entries = q.entries(s, jan)
        by_player = {e.player_id: e for e in entries}
        # Sato is a junior (K 40): -20
        assert (by_player[ids["Hart"]].rating, by_player[ids["Hart"]].rank) == (2110, 1)
        assert (by_player[ids["Sato"]].rating, by_player[ids["Sato"]].rank) == (2080, 2)
        assert [e.rank for e in entries] == [1, 2, 3, 3]  # Berg and Cruz tie
        assert ids["New"] not in by_player  # unrated: on no list
        assert q.any_listed(s, jan, [ids["New"], ids["Berg"]])
        assert not q.any_listed(s, jan, [ids["New"]])
        assert sorted(q.entry_ratings(s, jan, [ids["Hart"], ids["Berg"]])) == sorted(
            [(ids["Hart"], 2110), (ids["Berg"], 1900)]
        )


def test_a_players_places_on_every_list(db: Services) -> None:
    ids = _season(db)
    with db.transaction() as s:
        berg = sorted(q.player_places(s, "standard", ids["Berg"]))
        hart = sorted(q.player_places(s, "standard", ids["Hart"]))
        assert q.player_places(s, "standard", ids["New"]) == []
    # Berg shares the third place with Cruz on both lists, which end on that tie
    assert berg == [q.Placed(JAN, 3, 2, 3, 2), q.Placed(FEB, 3, 2, 3, 2)]
    assert hart == [q.Placed(JAN, 1, 1, 3, 2), q.Placed(FEB, 1, 1, 3, 2)]


def test_the_ratings_given_for_an_earlier_list(db: Services) -> None:
    with db.transaction() as s:
        hart = seeded(s, "Hart", 2100).id
        s.run(
            "INSERT INTO official_ratings (player_id, tc, list_date, rating)"
            " VALUES (:p, 'standard', :d, 2090)",
            {"p": hart, "d": dt.date(2025, 12, 1)},
        )
        assert q.official_ratings(s, "standard", dt.date(2025, 12, 1)) == {hart: 2090}
        assert q.official_ratings(s, "standard", dt.date(2025, 11, 1)) == {}
        assert q.official_ratings(s, "rapid", dt.date(2025, 12, 1)) == {}


def test_a_list_is_written_ranked_by_the_database(db: Services) -> None:
    """write_entries ranks what it stores (the ranks given are not read); replace_entries
    puts some players' entries in place and ranks again; republish sets K and flags;
    copy_entries replaces a list with another's, carried over."""
    ids = _season(db)
    hart, sato, berg, cruz = (ids[n] for n in ("Hart", "Sato", "Berg", "Cruz"))
    with db.transaction() as s:
        jan, feb = q.period_id(s, "standard", JAN), q.period_id(s, "standard", FEB)
        assert jan is not None and feb is not None

        def line(pid: int, rating: int, k: int = 20) -> q.Entry:
            return q.Entry(pid, 99, rating, 0, 0, k, 50, False, False)

        q.write_entries(s, feb, [line(hart, 2000), line(sato, 2200), line(berg, 2000)])
        assert [(e.player_id, e.rank) for e in q.entries(s, feb)] == [
            (sato, 1),
            (hart, 2),
            (berg, 2),
        ]  # fmt: skip (by rank, then player)
        q.replace_entries(s, feb, [sato, cruz], [line(cruz, 1990)])  # Sato off, Cruz on
        assert [(e.player_id, e.rank) for e in q.entries(s, feb)] == [
            (hart, 1), (berg, 1), (cruz, 3)
        ]  # fmt: skip
        q.republish(s, feb, [q.EntryFlags(cruz, 40, True, True)])
        assert q.entries(s, feb)[-1] == q.Entry(cruz, 3, 1990, 0, 0, 40, 50, True, True)
        q.copy_entries(s, jan, feb)
        assert [e._replace(change=0, games=0) for e in q.entries(s, jan)] == q.entries(s, feb)
