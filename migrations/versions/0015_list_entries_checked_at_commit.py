"""the published lists' references checked when the transaction commits

Revision ID: 0015
Revises: 0014

- ``list_entries``' two foreign keys (its period, its player) become ``DEFERRABLE INITIALLY
  DEFERRED``: a close copies the list before it (a federation's: 600,000 entries), and
  PostgreSQL checked both references of every row as it was written, most of the copy's
  time; checked at commit they cost less, and the live list's closes, which are rolled back,
  are never checked. SQLite rebuilds the table (its foreign keys cannot be altered).

Nothing stored changes.
"""

from __future__ import annotations

import warnings

from alembic import op
from sqlalchemy import exc

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

#: Each foreign key of ``list_entries``: its column and the table it refers to.
KEYS = {
    "fk_list_entries_period_id_rating_periods": ("period_id", "rating_periods"),
    "fk_list_entries_player_id_players": ("player_id", "players"),
}


def _checked(*, at_commit: bool) -> None:
    if op.get_bind().dialect.name == "postgresql":
        timing = "DEFERRABLE INITIALLY DEFERRED" if at_commit else "NOT DEFERRABLE"
        for name in KEYS:
            op.execute(f"ALTER TABLE list_entries ALTER CONSTRAINT {name} {timing}")
        return
    with (
        warnings.catch_warnings(),
        op.batch_alter_table("list_entries", recreate="always") as batch_op,
    ):
        # The rebuild reflects the tables list_entries refers to: SQLAlchemy cannot reflect
        # the players' index on the length of a name (0014) and says so. Nothing of the
        # players is rebuilt; the warning reached a user's terminal at his first command.
        warnings.filterwarnings(
            "ignore", "Skipped unsupported reflection of expression-based index", exc.SAWarning
        )
        for name, (column, table) in KEYS.items():
            batch_op.drop_constraint(name, type_="foreignkey")
            batch_op.create_foreign_key(
                name,
                table,
                [column],
                ["id"],
                ondelete="CASCADE",
                deferrable=True if at_commit else None,
                initially="DEFERRED" if at_commit else None,
            )


def upgrade() -> None:
    _checked(at_commit=True)


def downgrade() -> None:
    _checked(at_commit=False)
