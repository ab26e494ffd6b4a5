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
    jan, feb = sato[:2]
    # January: the club championship (a league, her first event) with a zero score so far:
    # held; February: a first rating from the weekend open, the league still running
    assert (jan["month"], jan["rating"], jan["games"]) == ("2026-01", None, 2)
    assert "held until it ends" in jan["note"]
    assert (feb["month"], feb["rating_before"], feb["rating"]) == ("2026-02", None, 1764)
    games = json.loads(runner.invoke(app, ["--db", str(db), "game", "list", "--json"]).stdout)
    assert len(games) == 61
