"""Rating periods: a month of one time control, closed (its list published) or not."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db, day, maybe_day, stored_tc
from tracker.vocabulary import TimeControl


def add_period(db: Db, tc: TimeControl, month: dt.date) -> int:
    """A closed period (not stale); its id."""
    return db.insert(
        "INSERT INTO rating_periods (tc, month, stale) VALUES (:tc, :month, :stale)",
        {"tc": tc, "month": month, "stale": False},
    )


def _which(since: dt.date | None, before: dt.date | None) -> tuple[str, dt.date]:
    if since is not None and before is None:
        return "month >= :month", since
    if before is not None and since is None:
        return "month < :month", before
    raise ValueError("one of since and before")


def delete_history(
    db: Db,
    table: str,
    tc: TimeControl,
    *,
    since: dt.date | None = None,
    before: dt.date | None = None,
) -> None:
    """Delete the rows of the history ``table`` (rows of a period: ``period_id``) of the
    closed periods of ``tc`` from ``since`` on, or before ``before``."""
    which, month = _which(since, before)
    db.run(
        f"DELETE FROM {table} WHERE period_id IN"
        f" (SELECT id FROM rating_periods WHERE tc = :tc AND {which})",
        {"tc": tc, "month": month},
    )


def delete_periods(
    db: Db, tc: TimeControl, *, since: dt.date | None = None, before: dt.date | None = None
) -> None:
    """Delete the closed periods of ``tc`` from ``since`` on, or before ``before`` (their
    histories first: :func:`delete_history`)."""
    which, month = _which(since, before)
    db.run(f"DELETE FROM rating_periods WHERE tc = :tc AND {which}", {"tc": tc, "month": month})


def time_controls_closed(db: Db) -> set[str]:
    """The time controls with a closed period."""
    return set(db.scalars("SELECT DISTINCT tc FROM rating_periods"))


def players_rated_by_period(db: Db) -> dict[int, int]:
    """How many players played rated games in each closed period, by period id."""
    rows = db.all("SELECT period_id, count(*) FROM elo_history WHERE games > 0 GROUP BY period_id")
    return {period: n for period, n in rows}


def player_birth_years(db: Db, ids: list[int]) -> dict[int, int | None]:
    """The birth year of each of the players ``ids``, by id."""
    return dict(db.all_in("SELECT id, birth_year FROM players WHERE id IN (:ids)", ids))


def player_names(db: Db, ids: list[int]) -> dict[int, str]:
    """The name of each of the players ``ids``, by id."""
    return dict(db.all_in("SELECT id, name FROM players WHERE id IN (:ids)", ids))


def mark_stale_from(db: Db, tc: TimeControl, start: dt.date) -> tuple[dt.date, ...]:
    """Mark the closed periods of ``tc`` from ``start`` on stale; their months, in order."""
    later = {"tc": tc, "start": start}
    db.run(
        "UPDATE rating_periods SET stale = :stale WHERE tc = :tc AND month >= :start",
        {**later, "stale": True},
    )
    months = db.scalars(
        "SELECT month FROM rating_periods WHERE tc = :tc AND month >= :start ORDER BY month", later
    )
    return tuple(day(m) for m in months)


def stale_from(db: Db, tc: TimeControl, first: dt.date | None) -> tuple[dt.date, ...]:
    """The closed periods of ``tc`` stale from ``first`` on and fresh before it (None: none
    stale); the stale months, in order."""
    db.run("UPDATE rating_periods SET stale = :no WHERE tc = :tc", {"no": False, "tc": tc})
    if first is None:
        return ()
    return mark_stale_from(db, tc, first)


def mark_all_stale(db: Db) -> dict[TimeControl, list[dt.date]]:
    """Mark every closed period stale; their months by time control, in order."""
    db.run("UPDATE rating_periods SET stale = :stale", {"stale": True})
    months: dict[TimeControl, list[dt.date]] = {}
    for tc, month in db.all("SELECT tc, month FROM rating_periods ORDER BY tc, month"):
        months.setdefault(stored_tc(tc), []).append(day(month))
    return months


def first_closed_month(db: Db, tc: TimeControl | None = None) -> dt.date | None:
    """The first closed month of ``tc`` (None: of any time control)."""
    if tc is None:
        return maybe_day(db.scalar("SELECT min(month) FROM rating_periods"))
    return maybe_day(db.scalar("SELECT min(month) FROM rating_periods WHERE tc = :tc", {"tc": tc}))


class SequenceValue(NamedTuple):
    """Where one of PostgreSQL's id sequences stands (None: never used)."""

    name: str
    last_value: int | None
    start_value: int


def sequence_values(db: Db) -> list[SequenceValue]:
    """PostgreSQL's id sequences of tracker's schema (none on SQLite, whose counters roll back
    with the transaction)."""
    if db.sqlite:
        return []
    rows = db.all(
        "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value, "
        "start_value FROM pg_sequences WHERE schemaname = current_schema()"
    )
    return [SequenceValue(str(n), None if v is None else int(v), int(s)) for n, v, s in rows]


def restore_sequences(db: Db, values: list[SequenceValue]) -> None:
    """Put PostgreSQL's id sequences back where :func:`sequence_values` found them: a rolled
    back transaction does not undo them."""
    for name, last, start in values:
        called = "false" if last is None else "true"  # false: the next value is ``start``
        db.first(
            f"SELECT setval(CAST(:name AS regclass), :value, {called})",
            {"name": name, "value": start if last is None else last},
        )
