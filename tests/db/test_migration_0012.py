"""Revision 0012 (the site's configuration): up from 0011 keeps every row and starts with no
configuration (the plain title); down again drops the table and keeps the rest."""

from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

KEPT = ("players", "player_seeds", "games", "events", "rating_periods", "elo_history")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def downgrade(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        migrate.downgrade(engine, "0011")
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_up_from_0011_and_down_again(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05", "--event", "Open"))
    ok(cli("period", "close", "2026-09"))
    assert "site_config" not in downgrade(db_url)
    kept = counts(db_url)
    ok(cli("db", "upgrade"))
    assert counts(db_url) == kept
    assert query(db_url, "SELECT COUNT(*) FROM site_config") == [(0,)]
    assert js(cli, "site", "config", "--json")["title"] == "Club ratings"
    ok(cli("site", "config", "--title", "Riverside Chess Club"))
    assert query(db_url, "SELECT title, logo FROM site_config") == [("Riverside Chess Club", None)]
    assert "site_config" not in downgrade(db_url)
    assert counts(db_url) == kept
