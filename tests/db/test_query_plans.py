"""A player's reads go by the players' indexes (``ix_games_white_id``, ``ix_games_black_id``),
never by the time control's (``ix_games_tc_played_on``) nor by a scan: SQLite plans without
statistics and took that one, scanning every game of the time control (a quarter of a second
on 1,000,000 games for ``player show``). A month's subquery may read the month's games by its
index. The plans are read with ``EXPLAIN QUERY PLAN``, so they hold on an empty database as
on a large one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tracker.db.driver import Db, open_transaction
from tracker.db.queries import events, h2h, history, lists, rated_games, shadow

pytestmark = pytest.mark.backends("sqlite")

MONTH = dt.date(2026, 3, 1)
READS: dict[str, Callable[[Db], Any]] = {
    "a player's game days": lambda db: history.game_days(db, 1),
    "his last game": lambda db: history.last_game_day(db, "standard", 1),
    "his games of a time control": lambda db: h2h.games_between(db, 1, None, "standard"),
    "his meetings with another": lambda db: h2h.games_between(db, 1, 2, "standard"),
    "his events begun in months": lambda db: events.events_started_in(db, 1, "standard", [MONTH]),
    "some players' month": lambda db: rated_games.month_games(db, "standard", MONTH, [1, 2]),
}


def plans(
    db: Db, read: Callable[[Db], Any], monkeypatch: pytest.MonkeyPatch, table: str = "games"
) -> list[str]:
    """The plan of every statement ``read`` runs on ``table``, one line each."""
    statements: list[tuple[str, Any]] = []
    prepare = Db._prepare

    def recorded(self: Db, sql: str, params: Any) -> Any:  # run or streamed
        statements.append(prepared := prepare(self, sql, params))
        return prepared

    with monkeypatch.context() as patch:
        patch.setattr(Db, "_prepare", recorded)
        read(db)
    return [
        " | ".join(str(row[-1]) for row in db.connection.execute(f"EXPLAIN QUERY PLAN {t}", v))
        for t, v in statements
        if table in t
    ]


@pytest.mark.parametrize("name", READS)
def test_a_players_reads_use_the_players_indexes(
    name: str, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        found = plans(db, READS[name], monkeypatch)
    assert found, name
    for plan in found:  # the player's games (``g`` or ``games``); a month's subquery may
        # read the month's games by the month's index (``h``)
        for table in ("g", "games"):
            assert f"SEARCH {table} USING INDEX ix_games_tc_played_on" not in plan, plan
            assert f"SCAN {table} " not in f"{plan} ", plan
        assert "ix_games_white_id" in plan or "ix_games_black_id" in plan, plan


def test_some_players_month_is_a_range_of_each_players_index(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their games of the month, not every game they played (``event show`` works out its
    players' month): a range of (player, day) on each side."""
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        (plan,) = plans(db, READS["some players' month"], monkeypatch)
    for side in ("white", "black"):
        assert f"ix_games_{side}_id ({side}_id=? AND played_on>? AND played_on<?)" in plan, plan


def test_their_events_going_on_are_counted_in_the_indexes_then_probed(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The events going on into a month (``event show`` of a month's event): the players'
    earlier games and the month's are counted in the indexes alone (the month's count stops
    at the players'); read from the players' (fewer here), their earlier games are ranges of
    (player, day) each side, each of their events probed for a game in the month by
    ``ix_games_event_id`` (event, day)."""
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        read = lambda db: rated_games.events_going_on(db, "standard", MONTH, [1])  # noqa: E731
        theirs, month_count, plan = plans(db, read, monkeypatch)
    for side in ("white", "black"):
        assert f"COVERING INDEX ix_games_{side}_id ({side}_id=? AND played_on<?)" in theirs
        assert f"ix_games_{side}_id ({side}_id=? AND played_on<?)" in plan, plan
    assert "COVERING INDEX ix_games_tc_played_on" in month_count, month_count
    probe = "ix_games_event_id (event_id=? AND played_on>? AND played_on<?)"
    assert f"SEARCH h USING COVERING INDEX {probe}" in plan, plan
    assert "ix_games_tc_played_on" not in plan, plan


def test_an_events_first_and_last_game_are_seeks_of_its_index(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event's span reads its first and last played game by ``ix_games_event_id``
    (event, day): two seeks, however many games it has (a league: hundreds), where a
    ``GROUP BY`` read them all."""
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        found = plans(db, lambda db: rated_games.event_bounds(db, "standard", [1, 2]), monkeypatch)
    assert len(found) == 1, found
    assert found[0].count("SEARCH g USING INDEX ix_games_event_id (event_id=?)") == 2, found
    assert "SCAN" not in found[0] and "TEMP B-TREE" not in found[0], found


def test_everyones_latest_shadow_is_one_scan_of_the_month_end_rows(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``compare --all`` reads every player's latest month-end shadow from the month-end rows'
    own index, not the per-game rows of every period as well."""
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        found = plans(
            db, lambda db: shadow.latest_month_ends(db, "standard", MONTH), monkeypatch, "glicko"
        )
    (plan,) = found
    assert plan.startswith("SCAN h USING INDEX ix_glicko_history_month_ends |"), plan
    assert "TEMP B-TREE" not in plan, plan  # grouped by player in the index's order


def test_a_players_month_end_shadows_are_read_from_their_own_index(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``history``, ``player show`` and ``compare`` read the player's month-end shadows by the
    month-end rows' index (player first), not by his index over every row, which reads his
    per-game rows too (a federation's busiest player: 8 ms against under 1)."""
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        (plan,) = plans(
            db, lambda db: shadow.player_month_ends(db, "standard", 1), monkeypatch, "glicko"
        )
    assert plan.startswith("SEARCH h USING INDEX ix_glicko_history_month_ends (player_id=?)"), plan


def test_a_long_lists_shape_walks_the_players_indexes(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long list's longest name and widest FIDE id come from the players' indexes
    (``ix_players_name_length``, the FIDE id's), down (up: the ids) to the first player on
    the list: never a scan of the players or of the list."""
    monkeypatch.setattr(lists, "WALK_FROM", 0)
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        db.run("INSERT INTO players (name, fide_id, external) VALUES ('A', 1234, false)")
        found = plans(db, lambda db: lists.list_shape(db, 1), monkeypatch, table="players")
    # the name, the highest id, then each count of digits from his own down (nobody is listed)
    name_length, highest, *by_digits = found
    assert len(by_digits) == len("1234"), found
    assert "SCAN p USING INDEX ix_players_name_length" in name_length, name_length
    assert highest == "SEARCH players USING COVERING INDEX sqlite_autoindex_players_1", highest
    for plan in by_digits:
        assert "INDEX sqlite_autoindex_players_1 (fide_id>? AND fide_id<?)" in plan, plan
    for plan in (name_length, *by_digits):
        assert "TEMP B-TREE" not in plan, plan  # no sort: the index is in order
        # each player's place on the list: the list's primary key
        assert "SEARCH e USING COVERING INDEX sqlite_autoindex_list_entries_1" in plan, plan
