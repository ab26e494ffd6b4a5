from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

INDEX = "ix_games_event_id"
KEPT = ("players", "games", "events", "rating_periods", "elo_history", "list_entries")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def event_index(url: str, revision: str | None = None) -> list[str]:
    """The columns of ``ix_games_event_id`` (after going down to ``revision``, if given)."""
    engine = make_engine(url)
    try:
        if revision is not None:
            migrate.downgrade(engine, revision)
        (index,) = [i for i in inspect(engine).get_indexes("games") if i["name"] == INDEX]
        return [str(c) for c in index["column_names"]]
    finally:
        engine.dispose()


def test_up_from_0012_and_down_again(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05", "--event", "Open"))
    ok(cli("game", "add", "Sato", "Hart", "1/2-1/2", "--date", "2026-10-03", "--event", "Open"))
    ok(cli("period", "close", "2026-10"))
    history = js(cli, "history", "Hart", "--json")
    assert event_index(db_url) == ["event_id", "played_on"]
    assert event_index(db_url, "0012") == ["event_id"]
    kept = counts(db_url)
    ok(cli("db", "upgrade"))
    assert event_index(db_url) == ["event_id", "played_on"]
    assert counts(db_url) == kept
    assert js(cli, "history", "Hart", "--json") == history
