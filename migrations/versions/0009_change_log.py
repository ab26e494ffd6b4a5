"""a change log, and removed games kept for restoring

Revision ID: 0009
Revises: 0008

- ``change_log``: one row per command that wrote: when, the command, and what it added,
  changed, removed or made stale (``tracker log``). Numbers are never reused.
- ``removed_games``: a removed game's row, so that ``tracker game restore ID`` brings it back
  with its id while the period it changed has not been rerated.

Nothing stored moves; the log starts empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "change_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("entries", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change_log")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "removed_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("log_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["change_log.id"],
            name=op.f("fk_removed_games_log_id_change_log"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_removed_games")),
    )


def downgrade() -> None:
    op.drop_table("removed_games")
    op.drop_table("change_log")
