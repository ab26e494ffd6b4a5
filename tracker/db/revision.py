"""The Alembic head the models (:mod:`tracker.db.models`) describe.

A module of its own so that opening a database for reading (:mod:`tracker.db.driver`) can
compare revisions without importing SQLAlchemy or Alembic; a test checks that it is the head
of ``migrations/``.
"""

SCHEMA_REVISION = "0015"
