"""Export all games, import them into an empty database: the same games, and after closing
the same periods, the same ratings (CSV and PGN); and an event's TRF back into the same games.

A game file cannot say who is tracked, nor carry seeds or birth years: the documented way to
rebuild is to add the tracked players again, then import with --create-players external
(the remaining players are the external ones, rated from the rating on each game).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Cli, comparable, games, ok, summary

TRACKED = [
    ("Hart, Daniel", "--fide-id", "400101", "--born", "1988", "--rating", "2318", "--games", "240"),
    ("Okafor, Grace", "--born", "1990", "--rating", "1650", "--games", "12"),
    ("Sato, Yuki", "--fide-id", "400177", "--born", "2012"),  # unrated junior
    ("Lund, Erik", "--fide-id", "400188", "--born", "1975", "--rating", "2405", "--games", "900"),
]
EXTERNAL = [("Kim, Ji-ho", "--external"), ("Novak, Petr", "--external", "--fide-id", "400999")]
RATING = {"Kim, Ji-ho": "1803", "Novak, Petr": "1950"}
ROUND_TRIP_NAMES = [p[0] for p in TRACKED]


def add_players(cli: Cli, *, externals: bool) -> None:
    for args in TRACKED + (EXTERNAL if externals else []):
        ok(cli("player", "add", *args))


def game(
    cli: Cli, white: str, black: str, result: str, day: str, *extra: str, tc: str = "standard"
) -> None:
    options = ["--date", day, "--tc", tc, *extra]
    if white in RATING:
        options += ["--white-rating", RATING[white]]
    if black in RATING:
        options += ["--black-rating", RATING[black]]
    args = ["game", "add", *options, "--", white, black, result]  # "-+" is not an option
    ok(cli(*args))


def build_season(cli: Cli) -> None:
    """Three months of club life: an event with rounds (starting before its first game), loose
    games, forfeits, rapid games, external opponents, an unrated junior getting rated."""
    add_players(cli, externals=True)
    ok(cli("event", "add", "Club Championship", "--start", "2026-01-06"))
    club = ("--event", "Club Championship")
    game(cli, "Hart, Daniel", "Sato, Yuki", "1-0", "2026-01-08", *club, "--round", "1")
    game(cli, "Okafor, Grace", "Lund, Erik", "0-1", "2026-01-08", *club, "--round", "1")
    game(cli, "Sato, Yuki", "Okafor, Grace", "1/2-1/2", "2026-01-15", *club, "--round", "2")
    game(cli, "Lund, Erik", "Hart, Daniel", "1/2-1/2", "2026-01-15", *club, "--round", "2")
    game(cli, "Sato, Yuki", "Lund, Erik", "0-1", "2026-01-22", *club, "--round", "3")
    game(cli, "Hart, Daniel", "Okafor, Grace", "+-", "2026-01-22", *club, "--round", "3")
    game(cli, "Kim, Ji-ho", "Sato, Yuki", "0-1", "2026-01-25")
    game(cli, "Sato, Yuki", "Novak, Petr", "1/2-1/2", "2026-02-03")
    game(cli, "Novak, Petr", "Hart, Daniel", "0-1", "2026-02-03")
    game(cli, "Okafor, Grace", "Kim, Ji-ho", "1-0", "2026-02-10")
    game(cli, "Okafor, Grace", "Sato, Yuki", "0-1", "2026-02-17", tc="rapid")
    game(cli, "Sato, Yuki", "Hart, Daniel", "1/2-1/2", "2026-02-24")
    game(cli, "Kim, Ji-ho", "Lund, Erik", "-+", "2026-02-24")
    spring = ("--event", "Spring Rapid")
    game(
        cli, "Hart, Daniel", "Lund, Erik", "1-0", "2026-03-07", *spring, "--round", "1", tc="rapid"
    )
    game(
        cli, "Lund, Erik", "Hart, Daniel", "1-0", "2026-03-07", *spring, "--round", "2", tc="rapid"
    )
    game(cli, "Sato, Yuki", "Kim, Ji-ho", "1-0", "2026-03-12")
    game(cli, "Lund, Erik", "Okafor, Grace", "1-0", "2026-03-19")
    game(cli, "Novak, Petr", "Sato, Yuki", "0-1", "2026-03-26")
    game(cli, "Hart, Daniel", "Kim, Ji-ho", "1/2-1/2", "2026-03-26")


def export(cli: Cli, fmt: str, path: Path) -> None:
    r = ok(cli("export", "games", "--format", fmt, "--out", str(path)))
    assert r.stdout == "" and f"wrote 19 games to {path} ({fmt})" in r.stderr


def ratings(cli: Cli) -> dict[str, object]:
    """Every tracked player's history and every published list, after closing March."""
    ok(cli("period", "close", "2026-03"))
    ok(cli("period", "close", "2026-03", "--tc", "rapid"))
    out: dict[str, object] = {}
    for tc in ("standard", "rapid"):
        for name in ROUND_TRIP_NAMES:
            out[f"{tc} {name}"] = json.loads(ok(cli("history", name, "--tc", tc, "--json")).stdout)
        periods = json.loads(ok(cli("period", "list", "--tc", tc, "--json")).stdout)
        closed = [p["list"][:7] for p in periods if p["status"] == "closed"]
        out[f"{tc} lists"] = closed
        for month in closed:
            lst = json.loads(ok(cli("list", month, "--tc", tc, "--json")).stdout)
            out[f"{tc} list {month}"] = [
                {k: v for k, v in p.items() if k != "id"} for p in lst["players"]
            ]
    return out


