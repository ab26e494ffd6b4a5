"""an event's games by day: its first and last game found in the index

Revision ID: 0013
Revises: 0012

- ``ix_games_event_id`` becomes (``event_id``, ``played_on``): when an event's first and last
  game were played (its span: when it is rated) is two seeks of the index, not a read of every
  game of it (a player's history reads the spans of every event he played in; a league has
  hundreds of games). Finding an event's games is the same index, its first column.

Nothing stored changes.
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_event_id")
        batch.create_index("ix_games_event_id", ["event_id", "played_on"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_event_id")
        batch.create_index("ix_games_event_id", ["event_id"])
