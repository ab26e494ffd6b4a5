"""Rating periods and the Elo and Glicko history tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_periods",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tc", sa.String(length=8), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column(
            "closed_at",
            sa.DateTime(),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.Column("stale", sa.Boolean(), nullable=False),
        sa.CheckConstraint(
            "tc IN ('standard', 'rapid', 'blitz')", name=op.f("ck_rating_periods_tc")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_periods")),
        sa.UniqueConstraint("tc", "month", name="uq_rating_periods_tc_month"),
    )
    op.create_table(
        "elo_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("period_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("k", sa.Integer(), nullable=True),
        sa.Column("next_k", sa.Integer(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("score_c", sa.Integer(), nullable=False),
        sa.Column("expected_c", sa.Integer(), nullable=False),
        sa.Column("change_exact_c", sa.Integer(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("ever_2400", sa.Boolean(), nullable=False),
        sa.Column("ever_2300", sa.Boolean(), nullable=False),
        sa.Column("pool", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["period_id"],
            ["rating_periods.id"],
            name=op.f("fk_elo_history_period_id_rating_periods"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_elo_history_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_elo_history")),
        sa.UniqueConstraint("period_id", "player_id", name="uq_elo_history_period_id_player_id"),
    )
    with op.batch_alter_table("elo_history", schema=None) as batch_op:
        batch_op.create_index("ix_elo_history_player_id", ["player_id"], unique=False)

    op.create_table(
        "glicko_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("period_id", sa.Integer(), nullable=True),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_glicko_history_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["period_id"],
            ["rating_periods.id"],
            name=op.f("fk_glicko_history_period_id_rating_periods"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_glicko_history_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_glicko_history")),
    )
    with op.batch_alter_table("glicko_history", schema=None) as batch_op:
        batch_op.create_index("ix_glicko_history_period_id", ["period_id"], unique=False)
        batch_op.create_index("ix_glicko_history_player_id", ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("glicko_history", schema=None) as batch_op:
        batch_op.drop_index("ix_glicko_history_player_id")
        batch_op.drop_index("ix_glicko_history_period_id")

    op.drop_table("glicko_history")
    with op.batch_alter_table("elo_history", schema=None) as batch_op:
        batch_op.drop_index("ix_elo_history_player_id")

    op.drop_table("elo_history")
    op.drop_table("rating_periods")
