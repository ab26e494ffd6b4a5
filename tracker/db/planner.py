"""Hints for query planners (SQLite plans without statistics)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func


def not_indexed(column: Any) -> Any:
    """``column`` as an expression no index serves (the same value), so that a planner without
    statistics (SQLite's) does not scan a large index on it instead of a selective one."""
    return func.coalesce(column, column)
