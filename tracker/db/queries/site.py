"""The club's site: its stored configuration (``site_config``) and the date of its data."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, maybe_day


class SiteConfigRow(NamedTuple):
    title: str
    about: str | None
    url: str | None
    logo: bytes | None
    logo_type: str | None


def site_config(db: Db) -> SiteConfigRow | None:
    """The stored configuration (None: none stored yet)."""
    row = db.first(f"SELECT {', '.join(SiteConfigRow._fields)} FROM site_config WHERE id = 1")
    if row is None:
        return None
    title, about, url, logo, logo_type = row
    return SiteConfigRow(title, about, url, None if logo is None else bytes(logo), logo_type)


def save_site_config(db: Db, config: SiteConfigRow) -> None:
    """Store the configuration (the single row, made if missing)."""
    values = config._asdict()
    if db.scalar("SELECT 1 FROM site_config WHERE id = 1") is None:
        names = ", ".join(values)
        marks = ", ".join(f":{name}" for name in values)
        db.run(f"INSERT INTO site_config (id, {names}) VALUES (1, {marks})", values)
    else:
        changes = ", ".join(f"{name} = :{name}" for name in values)
        db.run(f"UPDATE site_config SET {changes} WHERE id = 1", values)


def last_game_day(db: Db) -> dt.date | None:
    """The day of the latest game stored (None: no game)."""
    return maybe_day(db.scalar("SELECT MAX(played_on) FROM games"))
