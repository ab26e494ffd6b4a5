"""``tracker event show EVENT --norms``: the title norms of an event's players through the
CLI, on the Arbiters' Manual's worked example (FIDE Arbiters' Commission, Arbiters' Manual
2016, Spanish edition p. 183, example 3: an IM of Armenia before the last round of a 9-round
Swiss)."""

from __future__ import annotations

import pytest

from tests.helpers import NORM_FIELD, NORM_LAST, Cli, js, ok, one_line_error


def play(
    cli: Cli, name: str, fed: str, title: str | None, rating: int, result: str, rnd: int
) -> None:
    ok(
        cli(
            "player",
            "add",
            name,
            "--external",
            "--federation",
            fed,
            *(["--title", title] if title else []),
        )
    )
    ok(
        cli(
            "game", "add", "Avetisyan, Aram", name, result, "--date", f"2026-07-0{rnd}",
            "--event", "Yerevan Open", "--round", str(rnd), "--black-rating", str(rating), "--yes",
        )
    )  # fmt: skip


@pytest.fixture
def open_(cli: Cli) -> Cli:
    ok(cli("player", "add", "Avetisyan, Aram", "--federation", "ARM", "--title", "IM"))
    for rnd, entry in enumerate(NORM_FIELD, 1):
        play(cli, *entry, rnd)
    return cli


def norm(data: dict, title: str) -> dict:  # type: ignore[type-arg]
    (player,) = data["players"]
    return next(n for n in player["norms"] if n["norm"] == title)


def test_before_the_last_round(open_: Cli) -> None:
    ok(open_("event", "edit", "Yerevan Open", "--rounds", "9"))  # 8 played
    data = js(open_, "event", "show", "Yerevan Open", "--norms")
    assert [p["name"] for p in data["players"]] == ["Avetisyan, Aram"]  # tracked players
    gm = norm(data, "GM")
    assert (gm["games"], gm["score"], gm["achieved"]) == (8, 5.5, False)
    needs = {n["points"]: n["average"] for n in gm["outlook"]["needs"]}
    assert needs == {0: None, 0.5: 2686, 1: 2317}  # a draw with the GM of 2695 is enough
    assert data["list"] == "2026-07-01" and data["rounds"] == 9
    # not a woman: no WGM or WIM norm; an IM: no IM norm (§1.4.5c counts him for it)
    assert [n["norm"] for n in data["players"][0]["norms"]] == ["GM"]


@pytest.mark.parametrize(
    ("result", "rp", "achieved"), [("1/2-1/2", 2601, True), ("0-1", 2556, False)]
)
def test_after_the_last_round(open_: Cli, result: str, rp: int, achieved: bool) -> None:
    play(open_, *NORM_LAST, result, 9)
    gm = norm(js(open_, "event", "show", "Yerevan Open", "--norms"), "GM")
    assert (gm["games"], gm["raised"], gm["ra"], gm["rp"], gm["achieved"]) == (
        9,
        2150,
        2476,
        rp,
        achieved,
    )
    assert gm["outlook"] is None
    checks = {(c["article"], c["found"]) for c in gm["checks"]}
    assert {("1.4.1a", "9"), ("1.4.5a", "6"), ("1.4.5b", "3"), ("1.4.3", "5")} <= checks


