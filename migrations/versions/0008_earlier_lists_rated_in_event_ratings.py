"""FIDE's inputs: earlier lists, the period an event is rated in, a corrected Ro

Revision ID: 0008
Revises: 0007

- ``official_ratings``: a tracked player's rating on one of FIDE's lists that tracker did not
  publish itself (an earlier list), per time control and list date; an event that started while it
  was in force is rated with it (the list in force at an event's start, as FIDE's calculations use
  it).
- ``events.rated_in``: the rating period FIDE rates an event in when later than the month it
  ends in (§7.1.3); NULL, the default, is the month it ends in.
- ``event_ratings``: the rating Ro FIDE rated a player with in one event, where it differs
  from his list rating.

Nothing stored is rated differently: the new columns and tables start empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "official_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("tc", sa.String(length=8), nullable=False),
        sa.Column("list_date", sa.Date(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.CheckConstraint("rating BETWEEN 0 AND 4000", name=op.f("ck_official_ratings_rating")),
        sa.CheckConstraint(
            "tc IN ('standard', 'rapid', 'blitz')", name=op.f("ck_official_ratings_tc")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_official_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "tc", "list_date", name=op.f("pk_official_ratings")),
    )
    op.create_table(
        "event_ratings",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.CheckConstraint("rating BETWEEN 0 AND 4000", name=op.f("ck_event_ratings_rating")),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("fk_event_ratings_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_event_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", "player_id", name=op.f("pk_event_ratings")),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rated_in", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("rated_in")
    op.drop_table("event_ratings")
    op.drop_table("official_ratings")
