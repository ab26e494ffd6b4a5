"""Migrations: from empty to head, models match, down and up again, data survives."""

from __future__ import annotations

from sqlalchemy import inspect, text

from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.models import Base
from tracker.db.revision import SCHEMA_REVISION


def test_schema_revision_constant_is_the_alembic_head() -> None:
    assert migrate.head() == SCHEMA_REVISION
    assert migrate.all_revisions()[-1] == SCHEMA_REVISION


def test_upgrade_from_empty_matches_the_models(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        assert migrate.current(engine) is None
        migrate.upgrade(engine)
        assert migrate.current(engine) == SCHEMA_REVISION
        assert migrate.differences(engine) == []
        tables = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
    finally:
        engine.dispose()


def test_downgrade_to_base_and_up_again(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        migrate.upgrade(engine)
        migrate.downgrade(engine, "base")
        assert migrate.current(engine) is None
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        migrate.upgrade(engine)
        assert migrate.differences(engine) == []
    finally:
        engine.dispose()


def test_every_step_down_and_up(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        revisions = migrate.all_revisions()
        for rev in revisions:
            migrate.upgrade(engine, rev)
            assert migrate.current(engine) == rev
        for rev in reversed(revisions[:-1]):
            migrate.downgrade(engine, rev)
            assert migrate.current(engine) == rev
    finally:
        engine.dispose()


def test_data_written_at_the_first_revision_survives_upgrades(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        migrate.upgrade(engine, migrate.all_revisions()[0])
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO players (id, name, fide_id, external, created_at) VALUES "
                    "(1, 'Hart, Daniel', 400101, false, CURRENT_TIMESTAMP), "
                    "(2, 'Kim, Ji-ho', NULL, true, CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO player_seeds (player_id, tc, rating, games, ever_2400, ever_2300) "
                    "VALUES (1, 'standard', 2318, 240, false, true)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO events (id, name, start_date, start_fixed) "
                    "VALUES (1, 'Club', '2026-01-08', false)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO games (id, white_id, black_id, result, played_on, tc, event_id, "
                    "round, white_rating, black_rating, natural_key, created_at) VALUES "
                    "(1, 1, 2, '1/2-1/2', '2026-01-08', 'standard', 1, '1', NULL, 1803, "
                    "'2026-01-08|1|2|1|1', CURRENT_TIMESTAMP)"
                )
            )
        migrate.upgrade(engine)
        with engine.connect() as conn:
            players = conn.execute(text("SELECT id, name, fide_id FROM players ORDER BY id")).all()
            games = conn.execute(
                text("SELECT white_id, black_id, result, black_rating FROM games")
            ).all()
            seeds = conn.execute(text("SELECT rating, games FROM player_seeds")).all()
        assert [tuple(p) for p in players] == [(1, "Hart, Daniel", 400101), (2, "Kim, Ji-ho", None)]
        assert [tuple(g) for g in games] == [(1, 2, "1/2-1/2", 1803)]
        assert [tuple(s) for s in seeds] == [(2318, 240)]
    finally:
        engine.dispose()


def test_naming_convention_names_every_constraint(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        insp = inspect(engine)
        for table in Base.metadata.tables:
            for fk in insp.get_foreign_keys(table):
                assert fk["name"], (table, fk)
            for uq in insp.get_unique_constraints(table):
                assert uq["name"], (table, uq)
    finally:
        engine.dispose()
