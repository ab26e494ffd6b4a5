"""Revision 0004 (shadow settings and shadow state) on a database that already has closed
periods: they become stale, ``rerate`` computes the shadow, the Elo histories do not move.

The database at 0003 is made the way an existing user's is: periods closed by the
application, then taken down to 0003 (which had no shadow: its rows are removed).
"""

from __future__ import annotations

from sqlalchemy import inspect, text

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION

NAMES = ("Hart", "Okafor", "Lee")
ELO_KEYS = (
    "month",
    "list",
    "rating_before",
    "rating",
    "k",
    "games",
    "score",
    "expected",
    "change_exact",
    "change",
    "note",
)
SHADOW_KEYS = ("glicko", "rd", "volatility", "provisional")


def club(cli: Cli) -> None:
    for name, rating in (("Hart", "2318"), ("Okafor", "2100"), ("Lee", "1950")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "100", "--born", "1980"))
    ok(cli("player", "add", "Ext", "--external"))
    for white, black, result, day, extra in (
        ("Hart", "Ext", "1/2-1/2", "2026-01-10", ("--black-rating", "2200")),
        ("Okafor", "Lee", "1-0", "2026-01-12", ()),
        ("Lee", "Hart", "1-0", "2026-01-20", ()),
        ("Hart", "Okafor", "0-1", "2026-02-07", ()),
        ("Lee", "Ext", "1-0", "2026-02-14", ("--black-rating", "2000")),
        ("Okafor", "Hart", "1/2-1/2", "2026-03-03", ()),
    ):
        ok(cli("game", "add", white, black, result, "--date", day, *extra))
    ok(cli("period", "close", "2026-03"))


ELO_TABLE = """
    SELECT p.month, p.tc, h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games,
           h.score_c, h.expected_c, h.change_exact_c, h.change, h.rated_games, h.ever_2400,
           h.ever_2300, h.pool, h.note
    FROM elo_history h JOIN rating_periods p ON p.id = h.period_id
    ORDER BY p.tc, p.month, h.player_id
"""


def down_to_0003(url: str) -> None:
    engine = make_engine(url)
    try:
        migrate.downgrade(engine, "0003")
        assert migrate.current(engine) == "0003"
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM glicko_history"))  # 0003 never stored a shadow
        insp = inspect(engine)
        assert "shadow_settings" not in insp.get_table_names()
        assert "last_played" not in {c["name"] for c in insp.get_columns("glicko_history")}
    finally:
        engine.dispose()


def test_closed_periods_become_stale_and_rerate_computes_the_shadow(cli: Cli, db_url: str) -> None:
    club(cli)
    histories = {n: js(cli, "history", n) for n in NAMES}
    comparisons = {n: js(cli, "compare", n) for n in NAMES}
    standings = js(cli, "compare", "--all")
    elo_rows = query(db_url, ELO_TABLE)
    # three players on three lists: nine lines, of which the one idle line (a rated player
    # without games) is carried over when read, not stored
    assert sum(len(h) for h in histories.values()) == 9
    assert len(elo_rows) == 8
    assert all(h[-1]["glicko"] is not None for h in histories.values())

    down_to_0003(db_url)
    # the application refuses the old schema, in one line, and points at the upgrade
    old = cli("history", "Hart")
    assert old.exit_code != 0
    (line,) = old.stderr.strip().splitlines()
    assert line.startswith("error: ") and "tracker db upgrade" in line

    up = cli("db", "upgrade")
    assert up.exit_code == 0, up.stderr
    assert f"from revision 0003 to {SCHEMA_REVISION}" in up.stderr

    # every closed period is stale, nothing of the shadow exists yet, the Elo is untouched
    periods = query(db_url, "SELECT month, stale FROM rating_periods ORDER BY month")
    assert [(str(m), bool(s)) for m, s in periods] == [
        ("2026-01-01", True),
        ("2026-02-01", True),
        ("2026-03-01", True),
    ]
    assert query(db_url, "SELECT COUNT(*) FROM glicko_history") == [(0,)]
    assert query(db_url, "SELECT COUNT(*) FROM shadow_settings") == [(0,)]
    assert query(db_url, ELO_TABLE) == elo_rows
    stale = cli("history", "Hart", "--json")
    assert stale.exit_code == 0, stale.stderr
    assert "rerate" in stale.stderr
    for n in NAMES:
        rows = js(cli, "history", n)
        assert [[r[k] for k in ELO_KEYS] for r in rows] == [
            [r[k] for k in ELO_KEYS] for r in histories[n]
        ]
        assert all(r["stale"] for r in rows)
        assert all(r[k] is None for r in rows for k in SHADOW_KEYS)
    # defaults apply without a settings row
    shown = js(cli, "shadow", "show")
    assert (shown["preset"], shown["seed"], shown["external_rd"]) == ("lichess", "elo", 60.0)

    ok(cli("rerate"))
    assert query(db_url, "SELECT COUNT(*) FROM rating_periods WHERE stale = true") == [(0,)]
    for n in NAMES:
        assert js(cli, "history", n) == histories[n]
        assert js(cli, "compare", n) == comparisons[n]
    assert js(cli, "compare", "--all") == standings
    assert query(db_url, ELO_TABLE) == elo_rows
    # month-end rows of the players who played: 3 in January and February, 2 in March (Lee,
    # idle, keeps his February row: derived when read)
    assert query(db_url, "SELECT COUNT(*) FROM glicko_history WHERE game_id IS NULL") == [(8,)]


def test_a_period_closed_after_the_upgrade_rerates_the_stale_ones_first(
    cli: Cli, db_url: str
) -> None:
    club(cli)
    march = js(cli, "compare", "Hart")["periods"]
    down_to_0003(db_url)
    ok(cli("db", "upgrade"))
    ok(cli("game", "add", "Hart", "Lee", "1-0", "--date", "2026-04-09"))
    ok(cli("period", "close", "2026-04"))
    periods = js(cli, "compare", "Hart")["periods"]
    assert [p["month"] for p in periods] == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert periods[:3] == march
    assert periods[3]["glicko"] > periods[2]["glicko"]  # he won
