"""a player's and an event's games by day: found in their indexes

Revision ID: 0013
Revises: 0012

- ``ix_games_event_id`` becomes (``event_id``, ``played_on``): when an event's first and last
  game were played (its span: when it is rated) is two seeks of the index, not a read of every
  game of it (a player's history reads the spans of every event he played in; a league has
  hundreds of games).
- ``ix_games_white_id`` and ``ix_games_black_id`` become (``white_id``, ``played_on``) and
  (``black_id``, ``played_on``): the games some players played in a month (``event show``
  works out its players' month) are a range of each player's entries, not every game they
  ever played.

Finding a player's or an event's games is the same index, its first column. Nothing stored
changes.
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

#: Each index and its columns before (0012) and after (0013).
INDEXES = {
    "ix_games_event_id": (["event_id"], ["event_id", "played_on"]),
    "ix_games_white_id": (["white_id"], ["white_id", "played_on"]),
    "ix_games_black_id": (["black_id"], ["black_id", "played_on"]),
}


def _rebuild(after: bool) -> None:
    with op.batch_alter_table("games") as batch:
        for name, columns in INDEXES.items():
            batch.drop_index(name)
            batch.create_index(name, columns[after])


def upgrade() -> None:
    _rebuild(after=True)


def downgrade() -> None:
    _rebuild(after=False)
