"""Revision 0003 (imports, games.import_id): data survives the upgrade and the downgrade.

On SQLite batch mode rebuilds ``games``; with foreign keys on, dropping the old table would
cascade into ``glicko_history`` rows that point at games. The migration must keep them.
"""

from __future__ import annotations

from sqlalchemy import Engine, inspect, text

from tracker.db import migrate
from tracker.db.engine import make_engine


def _seed_0002(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, external, created_at) VALUES "
                "(1, 'Hart, Daniel', false, CURRENT_TIMESTAMP), "
                "(2, 'Kim, Ji-ho', true, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO games (id, white_id, black_id, result, played_on, tc, "
                "black_rating, natural_key, created_at) VALUES "
                "(1, 1, 2, '1-0', '2026-01-08', 'standard', 1803, '2026-01-08|1|2||', "
                "CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO glicko_history (id, player_id, preset, game_id, as_of, rating, rd, "
                "volatility) VALUES (1, 1, 'lichess', 1, '2026-01-08', 1612.5, 180.25, 0.09)"
            )
        )


def _glicko(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, player_id, game_id, rating FROM glicko_history"))
        return [tuple(r) for r in rows]


def test_0003_keeps_games_and_the_rows_that_point_at_them(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        migrate.upgrade(engine, "0002")
        _seed_0002(engine)
        migrate.upgrade(engine, "0003")
        assert _glicko(engine) == [(1, 1, 1, 1612.5)]
        with engine.connect() as conn:
            game = conn.execute(text("SELECT id, black_rating, import_id FROM games")).one()
        assert tuple(game) == (1, 1803, None)
        fks = inspect(engine).get_foreign_keys("games")
        assert "fk_games_import_id_imports" in {fk["name"] for fk in fks}
        assert "imports" in inspect(engine).get_table_names()
        migrate.downgrade(engine, "0002")
        assert _glicko(engine) == [(1, 1, 1, 1612.5)]
        assert "import_id" not in {c["name"] for c in inspect(engine).get_columns("games")}
        assert "imports" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()
