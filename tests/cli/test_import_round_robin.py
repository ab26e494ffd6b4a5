"""A realistic 10-player round robin (tests/importers/data/roundrobin10.trf) imported through
the CLI: every game, event, date and recorded rating, and the documented next step (each new
tracked player's FIDE state by ``player edit``).

The file: Riverside Club Championship 2026, 9 rounds 7-15 March 2026, standard time control
(its 122 record is free text and it has no 222 record, so the import needs --tc standard).
Its ratings, closed and checked against a hand computation, are in
tests/services/test_round_robin.py.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from tests.helpers import Cli, games, ok, summary

ROUND_ROBIN = Path(__file__).parents[1] / "importers" / "data" / "roundrobin10.trf"

SEEDS = {
    "Lindqvist, Tomas": 2287,
    "Brennan, Patrick": 2214,
    "Moreau, Camille": 2158,
    "Kowalczyk, Marek": 2093,
    "Esposito, Luca": 2031,
    "Novak, Jana": 1958,
    "Haddad, Karim": 1884,
    "Van Dijk, Sander": 1802,
    "Ito, Yuki": 1731,
    "Petrov, Nikolai": 1645,
}


def import_round_robin(cli: Cli) -> None:
    # its 122 says "90 min/40 moves + 30 min + 30 sec/move from move 1": standard, no --tc
    # needed; a --tc that contradicts it is refused
    r = cli("import", str(ROUND_ROBIN), "--tc", "rapid", "--create-players", "tracked")
    assert r.exit_code == 1
    assert (
        f"{ROUND_ROBIN}:13: the file says '90 min/40 moves + 30 min + 30 sec/move from move 1' "
        "(standard) (and 44 more games) and --tc says rapid: drop --tc, or correct the file"
    ) in r.stderr.splitlines()
    # the club's own championship: its players are ours to rate
    f = summary(
        ok(
            cli(
                "import",
                str(ROUND_ROBIN),
                "--tc",
                "standard",
                "--create-players",
                "tracked",
                "--json",
            )
        )
    )["files"][0]
    assert (f["added"], f["invalid"], f["byes"], f["problems"]) == (45, 0, 0, [])
    assert sorted(p["name"] for p in f["players_created"]) == sorted(SEEDS)
    assert {p["external"] for p in f["players_created"]} == {False}
    # The documented next step: give each new tracked player his FIDE state.
    for name, rating in SEEDS.items():
        ok(cli("player", "seed", name, "--rating", str(rating), "--games", "50"))


def test_round_robin_is_imported_whole(cli: Cli) -> None:
    import_round_robin(cli)
    rows = games(cli)
    assert len(rows) == 45
    assert {g["event"] for g in rows} == {"Riverside Club Championship 2026"}
    assert {g["date"] for g in rows} == {f"2026-03-{d:02d}" for d in range(7, 16)}
    assert {g["tc"] for g in rows} == {"standard"}
    # every pair meets exactly once
    pairs = {frozenset((g["white"], g["black"])) for g in rows}
    assert len(pairs) == 45
    # the recorded ratings are the 001 ratings
    assert {(g["white"], g["white_rating"]) for g in rows} <= set(SEEDS.items())
    # scores as in the file's points column
    points: dict[str, Decimal] = dict.fromkeys(SEEDS, Decimal(0))
    for g in rows:
        white, black = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Decimal("0.5"),) * 2}[g["result"]]
        points[g["white"]] += white
        points[g["black"]] += black
    assert points["Lindqvist, Tomas"] == Decimal("7.5")
    assert points["Petrov, Nikolai"] == Decimal("1.5")
    born = json.loads(ok(cli("player", "show", "Novak, Jana", "--json")).stdout)["birth_year"]
    assert born == 2009  # from the 001 birth date: she is a junior
