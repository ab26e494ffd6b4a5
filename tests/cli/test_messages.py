"""What the commands say: neutral wording, notes only where they apply, and errors that say
what is wrong."""

from __future__ import annotations

import pytest

from tests.helpers import Cli, ok, one_line_error


@pytest.fixture
def club(cli: Cli) -> Cli:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95"))
    ok(cli("player", "add", "Patel, Arjun", "--rating", "1876", "--games", "41"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-05"))
    ok(cli("game", "add", "Patel", "Kim", "1-0", "--date", "2026-09-06", "--black-rating", "1803"))
    ok(cli("period", "close", "2026-09"))
    return cli


EXTERNAL = "shadow: external opponents count at their recorded rating and a fixed RD of 60"
PROVISIONAL = "'?' marks a provisional shadow rating (RD 110 or more)"


def test_shadow_footnotes_only_where_they_apply(club: Cli) -> None:
    # seeded after their rated games, nobody's shadow is provisional: no note about '?'
    hart = ok(club("history", "Hart"))  # met no external opponent
    assert EXTERNAL not in hart.stderr and PROVISIONAL not in hart.stderr
    assert "?" not in hart.stdout
    # with new-account RDs the shadows are provisional, and the note says what '?' means
    ok(club("shadow", "set", "--seed-rd", "500"))
    hart = ok(club("history", "Hart"))
    assert EXTERNAL not in hart.stderr and PROVISIONAL in hart.stderr
    patel = ok(club("history", "Patel"))  # beat Kim, an external player
    assert EXTERNAL in patel.stderr and PROVISIONAL in patel.stderr
    assert EXTERNAL not in ok(club("compare", "Hart")).stderr
    assert EXTERNAL in ok(club("compare", "Patel")).stderr
    assert EXTERNAL in ok(club("compare", "--all")).stderr  # Patel is on the list
    # glickman shows no '?': no note about it
    glickman = ok(club("compare", "Patel", "--preset", "glickman"))
    assert "?" not in glickman.stdout and PROVISIONAL not in glickman.stderr
    ok(club("shadow", "set", "--preset", "glickman"))
    assert PROVISIONAL not in ok(club("history", "Patel")).stderr
    assert PROVISIONAL not in ok(club("compare", "--all")).stderr


def test_an_external_players_history_says_they_are_external(club: Cli) -> None:
    expected = (
        "error: Kim, Ji-ho is an external player: tracker does not rate them (each game "
        "records their rating; see `tracker game list --player id:4`)"
    )
    assert one_line_error(club("history", "Kim"), 1) == expected
    assert one_line_error(club("history", "Kim", "--json"), 1) == expected
    assert one_line_error(club("compare", "Kim"), 1) == expected
    assert one_line_error(club("export", "history", "--player", "Kim"), 1) == expected


def test_compare_all_says_what_plot_and_preset_need(club: Cli, tmp_path: object) -> None:
    # --all --plot draws the club on one chart; --all --preset and --online --plot cannot be
    line = one_line_error(club("compare", "--all", "--preset", "glickman"), 2)
    assert line.startswith("error: --preset compares named players with another preset")
    line = one_line_error(club("compare", "--all", "--online", "lichess", "--plot", "x.png"), 2)
    assert line == "error: --plot draws players, not the --online line"


def test_messages_use_neutral_wording(club: Cli) -> None:
    line = one_line_error(club("game", "add", "Hart", "Hart", "1-0", "--date", "2026-10-01"), 1)
    assert line == "error: Hart, Daniel cannot play themselves: white and black are one player"
    warned = ok(club("game", "add", "Hart", "Kim", "1-0", "--date", "2026-10-01")).stderr
    assert "Kim, Ji-ho is an external player and the game records no FIDE rating for them" in (
        warned
    )
    line = one_line_error(
        club("player", "add", "Lee, Bo", "--external", "--rating", "1900", "--games", "3"), 1
    )
    assert "their rating comes from each game" in line
    for args in (
        ("player", "add", "--help"),
        ("calc", "glicko", "--help"),
        ("import", "files", "--help"),
    ):
        text = ok(club(*args)).stdout
        for word in (" he ", " his ", " him ", " him,", " him.", "himself"):
            assert word not in text, (args, word)
