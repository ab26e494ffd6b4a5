"""``tracker list --against FILE``: our computed list beside FIDE's official one."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import Cli, ok

FILES = Path(__file__).parents[1] / "importers" / "data"
TXT = FILES / "standard_rating_list.txt"  # FIDE's list of 2026-11 (our fixture)


def october(cli: Cli, *, september: bool = False) -> None:
    for args in (
        ("Lindgren, Axel", "--fide-id", "1700101", "--rating", "2215", "--games", "40"),
        ("Haugen, Kari", "--fide-id", "1500202", "--rating", "2010", "--games", "40"),
        (
            "Varga, Eszter",
            "--fide-id",
            "700404",
            "--born",
            "2009",
            "--rating",
            "1904",
            "--games",
            "12",
        ),
        ("Okafor, Grace", "--rating", "1900", "--games", "50"),
        ("Nilsen, Ingrid", "--fide-id", "1500999"),  # unrated with us
    ):
        ok(cli("player", "add", *args))
    if september:
        ok(cli("game", "add", "Okafor, Grace", "Haugen, Kari", "0-1", "--date", "2026-09-12"))
    for white, black, result, day in (
        ("Lindgren, Axel", "Haugen, Kari", "1-0", "2026-10-03"),
        ("Varga, Eszter", "Lindgren, Axel", "1/2-1/2", "2026-10-10"),
        ("Haugen, Kari", "Okafor, Grace", "0-1", "2026-10-17"),
    ):
        ok(cli("game", "add", white, black, result, "--date", day))
    ok(cli("period", "close", "2026-10"))


def test_our_list_beside_fides_with_the_differences(cli: Cli) -> None:
    october(cli)
    ours = {p["name"]: p for p in json.loads(ok(cli("list", "--json")).stdout)["players"]}
    data = json.loads(ok(cli("list", "--against", str(TXT), "--json")).stdout)
    assert data["against"] == {"file": str(TXT), "list": "2026-11"}
    official = {
        "Lindgren, Axel": (2221, 20),
        "Haugen, Kari": (2016, 40),
        "Varga, Eszter": (1911, 40),
    }
    for p in data["players"]:
        assert ours[p["name"]]["rating"] == p["rating"]  # the list itself is unchanged
        if p["name"] in official:
            assert (p["official_rating"], p["official_k"]) == official[p["name"]]
            assert p["difference"] == p["rating"] - p["official_rating"]
        else:
            assert (p["name"], p["official_rating"], p["difference"]) == (
                "Okafor, Grace",
                None,
                None,
            )
    assert {p["name"]: p["difference"] for p in data["players"]} == {
        "Lindgren, Axel": ours["Lindgren, Axel"]["rating"] - 2221,
        "Haugen, Kari": ours["Haugen, Kari"]["rating"] - 2016,
        "Varga, Eszter": ours["Varga, Eszter"]["rating"] - 1911,
        "Okafor, Grace": None,
    }
    # 2215 + 20 x (1.5 - (0.76 + 0.86)) = 2215 - 2.4 -> 2213 (PD for 205 and 311 points)
    assert ours["Lindgren, Axel"]["rating"] == 2213
    assert data["official_only"] == [
        {
            "id": 5,
            "name": "Nilsen, Ingrid",
            "fide_id": 1500999,
            "official_rating": 1745,
            "official_k": 40,
            "causes": [
                {
                    "kind": "unrated_here",
                    "hint": "not rated by tracker yet: seed FIDE's rating?",
                    "command": "tracker player seed 'Nilsen, Ingrid' --rating 1745 --games N",
                    "exact": False,
                }
            ],
        }
    ]
    r = ok(cli("list", "--against", str(TXT)))
    lines = r.stdout.splitlines()
    assert lines[0] == "Standard list of 2026-11-01 against standard_rating_list.txt"
    assert lines[1].split() == [
        "rank",
        "name",
        "FIDE",
        "id",
        "rating",
        "FIDE",
        "diff",
        "K",
        "FIDE",
        "K",
    ]
    assert any(
        line.split()[:4] == ["1", "Lindgren,", "Axel", "1700101"] and "-8" in line.split()
        for line in lines
    )
    assert r.stderr.splitlines()[0].startswith("3 on both lists: 0 agree, 3 differ (most: ")
    assert "1 only on ours, 1 only on FIDE's" in r.stderr
    assert "note: 1 player(s) of our list have no FIDE id: nothing to compare" in r.stderr


def test_a_list_of_another_month_is_named(cli: Cli) -> None:
    october(cli, september=True)
    r = ok(cli("list", "2026-10", "--against", str(TXT)))
    assert (
        "note: the file is FIDE's list of 2026-11; ours is of 2026-10: compare lists of the "
        "same month"
    ) in r.stderr
    same = ok(cli("list", "2026-11", "--against", str(TXT)))
    assert "note: the file is FIDE's" not in same.stderr


def test_a_file_that_is_no_list_is_refused(cli: Cli, tmp_path: Path) -> None:
    october(cli)
    bad = tmp_path / "list.txt"
    bad.write_text("Name,Rating\n")
    r = cli("list", "--against", str(bad))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines()[-1] == f"error: {bad}: cannot compare: 1 problem(s)"
