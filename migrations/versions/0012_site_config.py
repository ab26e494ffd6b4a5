"""the club's site: its title, words about it, its address and its logo

Revision ID: 0012
Revises: 0011

- ``site_config``: one row (id 1), what ``tracker site config`` stores for every later
  ``tracker site build``: ``title`` (the club's name, on every page), ``about`` (a paragraph
  on the index), ``url`` (where the site is published), and the logo's bytes and type
  (``logo``, ``logo_type``: png, jpeg, gif, webp or svg), written beside the pages.

Nothing stored changes: the table starts empty (the site keeps its plain title).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "site_config",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("about", sa.Text(), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("logo", sa.LargeBinary(), nullable=True),
        sa.Column("logo_type", sa.String(length=8), nullable=True),
        sa.CheckConstraint("id = 1", name=op.f("ck_site_config_single_row")),
        sa.CheckConstraint(
            "logo_type IN ('png', 'jpeg', 'gif', 'webp', 'svg')",
            name=op.f("ck_site_config_logo_type"),
        ),
        sa.CheckConstraint(
            "(logo IS NULL) = (logo_type IS NULL)", name=op.f("ck_site_config_logo")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_config")),
    )


def downgrade() -> None:
    op.drop_table("site_config")
