"""Revision 0009 (the change log, removed games kept for restoring): up from 0008 keeps every
row and starts an empty log; down again drops both tables and keeps the rest."""

from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

KEPT = ("players", "player_seeds", "games", "events", "rating_periods", "elo_history")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def test_up_from_0008_and_down_again(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-09"))
    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0008")
        assert "change_log" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    kept = counts(db_url)
    ok(cli("db", "upgrade"))
    assert counts(db_url) == kept
    assert query(db_url, "SELECT COUNT(*) FROM change_log") == [(0,)]
    ok(cli("game", "remove", "1"))
    assert query(db_url, "SELECT id FROM removed_games") == [(1,)]
    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0008")
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert not {"change_log", "removed_games"} & tables
