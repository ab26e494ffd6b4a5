"""``tracker event list/show/edit/merge`` (issue 24, point 1), and the events held back at
``period close`` and in ``history``: real numbers, on both databases. Today is 2026-11-29
(tests/conftest.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.helpers import Cli, history_row, js, ok, one_line_error
from tracker.ratings.fide.tables import DP_BY_PERCENT

AUTUMN = [  # white, black, result, date, round: the Autumn Open of docs/commands.md
    ("Hart", "Sato", "1-0", "2026-09-05", "1"),
    ("Okafor", "Patel", "=", "2026-09-05", "1"),
    ("Sato", "Patel", "=", "2026-09-05", "2"),
    ("Kim", "Hart", "0-1", "2026-09-05", "2"),
    ("Okafor", "Sato", "0-1", "2026-09-06", "3"),
    ("Patel", "Kim", "1-0", "2026-09-06", "3"),
    ("Sato", "Kim", "1-0", "2026-09-06", "4"),
    ("Hart", "Okafor", "=", "2026-09-06", "4"),
    ("Patel", "Sato", "0-1", "2026-09-06", "5"),
    ("Kim", "Okafor", "+-", "2026-09-06", "5"),
]


@pytest.fixture
def club(cli: Cli) -> Cli:
    for args in (
        ("Hart, Daniel", "--born", "1988", "--rating", "2318", "--games", "240"),
        ("Okafor, Grace", "--born", "2001", "--rating", "2105", "--games", "95"),
        ("Patel, Arjun", "--born", "2010", "--rating", "1876", "--games", "41"),
        ("Sato, Yuki", "--born", "2012"),
        ("Kim, Ji-ho", "--external"),
    ):
        ok(cli("player", "add", *args))
    for white, black, result, day, rnd in AUTUMN:
        rating = {"Kim": "1803"}
        extra = [*(["--white-rating", rating[white]] if white in rating else [])]
        extra += [*(["--black-rating", rating[black]] if black in rating else [])]
        ok(
            cli(
                "game", "add", white, black, result, "--date", day, "--event", "Autumn Open",
                "--round", rnd, *extra,
            )
        )  # fmt: skip
    return cli


def standings(cli: Cli, event: str) -> dict[str, dict[str, object]]:
    shown = js(cli, "event", "show", event)
    return {s["name"]: s for s in shown["standings"]}


def test_show_gives_the_close_numbers(club: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    ok(club("period", "close", "2026-09"))
    rows = standings(club, "autumn open")
    patel = rows["Patel, Arjun"]  # played only the Autumn Open in September
    period = history_row(club, "Patel, Arjun", "2026-09")
    assert (
        Decimal(str(patel["change_exact"]))
        == Decimal(str(period["change_exact"]))
        == Decimal("27.6")
    )
    assert Decimal(str(patel["expected"])) == Decimal(str(period["expected"]))
    assert patel["lists"] == ["2026-10-01"] and patel["rating"] == 1876
    hart = rows["Hart, Daniel"]
    assert Decimal(str(hart["change_exact"])) == Decimal(
        str(history_row(club, "Hart", "2026-09")["change_exact"])
    )
    # performance by hand (§8.1.1): Hart's rated games: Okafor 2105 (=), Kim 1803 (1): Ra
    # 1954, p 0.75; Okafor's: Patel 1876 (=), Hart 2318 (=): Ra 2097, p 0.50
    assert hart["performance"] == 1954 + DP_BY_PERCENT[75]
    assert rows["Okafor, Grace"]["performance"] == 2097 + DP_BY_PERCENT[50] == 2097
    # standings: the forfeit counts in the event's score, not in the rating
    assert [
        (s["rank"], s["score"]) for s in js(club, "event", "show", "Autumn Open")["standings"]
    ] == [(1, 3.5), (2, 2.5), (3, 2), (4, 1), (5, 1)]  # Okafor SB 2.25, Kim 1.00
    assert rows["Kim, Ji-ho"]["external"] and rows["Kim, Ji-ho"]["change_exact"] is None
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(club("event", "show", "Autumn Open")).stdout
    assert "rated on the 2026-10-01 list" in out and "+27.60" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_list_statuses(club: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    # a league: August to November (over 90 days), rated month by month
    ok(club("event", "add", "Club League", "--start", "2026-08-01", "--type", "league"))
    for day in ("2026-08-01", "2026-09-12", "2026-10-10", "2026-11-07"):
        ok(club("game", "add", "Hart", "Patel", "=", "--date", day, "--event", "Club League"))
    ok(club("period", "close", "2026-09"))
    # ended in October, stated to be rated in November
    ok(
        club(
            "game", "add", "Okafor", "Patel", "1-0", "--date", "2026-10-31", "--event", "Halloween"
        )
    )
    ok(club("event", "edit", "Halloween", "--rated-in", "2026-11"))
    ok(club("game", "add", "Sato", "Okafor", "=", "--date", "2026-11-14", "--event", "Nov Cup"))
    ok(club("game", "add", "Sato", "Hart", "1-0", "--date", "2026-10-17", "--event", "Oct Cup"))
    events = {e["event"]: e for e in js(club, "event", "list")}
    assert events["Autumn Open"]["status"] == "rated"
    assert events["Autumn Open"]["rated"] == "rated on the 2026-10-01 list"
    assert (events["Autumn Open"]["games"], events["Autumn Open"]["players"]) == (10, 5)
    league = events["Club League"]
    assert league["status"] == "league"
    assert (
        league["rated"]
        == "league, rated monthly: 2026-08 to 2026-09 rated, 2026-10 to 2026-11 to come"
    )
    assert events["Halloween"]["rated"] == "rated in 2026-11 as stated (2026-12-01 list)"
    assert events["Halloween"]["rated_in"] == "2026-11"
    assert events["Nov Cup"]["status"] == "running"
    assert events["Oct Cup"]["rated"] == "will be rated on the 2026-11-01 list"
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(club("event", "list")).stdout
    assert max(len(line) for line in out.splitlines()) <= 80


def test_close_and_history_say_which_events_wait(club: Cli) -> None:
    ok(club("event", "add", "Winter Cup", "--start", "2026-10-03", "--end", "2026-12-06",
            "--rounds", "3"))  # fmt: skip
    ok(
        club(
            "game",
            "add",
            "Hart",
            "Patel",
            "1-0",
            "--date",
            "2026-10-03",
            "--event",
            "Winter Cup",
            "--round",
            "1",
        )
    )
    ok(
        club(
            "game",
            "add",
            "Patel",
            "Hart",
            "=",
            "--date",
            "2026-11-07",
            "--event",
            "Winter Cup",
            "--round",
            "2",
        )
    )
    ok(club("game", "add", "Okafor", "Hart", "1-0", "--date", "2026-10-30", "--event", "Late Open"))
    ok(club("event", "edit", "Late Open", "--rated-in", "2026-11"))
    done = club("period", "close", "2026-10")
    ok(done)
    assert "held back: Winter Cup, round 2 of 3, ends 2026-12-06 (1 game)" in " ".join(
        done.stderr.split()
    )
    assert "held back: Late Open, rated in 2026-11 as stated (1 game)" in " ".join(
        done.stderr.split()
    )
    report = js(club, "period", "close", "2026-10")  # already closed: nothing held
    assert report["held"] == []
    october = history_row(club, "Hart", "2026-10")
    assert october["games"] == 0
    assert "1 game(s) of Late Open rated in 2026-11 as stated" in october["note"]
    assert (
        "1 game(s) of Winter Cup wait for it to end (round 2 of 3, ends 2026-12-06)"
        in october["note"]
    )


def test_merge_refuses_duplicates_then_moves_games(club: Cli) -> None:
    ok(club("period", "close", "2026-09"))
    # two spellings typed in one tournament: round 1 twice
    ok(
        club(
            "game",
            "add",
            "Hart",
            "Patel",
            "1-0",
            "--date",
            "2026-10-03",
            "--event",
            "Club Cup",
            "--round",
            "1",
        )
    )
    twin = ("game", "add", "Hart", "Patel", "1-0", "--date", "2026-10-03", "--event",
            "Club-Cup", "--round", "1")  # fmt: skip
    assert one_line_error(club(*twin), 1) == (
        "error: this looks like game 11 (Hart, Daniel - Patel, Arjun, 2026-10-03, standard, "
        "Club Cup round 1) again (the same players on the same day, standard): if it is "
        "another game of theirs, give --again"
    )
    ok(club(*twin, "--again"))  # typed twice all the same, for the merge below
    ok(
        club(
            "game",
            "add",
            "Okafor",
            "Sato",
            "0-1",
            "--date",
            "2026-10-03",
            "--event",
            "Club-Cup",
            "--round",
            "1",
        )
    )
    ids = [g["id"] for g in js(club, "game", "list", "--event", "Club-Cup")]
    line = one_line_error(club("event", "merge", "Club Cup", "Club-Cup"), 1)
    assert f"game {ids[0]} (2026-10-03 Hart, Daniel - Patel, Arjun round 1) is game" in line
    assert {e["event"] for e in js(club, "event", "list")} >= {"Club Cup", "Club-Cup"}
    ok(club("game", "remove", str(ids[0])))
    merged = js(club, "event", "merge", "Club Cup", "Club-Cup")
    assert merged == {"event": "Club Cup", "merged": "Club-Cup", "games": [ids[1]], "stale": {}}
    moved = js(club, "game", "list", "--event", "Club Cup")
    assert sorted(g["id"] for g in moved) == sorted([ids[1], ids[1] - 2])
    assert "Club-Cup" not in {e["event"] for e in js(club, "event", "list")}
    # the moved game now has its new key: the same game again is a duplicate
    again = club(
        "game",
        "add",
        "Okafor",
        "Sato",
        "0-1",
        "--date",
        "2026-10-03",
        "--event",
        "Club Cup",
        "--round",
        "1",
    )
    assert "already recorded as game" in one_line_error(again, 1)


def test_rename_start_and_tc(club: Cli) -> None:
    ok(club("period", "close", "2026-09"))
    ok(club("game", "add", "Hart", "Patel", "1-0", "--date", "2026-10-03", "--event", "Club Cup"))
    line = one_line_error(club("event", "edit", "Club Cup", "--name", "AUTUMN  open"), 1)
    assert "there is already an event 'Autumn Open'" in line
    done = js(club, "event", "edit", "Autumn Open", "--name", "Autumn Open 2026")
    assert (
        done["changes"] == ["renamed 'Autumn Open' to 'Autumn Open 2026'"] and done["stale"] == {}
    )
    assert "Autumn Open 2026" in {e["event"] for e in js(club, "event", "list")}
    late = one_line_error(club("event", "edit", "Autumn Open 2026", "--start", "2026-09-06"), 1)
    assert "has a game on 2026-09-05" in late
    moved = js(club, "event", "edit", "Autumn Open 2026", "--start", "2026-08-28")
    # the event now starts in August: rated with the August list, 2026-09 goes stale
    assert moved["stale"] == {"standard": ["2026-09"]}
    assert js(club, "event", "list")[0]["start"] == "2026-08-28"
    tc = js(club, "event", "edit", "Club Cup", "--tc", "rapid")
    assert tc["changes"] == ["its games are rapid"]
    assert {g["tc"] for g in js(club, "game", "list", "--event", "Club Cup")} == {"rapid"}
    assert one_line_error(club("event", "edit", "Club Cup", "--tc", "bullet"), 1)


def test_a_large_event_lists_rounds(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over 12 players each player's games name the opponent by start number (by rating at
    the start: here the reverse of the names), never by a rank that several share."""
    names = [f"Player {chr(65 + i)}{chr(65 + i)}, Long-Name" for i in range(14)]
    for i, name in enumerate(names):
        ok(cli("player", "add", name, "--rating", str(1870 + 10 * i), "--games", "50"))
    for rnd in range(1, 4):
        lines = "".join(
            f"{names[(i + rnd) % 14]} 1-0 {names[(13 - i + rnd) % 14]}\n" for i in range(7)
        )
        ok(
            cli(
                "game",
                "add-round",
                "Big Swiss",
                "--date",
                f"2026-10-0{rnd}",
                "--round",
                str(rnd),
                input=lines,
            )
        )
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(cli("event", "show", "Big Swiss")).stdout
    assert max(len(line) for line in out.splitlines()) <= 80, out
    assert "no: start number, by rating at the start; each game: opponent's no" in out
    standings = js(cli, "event", "show", "Big Swiss")["standings"]
    number = {s["id"]: s["number"] for s in standings}
    assert sorted(number.values()) == list(range(1, 15))
    assert [s["number"] for s in sorted(standings, key=lambda s: s["name"])] == list(
        range(14, 0, -1)
    )
    assert {
        c["opponent_number"] == number[c["opponent_id"]]
        for s in standings
        for c in s["games_by_round"]
    } == {True}
    # equal scores and Buchholz share a rank (1, 3, 6, 8, 11, 13 twice each): "1w1" or
    # "13b0" would not say which
    ranks = sorted(s["rank"] for s in standings)
    assert ranks == [1, 1, 3, 3, 5, 6, 6, 8, 8, 10, 11, 11, 13, 13]
    lines = out.splitlines()
    # by start number: GG (no 8) beat KK, LL, NN; NN (no 1) lost to them all
    assert any(line.endswith("  8  Player GG, Long-Name    3.0  5w1 3w1 1w1") for line in lines)
    assert any(line.endswith("  1  Player NN, Long-Name    0.0  12b0 10b0 8b0") for line in lines)


