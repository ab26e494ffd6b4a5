"""``tracker demo`` builds the sample season from scratch and shows what the tracker holds."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tracker.cli.app import app

runner = CliRunner()
RIVERSIDE = "Riverside Club Championship 2026"


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
    # her performance in the league is over all 7 games (4 held at 0, then 2.0 of 3 counted):
    # (2402 + 1754 + 1967 + 2321 + 1611 + 1879 + 2108) / 7 = 2006, 2/7 = 29%, dp -158
    league = runner.invoke(app, ["--db", str(db), "event", "show", RIVERSIDE, "--json"])
    (row,) = [s for s in json.loads(league.stdout)["standings"] if s["name"] == "Sato, Yuki"]
    assert (row["games"], row["score"], row["rated_games"], row["performance"]) == (7, 2, 3, 1848)


def test_demo_master_shadow_stays_by_his_elo_beside_his_real_lichess(tmp_path: Path) -> None:
    """The FM seeded at 2318 after 240 games: his shadow starts at RD 45 (not a new account's
    500), so it stays within a few points of his Elo all season, never provisional; his
    recorded Lichess classical rating stands beside both; the pictures are written."""
    db = tmp_path / "demo.db"
    r = runner.invoke(app, ["demo", "--file", str(db)])
    assert r.exit_code == 0, r.stderr
    assert "linked 6 players to (fictional) Lichess accounts" in r.stderr
    assert (tmp_path / "demo.png").stat().st_size > 10_000
    assert (tmp_path / "demo-club.png").stat().st_size > 10_000
    site = tmp_path / "demo-site"
    assert f"the club's site written to {site}: open {site / 'index.html'}" in r.stderr
    index = (site / "index.html").read_text("utf-8")
    assert '<a href="players/' in index and "Hart, Daniel" in index
    assert "Hart, Daniel (standard): Elo, lichess shadow, Lichess classical (dhart_fm)" in r.stdout

    out = runner.invoke(app, ["--db", str(db), "compare", "Hart, Daniel", "--json"])
    periods = json.loads(out.stdout)["periods"]
    got = [
        (p["list"], p["elo"], round(p["glicko"], 2), round(p["rd"], 2), p["provisional"])
        for p in periods
    ]
    assert got == [
        ("2026-02-01", 2321, 2319.46, 57.14, False),
        ("2026-03-01", 2316, 2315.01, 68.19, False),
        ("2026-04-01", 2320, 2320.11, 78.34, False),
        ("2026-05-01", 2332, 2341.71, 86.06, False),
    ]
    assert all(abs(p["glicko"] - p["elo"]) < 10 for p in periods)
    assert [p["online"]["lichess"] for p in periods] == [
        {"rating": 2421, "day": "2026-01-29"},
        {"rating": 2435, "day": "2026-02-28"},
        {"rating": 2414, "day": "2026-04-01"},
        {"rating": 2418, "day": "2026-04-21"},
    ]

    fit = json.loads(
        runner.invoke(
            app, ["--db", str(db), "compare", "--all", "--online", "lichess", "--json"]
        ).stdout
    )["fit"]
    assert fit["n"] == 6
    assert (round(fit["slope"], 4), round(fit["intercept"], 1)) == (0.7312, 719.4)
    assert round(fit["residual_sd"], 1) == 35.7


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


def test_demo_never_overwrites_pictures_or_a_site_of_the_user(tmp_path: Path) -> None:
    """A first demo beside files of the user's names (``holiday.png`` beside ``holiday.db``, a
    ``holiday-site/`` folder of theirs) is refused before anything is written."""
    picture = tmp_path / "holiday.png"
    picture.write_bytes(b"my photo")
    r = runner.invoke(app, ["demo", "--file", str(tmp_path / "holiday.db")])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: {picture} exists: tracker demo draws its picture there; give --file a new "
        "name (or remove that file yourself)"
    )
    site = tmp_path / "trip-site"
    site.mkdir()
    (site / "index.html").write_text("my page")
    r = runner.invoke(app, ["demo", "--file", str(tmp_path / "trip.db")])
    assert r.exit_code == 1 and "holds files tracker did not write" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["holiday.png", "trip-site"]
    assert picture.read_bytes() == b"my photo"
    assert (site / "index.html").read_text() == "my page"
