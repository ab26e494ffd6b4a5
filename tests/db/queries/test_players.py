"""The players' named queries (tracker.db.queries.players): their row types are the tables'
columns, a savepoint undoes a block that fails while the transaction goes on, players found
by name, FIDE id and account, their earlier lists."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.helpers import Services, game, unrated
from tracker.db import models
from tracker.db.driver import Db, open_transaction
from tracker.db.queries import players as q
from tracker.services.players import roster


def test_the_row_types_are_the_tables_columns_in_order() -> None:
    players = models.Base.metadata.tables["players"]
    seeds = models.Base.metadata.tables["player_seeds"]
    assert q.PlayerRow._fields == tuple(c.name for c in players.columns if c.name != "created_at")
    assert q.SeedRow._fields == tuple(c.name for c in seeds.columns)


def _add(db: Db, name: str) -> int:
    return q.insert_player(
        db, q.PlayerRow(0, name, None, None, None, None, None, False, None, None)
    )


def test_a_savepoint_undoes_only_the_block_that_failed(db_url: str) -> None:
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with opened as db:
        kept = _add(db, "Hart, Daniel")
        with db.savepoint("a_block"):
            seeded = _add(db, "Sato, Yuki")
            q.insert_seed(db, q.SeedRow(seeded, "standard", 2100, 40, False, False))
        with pytest.raises(ValueError), db.savepoint("a_block"):
            _add(db, "Berg, Ola")
            raise ValueError("refused")
        assert [p.player.name for p in q.listed_players(db)] == ["Hart, Daniel", "Sato, Yuki"]
        assert q.all_seeds(db) == [q.SeedRow(seeded, "standard", 2100, 40, False, False)]
        q.delete_player(db, seeded)  # his seed goes with him
        assert [p.id for p in q.all_names(db)] == [kept]
        assert q.all_seeds(db) == []


def test_players_found_by_name_fide_id_and_account(db: Services) -> None:
    with db.transaction() as s:
        hart = roster.add_player(s, name="Hart, Daniel", fide_id=4100123, lichess="DHart").id
        other = roster.add_player(s, name="Hart, Daniel", force=True).id
        sato = unrated(s, "Sato").id
        assert [p.id for p in q.players_where(s, "name", "Hart, Daniel")] == [hart, other]
        assert [p.id for p in q.players_where(s, "lower(name)", "hart, daniel")] == [hart, other]
        assert q.players_where(s, "name", "hart, daniel") == []
        assert q.namesake_ids(s, "Hart, Daniel", hart) == (other,)
        assert [(p.id, p.name) for p in q.players_where(s, "fide_id", 4100123)] == [
            (hart, "Hart, Daniel")
        ]
        assert q.players_where(s, "fide_id", 4100999) == []
        assert [p.id for p in q.players_where(s, "lower(lichess)", "dhart")] == [hart]
        assert q.players_where(s, "lower(chesscom)", "dhart") == []
        assert [p.name for p in q.all_names(s)] == ["Hart, Daniel", "Hart, Daniel", "Sato"]
        assert sorted(q.distinct_names(s)) == ["Hart, Daniel", "Sato"]
        assert q.tracked_fide_ids(s) == [(4100123, hart, "Hart, Daniel")]
        assert q.player_game_count(s, sato) == 0 and q.first_game_day(s, sato) is None
        game(s, "Sato", "#" + str(hart), "1-0", "2026-02-05")
        game(s, "#" + str(hart), "Sato", "1-0", "2026-01-05")
        assert q.player_game_count(s, sato) == 2
        assert q.first_game_day(s, sato) == dt.date(2026, 1, 5)


def test_a_players_earlier_lists(db: Services) -> None:
    with db.transaction() as s:
        hart = unrated(s, "Hart").id
        dec, nov = dt.date(2025, 12, 1), dt.date(2025, 11, 1)
        q.put_earlier_list(s, hart, q.EarlierList("standard", dec, 2010))
        q.put_earlier_list(s, hart, q.EarlierList("standard", nov, 2000))
        q.put_earlier_list(s, hart, q.EarlierList("standard", dec, 2020))  # replaced
        assert q.earlier_lists_of(s, hart) == [
            q.EarlierList("standard", nov, 2000),
            q.EarlierList("standard", dec, 2020),
        ]
        assert q.all_earlier_lists(s) == [(hart, e) for e in q.earlier_lists_of(s, hart)]
        assert q.delete_earlier_list(s, hart, "standard", nov) == 1
        assert q.delete_earlier_list(s, hart, "standard", nov) == 0
        assert q.earlier_lists_of(s, hart) == [q.EarlierList("standard", dec, 2020)]
