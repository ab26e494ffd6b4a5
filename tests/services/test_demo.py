"""The sample season (tracker.services.demo): loaded through the ordinary services, and a
file told apart as one ``tracker demo`` made. The command end to end is in
tests/cli/test_demo.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Services, unrated
from tracker.db.queries import players, status
from tracker.services import demo


def test_the_season_loaded_is_the_one_shipped(db: Services) -> None:
    data = demo.season()
    out = db(demo.load_demo)
    assert out.players == len(data["players"]) and out.games == len(data["games"])
    assert out.tracked == sum(1 for p in data["players"] if not p.get("external"))
    assert [m.isoformat()[:7] for m in out.months] == sorted({g["date"][:7] for g in data["games"]})
    assert out.linked == tuple(a["player"] for a in data["online"]["lichess"])
    with db.transaction() as s:
        assert status.player_counts(s) == (out.tracked, out.players - out.tracked)
        assert status.game_count(s) == out.games
        assert sorted(players.distinct_names(s)) == sorted(p["name"] for p in data["players"])
        linked = {
            p.name: p.lichess
            for p in players.players_by_ids(s, [p.id for p in players.all_names(s)])
        }
    for account in data["online"]["lichess"]:
        assert linked[account["player"]] == account["user"]


@pytest.mark.backends("sqlite")
def test_a_demo_database_is_one_with_the_seasons_players_only(db: Services, tmp_path: Path) -> None:
    file = tmp_path / "tracker.db"
    db(demo.load_demo)
    assert demo.is_demo_database(file)
    db(unrated, "Someone Else")
    assert not demo.is_demo_database(file)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")
    assert not demo.is_demo_database(notes)
    assert notes.read_text() == "not a database"
