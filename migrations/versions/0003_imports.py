"""Imports: one row per imported file, and each game's import provenance.

Revision ID: 0003
Revises: 0002

On SQLite, batch mode rebuilds ``games`` (copy, drop, rename). With ``foreign_keys=ON``
(always on, and it cannot be switched off inside the migration's transaction) dropping the
old table fires the ``ON DELETE CASCADE`` of ``glicko_history.game_id``, so the rows that
point at games are set aside in a temporary table and put back afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_KEEP = "_tracker_0003_glicko_history"


def _rebuilding_games(change: Callable[[], None]) -> None:
    """Run a batch change of ``games`` without losing the rows that cascade from it."""
    if op.get_bind().dialect.name != "sqlite":
        change()
        return
    op.execute(
        f"CREATE TEMP TABLE {_KEEP} AS SELECT * FROM glicko_history WHERE game_id IS NOT NULL"
    )
    change()
    op.execute(
        f"INSERT INTO glicko_history SELECT * FROM {_KEEP} "
        "WHERE id NOT IN (SELECT id FROM glicko_history)"
    )
    op.execute(f"DROP TABLE {_KEEP}")


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column(
            "imported_at",
            sa.DateTime(),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.Column("games_added", sa.Integer(), nullable=False),
        sa.Column("games_present", sa.Integer(), nullable=False),
        sa.Column("games_skipped", sa.Integer(), nullable=False),
        sa.Column("games_invalid", sa.Integer(), nullable=False),
        sa.Column("byes", sa.Integer(), nullable=False),
        sa.Column("players_created", sa.Integer(), nullable=False),
        sa.CheckConstraint("format IN ('pgn', 'csv', 'trf')", name=op.f("ck_imports_format")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imports")),
    )

    def add_provenance() -> None:
        with op.batch_alter_table("games", schema=None) as batch_op:
            batch_op.add_column(sa.Column("import_id", sa.Integer(), nullable=True))
            batch_op.create_index("ix_games_import_id", ["import_id"], unique=False)
            batch_op.create_foreign_key(
                batch_op.f("fk_games_import_id_imports"), "imports", ["import_id"], ["id"]
            )

    _rebuilding_games(add_provenance)


def downgrade() -> None:
    def drop_provenance() -> None:
        with op.batch_alter_table("games", schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f("fk_games_import_id_imports"), type_="foreignkey")
            batch_op.drop_index("ix_games_import_id")
            batch_op.drop_column("import_id")

    _rebuilding_games(drop_provenance)
    op.drop_table("imports")
