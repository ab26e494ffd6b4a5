"""Every table's row type is defined once in tracker.db and is the table's columns: those
the database fills (``id``, ``created_at``), one derived from another (``name_key``) or the
one its reader is asked by (a player's, a period's) left out, and said so here."""

from __future__ import annotations

import pytest

from tracker.db import models
from tracker.db.queries import (
    byes,
    events,
    games,
    imports,
    lists,
    log,
    online,
    players,
    shadow,
    site,
)
from tracker.db.rows import TABLES, EloRow, GlickoRow

OWN = frozenset({"id"})
NONE: frozenset[str] = frozenset()

#: Each table, its row type and the columns the type leaves out.
ROW_TYPES: dict[str, tuple[type[tuple[object, ...]], frozenset[str]]] = {
    "players": (players.PlayerRow, frozenset({"created_at"})),
    "player_seeds": (players.SeedRow, NONE),
    "official_ratings": (players.EarlierList, frozenset({"player_id"})),
    "events": (games.EventRow, frozenset({"name_key"})),
    "event_ratings": (events.EventRatingRow, NONE),
    "imports": (imports.NewImport, OWN),
    "games": (games.GameRow, frozenset({"created_at"})),
    "byes": (byes.ByeRow, frozenset({"created_at"})),
    "rating_periods": (imports.TcMonth, frozenset({"id", "closed_at", "stale"})),
    "elo_history": (EloRow, OWN),
    "list_entries": (lists.Entry, frozenset({"period_id"})),
    "glicko_history": (GlickoRow, OWN),
    "online_ratings": (online.PerfPoint, OWN),
    "shadow_settings": (shadow.Settings, OWN),
    "site_config": (site.SiteConfigRow, OWN),
    "change_log": (log.LogRow, NONE),
    "removed_games": (log.RemovedGameRow, NONE),
}


def test_every_table_has_a_row_type() -> None:
    assert sorted(ROW_TYPES) == sorted(models.Base.metadata.tables)


@pytest.mark.parametrize("table", sorted(ROW_TYPES))
def test_a_row_type_is_its_tables_columns(table: str) -> None:
    kind, left_out = ROW_TYPES[table]
    columns = [c.name for c in models.Base.metadata.tables[table].columns]
    assert left_out <= set(columns)
    fields: tuple[str, ...] = kind._fields  # type: ignore[attr-defined]
    assert len(set(fields)) == len(fields)
    assert set(fields) == set(columns) - left_out


@pytest.mark.parametrize("kind", list(TABLES), ids=lambda kind: kind.__name__)
def test_a_history_row_has_its_tables_columns_in_order(kind: type[tuple[object, ...]]) -> None:
    table = models.Base.metadata.tables[TABLES[kind]]
    assert kind._fields == tuple(c.name for c in table.columns if c.name != "id")  # type: ignore[attr-defined]
