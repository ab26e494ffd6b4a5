"""``tracker game add-round``: a whole round in one command, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, games, ok

ROUND = """\
# Club League, round 1
Hart, Daniel      1-0   Sato, Yuki
Okafor            =     Patel
Kim, Ji-ho (1803) 0-1   Novak       # Kim is external: his rating as recorded
Berg  -+  Lund
Diaz\t1/2:1/2\tEvans
Fox, Ada 0:1 Grey
"""


@pytest.fixture
def club(cli: Cli) -> Cli:
    for args in (
        ("Hart, Daniel", "--rating", "2318", "--games", "240"),
        ("Sato, Yuki",),
        ("Okafor, Grace", "--rating", "2105", "--games", "95"),
        ("Patel, Arjun", "--rating", "1876", "--games", "41"),
        ("Kim, Ji-ho", "--external"),
        ("Novak, Jan", "--rating", "1650", "--games", "60"),
        ("Berg, Ola",),
        ("Lund, Per",),
        ("Diaz, Rosa",),
        ("Evans, Tom",),
        ("Fox, Ada",),
        ("Grey, Lee",),
    ):
        ok(cli("player", "add", *args))
    return cli


def test_a_round_of_six_games_in_one_command(club: Cli) -> None:
    r = ok(
        club(
            "game",
            "add-round",
            "Club League",
            "--date",
            "2026-10-03",
            "--round",
            "1",
            "--json",
            input=ROUND,
        )
    )
    added = json.loads(r.stdout)
    assert [(g["white"], g["result"], g["black"]) for g in added] == [
        ("Hart, Daniel", "1-0", "Sato, Yuki"),
        ("Okafor, Grace", "1/2-1/2", "Patel, Arjun"),
        ("Kim, Ji-ho", "0-1", "Novak, Jan"),
        ("Berg, Ola", "-+", "Lund, Per"),
        ("Diaz, Rosa", "1/2-1/2", "Evans, Tom"),
        ("Fox, Ada", "0-1", "Grey, Lee"),
    ]
    assert {(g["event"], g["round"], g["date"], g["tc"]) for g in added} == {
        ("Club League", "1", "2026-10-03", "standard")
    }
    assert added[2]["white_rating"] == 1803
    assert r.stderr.splitlines()[0] == (
        "added game 1: Hart, Daniel 1-0 Sato, Yuki, 2026-10-03, standard, Club League round 1"
    )
    assert r.stderr.splitlines()[-1] == (
        "round 1 of Club League: 6 games added (1 forfeit(s), not rated)"
    )
    assert games(club) == added


def test_one_bad_line_rejects_the_round_and_lists_every_problem(club: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    text = (
        "Hart 1-0 Sato\n"
        "Okafor 2-0 Patel\n"  # no result
        "Nobody, At All 1-0 Novak\n"  # unknown
        "Kim 0-1 Berg\n"  # an external player without a recorded rating: a warning only
        "Sato = Lund\n"  # Sato already plays on line 1
    )
    r = club("game", "add-round", "Club League", "--date", "2026-10-03", "--round", "1", input=text)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "stdin:2: no result between two names: write WHITE RESULT BLACK, the result 1-0, 0-1, "
        "1/2-1/2 (also 1:0, 0:1, 1/2:1/2, 0.5-0.5, ½-½, =, draw), +- / -+ for a forfeit, or 0-0 "
        "for a double forfeit",
        "stdin:3: no player named 'Nobody, At All' (no similar names; see `tracker player list`)",
        "stdin:5: Sato, Yuki already plays in line 1 of this round",
        "error: round 1 of 'Club League' not added: 3 of 5 line(s) have problems; nothing was "
        "written",
    ]
    assert fingerprint(db_url) == before


def test_a_round_from_a_file_and_again_is_refused(club: Cli, db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "round2.txt"
    path.write_text("Sato 1-0 Hart\nPatel 0-1 Okafor\n", encoding="utf-8")
    args = ("game", "add-round", "Club League", "--date", "2026-10-10", "--round", "2")
    ok(club(*args, "--file", str(path)))
    before = fingerprint(db_url)
    r = club(*args, "--file", str(path))
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0].startswith(f"{path}:1: this game is already recorded as game 1")
    assert fingerprint(db_url) == before
    path.write_bytes(b"Sato 1-0 Hart \xff\n")
    r = club(*args, "--file", str(path))
    assert r.exit_code == 1 and r.stderr.strip() == f"error: {path} is not UTF-8 text"


def test_a_round_is_checked_like_a_game(club: Cli, db_url: str) -> None:
    before = fingerprint(db_url)
    r = club(
        "game", "add-round", "Cup", "--date", "2027-10-03", "--round", "1", input="Hart 1-0 Sato\n"
    )
    assert r.exit_code == 1
    assert r.stderr.strip().startswith("error: the date 2027-10-03 is in the future")
    r = club("game", "add-round", "Cup", "--date", "2026-10-03", "--round", "1", input="\n# none\n")
    assert r.exit_code == 1
    assert r.stderr.strip() == "error: no games given: one line per game, WHITE RESULT BLACK"
    r = club("game", "add-round", "Cup", "--date", "2026-10-03", input="Hart 1-0 Sato\n")
    assert r.exit_code == 2  # --round is required
    assert fingerprint(db_url) == before
    ok(
        club(
            "game",
            "add-round",
            "Cup",
            "--date",
            "2026-10-03",
            "--round",
            "1",
            "--tc",
            "rapid",
            input="id:1 1-0 #2\n",
        )
    )
    assert [(g["white"], g["black"], g["tc"]) for g in games(club)] == [
        ("Hart, Daniel", "Sato, Yuki", "rapid")
    ]