def test_a_newcomers_performance_is_over_every_game_and_a_zero_score_is_ra_minus_800(
    cli: Cli,
) -> None:
    """A newcomer scoring zero in his first event: the games are disregarded for his rating
    (§8.2.1), his performance is still Ra + dp over them, dp(0) = -800 (table 8.1.1)."""
    for name, rating in (("Ames, Al", "2000"), ("Bell, Bo", "2100"), ("Cruz, Cy", "1900")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "50"))
    ok(cli("player", "add", "Novak, Jan", "--born", "2000"))
    for i, name in enumerate(("Ames", "Bell", "Cruz"), 1):
        ok(cli("game", "add", name, "Novak", "1-0", "--date", f"2026-10-0{i}", "--event", "Cup"))
    (novak,) = [
        s for s in js(cli, "event", "show", "Cup")["standings"] if s["name"] == "Novak, Jan"
    ]
    assert (novak["games"], novak["score"], novak["rated_games"]) == (3, 0, 0)
    assert novak["performance"] == (2000 + 2100 + 1900) // 3 + DP_BY_PERCENT[0] == 1200


def test_sonneborn_berger_is_shown_to_the_quarter_point(cli: Cli) -> None:
    """SB multiplies scores by points: quarters. Ana 1.5 (beat Tom 0, drew Ben 1.5): SB 0 +
    0.75 = 0.75, printed so, never rounded to 0.8."""
    for name in ("Ana", "Ben", "Tom"):
        ok(cli("player", "add", name, "--rating", "1800", "--games", "40"))
    ok(cli("event", "add", "Trio", "--start", "2026-09-01", "--type", "round-robin"))
    for white, black, result in (("Ana", "Tom", "1-0"), ("Ben", "Ana", "="), ("Tom", "Ben", "0-1")):
        ok(cli("game", "add", white, black, result, "--date", "2026-09-01", "--event", "Trio"))
    shown = js(cli, "event", "show", "Trio")["standings"]
    assert [(s["name"], s["sonneborn_berger"]) for s in shown] == [
        ("Ana", 0.75), ("Ben", 0.75), ("Tom", 0)
    ]  # fmt: skip
    out = ok(cli("event", "show", "Trio")).stdout
    ana = next(line for line in out.splitlines() if " Ana " in f" {line} ")
    assert "0.75" in ana.split() and "0.8" not in ana.split()
