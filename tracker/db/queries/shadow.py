"""The Glicko shadow's stored rows and settings."""

from __future__ import annotations

from typing import Any, NamedTuple

from tracker.db.driver import Db


def delete_shadow(db: Db, tc: str) -> None:
    """Delete the stored shadow of every closed period of ``tc``."""
    db.run(
        "DELETE FROM glicko_history"
        " WHERE period_id IN (SELECT id FROM rating_periods WHERE tc = :tc)",
        {"tc": tc},
    )


def save_settings(db: Db, values: dict[str, Any]) -> None:
    """Store the shadow's settings (the single row of ``shadow_settings``, made if missing):
    ``values`` by column name."""
    if db.scalar("SELECT 1 FROM shadow_settings WHERE id = 1") is None:
        names = ", ".join(values)
        marks = ", ".join(f":{name}" for name in values)
        db.run(f"INSERT INTO shadow_settings (id, {names}) VALUES (1, {marks})", values)
    else:
        changes = ", ".join(f"{name} = :{name}" for name in values)
        db.run(f"UPDATE shadow_settings SET {changes} WHERE id = 1", values)


class Settings(NamedTuple):
    """The shadow's settings (``shadow_settings``)."""

    preset: str
    seed: str
    external_rd: float
    chesscom_start: float
    chesscom_c: float
    chesscom_rd_min: float
    chesscom_rd_max: float
    seed_rd: float | None


def settings(db: Db) -> Settings | None:
    """The stored settings (None: none stored yet, the defaults hold)."""
    row = db.first(f"SELECT {', '.join(Settings._fields)} FROM shadow_settings WHERE id = 1")
    return None if row is None else Settings(*row)
