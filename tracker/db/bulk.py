"""Where the month's close and the shadow find :func:`without_gc` (it lives in
:mod:`tracker.db.collector`). Bulk writes go through :meth:`tracker.db.driver.Db.insert_many`
(COPY on PostgreSQL, one ``executemany`` on SQLite)."""

from __future__ import annotations

from tracker.db.collector import without_gc as without_gc
