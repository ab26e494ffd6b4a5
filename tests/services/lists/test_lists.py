"""The published lists stored once (issue 37, ``list_entries``): after every close, rerate
and correction each stored list is the list worked out again from the history and the seeds
(:func:`tests.helpers.whole_list`), on both backends; the ranks and percentiles read from it are
those of the whole sorted list."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    Services,
    cli_on,
    close,
    external,
    game,
    js,
    month,
    ok,
    seeded,
    unrated,
    whole_list,
)
from tracker.db.driver import Db
from tracker.db.queries import lists as queries
from tracker.services import lists
from tracker.services.games import remove_game
from tracker.services.periods import closing
from tracker.services.periods.standing import ListPlaces, place
from tracker.services.players import roster as players
from tracker.services.players.roster import Seed
from tracker.vocabulary import TIME_CONTROLS


def ranked(entries: list[queries.Entry]) -> list[queries.Entry]:
    """``entries`` ranked as FIDE prints a list, worked out here, not as the database does:
    a rank is 1 + the number rated higher."""
    ratings = [e.rating for e in entries]
    return [e._replace(rank=1 + sum(r > e.rating for r in ratings)) for e in entries]


def stored_is_recomputed(s: Db) -> int:
    """Check every stored list against the list worked out again; how many entries."""
    total = 0
    for tc in TIME_CONTROLS:
        for m, period, _ in lists.closed_months(s, tc):
            stored = queries.entries(s, period)
            recomputed = ranked(
                [e for line in whole_list(s, tc, m).values() if (e := lists.entry(line))]
            )
            assert sorted(stored) == sorted(recomputed), (tc, m)
            total += len(stored)
    return total


def check(db: Services) -> int:
    with db.transaction() as s:
        return stored_is_recomputed(s)


def test_every_close_rerate_and_correction_keeps_the_stored_lists(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Ann", 2000, born=1990)
        seeded(s, "Bob", 1800, born=2011, games=20)  # a junior: K 40
        seeded(s, "Cid", 1800)  # ties Bob
        seeded(s, "Idle", 2100)  # never plays: his seed's line on every list
        seeded(s, "Teen", 1700, games=40, born=2007)  # 18 on the 2025 list, 19 on 2026's
        unrated(s, "New", born=2000)
        external(s, "Opp")
        for day in range(3, 8):
            game(s, "Ann", "Bob", "1-0", f"2025-11-{day:02d}", event="Nov", round_=str(day))
            game(s, "New", "Opp", "1/2-1/2", f"2025-11-{day:02d}", black_rating=1900,
                 event="Nov B", round_=str(day))  # fmt: skip
    db(close, "2026-01")  # November to January: the lists of 2025-12, 2026-01 and 2026-02
    assert check(db) == 3 * 6  # Ann, Bob, Cid, Idle, Teen, New (rated from his five games)
    with db.transaction() as s:
        teen = [
            e.k
            for m in ("2025-11", "2025-12")
            for e in queries.entries(s, lists.period_id(s, "standard", month(m)) or 0)
            if e.rating == 1700
        ]
    assert teen == [40, 20]  # a junior on the list of 2025, not on 2026's
    with db.transaction() as s:
        game(s, "Cid", "Ann", "1-0", "2026-02-10", event="Feb")
    db(close, "2026-02")
    assert check(db) == 4 * 6
    # corrections: a seed added after the closes (on every list), a birth year, a seed
    with db.transaction() as s:
        seeded(s, "Late", 2050)
        players.edit_player(s, "Idle", changes={"birth_year": 2012})  # a junior now: K 40
    check(db)
    with db.transaction() as s:
        players.edit_player(
            s, "Late", changes={}, seed=Seed(1650, 10, tc="standard")
        )  # below Bob and Cid now
    check(db)
    with db.transaction() as s:
        january = queries.entries(s, lists.period_id(s, "standard", month("2026-01")) or 0)
        (late,) = [e for e in january if e.rating == 1650]
        assert late.rank == 1 + sum(e.rating > 1650 for e in january) == len(january)
        players.remove_player(s, "Late")
    assert check(db) == 4 * 6
    # a game in a closed month: stale, then rerated
    with db.transaction() as s:
        added = game(s, "Bob", "Cid", "1-0", "2026-01-20", event="Jan 2")
    db(closing.rerate, tc=None, from_month=None)
    check(db)
    with db.transaction() as s:
        remove_game(s, added.id)
    db(close, "2026-03")  # rerates the stale periods first, then closes March
    assert check(db) == 5 * 6


def test_a_month_of_unrated_players_lines_alone_stores_the_list_before_again(
    db: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A month in which only unrated players' lines are written (their pools): the list
    before is stored again in one statement, nothing published again nor replaced, and it
    is the list worked out again; not when one of those lines is a listed player's falling
    below the floor (§7.2.1)."""
    copied: list[int] = []  # the periods whose list is the one before, copied
    worked: set[int] = set()  # those whose copy was then published again
    copy, republish = queries.copy_entries, queries.republish

    def counted(s: Db, source: int, target: int) -> None:
        copied.append(target)
        copy(s, source, target)

    def published(s: Db, period: int, changed: Any) -> None:
        worked.add(period)
        republish(s, period, changed)

    monkeypatch.setattr(queries, "copy_entries", counted)
    monkeypatch.setattr(queries, "republish", published)
    with db.transaction() as s:
        seeded(s, "Ann", 2000)
        seeded(s, "Bob", 1800)
        seeded(s, "Low", 1405)
        unrated(s, "Few")
        external(s, "Opp")
        game(s, "Ann", "Bob", "1-0", "2025-11-03", event="Nov")
        for day in (3, 4):  # two games: a pool, no rating yet
            game(s, "Few", "Opp", "1-0", f"2025-11-0{day}", black_rating=1900, event="Nov B",
                 round_=str(day))  # fmt: skip
        # 1405 - 20 x 0.5: below 1400, shown unrated from the list of March
        game(s, "Low", "Opp", "0-1", "2026-02-10", black_rating=1405, event="Feb")
    db(close, "2026-03")
    with db.transaction() as s:
        months = {p: m for m, p, _ in lists.closed_months(s, "standard")}
        unrated_lines = {
            months[p] for p in months for line in queries.period_lines(s, p)
            if line.rating is None
        }  # fmt: skip
    # December's list is dated 2026: K may change, so it is worked out; the others carry
    # their K and flags over as copied (February's then takes Low off the list)
    assert [months[p] for p in copied if p in worked] == [month("2025-12")]
    assert len(copied) == len(months) - 1  # every list but the first starts as the one before
    assert {month("2026-01"), month("2026-02"), month("2026-03")} <= unrated_lines
    assert check(db) == 3 * 3 + 2 * 2  # Ann, Bob and Low on November's to January's


