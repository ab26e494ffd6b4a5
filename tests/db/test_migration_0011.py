"""Revision 0011 (the published lists stored once): up from 0010 builds the stored list of
every closed period exactly as the close stores it; down again drops the table."""

from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

ENTRIES = "SELECT * FROM list_entries ORDER BY period_id, player_id"


def test_up_from_0010_builds_every_list(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("player", "add", "Idle, Ian", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-10"))
    stored = query(db_url, ENTRIES)
    assert len(stored) == 6  # three on each of two lists
    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0010")
        assert "list_entries" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    ok(cli("db", "upgrade"))
    assert query(db_url, ENTRIES) == stored
