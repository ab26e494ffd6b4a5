"""Hints for query planners (SQLite plans without statistics)."""


def not_indexed(column: str) -> str:
    """``column`` (SQL) as an expression no index serves (the same value), so that a planner
    without statistics (SQLite's) does not scan a large index on it instead of a selective
    one."""
    return f"coalesce({column}, {column})"
