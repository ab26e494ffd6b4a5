"""The club's site: its stored configuration (``site_config``) and the date of its data."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, maybe_day, save_single_row


class SiteConfigRow(NamedTuple):
    title: str
    about: str | None
    url: str | None
    logo: bytes | None
    logo_type: str | None


def site_config(db: Db) -> SiteConfigRow | None:
    """The stored configuration (None: none stored yet)."""
    sql = f"SELECT {', '.join(SiteConfigRow._fields)} FROM site_config WHERE id = 1"
    return db.row(SiteConfigRow, sql)


def save_site_config(db: Db, config: SiteConfigRow) -> None:
    """Store the configuration (the single row, made if missing)."""
    save_single_row(db, "site_config", config._asdict())


def last_game_day(db: Db) -> dt.date | None:
    """The day of the latest game stored (None: no game)."""
    return maybe_day(db.scalar("SELECT MAX(played_on) FROM games"))