def test_ranks_and_percentiles_are_those_of_the_sorted_list(db: Services) -> None:
    with db.transaction() as s:
        for name, rating in [("A", 2000), ("B", 1900), ("C", 1900), ("D", 1800), ("E", 1700)]:
            seeded(s, name, rating)
        for day in range(3, 5):
            game(s, "A", "E", "1-0", f"2026-01-{day:02d}", event="Jan", round_=str(day))
    db(close, "2026-01")
    with db.transaction() as s:
        period = lists.period_id(s, "standard", month("2026-01"))
        assert period is not None
        entries = queries.entries(s, period)
        ratings = sorted(e.rating for e in entries)
        for e in entries:
            standing = ListPlaces(s, "standard", e.player_id).place(month("2026-01"))
            assert standing == place(ratings, e.rating)
        ranks = {e.rating: e.rank for e in entries}
        assert ListPlaces(s, "standard", entries[0].player_id).place(dt.date(2025, 12, 1)) is None
    assert sorted(ranks.values()) == [1, 2, 4, 5]


def test_a_players_file_after_the_closes_puts_its_seeds_on_the_stored_lists(
    db: Services, db_url: str, tmp_path: Path
) -> None:
    with db.transaction() as s:
        seeded(s, "Ann", 2000)
        seeded(s, "Bob", 1800)
        for day in range(3, 6):
            game(s, "Ann", "Bob", "1-0", f"2026-01-{day:02d}", event="Jan", round_=str(day))
    db(close, "2026-02")
    path = tmp_path / "players.csv"
    path.write_text(
        "name,birth_year,kind,standard_rating,standard_games\n"
        "Cid,1990,tracked,1900,50\n"
        "Dee,2012,tracked,1700,10\n"
        "Bob,2011,tracked,,\n"  # a birth year: his K on the lists he is carried to
    )
    ok(cli_on(db_url)("import", str(path)))
    assert check(db) == 2 * 4
    listed = {r["name"]: (r["rating"], r["k"]) for r in js(cli_on(db_url), "list")["players"]}
    assert listed["Cid"] == (1900, 20) and listed["Dee"] == (1700, 40)


def test_the_empty_counted_pool_is_what_json_writes() -> None:
    """The pool of every rated line, written as text so that a reader of the lists loads no
    json: the text json.dumps makes of it, and read back as such."""
    import json

    from tracker.ratings.fide.records import PlayerState

    assert json.dumps({"counted": True, "games": []}) == lists._COUNTED_EMPTY_POOL
    assert lists.pool_from_json(lists._COUNTED_EMPTY_POOL) == ((), True)
    state = PlayerState(rating=1800, rated_games=30, k=20, first_event_settled=True)
    assert lists.pool_to_json(state) == lists._COUNTED_EMPTY_POOL
