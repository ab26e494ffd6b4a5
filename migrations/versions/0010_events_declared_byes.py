"""events declared, not guessed; byes and double forfeits stored

Revision ID: 0010
Revises: 0009

- ``events``: what an officer declares of an event (``event add``/``edit``, or an imported
  file's header): ``end_date``, ``rounds``, ``kind`` (swiss, round-robin, league, team,
  match, other), ``tc``, and ``declared`` (by whom: 'user' or 'file'). All NULL for the
  events stored before: they are rated as before, each ending at its last game.
- ``byes``: a round of an event in which a player had no opponent (pairing-allocated, full,
  half or zero-point), counted in standings and crosstables, never rated.
- ``games.result`` may be ``0-0``: a double forfeit (stored, never rated).

Nothing stored is rated differently: the new columns and tables start empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_OLD_RESULTS = "result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+')"
_NEW_RESULTS = "result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+', '0-0')"


def upgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("end_date", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("rounds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("kind", sa.String(length=12), nullable=True))
        batch_op.add_column(sa.Column("tc", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("declared", sa.String(length=4), nullable=True))
        batch_op.create_check_constraint(
            batch_op.f("ck_events_kind"),
            "kind IN ('swiss', 'round-robin', 'league', 'team', 'match', 'other')",
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_events_tc"), "tc IN ('standard', 'rapid', 'blitz')"
        )
        batch_op.create_check_constraint(batch_op.f("ck_events_rounds"), "rounds BETWEEN 1 AND 999")
        batch_op.create_check_constraint(
            batch_op.f("ck_events_declared"), "declared IN ('user', 'file')"
        )
        batch_op.create_check_constraint(batch_op.f("ck_events_dates"), "end_date >= start_date")
    op.create_table(
        "byes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.String(length=16), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("tc", sa.String(length=8), nullable=False),
        sa.Column("code", sa.String(length=1), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint("code IN ('F', 'H', 'Z', 'U')", name=op.f("ck_byes_code")),
        sa.CheckConstraint("tc IN ('standard', 'rapid', 'blitz')", name=op.f("ck_byes_tc")),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_byes_event_id_events"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["import_id"], ["imports.id"], name=op.f("fk_byes_import_id_imports")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_byes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_byes")),
        sa.UniqueConstraint(
            "event_id", "player_id", "round", name="uq_byes_event_id_player_id_round"
        ),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("byes", schema=None) as batch_op:
        batch_op.create_index("ix_byes_import_id", ["import_id"], unique=False)
        batch_op.create_index("ix_byes_player_id", ["player_id"], unique=False)
    _results(_OLD_RESULTS, _NEW_RESULTS)


def _results(old: str, new: str) -> None:
    """Swap the games' CHECK on ``result`` (SQLite rebuilds the table: keep its ids unique
    for ever, as the models say)."""
    with op.batch_alter_table(
        "games", schema=None, table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_games_result"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_games_result"), new)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM games WHERE result = '0-0'"))
    _results(_NEW_RESULTS, _OLD_RESULTS)
    with op.batch_alter_table("byes", schema=None) as batch_op:
        batch_op.drop_index("ix_byes_player_id")
        batch_op.drop_index("ix_byes_import_id")
    op.drop_table("byes")
    with op.batch_alter_table("events", schema=None) as batch_op:
        for name in ("dates", "declared", "rounds", "tc", "kind"):
            batch_op.drop_constraint(batch_op.f(f"ck_events_{name}"), type_="check")
        for column in ("declared", "tc", "kind", "rounds", "end_date"):
            batch_op.drop_column(column)