@pytest.mark.parametrize("fmt", ["csv", "pgn"])
def test_round_trip_reproduces_the_games(
    cli: Cli, other_cli: Cli, tmp_path: Path, fmt: str
) -> None:
    build_season(cli)
    path = tmp_path / f"season.{fmt}"
    export(cli, fmt, path)
    add_players(other_cli, externals=False)
    f = summary(ok(other_cli("import", str(path), "--create-players", "external", "--json")))
    assert (f["added"], f["invalid"], f["rejected"]) == (19, 0, 0)
    created = f["files"][0]["players_created"]
    assert [(p["name"], p["fide_id"], p["external"]) for p in created] == [
        ("Kim, Ji-ho", None, True),
        ("Novak, Petr", 400999, True),
    ]
    original, copy = games(cli), games(other_cli)
    assert sorted(map(comparable, copy)) == sorted(map(comparable, original))
    assert sum(not g["rated"] for g in copy) == 2
    events = {
        (g["event"], g["event_start"])
        for g in json.loads(ok(other_cli("export", "games", "--format", "json")).stdout)
    }
    # EventDate (PGN) and the event_start column (CSV) carry a start before the first game
    assert ("Club Championship", "2026-01-06") in events
    # and importing the export again adds nothing
    again = summary(ok(other_cli("import", str(path), "--json")))
    assert (again["added"], again["already_present"]) == (0, 19)


@pytest.mark.parametrize("fmt", ["csv", "pgn"])
def test_round_trip_reproduces_the_ratings(
    cli: Cli, other_cli: Cli, tmp_path: Path, fmt: str
) -> None:
    build_season(cli)
    path = tmp_path / f"season.{fmt}"
    export(cli, fmt, path)
    add_players(other_cli, externals=False)
    ok(other_cli("import", str(path), "--create-players", "external"))
    before, after = ratings(cli), ratings(other_cli)
    assert after == before
    # the season really moved ratings (the comparison is not between empty histories)
    hart = before["standard Hart, Daniel"]
    assert isinstance(hart, list) and [row["month"] for row in hart] == [
        "2026-01",
        "2026-02",
        "2026-03",
    ]
    assert any(row["change"] != 0 for row in hart)
    assert before["standard lists"] == ["2026-02", "2026-03", "2026-04"]
    assert before["rapid lists"] == ["2026-03", "2026-04"]
    sato = before["standard Sato, Yuki"]
    assert isinstance(sato, list) and sato[-1]["rating"] is not None  # rated on the way


def test_an_event_exported_as_trf_reads_back_as_the_same_games(
    cli: Cli, other_cli: Cli, tmp_path: Path
) -> None:
    source = Path(__file__).parent / "data" / "autumn_swiss.trf"
    ok(cli("import", str(source)))
    path = tmp_path / "autumn.trf"
    ok(
        cli(
            "export", "games", "--event", "Autumn Swiss 2026", "--format", "trf", "--out", str(path)
        )
    )
    text = path.read_text()
    assert text.startswith("012 Autumn Swiss 2026\n022 Bergen\n042 2026/10/03\n")
    assert "\n122 standard\n" in text  # the class the database keeps, nothing invented
    f = summary(ok(other_cli("import", str(path), "--json")))["files"][0]
    assert (f["added"], f["problems"]) == (8, [])
    assert sorted(map(comparable, games(other_cli))) == sorted(map(comparable, games(cli)))
    players = json.loads(ok(other_cli("player", "list", "--json")).stdout)
    assert {(p["name"], p["fide_id"], p["federation"], p["birth_year"]) for p in players} == {
        ("Aalto, Eero", 500001, "FIN", 1990),
        ("Berg, Lina", 500002, "SWE", 1995),
        ("Costa, Rui", 500003, "POR", 1987),
        ("Dahl, Ola", 500004, "NOR", 2001),
        ("Egger, Max", 500005, "AUT", 1979),
        ("Fabbri, Sara", 500006, "ITA", 2008),
    }


def test_a_trf_gives_tracked_players_their_rating_on_the_list_in_force(
    cli: Cli, other_cli: Cli, tmp_path: Path
) -> None:
    """A TRF's player record carries the rating at the event's start: for a tracked player,
    his rating on the list in force then (his seed, before tracking began; Sato has none:
    unrated); the file re-imported gives the same games."""
    build_season(cli)
    path = tmp_path / "club.trf"
    ok(cli("export", "games", "--event", "Club Championship", "--format", "trf", "--out",
           str(path)))  # fmt: skip
    text = path.read_text()
    records = [line for line in text.splitlines() if line.startswith("001")]
    assert [(r[14:47].strip(), r[48:52].strip()) for r in records] == [
        ("Lund, Erik", "2405"),
        ("Hart, Daniel", "2318"),
        ("Okafor, Grace", "1650"),
        ("Sato, Yuki", ""),
    ]
    assert "\n122 standard\n" in text
    add_players(other_cli, externals=False)
    f = summary(ok(other_cli("import", str(path), "--json")))["files"][0]
    assert (f["added"], f["problems"]) == (6, [])
    fields = ("date", "white", "black", "result", "tc", "event", "round")
    assert sorted(tuple(g[k] for k in fields) for g in games(other_cli)) == sorted(
        tuple(g[k] for k in fields) for g in games(cli) if g["event"] == "Club Championship"
    )
