"""Bulk writes: many rows in one driver call, dates as SQLAlchemy stores them, and the
small helpers of batch work (reading one column of many players, pausing the collector).

Tens of thousands of history rows a month and a million games in an import go through
here; SQLAlchemy's per-row processing would cost more than the database itself.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Date, Table, select
from sqlalchemy.orm import Session

from tracker.db.models import Player


def bulk_insert(
    session: Session,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    dates_stored: bool = False,
) -> None:
    """Insert many rows (tuples in the order of ``columns``) with one ``executemany`` of the
    driver, in the session's transaction.

    Tens of thousands of history rows a month, a million games in an import: SQLAlchemy's
    per-row parameter processing (and the ORM's bulk insert, which splits the rows into a
    statement per pattern of NULLs) would cost more than the database. Values are stored as
    given, except dates, written as SQLAlchemy writes them (:func:`stored_date`) unless
    ``dates_stored`` says the caller did that already. On PostgreSQL (psycopg) the rows go
    in with ``COPY``."""
    if not rows:
        return
    conn = session.connection()
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        # COPY: several times faster than INSERTs; the same constraints and triggers apply.
        raw: Any = conn.connection.dbapi_connection
        copy_sql = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        with raw.cursor() as cursor, cursor.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row)
        return
    if not dates_stored and conn.dialect.name == "sqlite":
        dates = [i for i, c in enumerate(columns) if isinstance(table.c[c].type, Date)]
        if dates:
            stored = stored_date(session)
            rows = [_stored_dates(row, dates, stored) for row in rows]
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join(mark for _ in columns)})"
    )
    conn.exec_driver_sql(sql, [row if type(row) is tuple else tuple(row) for row in rows])


def stored_date(session: Session) -> Callable[[dt.date | None], Any]:
    """How a date goes to the driver: as SQLAlchemy's ``Date`` sends it (ISO text on SQLite,
    which has no date type; the date itself elsewhere)."""
    if session.connection().dialect.name != "sqlite":
        return _same
    iso: dict[dt.date, str] = {}  # rows hold few distinct days

    def to_text(day: dt.date | None) -> str | None:
        if day is None:
            return None
        text = iso.get(day)
        if text is None:
            text = iso[day] = day.isoformat()
        return text

    return to_text


def _same(day: dt.date | None) -> dt.date | None:
    return day


def _stored_dates(
    row: Sequence[Any], dates: list[int], stored: Callable[[dt.date | None], Any]
) -> tuple[Any, ...]:
    out = list(row)
    for i in dates:
        out[i] = stored(out[i])
    return tuple(out)


#: Ids per ``IN (...)`` list.
_IN_CHUNK = 500


def player_values(session: Session, column: Any, ids: Iterable[int]) -> dict[int, Any]:
    """``column`` of the players ``ids`` (a few: the month's newcomers, say), by id."""
    wanted = sorted(set(ids))
    out: dict[int, Any] = {}
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        out.update(session.execute(select(Player.id, column).where(Player.id.in_(chunk))).all())
    return out


@contextmanager
def without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a batch.

    Closing a month makes hundreds of thousands of small objects and keeps tens of thousands
    alive (every listed player's state): the collector would walk that heap over and over
    looking for reference cycles these folds do not make. Reference counting still frees
    everything; the collector is back (and runs) when the batch ends."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
