from __future__ import annotations

from collections.abc import Callable

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

NAME_LENGTH = "ix_players_name_length"
KEPT = ("players", "games", "rating_periods", "elo_history", "list_entries")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def has_name_length(url: str) -> bool:
    """Whether the players' index by the length of their name is there (read from the
    catalogue: SQLAlchemy does not reflect an index on an expression on SQLite)."""
    sql = (
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'ix_players_name_length'"
        if url.startswith("sqlite")
        else "SELECT indexname FROM pg_indexes WHERE indexname = 'ix_players_name_length'"
    )
    return bool(query(url, sql))


def down_to(url: str, revision: str) -> None:
    engine = make_engine(url)
    try:
        migrate.downgrade(engine, revision)
    finally:
        engine.dispose()


def round_trip(cli: Cli, db_url: str, before: str, changed: Callable[[str], bool]) -> None:
    """A closed month's database down to the revision ``before`` and up again: ``changed``
    (what the revision after it made) is there, then not, then again; the rows and the list
    are kept."""
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-10-03", "--event", "Open"))
    ok(cli("period", "close", "2026-10"))
    listed = js(cli, "list", "--json")
    assert changed(db_url)
    down_to(db_url, before)
    assert not changed(db_url)
    kept = counts(db_url)
    ok(cli("db", "upgrade"))
    assert changed(db_url)
    assert counts(db_url) == kept
    assert js(cli, "list", "--json") == listed


def test_up_from_0013_and_down_again(cli: Cli, db_url: str) -> None:
    round_trip(cli, db_url, "0013", has_name_length)