def test_the_table_fits_and_cites(open_: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    play(open_, *NORM_LAST, "1/2-1/2", 9)
    monkeypatch.setenv("COLUMNS", "80")
    result = ok(open_("event", "show", "Yerevan Open", "--norms", "--player", "Avetisyan"))
    assert max(len(line) for line in result.stdout.splitlines()) <= 80, result.stdout
    lines = result.stdout.splitlines()
    assert "Avetisyan, Aram  GM        9    6.0  2476  2601  norm" in lines
    assert "Avetisyan, Aram, GM norm: p 0.67, dp 125; 2150 raised to the floor" in lines
    assert "§1.4.8   Rp at least 2600                        2601   yes" in lines
    assert "not checked (not stored): §1.1" in result.stderr


def test_unknown_federations_are_not_checked(open_: Cli) -> None:
    ok(open_("player", "add", "Doe, John", "--external", "--title", "GM"))
    ok(
        open_(
            "game", "add", "Doe, John", "Avetisyan, Aram", "1/2-1/2", "--date", "2026-07-09",
            "--event", "Yerevan Open", "--round", "9", "--white-rating", "2695", "--yes",
        )
    )  # fmt: skip
    gm = norm(js(open_, "event", "show", "Yerevan Open", "--norms"), "GM")
    fed = [c for c in gm["checks"] if c["article"] in ("1.4.3", "1.4.4")]
    assert [c["ok"] for c in fed] == [None, None, None]
    assert gm["rp"] == 2601 and gm["achieved"] is False  # not all checked: no norm claimed
    text = ok(open_("event", "show", "Yerevan Open", "--norms")).stdout
    assert "2476  2601  if §1.4.3, §1.4.4 hold" in text  # each article once


def test_a_forfeit_is_no_game(open_: Cli) -> None:
    ok(open_("player", "add", "Harris, Sam", "--external", "--federation", "USA", "--title", "GM"))
    ok(
        open_(
            "game", "add", "Avetisyan, Aram", "Harris, Sam", "+-", "--date", "2026-07-09",
            "--event", "Yerevan Open", "--round", "9", "--yes",
        )
    )  # fmt: skip
    (player,) = js(open_, "event", "show", "Yerevan Open", "--norms")["players"]
    assert (player["games"], player["forfeits"], player["score"]) == (8, 1, 5.5)


def test_errors(open_: Cli) -> None:
    assert "no event" in one_line_error(open_("event", "show", "Nowhere", "--norms"), 1)
    assert "more than 5 rounds" in one_line_error(
        open_("event", "edit", "Yerevan Open", "--rounds", "5"), 1
    )
    ok(open_("player", "add", "Idle, Ivan"))
    assert "plays no game" in one_line_error(
        open_("event", "show", "Yerevan Open", "--norms", "--player", "Idle"), 1
    )
    ok(
        open_(
            "game",
            "add",
            "Idle",
            "Avetisyan",
            "1-0",
            "--tc",
            "rapid",
            "--event",
            "Blitz Cup",
            "--date",
            "2026-07-01",
        )
    )
    assert "no standard games" in one_line_error(open_("event", "show", "Blitz Cup", "--norms"), 1)


# -- the games a player may leave out (§1.4.1e-f): issue 34's three cases -----------------

#: Each game: round, opponent, federation, title, rating, the candidate's points.
Game = tuple[int, str, str, "str | None", int, str]

#: An 11-round Swiss: wins over two 1800s, then GMs and IMs around 2400 (an IM of ESP).
TWO_1800S: list[Game] = [
    (1, "Ortiz, Pablo", "ESP", None, 1800, "1-0"),
    (2, "Ruiz, Sergio", "ESP", None, 1800, "1-0"),
    (3, "Blanc, Pierre", "FRA", "GM", 2450, "1/2-1/2"),
    (4, "Vogel, Jan", "GER", "GM", 2420, "1-0"),
    (5, "Webb, Tom", "ENG", "GM", 2410, "1/2-1/2"),
    (6, "Bakker, Joost", "NED", "GM", 2400, "1-0"),
    (7, "Rossi, Marco", "ITA", "GM", 2390, "1/2-1/2"),
    (8, "Vidal, Oscar", "ESP", "IM", 2380, "1-0"),
    (9, "Sousa, Rui", "POR", "IM", 2390, "1/2-1/2"),
    (10, "Girard, Luc", "FRA", "IM", 2380, "1-0"),
    (11, "Paz, Diego", "ARG", "IM", 2380, "1-0"),
]
#: An 11-round Swiss: 7 of 9 against an average of 2380, then two losses.
LATE_LOSSES: list[Game] = [
    (1, "Blanc, Pierre", "FRA", "GM", 2450, "1-0"),
    (2, "Vogel, Jan", "GER", "GM", 2420, "1/2-1/2"),
    (3, "Webb, Tom", "ENG", "GM", 2400, "1-0"),
    (4, "Bakker, Joost", "NED", "IM", 2380, "1/2-1/2"),
    (5, "Rossi, Marco", "ITA", "IM", 2370, "1-0"),
    (6, "Sousa, Rui", "POR", "IM", 2360, "1/2-1/2"),
    (7, "Girard, Luc", "FRA", "FM", 2350, "1-0"),
    (8, "Paz, Diego", "ARG", "GM", 2350, "1/2-1/2"),
    (9, "Braun, Felix", "GER", "IM", 2340, "1-0"),
    (10, "Hill, Adam", "ENG", "GM", 2400, "0-1"),
    (11, "Visser, Bram", "NED", "GM", 2393, "0-1"),
]
#: 10 games with 3 GMs, where a GM norm over 10 games needs 4 (§1.4.5b: a third, rounded up).
THREE_GMS: list[Game] = [
    (1, "Blanc, Pierre", "FRA", "GM", 2550, "1/2-1/2"),
    (2, "Braun, Felix", "GER", "IM", 2300, "1-0"),
    (3, "Webb, Tom", "ENG", "GM", 2520, "1/2-1/2"),
    (4, "Bakker, Joost", "NED", "IM", 2450, "1-0"),
    (5, "Hill, Adam", "ENG", "IM", 2389, "0-1"),
    (6, "Sousa, Rui", "POR", "IM", 2430, "1-0"),
    (7, "Girard, Luc", "FRA", "IM", 2420, "1-0"),
    (8, "Paz, Diego", "ARG", "FM", 2400, "1-0"),
    (9, "Vogel, Jan", "GER", "FM", 2400, "1-0"),
    (10, "Rossi, Marco", "ITA", "GM", 2500, "1/2-1/2"),
]


def swiss(cli: Cli, games: list[Game], federation: str = "ESP", month: str = "2026-07") -> Cli:
    """The candidate, an IM of ``federation``, plays ``games`` in the Madrid Open (July)."""
    ok(cli("player", "add", "Garcia, Luis", "--federation", federation, "--title", "IM"))
    for rnd, name, fed, title, rating, result in games:
        ok(cli("player", "add", name, "--external", "--federation", fed,
               *(["--title", title] if title else [])))  # fmt: skip
        ok(
            cli(
                "game", "add", "Garcia, Luis", name, result, "--date", f"{month}-{rnd:02d}",
                "--event", "Madrid Open", "--round", str(rnd), "--black-rating", str(rating),
                "--yes",
            )
        )  # fmt: skip
    return cli


def gm_norm(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    return norm(js(cli, "event", "show", "Madrid Open", "--norms", *args), "GM")


def left_out(gm: dict) -> list[tuple[str, str, int, float, str]]:  # type: ignore[type-arg]
    return [
        (d["round"], d["opponent"], d["rating"], d["score"], d["article"]) for d in gm["dropped"]
    ]


def test_a_win_over_an_1800_left_out_gives_a_gm_norm(cli: Cli) -> None:
    """All 11 games: Ra 2327 (one 1800 raised to 2200), 9/11 = 82%, Rp 2589: no norm.
    Leaving out one of the wins over an 1800 (§1.4.1f): 10 games, the other raised, Ra 2380,
    8/10, dp 240, Rp 2620. Leaving out both would leave 9 games (Rp 2620 too): the most games
    are kept, and of two equal sets the one leaving out the later game."""
    gm = gm_norm(swiss(cli, TWO_1800S))
    assert (gm["achieved"], gm["games"], gm["score"], gm["ra"], gm["dp"], gm["rp"]) == (
        True, 10, 8.0, 2380, 240, 2620
    )  # fmt: skip
    assert left_out(gm) == [("2", "Ruiz, Sergio", 1800, 1.0, "1.4.1f")]
    assert gm["raised"] == 1800


def test_the_first_nine_rounds_give_a_gm_norm(cli: Cli) -> None:
    """All 11 games: Ra 2383, 7/11 = 64%, Rp 2485. The first 9 rounds: Ra 2380, 7/9 = 78%,
    dp 220, Rp 2600: a title result, after which rounds 10 and 11 may be left out
    (§1.4.1e), though they were lost; not in a round robin."""
    swiss(cli, LATE_LOSSES)
    gm = gm_norm(cli)
    assert (gm["achieved"], gm["games"], gm["score"], gm["ra"], gm["rp"]) == (
        True, 9, 7.0, 2380, 2600
    )  # fmt: skip
    assert left_out(gm) == [
        ("10", "Hill, Adam", 2400, 0.0, "1.4.1e"),
        ("11", "Visser, Bram", 2393, 0.0, "1.4.1e"),
    ]
    ok(cli("event", "edit", "Madrid Open", "--type", "round-robin"))
    rr = gm_norm(cli)  # predetermined pairings: every round counts
    assert (rr["achieved"], rr["games"], rr["ra"], rr["rp"], rr["dropped"]) == (
        False, 11, 2383, 2485, []
    )  # fmt: skip


def test_a_win_left_out_lowers_the_gms_needed(cli: Cli) -> None:
    """10 games need 4 GMs (§1.4.5b): 3 played, no norm (Ra 2436, 7.5/10, Rp 2629). Leaving
    out a win (§1.4.1f) leaves 9 games, for which 3 GMs are enough: the win over the 2300
    gives the highest Rp, Ra 2451 + dp 166 (6.5/9 = 72%) = 2617."""
    gm = gm_norm(swiss(cli, THREE_GMS, "IND"))
    assert (gm["achieved"], gm["games"], gm["score"], gm["ra"], gm["rp"]) == (
        True, 9, 6.5, 2451, 2617
    )  # fmt: skip
    assert left_out(gm) == [("2", "Braun, Felix", 2300, 1.0, "1.4.1f")]
    checks = {(c["article"], c["rule"]): c["found"] for c in gm["checks"]}
    assert checks[("1.4.5b", "at least 3 of GM")] == "3"


def test_the_games_left_out_are_shown(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    swiss(cli, LATE_LOSSES)
    monkeypatch.setenv("COLUMNS", "80")
    result = ok(cli("event", "show", "Madrid Open", "--norms"))
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, result.stdout
    assert "Garcia, Luis  GM        9    7.0  2380  2600  norm" in lines
    assert (
        "Garcia, Luis  GM    10     Hill, Adam      2400    0.0  §1.4.1e: after the title" in lines
    )
    assert "games after a title result are left out as §1.4.1e allows" in result.stderr
    detail = ok(cli("event", "show", "Madrid Open", "--norms", "--player", "Garcia"))
    assert "Garcia, Luis, GM norm: p 0.78, dp 220; over 9 of 11 games" in detail.stdout


@pytest.mark.parametrize(
    ("month", "raised", "ra"), [("2026-07", 1400, 2267), ("2023-07", 1350, 2264)]
)
def test_opponents_recorded_below_1400_are_unrated(
    cli: Cli, month: str, raised: int, ra: int
) -> None:
    """From the March 2024 list no rating below 1400 exists (as the rating calculation
    reads a recorded rating): 1350 and 1380 are unrated opponents (§1.4.6d), one raised to
    the floor, the other 1400: Ra (2200 + 1400 + 7 x 2400) / 9 = 2267. Before March 2024
    they were ratings: 1350 raised, 1380 kept, (2200 + 1380 + 16800) / 9 = 2264."""
    field: list[Game] = [
        (1, "Ortiz, Pablo", "FRA", None, 1350, "1-0"),
        (2, "Ruiz, Sergio", "GER", None, 1380, "1-0"),
        *(
            (r, f"Gm{r}, A", fed, "GM", 2400, "1/2-1/2")
            for r, fed in enumerate(["ENG", "NED", "ITA", "POR", "FRA", "GER", "ARG"], 3)
        ),
    ]
    gm = gm_norm(swiss(cli, field, month=month))
    assert (gm["games"], gm["score"], gm["raised"], gm["ra"], gm["dp"]) == (9, 5.5, raised, ra, 80)
    assert gm["rp"] == ra + 80


def test_no_norm_for_a_title_held(cli: Cli) -> None:
    swiss(cli, TWO_1800S[:9])
    text = ok(cli("event", "show", "Madrid Open", "--norms")).stdout
    assert "Garcia, Luis  GM        9    7.0" in text  # an IM: only the GM norm
    ok(cli("player", "edit", "Garcia", "--title", "GM"))
    assert js(cli, "event", "show", "Madrid Open", "--norms")["players"][0]["norms"] == []
    lines = ok(cli("event", "show", "Madrid Open", "--norms")).stdout.splitlines()
    assert lines[2].split() == ["Garcia,", "Luis", "none", "to", "gain:", "holds", "GM"]


#: A 9-round Swiss: 8 games against GMs and IMs (6/8, Ra 2469), round 9 won by forfeit.
EIGHT_GAMES: list[Game] = [
    (1, "Blanc, Pierre", "FRA", "GM", 2550, "1-0"),
    (2, "Vogel, Jan", "GER", "GM", 2500, "1/2-1/2"),
    (3, "Webb, Tom", "ENG", "GM", 2480, "1-0"),
    (4, "Bakker, Joost", "NED", "IM", 2450, "1/2-1/2"),
    (5, "Rossi, Marco", "ITA", "IM", 2420, "1-0"),
    (6, "Sousa, Rui", "POR", "IM", 2400, "1/2-1/2"),
    (7, "Paz, Diego", "ARG", "GM", 2520, "1-0"),
    (8, "Braun, Felix", "GER", "IM", 2430, "1/2-1/2"),
]


@pytest.mark.parametrize(
    ("ninth", "achieved", "article"),
    [
        (("game", "add", "Garcia", "Hill, Adam", "+-"), True, "1.4.1c"),  # a forfeit win
        (("game", "add", "Garcia", "bye"), True, "1.4.1c"),  # the pairing-allocated bye
        (("game", "add", "Garcia", "bye", "1/2"), False, "1.4.1a"),  # a bye asked for
        (("game", "add", "Garcia", "Hill, Adam", "-+"), False, "1.4.1a"),  # a forfeit lost
    ],
)
def test_eight_games_of_nine_rounds_with_a_forfeit_win_or_a_pairing_bye(
    cli: Cli, ninth: tuple[str, ...], achieved: bool, article: str
) -> None:
    """§1.4.1c: in a 9-round tournament 8 games count as a 9-game norm where the round
    missing is a forfeit win or a pairing-allocated bye (6/8, Ra 2469, Rp 2662)."""
    ok(cli("event", "add", "Madrid Open", "--start", "2026-07-01", "--rounds", "9", "--type",
           "swiss"))  # fmt: skip
    swiss(cli, EIGHT_GAMES)
    ok(cli("player", "add", "Hill, Adam", "--external", "--federation", "ENG", "--title", "GM"))
    rest = ("--date", "2026-07-09", "--event", "Madrid Open", "--round", "9")
    ok(cli(*ninth, *rest, *(("--black-rating", "2400") if "Hill, Adam" in ninth else ())))
    gm = gm_norm(cli)
    assert (gm["achieved"], gm["games"], gm["ra"], gm["rp"]) == (achieved, 8, 2469, 2662)
    (games,) = [c for c in gm["checks"] if c["article"].startswith("1.4.1")]
    assert (games["article"], games["ok"]) == (article, achieved)


def test_an_unrated_opponent_scoring_zero_in_a_round_robin_is_left_out(cli: Cli) -> None:
    """§1.4.2b: the 9 games of a 10-player round robin, one against an unrated player who
    lost every game to the rated ones: not included (8 games left), in a Swiss it counts."""
    swiss(cli, EIGHT_GAMES)
    ok(cli("player", "add", "Nobody, Ned", "--external", "--federation", "ENG"))
    ok(cli("game", "add", "Garcia", "Nobody, Ned", "1-0", "--date", "2026-07-09", "--event",
           "Madrid Open", "--round", "9"))  # fmt: skip
    ok(cli("game", "add", "Blanc, Pierre", "Nobody, Ned", "1-0", "--date", "2026-07-08",
           "--event", "Madrid Open", "--round", "8", "--white-rating", "2550"))  # fmt: skip
    assert gm_norm(cli)["games"] == 9  # a Swiss: he counts, at 1400
    ok(cli("event", "edit", "Madrid Open", "--type", "round-robin"))
    gm = gm_norm(cli)
    assert (gm["games"], gm["ra"], gm["rp"]) == (8, 2469, 2662)
