from __future__ import annotations

from sqlalchemy import inspect

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine

BY_DAY = {
    "ix_games_event_id": "event_id",
    "ix_games_white_id": "white_id",
    "ix_games_black_id": "black_id",
}
KEPT = ("players", "games", "events", "rating_periods", "elo_history", "list_entries")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def indexes(url: str, revision: str | None = None) -> dict[str, list[str]]:
    """The columns of the games' indexes by event and player (after going down to
    ``revision``, if given)."""
    engine = make_engine(url)
    try:
        if revision is not None:
            migrate.downgrade(engine, revision)
        return {
            str(i["name"]): [str(c) for c in i["column_names"]]
            for i in inspect(engine).get_indexes("games")
            if i["name"] in BY_DAY
        }
    finally:
        engine.dispose()


MONTH_END_COLUMNS = ("player_id", "period_id", "rating", "rd", "volatility", "last_played", "games")


def month_ends(url: str) -> list[str]:
    """The columns of the shadow's month-end rows' index (none: no such index)."""
    engine = make_engine(url)
    try:
        found = inspect(engine).get_indexes("glicko_history")
        return [
            str(c)
            for i in found
            if i["name"] == "ix_glicko_history_month_ends"
            for c in i["column_names"]
        ]
    finally:
        engine.dispose()


def test_up_from_0012_and_down_again(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05", "--event", "Open"))
    ok(cli("game", "add", "Sato", "Hart", "1/2-1/2", "--date", "2026-10-03", "--event", "Open"))
    ok(cli("period", "close", "2026-10"))
    history = js(cli, "history", "Hart", "--json")
    assert indexes(db_url) == {name: [column, "played_on"] for name, column in BY_DAY.items()}
    assert month_ends(db_url)[0] == "player_id"
    assert indexes(db_url, "0012") == {name: [column] for name, column in BY_DAY.items()}
    assert month_ends(db_url) == []
    kept = counts(db_url)
    ok(cli("db", "upgrade"))
    assert indexes(db_url) == {name: [column, "played_on"] for name, column in BY_DAY.items()}
    assert counts(db_url) == kept
    assert month_ends(db_url) == [*MONTH_END_COLUMNS]
    assert js(cli, "history", "Hart", "--json") == history
