"""The players' named queries (tracker.db.queries.players): their row types are the tables'
columns, and a savepoint undoes a block that fails while the transaction goes on."""

from __future__ import annotations

import pytest

from tracker.db import models
from tracker.db.driver import Db, open_for_writing
from tracker.db.queries import players as q


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
    opened = open_for_writing(db_url)
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
