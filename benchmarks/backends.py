"""The tracker side's database (a SQLite file or PostgreSQL): create it, snapshot and restore
it, a few SQL chores, and loading the tracked players through the players service.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

import generate


class Backend:
    """A database of the benchmark (tracker's, or a floor's copy of it): create it, copy it,
    snapshot/restore it, and small SQL chores."""

    def __init__(self, url: str | None, workdir: Path, name: str = "tracker") -> None:
        self.workdir = workdir
        self.name = name
        self.sqlite_path: Path | None = None
        if url is None:
            self.sqlite_path = workdir / f"{name}.db"
            self.url = f"sqlite:///{self.sqlite_path}"
        else:
            self.url = url
        self.kind = "sqlite" if self.sqlite_path is not None else "postgresql"

    def sibling(self, name: str) -> Backend:
        """Another database of the same kind beside this one (``floor.db``, or the
        PostgreSQL database ``<name>_floor``)."""
        if self.sqlite_path is not None:
            return Backend(None, self.workdir, name)
        from sqlalchemy.engine import make_url

        url = make_url(self.url)
        other = url.set(database=f"{url.database}_{name}")
        return Backend(other.render_as_string(hide_password=False), self.workdir, name)

    @property
    def target(self) -> str:
        """The database as the raw floors name it (``sqlite:PATH`` or a libpq URL)."""
        if self.sqlite_path is not None:
            return f"sqlite:{self.sqlite_path}"
        return "postgresql://" + self.url.split("://", 1)[1]

    def copy_from(self, other: Backend) -> None:
        """Make this database an exact copy of ``other`` (same rows, same ids)."""
        if self.sqlite_path is not None:
            assert other.sqlite_path is not None
            sqlite_copy(other.sqlite_path, self.sqlite_path)
        else:
            self._pg_recreate(self._pg_name(), template=other._pg_name())

    def drop(self) -> None:
        if self.sqlite_path is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
        else:
            self._pg_admin(f'DROP DATABASE IF EXISTS "{self._pg_name()}"')

    def engine(self) -> Any:
        from tracker.db.engine import make_engine

        return make_engine(self.url)

    def create(self) -> None:
        if self.sqlite_path is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
        else:
            self._pg_recreate(self._pg_name(), template=None)
        from tracker.db.schema import ensure_current

        engine = self.engine()
        ensure_current(engine)
        engine.dispose()

    # snapshots, for repeating the import
    def snapshot(self) -> None:
        if self.sqlite_path is not None:
            sqlite_copy(self.sqlite_path, self._snapshot_path)
        else:
            self._pg_recreate(self._pg_name() + "_snap", template=self._pg_name())

    def restore(self) -> None:
        if self.sqlite_path is not None:
            for suffix in ("-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
            sqlite_copy(self._snapshot_path, self.sqlite_path)
        else:
            self._pg_recreate(self._pg_name(), template=self._pg_name() + "_snap")

    def drop_snapshot(self) -> None:
        if self.sqlite_path is not None:
            self._snapshot_path.unlink(missing_ok=True)
        else:
            self._pg_admin(f'DROP DATABASE IF EXISTS "{self._pg_name()}_snap"')

    @property
    def _snapshot_path(self) -> Path:
        return self.workdir / f"{self.name}-snapshot.db"

    def _pg_name(self) -> str:
        from sqlalchemy.engine import make_url

        return str(make_url(self.url).database)

    def _pg_admin(self, *statements: str) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        admin = create_engine(
            make_url(self.url).set(database="postgres"), isolation_level="AUTOCOMMIT"
        )
        with admin.connect() as conn:
            for sql in statements:
                conn.execute(text(sql))
        admin.dispose()

    def _pg_recreate(self, name: str, template: str | None) -> None:
        if "bench" not in name:
            raise SystemExit(
                f"refusing to drop PostgreSQL database {name!r}: use a database whose name "
                "contains 'bench' (e.g. tracker_bench); it is dropped and created again"
            )
        tpl = f' TEMPLATE "{template}"' if template else ""
        self._pg_admin(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"{tpl}')

    def analyze(self) -> None:
        """PostgreSQL: vacuum and refresh the planner's statistics after bulk writes, as
        autovacuum would soon do on a live server (a freshly loaded table has no statistics;
        a close's copied and re-ranked list leaves a dead row for each of its lines, and an
        index-only scan reads the table while they stay). This machine's server runs without
        autovacuum. SQLite needs none."""
        if self.kind != "postgresql":
            return
        from sqlalchemy import text

        engine = self.engine().execution_options(isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("VACUUM ANALYZE"))
        engine.dispose()

    def undo_period(self, month: dt.date) -> None:
        """Remove one closed period and its history rows (to close it again): tracker's or
        a floor's (the same tables)."""
        from sqlalchemy import text

        engine = self.engine()
        with engine.begin() as conn:
            pid = conn.execute(
                text("SELECT id FROM rating_periods WHERE tc = 'standard' AND month = :m"),
                {"m": month},
            ).scalar_one()
            for table in ("elo_history", "glicko_history"):
                conn.execute(text(f"DELETE FROM {table} WHERE period_id = :p"), {"p": pid})
            conn.execute(text("DELETE FROM rating_periods WHERE id = :p"), {"p": pid})
        engine.dispose()

    def fetch(self, sql: str, **params: object) -> list[tuple[Any, ...]]:
        from sqlalchemy import text

        engine = self.engine()
        with engine.connect() as conn:
            rows = [tuple(r) for r in conn.execute(text(sql), params)]
        engine.dispose()
        return rows

    def columns(self, table: str) -> list[str]:
        from sqlalchemy import inspect

        engine = self.engine()
        names = [c["name"] for c in inspect(engine).get_columns(table)]
        engine.dispose()
        return names

    def table_counts(self) -> dict[str, int]:
        """Rows in every table (to see what a command wrote)."""
        from sqlalchemy import inspect, text

        engine = self.engine()
        with engine.connect() as conn:
            names = inspect(conn).get_table_names()
            counts = {
                n: conn.execute(text(f'SELECT count(*) FROM "{n}"')).scalar_one() for n in names
            }
        engine.dispose()
        return counts

    def execute(self, sql: str, **params: object) -> None:
        from sqlalchemy import text

        engine = self.engine()
        with engine.begin() as conn:
            conn.execute(text(sql), params)
        engine.dispose()


def sqlite_copy(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    src.backup(dst)
    dst.close()
    src.close()


# ---------------------------------------------------------------------------------------
# Loading the federation


def add_players(backend: Backend, fed: generate.Federation, *, seeded: bool = True) -> int:
    """The tracked players (without the seeded ones if not ``seeded``: those of a rating
    list), through the players service, in one transaction; how many."""
    from tracker.db import driver
    from tracker.services.players.roster import Seed, add_player

    opened = driver.open_transaction(backend.url, write=True)
    assert opened is not None, "a database at this tracker's schema"
    players = [p for p in fed.players if not p.external and (seeded or p.seed_rating is None)]
    with opened as session:
        for p in players:
            seed = Seed(p.seed_rating, p.seed_games) if p.seed_rating is not None else None
            add_player(
                session,
                name=p.name,
                fide_id=p.fide_id,
                birth_year=p.birth_year,
                federation=p.federation,
                sex=p.sex,
                title=p.title,
                seed=seed,
                force=True,  # generated names are distinct; skip the per-add namesake scan
            )
    return len(players)
