"""``tracker h2h A B``: two players' games against each other, the score overall, by colour
and by time control, the first and last meeting; forfeits listed but not counted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Cli, js, ok, one_line_error


@pytest.fixture
def club(cli: Cli) -> Cli:
    for name in ("Hart, Daniel", "Okafor, Grace", "Patel, Arjun"):
        ok(cli("player", "add", name))
    for white, black, result, date, tc, event, rnd in (
        ("Hart", "Okafor", "1-0", "2026-09-05", "standard", "Autumn Open", "1"),
        ("Patel", "Hart", "0-1", "2026-09-05", "standard", "Autumn Open", "2"),
        ("Okafor", "Hart", "1/2-1/2", "2026-09-20", "standard", "Club Night", None),
        ("Okafor", "Hart", "+-", "2026-10-03", "rapid", "Rapidplay", "1"),
        ("Hart", "Okafor", "0-1", "2026-10-03", "rapid", "Rapidplay", "2"),
        ("Okafor", "Hart", "1-0", "2026-10-04", "blitz", None, None),
    ):
        args = ["game", "add", white, black, result, "--date", date, "--tc", tc, "--yes"]
        args += ["--event", event] if event else []
        args += ["--round", rnd] if rnd else []
        ok(cli(*args))
    return cli


def tally(data: dict[str, Any]) -> tuple[Any, ...]:
    return (
        data["games"],
        data["score"],
        data["against"],
        data["wins"],
        data["draws"],
        data["losses"],
    )


def test_the_score_by_colour_and_time_control(club: Cli) -> None:
    h = js(club, "h2h", "Hart", "Okafor")
    assert (h["a"]["name"], h["b"]["name"], h["tc"]) == ("Hart, Daniel", "Okafor, Grace", None)
    assert [g["date"] for g in h["games"]] == [
        "2026-09-05", "2026-09-20", "2026-10-03", "2026-10-03", "2026-10-04"
    ]  # fmt: skip
    first, night, forfeit, rapid, blitz = h["games"]
    assert (first["colour"], first["result"], first["score"], first["event"]) == (
        "white", "1-0", 1, "Autumn Open"
    )  # fmt: skip
    assert (night["colour"], night["score"], night["round"]) == ("black", 0.5, None)
    assert (forfeit["forfeit"], forfeit["score"], forfeit["colour"]) == (True, None, "black")
    assert (rapid["score"], blitz["score"], blitz["event"]) == (0, 0, None)
    assert tally(h["total"]) == (4, 1.5, 2.5, 1, 1, 2)  # the forfeit is no game played
    assert tally(h["by_colour"]["white"]) == (2, 1, 1, 1, 0, 1)
    assert tally(h["by_colour"]["black"]) == (2, 0.5, 1.5, 0, 1, 1)
    assert tally(h["by_tc"]["standard"]) == (2, 1.5, 0.5, 1, 1, 0)
    assert tally(h["by_tc"]["rapid"]) == (1, 0, 1, 0, 0, 1)
    assert tally(h["by_tc"]["blitz"]) == (1, 0, 1, 0, 0, 1)
    assert h["forfeits"] == 1
    assert (h["first"]["date"], h["last"]["date"]) == ("2026-09-05", "2026-10-04")
    other = js(club, "h2h", "Okafor", "Hart")  # the same games from the other side
    assert tally(other["total"]) == (4, 2.5, 1.5, 2, 1, 1)
    assert other["games"][0]["colour"] == "black"


def test_the_table(club: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    result = ok(club("h2h", "Hart", "Okafor"))
    assert result.stdout.splitlines() == [
        "Hart, Daniel against Okafor, Grace (the first player's colour and points)",
        "date        event        round  tc        colour  result    points",
        "2026-09-05  Autumn Open  1      standard  white   1-0          1.0",
        "2026-09-20  Club Night          standard  black   1/2-1/2      0.5",
        "2026-10-03  Rapidplay    1      rapid     black   +-       forfeit",
        "2026-10-03  Rapidplay    2      rapid     white   0-1          0.0",
        "2026-10-04                      blitz     black   1-0          0.0",
        "",
        "            games    score  won  drawn  lost",
        "all games       4  1.5-2.5    1      1     2",
        "with white      2  1.0-1.0    1      0     1",
        "with black      2  0.5-1.5    0      1     1",
        "standard        2  1.5-0.5    1      1     0",
        "rapid           1  0.0-1.0    0      0     1",
        "blitz           1  0.0-1.0    0      0     1",
        "",
        "meeting  date        where",
        "first    2026-09-05  Autumn Open, round 1",
        "last     2026-10-04  no event",
    ]
    assert "1 forfeit listed, not counted as played" in result.stderr


def test_one_time_control(club: Cli) -> None:
    h = js(club, "h2h", "Hart", "Okafor", "--tc", "Rapid")
    assert h["tc"] == "rapid"
    assert [g["round"] for g in h["games"]] == ["1", "2"]
    assert tally(h["total"]) == (1, 0, 1, 0, 0, 1)
    assert list(h["by_tc"]) == ["rapid"]  # the one asked for
    out = ok(club("h2h", "Hart", "Okafor", "--tc", "rapid")).stdout
    assert "standard" not in out and "Hart, Daniel against Okafor, Grace (rapid)" in out


def test_no_games_and_only_a_forfeit(club: Cli) -> None:
    result = ok(club("h2h", "Okafor", "Patel"))
    assert result.stdout == ""
    assert "no games between Okafor, Grace and Patel, Arjun" in result.stderr
    h = js(club, "h2h", "Okafor", "Patel")
    assert (h["games"], h["first"], h["last"], h["forfeits"]) == ([], None, None, 0)
    # every documented key, zero when nothing was played
    zero = (0, 0, 0, 0, 0, 0)
    assert tally(h["total"]) == zero
    assert {c: tally(t) for c, t in h["by_colour"].items()} == {"white": zero, "black": zero}
    assert {tc: tally(t) for tc, t in h["by_tc"].items()} == dict.fromkeys(
        ("standard", "rapid", "blitz"), zero
    )
    assert list(js(club, "h2h", "Okafor", "Patel", "--tc", "blitz")["by_tc"]) == ["blitz"]
    white_only = js(club, "h2h", "Hart", "Patel")  # one game, Hart with Black
    assert tally(white_only["by_colour"]["white"]) == zero
    assert tally(white_only["by_colour"]["black"]) == (1, 1, 0, 1, 0, 0)
    assert "with white" not in ok(club("h2h", "Hart", "Patel")).stdout  # the table: played
    ok(club("game", "add", "Patel", "Okafor", "-+", "--date", "2026-10-10"))
    h = js(club, "h2h", "Okafor", "Patel")
    assert (len(h["games"]), h["forfeits"], h["total"]["games"], h["first"]) == (1, 1, 0, None)
    assert "blitz" not in ok(club("h2h", "Okafor", "Patel")).stdout


def test_errors_are_one_line(club: Cli) -> None:
    assert "Hart, Daniel twice" in one_line_error(club("h2h", "Hart", "hart, daniel"), 1)
    assert "no player named 'Nobody'" in one_line_error(club("h2h", "Hart", "Nobody"), 1)
    assert "unknown time control" in one_line_error(club("h2h", "Hart", "Okafor", "--tc", "x"), 1)


def test_one_player_against_each_opponent(club: Cli) -> None:
    o = js(club, "h2h", "Hart")
    assert o["a"]["name"] == "Hart, Daniel"
    lines = [(x["name"], *tally(x), x["forfeits"], x["last"]) for x in o["opponents"]]
    assert lines == [
        # the forfeit is listed, not played: 4 games, the last played on 2026-10-04
        ("Okafor, Grace", 4, 1.5, 2.5, 1, 1, 2, 1, "2026-10-04"),
        ("Patel, Arjun", 1, 1, 0, 1, 0, 0, 0, "2026-09-05"),
    ]
    assert tally(o["total"]) == (5, 2.5, 2.5, 2, 1, 2)
    # each line is what `h2h A B` sums for the pair
    assert tally(o["opponents"][0]) == tally(js(club, "h2h", "Hart", "Okafor")["total"])
    rapid = js(club, "h2h", "Hart", "--tc", "rapid")
    assert [(x["name"], *tally(x), x["forfeits"]) for x in rapid["opponents"]] == [
        ("Okafor, Grace", 1, 0, 1, 0, 0, 1, 1)
    ]
    r = ok(club("h2h", "Hart"))
    assert "Hart, Daniel against each opponent" in r.stdout
    assert "5 games played: 2.5-2.5 (+2 =1 -2)" in r.stderr
    assert "no blitz games of Patel, Arjun" in ok(club("h2h", "Patel", "--tc", "blitz")).stderr
    assert "Nobody" in one_line_error(club("h2h", "Nobody"), 1)
