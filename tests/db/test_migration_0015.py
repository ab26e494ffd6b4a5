from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.db.test_migration_0014 import round_trip
from tests.helpers import Cli, ok, query
from tracker.db import migrate
from tracker.db.driver import is_integrity_error, open_transaction
from tracker.db.engine import make_engine


def checked_at_commit(url: str) -> bool:
    """Whether both foreign keys of ``list_entries`` are checked when the transaction commits
    (read from the catalogue)."""
    if url.startswith("sqlite"):
        (sql,) = query(url, "SELECT sql FROM sqlite_master WHERE name = 'list_entries'")[0]
        return sql.count("DEFERRABLE INITIALLY DEFERRED") == 2
    rows = query(
        url,
        "SELECT condeferrable AND condeferred FROM pg_constraint"
        " WHERE conrelid = 'list_entries'::regclass AND contype = 'f'",
    )
    return len(rows) == 2 and all(deferred for (deferred,) in rows)


def test_up_from_0014_and_down_again(cli: Cli, db_url: str) -> None:
    round_trip(cli, db_url, "0014", checked_at_commit)


def test_a_line_of_nobody_is_still_refused_when_it_commits(cli: Cli, db_url: str) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-10-03"))
    ok(cli("period", "close", "2026-10"))
    (period,) = query(db_url, "SELECT id FROM rating_periods")[0]
    opened = open_transaction(db_url, write=True)
    assert opened is not None
    with pytest.raises(Exception) as refused, opened as db:
        db.run(
            "INSERT INTO list_entries (period_id, player_id, rank, rating, change, games, k,"
            " rated_games, ever_2400, ever_2300) VALUES (:p, 999999, 9, 2000, 0, 0, 20, 0,"
            " false, false)",
            {"p": period},
        )
    assert is_integrity_error(refused.value), refused.value
    assert query(db_url, "SELECT count(*) FROM list_entries WHERE player_id = 999999") == [(0,)]


@pytest.mark.backends("sqlite")
def test_a_new_database_is_made_without_a_warning(tmp_path: Path) -> None:
    """The first command of a new SQLite database prints nothing but its own message: the
    table rebuild reflects the players, whose index on the length of a name SQLAlchemy
    cannot reflect (it warned, on stderr)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            migrate.upgrade(engine)
    finally:
        engine.dispose()
