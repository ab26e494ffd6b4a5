"""The history tables' row types (tracker.db.rows) are the tables' columns."""

from __future__ import annotations

import pytest

from tracker.db import models
from tracker.db.rows import TABLES


@pytest.mark.parametrize("kind", list(TABLES), ids=lambda kind: kind.__name__)
def test_a_row_type_has_its_tables_columns_in_order(kind: type[tuple[object, ...]]) -> None:
    table = models.Base.metadata.tables[TABLES[kind]]
    assert kind._fields == tuple(c.name for c in table.columns if c.name != "id")  # type: ignore[attr-defined]
