"""a player's and an event's games by day, and the shadow's month-end rows: found in indexes

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

Finding a player's or an event's games is the same index, its first column.

- ``ix_glicko_history_month_ends``: the shadow's month-end rows alone (``game_id`` null; a
  per-game preset stores a row per game side too, eight in nine of them), by player, with
  what a list reads of them: everyone's latest shadow (``compare --all``) is one scan of it.

Nothing stored changes.
"""

from __future__ import annotations

import sqlalchemy as sa
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


MONTH_ENDS = "ix_glicko_history_month_ends"
MONTH_END_COLUMNS = ["player_id", "period_id", "rating", "rd", "volatility", "last_played", "games"]


def upgrade() -> None:
    _rebuild(after=True)
    month_end = sa.text("game_id IS NULL")
    op.create_index(
        MONTH_ENDS,
        "glicko_history",
        MONTH_END_COLUMNS,
        sqlite_where=month_end,
        postgresql_where=month_end,
    )


def downgrade() -> None:
    op.drop_index(MONTH_ENDS, table_name="glicko_history")
    _rebuild(after=False)
