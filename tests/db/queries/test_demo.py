"""What ``tracker demo`` asks of a file (tracker.db.queries.demo): the player names of a
tracker database, None for anything else, and the file left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Services, external, unrated
from tracker.db.queries.demo import player_names_in_file


@pytest.mark.backends("sqlite")
def test_the_names_of_a_tracker_database(db: Services, db_url: str, tmp_path: Path) -> None:
    with db.transaction() as s:
        unrated(s, "Hart")
        external(s, "Guest")
    assert player_names_in_file(tmp_path / "tracker.db") == {"Hart", "Guest"}
    assert db_url.endswith("tracker.db")


def test_not_a_tracker_database(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_bytes(b"not a database at all")
    assert player_names_in_file(text) is None
    assert text.read_bytes() == b"not a database at all"
    assert player_names_in_file(tmp_path / "missing.db") is None
