"""``tracker player import-fide-list``: FIDE's list downloads seed and refresh players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Cli, fingerprint, ok

FILES = Path(__file__).parents[1] / "importers" / "data"
TXT = FILES / "standard_rating_list.txt"  # the list of 2026-11
COMBINED = FILES / "players_list_foa.txt"
XML = FILES / "players_list_xml_foa.xml"


def club(cli: Cli) -> None:
    ok(
        cli(
            "player",
            "add",
            "Lindgren, Axel",
            "--fide-id",
            "1700101",
            "--rating",
            "2215",
            "--games",
            "40",
        )
    )
    ok(cli("player", "add", "Haugen, Kari", "--fide-id", "1500202"))
    ok(cli("player", "add", "Varga, Eszter", "--fide-id", "700404", "--born", "2009"))
    ok(
        cli(
            "player",
            "add",
            "Berg, Ola",
            "--fide-id",
            "1500606",
            "--rating",
            "1690",
            "--games",
            "12",
        )
    )
    ok(cli("player", "add", "Carlsen, Magnus", "--fide-id", "1503014", "--external"))
    ok(cli("player", "add", "Olsen, Per"))  # no FIDE id yet
    ok(cli("game", "add", "Berg, Ola", "Olsen, Per", "0-1", "--date", "2026-10-10"))


def load(cli: Cli, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok(cli("player", "import-fide-list", *args, "--json")).stdout)
    return data


def seeds(cli: Cli, ref: str) -> dict[str, tuple[int, int, bool, bool]]:
    shown = json.loads(ok(cli("player", "show", ref, "--json")).stdout)
    return {
        s["tc"]: (s["rating"], s["games"], s["ever_2400"], s["ever_2300"]) for s in shown["seeds"]
    }


def test_the_list_seeds_and_refreshes_the_players_in_the_database(cli: Cli) -> None:
    club(cli)
    r = ok(cli("player", "import-fide-list", str(TXT)))
    assert r.stderr.splitlines()[0] == (
        f"{TXT}: FIDE standard list of 2026-11 (txt): 10 players read, 5 in the database: "
        "0 added, 5 updated, 0 unchanged"
    )
    lines = r.stderr.splitlines()
    assert (
        "  Lindgren, Axel (1700101): seed 2215 -> 2221, federation, birth year, sex, title" in lines
    )
    assert (
        "  Haugen, Kari (1500202): seed none -> 2016, federation, birth year, sex, title" in lines
    )
    # Berg played in October, before the November list: the list counts that game already
    assert any(
        line.startswith(
            "  note: 1 player kept their seed: they have standard games "
            "dated before the list (2026-11), which the list already counts "
            "(Berg, Ola (1 game))"
        )
        for line in lines
    )
    assert seeds(cli, "1700101") == {"standard": (2221, 40, False, False)}  # K 20: 30+ games
    assert seeds(cli, "1500606") == {"standard": (1690, 12, False, False)}  # kept
    # K 40 and not a junior: fewer than 30 games, how many the list does not say
    assert seeds(cli, "1500202") == {"standard": (2016, 0, False, False)}
    assert seeds(cli, "1503014") == {}  # external: his rating comes from each game
    carlsen = json.loads(ok(cli("player", "show", "1503014", "--json")).stdout)
    assert (carlsen["title"], carlsen["federation"], carlsen["birth_year"]) == ("GM", "NOR", 1990)
    # the K the seed gives for the next period is the list's K
    for fide_id, k in (("1700101", 20), ("1500202", 40), ("700404", 40)):
        shown = json.loads(ok(cli("player", "show", fide_id, "--json")).stdout)
        assert shown["ratings"][0]["k"] == k, fide_id
    # again: nothing changes
    again = load(cli, str(TXT))
    assert (again["created"], again["updated"], again["unchanged"]) == ([], [], 5)


@pytest.mark.parametrize("path", [COMBINED, XML])
def test_the_combined_files_give_the_chosen_list(cli: Cli, path: Path) -> None:
    club(cli)
    report = load(cli, str(path), "--tc", "rapid", "--month", "2026-11")
    assert (report["tc"], report["list"]) == ("rapid", "2026-11")
    assert seeds(cli, "1700101") == {
        "rapid": (2190, 30, False, False),
        "standard": (2215, 40, False, False),
    }
    assert seeds(cli, "700404")["rapid"] == (1850, 0, False, False)
    # Berg has no rapid rating
    assert "1 player not rated on this list: no seed (Berg, Ola)" in report["notes"]


def test_a_federation_adds_its_players(cli: Cli) -> None:
    club(cli)
    report = load(cli, str(TXT), "--federation", "nor")
    created = [(c["name"], c["fide_id"], c["seed_after"]) for c in report["created"]]
    assert created == [("Nilsen, Ingrid", 1500999, 1745)]
    # Olsen, Per was in the database without an id: the list's Olsen, Per is him
    olsen = json.loads(ok(cli("player", "show", "Olsen, Per", "--json")).stdout)
    assert (olsen["fide_id"], olsen["birth_year"], olsen["seeds"]) == (1501000, 2015, [])
    assert any("matched by name and given the list's id (Olsen, Per)" in n for n in report["notes"])
    players = json.loads(ok(cli("player", "list", "--json")).stdout)
    assert "Schmidt, Lena" not in {p["name"] for p in players}  # GER


def test_seeding_marks_closed_periods_stale(cli: Cli) -> None:
    club(cli)
    ok(cli("game", "add", "Lindgren, Axel", "Olsen, Per", "1-0", "--date", "2026-10-17"))
    ok(cli("period", "close", "2026-10"))
    r = ok(cli("player", "import-fide-list", str(TXT)))
    # he played in October: his seed is kept, the rest is refreshed
    assert "  Lindgren, Axel (1700101): federation, birth year, sex, title" in r.stderr.splitlines()
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert {p["status"] for p in periods} == {"stale"}  # Haugen's new seed


def test_problems_refuse_the_whole_file(cli: Cli, db_url: str, tmp_path: Path) -> None:
    club(cli)
    before = fingerprint(db_url)
    bad = tmp_path / "standard_rating_list.txt"
    bad.write_text(TXT.read_text().replace("2016  9   40", "20x6  9   40"))
    r = cli("player", "import-fide-list", str(bad))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"{bad}:3: player 1500202: rating '20x6' is not a whole number",
        f"error: {bad}: refused, nothing written: 1 problem(s)",
    ]
    r = cli("player", "import-fide-list", str(TXT), "--tc", "rapid")
    assert r.exit_code == 1
    assert (
        f"{TXT}: the file is named as FIDE's standard list; it holds no rapid ratings (give "
        "--tc standard, or rename it if it is the rapid list)"
    ) in r.stderr
    r = cli("player", "import-fide-list", str(TXT), "--month", "2026-10")
    assert r.exit_code == 1
    assert f"{TXT}: the file is FIDE's list of 2026-11, not 2026-10 as --month says" in r.stderr
    r = cli("player", "import-fide-list", str(TXT), "--dry-run")
    assert r.exit_code == 0 and "dry run: nothing was written" in r.stderr
    assert fingerprint(db_url) == before
