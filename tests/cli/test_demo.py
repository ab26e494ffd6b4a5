"""``tracker demo`` builds the sample season from scratch and shows what the tracker holds."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tracker.cli.app import app

runner = CliRunner()


def test_demo_walks_a_season_and_can_be_rerun(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    for _ in range(2):  # rebuilt from scratch each time
        r = runner.invoke(app, ["demo", "--file", str(db)])
        assert r.exit_code == 0, r.stderr
    assert "loaded 11 players (8 tracked) and 61 games" in r.stderr
    assert "first rating for Sato, Yuki" in r.stderr
    assert "Standard list of 2026-05-01" in r.stdout
    assert "History of Sato, Yuki" in r.stdout and "History of Patel, Arjun" in r.stdout
    periods = json.loads(runner.invoke(app, ["--db", str(db), "period", "list", "--json"]).stdout)
    assert [(p["month"], p["tc"], p["status"]) for p in periods] == [
        ("2026-01", "standard", "closed"),
        ("2026-02", "standard", "closed"),
        ("2026-03", "standard", "closed"),
        ("2026-04", "standard", "closed"),
        ("2026-03", "rapid", "closed"),
        ("2026-04", "rapid", "closed"),
    ]
    sato = json.loads(
        runner.invoke(app, ["--db", str(db), "history", "Sato, Yuki", "--json"]).stdout
    )
    assert sato[0]["rating_before"] is None and sato[0]["rating"] == 1764
    games = json.loads(runner.invoke(app, ["--db", str(db), "game", "list", "--json"]).stdout)
    assert len(games) == 61


def test_demo_never_overwrites_a_database_that_is_not_a_demo(tmp_path: Path) -> None:
    club = tmp_path / "club.db"
    assert runner.invoke(app, ["--db", str(club), "player", "add", "Hart, Daniel"]).exit_code == 0
    before = club.read_bytes()
    r = runner.invoke(app, ["demo", "--file", str(club)])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: {club} exists and is not a demo database: tracker demo rebuilds its file from "
        "scratch, so give --file a new name (or remove that file yourself)"
    )
    assert club.read_bytes() == before
    listed = runner.invoke(app, ["--db", str(club), "player", "list", "--json"])
    assert [p["name"] for p in json.loads(listed.stdout)] == ["Hart, Daniel"]
    # nor a file that is no database at all, nor a folder
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert runner.invoke(app, ["demo", "--file", str(notes)]).exit_code == 1
    assert notes.read_text() == "my notes\n"
    assert runner.invoke(app, ["demo", "--file", str(tmp_path)]).exit_code == 1
    # a demo database with an extra player is no longer the demo's
    demo = tmp_path / "demo.db"
    assert runner.invoke(app, ["demo", "--file", str(demo)]).exit_code == 0
    assert runner.invoke(app, ["--db", str(demo), "player", "add", "Mine, Al"]).exit_code == 0
    assert runner.invoke(app, ["demo", "--file", str(demo)]).exit_code == 1
