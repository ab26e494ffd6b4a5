"""one intake: events and rounds compared as people mean them; ids never reused

Revision ID: 0007
Revises: 0006

- ``events.name_key``: the event's name without case or extra blanks (``autumn  cup`` is
  ``Autumn Cup``), indexed; every door finds an event by it. Two stored events of one key
  (written before this revision) both stay: the exact name tells them apart.
- ``games.round`` as every door now stores it: a leading ``Round``/``Rd.``/``R`` dropped
  before its number, numbers without leading zeros (``01`` is ``1``); and each game's
  ``natural_key`` compares the round without case. Two games whose keys now agree keep
  apart as ``KEY|#2``, as two games of one key in a file do.
- ``players`` and ``games`` ids are never given twice: SQLite's AUTOINCREMENT (the tables
  are rebuilt, foreign keys off meanwhile: tracker.db.engine.schema_change); PostgreSQL's
  sequences never gave an id twice.
- ``imports.format`` loses its CHECK: the formats are registered once, in
  tracker.importers.detect, and a new one needs no migration.

Nothing is rated differently: no period goes stale.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The rules of this revision, as tracker.services.intake states them (copied: a migration
# keeps doing what it did when it was written).
_ROUND_WORD = re.compile(r"^(?:round|rnd|rd|r)\.?\s*(?=\d)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_SUFFIX = re.compile(r"\|#\d+$")


def _event_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def _clean_round(value: str) -> str:
    text = " ".join(value.split())
    return _NUMBER.sub(lambda m: str(int(m[0])), _ROUND_WORD.sub("", text))


def upgrade() -> None:
    conn = op.get_bind()
    with op.batch_alter_table("events", schema=None) as batch_op:
        # casefolding may lengthen a name (ß is ss; a ligature is two letters)
        batch_op.add_column(sa.Column("name_key", sa.String(length=600), nullable=True))
    events = sa.table("events", sa.column("id", sa.Integer), sa.column("name", sa.String))
    rows = conn.execute(sa.select(events.c.id, events.c.name)).all()
    for event_id, name in rows:
        conn.execute(
            sa.text("UPDATE events SET name_key = :key WHERE id = :id"),
            {"key": _event_key(name), "id": event_id},
        )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=600), nullable=False)
        batch_op.create_index("ix_events_name_key", ["name_key"], unique=False)

    # keyed by the round as stored; now by the cleaned round without case
    _rekey_rounds(conn, _clean_round, lambda r: r.casefold(), lambda r: r)

    with op.batch_alter_table("imports", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_imports_format"), type_="check")

    if conn.dialect.name == "sqlite":
        for name in ("players", "games"):
            with op.batch_alter_table(
                name, recreate="always", table_kwargs={"sqlite_autoincrement": True}
            ):
                pass


def downgrade() -> None:
    conn = op.get_bind()
    with op.batch_alter_table("imports", schema=None) as batch_op:
        batch_op.create_check_constraint(
            batch_op.f("ck_imports_format"), "format IN ('pgn', 'csv', 'trf')"
        )
    if conn.dialect.name == "sqlite":
        for name in ("games", "players"):
            with op.batch_alter_table(
                name, recreate="always", table_kwargs={"sqlite_autoincrement": False}
            ):
                pass
    # Revision 0006 keys a game by its round as stored (the rounds stay as they are now).
    _rekey_rounds(conn, lambda r: r, lambda r: r, lambda r: r.casefold())
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index("ix_events_name_key")
        batch_op.drop_column("name_key")


def _rekey_rounds(
    conn: sa.Connection,
    clean: Callable[[str], str],
    key: Callable[[str], str],
    keyed: Callable[[str], str],
) -> None:
    """Store each round as ``clean`` writes it and key each game by ``key`` of it, where the
    stored keys hold ``keyed`` of the stored round: only the games whose round or key changes
    are touched, in id order, each taking the first free key of its kind (``KEY``,
    ``KEY|#2``...)."""
    rounds = [r for (r,) in conn.execute(sa.text("SELECT DISTINCT round FROM games")) if r]
    moved = [r for r in rounds if clean(r) != r or key(clean(r)) != keyed(r)]
    if not moved:
        return
    games = conn.execute(
        sa.text(
            "SELECT id, played_on, white_id, black_id, event_id, round, natural_key "
            "FROM games WHERE round IN :rounds ORDER BY id"
        ).bindparams(sa.bindparam("rounds", expanding=True)),
        {"rounds": moved},
    ).all()
    for game_id, played_on, white, black, event_id, round_, old_key in games:
        stored = clean(round_)
        day = str(played_on)[:10]
        base = f"{day}|{white}|{black}|{event_id or ''}|{key(stored)}"
        if _SUFFIX.sub("", old_key) == base:
            new_key = old_key
        else:
            new_key, n = base, 1
            while conn.execute(
                sa.text("SELECT 1 FROM games WHERE natural_key = :key"), {"key": new_key}
            ).first():
                n += 1
                new_key = f"{base}|#{n}"
        conn.execute(
            sa.text("UPDATE games SET round = :round, natural_key = :key WHERE id = :id"),
            {"round": stored, "key": new_key, "id": game_id},
        )
