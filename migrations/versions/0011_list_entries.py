"""the published lists stored once

Revision ID: 0011
Revises: 0010

- ``list_entries``: every rated line of each published list as the list shows it (rank,
  rating, change, games, K, rated games, the sticky flags), written by the close and the
  rerate, so that reading a list, a rank or a percentile never works the list out again
  from the history.

The lists of the periods closed before are built here from the history and the seeds, as
the close builds them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "list_entries",
        sa.Column("period_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("k", sa.Integer(), nullable=True),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("ever_2400", sa.Boolean(), nullable=False),
        sa.Column("ever_2300", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["period_id"],
            ["rating_periods.id"],
            name=op.f("fk_list_entries_period_id_rating_periods"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_list_entries_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("period_id", "player_id", name=op.f("pk_list_entries")),
    )
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.create_index("ix_list_entries_period_id_rank", ["period_id", "rank"])
        batch_op.create_index("ix_list_entries_player_id", ["player_id"])
    _build()


def _build() -> None:
    """Every closed period's list, made as the close makes it (on the migration's own
    connection, in its transaction)."""
    from tracker.db.driver import Db
    from tracker.services import lists
    from tracker.vocabulary import TIME_CONTROLS

    bind = op.get_bind()
    db = Db(bind.connection.driver_connection, bind.dialect.name)
    for tc in TIME_CONTROLS:
        for month, period, _ in lists.closed_months(db, tc):
            lists.store_list(db, tc, month, period)


def downgrade() -> None:
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_list_entries_player_id")
        batch_op.drop_index("ix_list_entries_period_id_rank")
    op.drop_table("list_entries")
