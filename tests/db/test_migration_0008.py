"""Revision 0008 (FIDE's inputs: earlier lists, an event's rating period, a corrected Ro): up
from 0007 on a database with closed periods; nothing rated moves and nothing goes stale; the
new inputs then work; down again drops them and keeps the rest."""

from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION

KEPT = ("players", "player_seeds", "games", "events", "rating_periods", "elo_history")
HISTORY = "SELECT period_id, player_id, rating_before, rating, change FROM elo_history ORDER BY id"


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def test_up_from_0007_and_down_again(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-29", "--event", "Cup"))
    ok(cli("period", "close", "2026-09"))
    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0007")
        assert "official_ratings" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    kept, history = counts(db_url), query(db_url, HISTORY)

    up = ok(cli("db", "upgrade"))
    assert f"from revision 0007 to {SCHEMA_REVISION}" in up.stderr
    assert counts(db_url) == kept and query(db_url, HISTORY) == history
    assert query(db_url, "SELECT rated_in FROM events") == [(None,)]
    assert query(db_url, "SELECT COUNT(*) FROM rating_periods WHERE stale = true") == [(0,)]

    ok(cli("player", "seed", "Hart", "--list", "2026-08", "--rating", "2310"))
    ok(cli("event", "edit", "Cup", "--rated-in", "2026-10", "--ro", "Sato=1901"))
    assert query(db_url, "SELECT rating FROM official_ratings") == [(2310,)]
    assert query(db_url, "SELECT rating FROM event_ratings") == [(1901,)]

    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0007")
        tables = set(inspect(engine).get_table_names())
        columns = {c["name"] for c in inspect(engine).get_columns("events")}
    finally:
        engine.dispose()
    assert not {"official_ratings", "event_ratings"} & tables and "rated_in" not in columns
    assert counts(db_url) == kept
