"""FIDE events over time: an event is rated in the period it ends in

Revision ID: 0005
Revises: 0004

No table changes. From this revision a tournament is rated in the rating period in which it
ends (a league, longer than 90 days, by its monthly parts), the zero-score rule of §8.2.1
judges the player's first event as a whole, and recorded ratings below 1400 count as unrated
from March 2024. Every closed period computed under the old reading is marked stale, so the
next `tracker rerate` (or `period close`) recomputes it under the new one.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(sa.text("UPDATE rating_periods SET stale = :yes").bindparams(yes=True))


def downgrade() -> None:
    # The periods stay stale: their numbers are those of this revision's reading, which the
    # older code would not reproduce; its next rerate recomputes them.
    pass
