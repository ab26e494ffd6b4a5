"""Players, their seeds, events and games.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("site", sa.String(length=200), nullable=True),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("start_fixed", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("name", name=op.f("uq_events_name")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("fide_id", sa.BigInteger(), nullable=True),
        sa.Column("federation", sa.String(length=3), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("sex", sa.String(length=1), nullable=True),
        sa.Column("title", sa.String(length=4), nullable=True),
        sa.Column("external", sa.Boolean(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint("sex IN ('m', 'f')", name=op.f("ck_players_sex")),
        sa.CheckConstraint("birth_year BETWEEN 1850 AND 2200", name=op.f("ck_players_birth_year")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("fide_id", name=op.f("uq_players_fide_id")),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index("ix_players_name", ["name"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=7), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("tc", sa.String(length=8), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.String(length=16), nullable=True),
        sa.Column("white_rating", sa.Integer(), nullable=True),
        sa.Column("black_rating", sa.Integer(), nullable=True),
        sa.Column("natural_key", sa.String(length=120), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+')", name=op.f("ck_games_result")
        ),
        sa.CheckConstraint("tc IN ('standard', 'rapid', 'blitz')", name=op.f("ck_games_tc")),
        sa.CheckConstraint("black_rating BETWEEN 0 AND 4000", name=op.f("ck_games_black_rating")),
        sa.CheckConstraint("white_id <> black_id", name=op.f("ck_games_distinct_players")),
        sa.CheckConstraint("white_rating BETWEEN 0 AND 4000", name=op.f("ck_games_white_rating")),
        sa.ForeignKeyConstraint(
            ["black_id"], ["players.id"], name=op.f("fk_games_black_id_players")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_games_event_id_events")),
        sa.ForeignKeyConstraint(
            ["white_id"], ["players.id"], name=op.f("fk_games_white_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("natural_key", name=op.f("uq_games_natural_key")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_black_id", ["black_id"], unique=False)
        batch_op.create_index("ix_games_event_id", ["event_id"], unique=False)
        batch_op.create_index("ix_games_tc_played_on", ["tc", "played_on"], unique=False)
        batch_op.create_index("ix_games_white_id", ["white_id"], unique=False)

    op.create_table(
        "player_seeds",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("tc", sa.String(length=8), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ever_2400", sa.Boolean(), nullable=False),
        sa.Column("ever_2300", sa.Boolean(), nullable=False),
        sa.CheckConstraint("tc IN ('standard', 'rapid', 'blitz')", name=op.f("ck_player_seeds_tc")),
        sa.CheckConstraint("games >= 0", name=op.f("ck_player_seeds_games")),
        sa.CheckConstraint("rating BETWEEN 0 AND 4000", name=op.f("ck_player_seeds_rating")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_seeds_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "tc", name=op.f("pk_player_seeds")),
    )


def downgrade() -> None:
    op.drop_table("player_seeds")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_white_id")
        batch_op.drop_index("ix_games_tc_played_on")
        batch_op.drop_index("ix_games_event_id")
        batch_op.drop_index("ix_games_black_id")

    op.drop_table("games")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_name")

    op.drop_table("players")
    op.drop_table("events")
