"""Revision 0006 (seed RD, linked online accounts, online rating points): down to 0005 and up
again on a database with closed periods, linked accounts and online points. Nothing of the
FIDE side moves; the shadow's periods become stale and ``rerate`` recomputes them with the
seed RD of this revision."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION

DATA = Path(__file__).resolve().parents[1] / "cli" / "data" / "online"

ELO_TABLE = """
    SELECT p.month, p.tc, h.player_id, h.rating_before, h.rating, h.k, h.games,
           h.change_exact_c, h.change, h.rated_games
    FROM elo_history h JOIN rating_periods p ON p.id = h.period_id
    ORDER BY p.tc, p.month, h.player_id
"""
KEPT = ("players", "player_seeds", "games", "events", "rating_periods", "elo_history")


def club(cli: Cli) -> None:
    for name, rating in (("Hart", "2318"), ("Okafor", "2100")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "100", "--born", "1980"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-01-10"))
    ok(cli("game", "add", "Okafor", "Hart", "1/2-1/2", "--date", "2026-02-14"))
    ok(cli("period", "close", "2026-02"))
    ok(cli("player", "edit", "Hart", "--lichess", "dhart_fm", "--chesscom", "DanielHart"))
    ok(cli("online", "import", str(DATA / "lichess_rating_history.json"), "--player", "Hart"))


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def test_down_to_0005_and_up_again(cli: Cli, db_url: str) -> None:
    club(cli)
    compared = js(cli, "compare", "Hart")
    elo_rows = query(db_url, ELO_TABLE)
    kept = counts(db_url)
    assert query(db_url, "SELECT COUNT(*) FROM online_ratings")[0][0] > 0

    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0005")
        insp = inspect(engine)
        assert "online_ratings" not in insp.get_table_names()
        assert {"lichess", "chesscom"}.isdisjoint(c["name"] for c in insp.get_columns("players"))
        assert "seed_rd" not in {c["name"] for c in insp.get_columns("shadow_settings")}
        with engine.begin() as conn:  # as 0005 left them: computed and fresh
            conn.execute(text("UPDATE rating_periods SET stale = false"))
    finally:
        engine.dispose()
    assert counts(db_url) == kept  # nothing referencing the players was lost
    assert query(db_url, ELO_TABLE) == elo_rows

    up = ok(cli("db", "upgrade"))
    assert f"from revision 0005 to {SCHEMA_REVISION}" in up.stderr
    assert query(db_url, "SELECT COUNT(*) FROM rating_periods WHERE stale = false") == [(0,)]
    assert counts(db_url) == kept
    assert js(cli, "shadow", "show")["seed_rd"] == "auto"
    player = js(cli, "player", "show", "Hart")
    assert (player["lichess"], player["chesscom"]) == (None, None)
    assert query(db_url, "SELECT COUNT(*) FROM online_ratings") == [(0,)]

    ok(cli("rerate"))
    again = js(cli, "compare", "Hart")
    assert [(p["elo"], p["glicko"], p["rd"]) for p in again["periods"]] == [
        (p["elo"], p["glicko"], p["rd"]) for p in compared["periods"]
    ]
    assert query(db_url, ELO_TABLE) == elo_rows
