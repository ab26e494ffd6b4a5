"""the players by the length of their name: a long list's name column without a scan of it

Revision ID: 0014
Revises: 0013

- ``ix_players_name_length`` (``length(name)``): printing a list must know its longest name
  before its first line. On a federation's list (600,000 lines) that was a join of every
  line to its player; now it walks the players from the longest name down to the first on
  the list, a few seeks (``queries.lists.list_shape``).

Nothing stored changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

NAME_LENGTH = "ix_players_name_length"


def upgrade() -> None:
    op.create_index(NAME_LENGTH, "players", [sa.text("length(name)")])


def downgrade() -> None:
    op.drop_index(NAME_LENGTH, table_name="players")
