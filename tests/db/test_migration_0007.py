"""Revision 0007 (one intake): up from 0006 on a database holding events and rounds spelled
several ways and the games that reference its players; down again. Nothing referencing the
rebuilt tables is lost, rounds are stored and keyed as every door now does, every event
gets its key, and SQLite never gives an id twice from then on."""

from __future__ import annotations

from sqlalchemy import text

from tests.helpers import Cli, js, ok, query
from tracker.db import migrate
from tracker.db.engine import make_engine, sqlite_file
from tracker.db.revision import SCHEMA_REVISION

KEPT = ("players", "player_seeds", "games", "events", "rating_periods", "elo_history")


def counts(url: str) -> dict[str, int]:
    return {t: query(url, f"SELECT COUNT(*) FROM {t}")[0][0] for t in KEPT}


def at_0006(cli: Cli, url: str) -> None:
    """A club at revision 0006 with what that revision let in: two spellings of one event,
    rounds written 01 and Round 2, and the same game under rounds 1 and 01."""
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05", "--event", "Cup"))
    ok(cli("period", "close", "2026-09"))
    engine = make_engine(url)
    try:
        migrate.downgrade(engine, "0006")
        with engine.begin() as conn:
            for event_id, name in ((2, "Autumn Cup"), (3, "autumn cup")):
                conn.execute(
                    text(
                        "INSERT INTO events (id, name, start_date, start_fixed) "
                        "VALUES (:id, :name, '2026-09-12', false)"
                    ),
                    {"id": event_id, "name": name},
                )
            rows = [
                (2, "2026-09-12", 1, 2, 2, "01", "2026-09-12|1|2|2|01"),
                (3, "2026-09-12", 1, 2, 2, "1", "2026-09-12|1|2|2|1"),
                (4, "2026-09-13", 2, 1, 3, "Round 2", "2026-09-13|2|1|3|Round 2"),
                (5, "2026-09-13", 2, 1, 3, "Final", "2026-09-13|2|1|3|Final"),
            ]
            for game_id, on, white, black, event, round_, key in rows:
                conn.execute(
                    text(
                        "INSERT INTO games (id, white_id, black_id, result, played_on, tc, "
                        "event_id, round, natural_key) VALUES (:id, :w, :b, '1-0', :on, "
                        "'standard', :e, :r, :k)"
                    ),
                    {
                        "id": game_id,
                        "w": white,
                        "b": black,
                        "on": on,
                        "e": event,
                        "r": round_,
                        "k": key,
                    },
                )
            if conn.dialect.name == "postgresql":  # ids given by hand: the sequences follow
                for table in ("events", "games"):
                    conn.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                            f"(SELECT max(id) FROM {table}))"
                        )
                    )
    finally:
        engine.dispose()


def test_up_from_0006_and_down_again(cli: Cli, db_url: str) -> None:
    at_0006(cli, db_url)
    kept = counts(db_url)
    history = query(db_url, "SELECT * FROM elo_history ORDER BY id")

    up = ok(cli("db", "upgrade"))
    assert f"from revision 0006 to {SCHEMA_REVISION}" in up.stderr
    assert counts(db_url) == kept  # the rebuilt tables lost no reference
    assert query(db_url, "SELECT * FROM elo_history ORDER BY id") == history
    assert query(db_url, "SELECT id, name_key FROM events ORDER BY id") == [
        (1, "cup"),
        (2, "autumn cup"),
        (3, "autumn cup"),
    ]
    assert query(db_url, "SELECT id, round, natural_key FROM games ORDER BY id") == [
        (1, None, "2026-09-05|1|2|1|"),
        (2, "1", "2026-09-12|1|2|2|1|#2"),  # 01 is 1: the same key as game 3, kept apart
        (3, "1", "2026-09-12|1|2|2|1"),
        (4, "2", "2026-09-13|2|1|3|2"),
        (5, "Final", "2026-09-13|2|1|3|final"),
    ]
    assert query(db_url, "SELECT COUNT(*) FROM rating_periods WHERE stale = true") == [(0,)]
    # the exact name tells two stored spellings apart; another spelling is ambiguous
    ok(cli("game", "list", "--event", "autumn cup"))
    line = cli("game", "list", "--event", "AUTUMN CUP").stderr.strip()
    assert line == (
        "error: event 'AUTUMN CUP' matches 2 events ('Autumn Cup', 'autumn cup'): give its "
        "exact name"
    )
    ok(cli("game", "add", "Hart", "Sato", "0-1", "--date", "2026-09-20", "--event", "CUP"))
    assert [g["event"] for g in js(cli, "game", "list")][-1] == "Cup"

    # ids are never given twice: remove the newest game and player, add again
    newest = js(cli, "game", "list")[-1]["id"]
    ok(cli("game", "remove", str(newest)))
    ok(cli("game", "add", "Hart", "Sato", "0-1", "--date", "2026-09-21"))
    assert js(cli, "game", "list")[-1]["id"] == newest + 1
    ok(cli("player", "add", "Lund, Eva"))
    ok(cli("player", "remove", "Lund, Eva"))
    ok(cli("player", "add", "Berg, Ola"))
    assert js(cli, "player", "show", "Berg, Ola")["id"] == 4

    engine = make_engine(db_url)
    try:
        migrate.downgrade(engine, "0006")
        with engine.connect() as conn:
            keys = conn.execute(text("SELECT id, natural_key FROM games ORDER BY id")).all()
    finally:
        engine.dispose()
    assert [tuple(k) for k in keys][:5] == [
        (1, "2026-09-05|1|2|1|"),
        (2, "2026-09-12|1|2|2|1|#2"),
        (3, "2026-09-12|1|2|2|1"),
        (4, "2026-09-13|2|1|3|2"),
        (5, "2026-09-13|2|1|3|Final"),  # 0006 keys a round as stored
    ]
    if sqlite_file(db_url) is not None:
        assert query(db_url, "SELECT COUNT(*) FROM sqlite_master WHERE sql LIKE '%AUTOINC%'") == [
            (0,)
        ]
