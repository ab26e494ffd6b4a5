"""seeded shadow RD, linked online accounts, online rating points

Revision ID: 0006
Revises: 0005

- ``shadow_settings.seed_rd``: a seeded player's first shadow RD; NULL (the default,
  ``auto``) derives it from his rated games, a number fixes it.
- ``players.lichess`` / ``players.chesscom``: linked online accounts.
- ``online_ratings``: a player's real online rating per platform, perf and day.

A seeded shadow used to start with the new-player RD; from this revision it starts from his
rated games. The stored shadow was computed the old way, so every closed period is marked
stale: the next `tracker rerate` (or `period close`) recomputes it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online_ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=8), nullable=False),
        sa.Column("perf", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "perf IN ('blitz', 'bullet', 'classical', 'correspondence', 'daily', 'rapid')",
            name=op.f("ck_online_ratings_perf"),
        ),
        sa.CheckConstraint(
            "platform IN ('lichess', 'chesscom')", name=op.f("ck_online_ratings_platform")
        ),
        sa.CheckConstraint("rating BETWEEN 0 AND 4000", name=op.f("ck_online_ratings_rating")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_online_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_ratings")),
        sa.UniqueConstraint(
            "player_id",
            "platform",
            "perf",
            "day",
            name="uq_online_ratings_player_id_platform_perf_day",
        ),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lichess", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("chesscom", sa.String(length=50), nullable=True))
        # Unique indexes: added without rebuilding the table (a rebuild of players would
        # cascade through every table that references it on SQLite).
        batch_op.create_index("ix_players_lichess", ["lichess"], unique=True)
        batch_op.create_index("ix_players_chesscom", ["chesscom"], unique=True)

    with op.batch_alter_table("shadow_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seed_rd", sa.Float(), nullable=True))
        batch_op.create_check_constraint(
            batch_op.f("ck_shadow_settings_seed_rd"), "seed_rd IS NULL OR seed_rd > 0"
        )

    op.execute(sa.text("UPDATE rating_periods SET stale = :yes").bindparams(yes=True))


def downgrade() -> None:
    # The periods stay stale: the older code seeds the shadow with the new-player RD, and its
    # next rerate recomputes it so.
    with op.batch_alter_table("shadow_settings", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_shadow_settings_seed_rd"), type_="check")
        batch_op.drop_column("seed_rd")

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_chesscom")
        batch_op.drop_index("ix_players_lichess")
    # Dropping columns would rebuild the table on SQLite (and cascade through every table that
    # references it): plain ALTER TABLE ... DROP COLUMN does it in place (SQLite >= 3.35).
    op.drop_column("players", "chesscom")
    op.drop_column("players", "lichess")

    op.drop_table("online_ratings")
