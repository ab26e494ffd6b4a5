"""Revision 0005 (events rated in the period they end in): an old database's closed periods,
computed under the old reading, become stale, and ``rerate`` reproduces exactly what this
revision computes for the same games.

The "old" database is made from one closed at head: taken down to 0004, its numbers are
moved as the old reading would have moved them (the ratings shifted, the pools rewritten in
the format of 0004 without the held flag, nothing stale), then upgraded again.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION

ELO_TABLE = """
    SELECT p.month, p.tc, h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games,
           h.score_c, h.expected_c, h.change_exact_c, h.change, h.rated_games, h.ever_2400,
           h.ever_2300, h.pool, h.note
    FROM elo_history h JOIN rating_periods p ON p.id = h.period_id
    ORDER BY p.tc, p.month, h.player_id
"""
NAMES = ("R1", "R2", "R3", "N", "M")


def club(cli: Cli) -> None:
    """Rated players, two newcomers, an open across a month end and a league."""
    for name in ("R1", "R2", "R3"):
        ok(cli("player", "add", name, "--rating", "1900", "--games", "80", "--born", "1975"))
    for name in ("N", "M"):
        ok(cli("player", "add", name, "--born", "2000"))
    games = (
        ("R1", "N", "1-0", "2026-06-06", "League", "1"),
        ("N", "R2", "0-1", "2026-06-27", "Open", "1"),
        ("R3", "N", "1/2-1/2", "2026-06-28", "Open", "2"),
        ("N", "R1", "1/2-1/2", "2026-07-01", "Open", "3"),
        ("M", "R3", "1-0", "2026-07-05", "Open", "4"),
        ("R2", "N", "0-1", "2026-07-11", "League", "2"),
        ("N", "M", "1-0", "2026-08-08", "League", "3"),
        ("R3", "M", "0-1", "2026-08-15", "Cup", "1"),
        ("M", "R2", "1/2-1/2", "2026-08-16", "Cup", "2"),
        ("R1", "M", "1-0", "2026-09-12", "League", "4"),
        ("N", "R3", "1-0", "2026-10-03", "League", "5"),
    )
    ok(cli("event", "add", "League", "--start", "2026-06-06", "--type", "league"))
    for white, black, result, day, event, rnd in games:
        ok(cli("game", "add", white, black, result, "--date", day, "--event", event,
               "--round", rnd))  # fmt: skip
    ok(cli("period", "close", "2026-10"))


def make_it_old(url: str) -> None:
    """Down to 0004, with numbers as the old reading left them."""
    engine = make_engine(url)
    try:
        migrate.downgrade(engine, "0004")
        assert migrate.current(engine) == "0004"
        with engine.begin() as conn:
            conn.execute(text("UPDATE elo_history SET rating = rating + 7 WHERE rating > 0"))
            conn.execute(text("UPDATE rating_periods SET stale = :no").bindparams(no=False))
            pools = conn.execute(text("SELECT id, pool FROM elo_history WHERE pool IS NOT NULL"))
            for row_id, pool in list(pools):
                data: dict[str, Any] = json.loads(pool)
                data["games"] = [g[:5] for g in data["games"]]  # 0004 had no held flag
                conn.execute(
                    text("UPDATE elo_history SET pool = :pool WHERE id = :id"),
                    {"pool": json.dumps(data), "id": row_id},
                )
    finally:
        engine.dispose()


def test_rerate_after_the_upgrade_reproduces_the_new_numbers_exactly(cli: Cli, db_url: str) -> None:
    club(cli)
    histories = {n: js(cli, "history", n) for n in NAMES}
    shows = {n: js(cli, "player", "show", n) for n in NAMES}
    lists = {m: js(cli, "list", m) for m in ("2026-07", "2026-09", "2026-11")}
    elo_rows = query(db_url, ELO_TABLE)
    assert any(h["games"] for h in histories["N"])  # the newcomers took part

    make_it_old(db_url)
    up = ok(cli("db", "upgrade"))
    assert f"from revision 0004 to {SCHEMA_REVISION}" in up.stderr
    periods = query(db_url, "SELECT stale FROM rating_periods")
    assert len(periods) == 5 and all(bool(s) for (s,) in periods)
    stale = cli("history", "R1", "--json")
    assert stale.exit_code == 0 and "rerate" in stale.stderr
    assert query(db_url, ELO_TABLE) != elo_rows  # the old numbers, until rerated

    ok(cli("rerate"))
    assert query(db_url, "SELECT COUNT(*) FROM rating_periods WHERE stale = true") == [(0,)]
    assert query(db_url, ELO_TABLE) == elo_rows
    for n in NAMES:
        assert js(cli, "history", n) == histories[n]
        assert js(cli, "player", "show", n) == shows[n]
    for month, shown in lists.items():
        assert js(cli, "list", month) == shown
