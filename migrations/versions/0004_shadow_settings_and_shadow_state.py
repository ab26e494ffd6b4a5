"""shadow settings and shadow state

Revision ID: 0004
Revises: 0003

The shadow is derived data: periods closed before this revision have none yet, so they
are marked stale and the next `tracker rerate` (or `period close`) computes it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shadow_settings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.String(length=8), nullable=False),
        sa.Column("external_rd", sa.Float(), nullable=False),
        sa.Column("chesscom_start", sa.Float(), nullable=False),
        sa.Column("chesscom_c", sa.Float(), nullable=False),
        sa.Column("chesscom_rd_min", sa.Float(), nullable=False),
        sa.Column("chesscom_rd_max", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "preset IN ('lichess', 'glickman', 'chesscom')", name=op.f("ck_shadow_settings_preset")
        ),
        sa.CheckConstraint("seed IN ('elo', 'fresh')", name=op.f("ck_shadow_settings_seed")),
        sa.CheckConstraint("id = 1", name=op.f("ck_shadow_settings_single_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_shadow_settings")),
    )
    with op.batch_alter_table("glicko_history", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_played", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("games", sa.Integer(), nullable=False, server_default="0"))

    op.execute("UPDATE rating_periods SET stale = true")


def downgrade() -> None:
    with op.batch_alter_table("glicko_history", schema=None) as batch_op:
        batch_op.drop_column("games")
        batch_op.drop_column("last_played")

    op.drop_table("shadow_settings")
