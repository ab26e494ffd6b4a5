"""``tracker forecast``: the change it gives for each score is the change a close of that
score publishes (the games added, the period closed, the history read), for a rated player,
a player near 2400, an unrated player with pending results and a period crossing the 700
rule; its distribution sums to 1; its errors are one line."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from tests.helpers import Cli, history_row, js, ok, one_line_error

RESULT = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}
START = "2026-07-10"


def split(score: float, n: int) -> list[float]:
    """One way to make ``score`` over ``n`` games (wins first)."""
    out = []
    halves = round(score * 2)
    for _ in range(n):
        take = min(2, halves)
        out.append(take / 2)
        halves -= take
    return out


def club(cli: Cli) -> None:
    """Five tracked players and an external one, a closed June (the list in force in July)."""
    for args in (
        ("Ames, Lea", "--rating", "1934", "--games", "20", "--born", "1990"),
        ("Berg, Ola", "--rating", "2090", "--games", "120", "--born", "1985"),
        ("Cruz, Ana", "--rating", "2307", "--games", "240", "--born", "1980"),
        ("Dahl, Ivo", "--rating", "2391", "--games", "300", "--born", "1975"),
        ("Eze, Tom", "--rating", "2405", "--games", "300", "--born", "1979"),
        ("Fox, Ray", "--born", "2001"),
    ):
        ok(cli("player", "add", *args))
    ok(cli("player", "add", "Guest, Kai", "--external"))
    june = [
        ("Ames, Lea", "Berg, Ola", "1/2-1/2"),
        ("Cruz, Ana", "Dahl, Ivo", "0-1"),
        ("Eze, Tom", "Berg, Ola", "1-0"),
        ("Fox, Ray", "Ames, Lea", "1-0"),
        ("Fox, Ray", "Berg, Ola", "0-1"),
        ("Fox, Ray", "Cruz, Ana", "1/2-1/2"),
    ]
    for i, (white, black, result) in enumerate(june, start=1):
        ok(cli("game", "add", white, black, result, "--date", "2026-06-06", "--event",
               "June Open", "--round", str(i)))  # fmt: skip
    ok(cli("period", "close", "2026-06"))


def forecast(cli: Cli, player: str, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = js(cli, "forecast", player, *args, "--date", START)
    return data


def add_games(cli: Cli, player: str, opponents: list[str], scores: list[float]) -> list[int]:
    """The forecast event played: ``player`` as White; a rating is the external guest with
    that rating recorded."""
    ids = []
    for i, (opp, score) in enumerate(zip(opponents, scores, strict=True), start=1):
        extra: tuple[str, ...] = ()
        if opp.isdigit():
            opp, extra = "Guest, Kai", ("--black-rating", opp)
        added = js(cli, "game", "add", player, opp, RESULT[score], "--date", START,
                   "--event", "Summer Open", "--round", str(i), *extra)  # fmt: skip
        ids.append(added["id"])
    return ids


def closes_match(cli: Cli, player: str, opponents: list[str], fc: dict[str, Any]) -> None:
    """For each score of the forecast: play it, close July, compare, take the games back.
    A score's lowest result puts its points on the games the close does not count first,
    its highest on those it counts."""
    rated = [i for i, o in enumerate(fc["opponents"]) if o["rated"]]
    others = [i for i, o in enumerate(fc["opponents"]) if not o["rated"]]
    closed = False
    for row in fc["scores"]:
        for which, order in (("high", rated + others), ("low", others + rated)):
            if which == "low" and row["low"] == row["high"]:
                continue
            want = row[which]
            scores = [0.0] * len(opponents)
            for i, score in zip(order, split(row["score"], len(opponents)), strict=True):
                scores[i] = score
            ids = add_games(cli, player, opponents, scores)
            ok(cli("rerate") if closed else cli("period", "close", "2026-07"))
            closed = True
            got = history_row(cli, player, "2026-07")
            assert got["rating"] == want["rating"], (row["score"], which, got, want)
            if want["change"] is not None:
                assert got["change_exact"] == want["change_exact"], (row["score"], which)
                assert got["change"] == want["change"]
                assert got["k"] == want["k"]
            for game_id in ids:
                ok(cli("game", "remove", str(game_id)))


def test_a_rated_players_change_for_each_score_is_the_closes(cli: Cli) -> None:
    club(cli)
    # another game of his in July, in an event that ends in July: pooled with the forecast
    ok(cli("game", "add", "Ames, Lea", "Cruz, Ana", "1-0", "--date", "2026-07-02",
           "--event", "Club Night"))  # fmt: skip
    opponents = ["Berg", "Cruz", "2150", "Fox"]  # Fox is unrated: not rated for Ames
    fc = forecast(cli, "Ames", *opponents)
    assert (fc["rating"], fc["k"], fc["k_used"], fc["other_games"]) == (1942, 40, 40, 1)
    assert [o["rated"] for o in fc["opponents"]] == [True, True, True, False]
    assert [row["score"] for row in fc["scores"]] == [x / 2 for x in range(9)]
    # a point against Fox counts nothing: 1 of 4 is +10 (a win on him) to +50 (K 40 more)
    one = fc["scores"][2]
    assert (one["low"]["change"], one["high"]["change"]) == (10, 50)
    closes_match(cli, "Ames, Lea", opponents, fc)


def test_near_2400_the_target_score_and_k_10(cli: Cli) -> None:
    club(cli)
    opponents = ["Cruz", "Eze", "2450"]
    fc = forecast(cli, "Dahl", *opponents, "--target", "2400")
    ratings = {row["score"]: row["low"]["rating"] for row in fc["scores"]}
    need = fc["target"]["score"]
    assert ratings[need] >= 2400
    assert all(r < 2400 for s, r in ratings.items() if s < need)
    next_k = {row["score"]: row["low"]["next_k"] for row in fc["scores"]}
    assert next_k[need] == 10 and all(k == 20 for s, k in next_k.items() if s < need)
    closes_match(cli, "Dahl, Ivo", opponents, fc)


def test_an_unrated_players_first_rating_for_each_score(cli: Cli) -> None:
    club(cli)  # Fox has 3 pending results from June
    opponents = ["Ames", "Berg", "Dahl"]
    fc = forecast(cli, "Fox", *opponents)
    assert fc["rating"] is None and fc["pending"] == 3
    assert all(row["low"]["initial"] is not None for row in fc["scores"])
    assert any(row["low"]["rating"] is not None for row in fc["scores"])
    closes_match(cli, "Fox, Ray", opponents, fc)


def test_the_700_rule_over_all_the_periods_games(cli: Cli) -> None:
    club(cli)
    # Fox is unrated; Ames has K 40: 16 July games of a Club League ending in July, then 3
    # forecast games: 19 x 40 > 700, K 36.
    for i in range(16):
        ok(cli("game", "add", "Ames, Lea", "Berg, Ola", RESULT[(0.0, 0.5, 1.0)[i % 3]],
               "--date", "2026-07-03", "--event", "Rapidplay", "--round", str(i + 1)))  # fmt: skip
    opponents = ["Cruz", "Berg", "2000"]
    fc = forecast(cli, "Ames", *opponents)
    assert (fc["k"], fc["k_used"], fc["other_games"]) == (40, 36, 16)
    closes_match(cli, "Ames, Lea", opponents, fc)


def test_the_distribution_sums_to_one_and_says_its_model(cli: Cli) -> None:
    club(cli)
    fc = forecast(cli, "Ames", "Berg", "Cruz", "2150", "--probabilities", "--target", "1950")
    p = fc["probabilities"]
    assert p["fitted_games"] == 3  # June's games between two rated players
    assert p["strength"] == 1942  # 1934 + 8 (a draw with Berg in June, K 40)
    total = sum((Fraction(*map(int, o["exact"].split("/"))) for o in p["outcomes"]), Fraction(0))
    assert total == 1
    reachable = {row["low"]["rating"] for row in fc["scores"]}
    assert {o["rating"] for o in p["outcomes"]} <= reachable
    given = forecast(cli, "Ames", "2090", "--probabilities", "--draw-rate", "0.25")
    assert given["probabilities"]["fitted_games"] is None
    assert given["probabilities"]["draw_rate"] == 0.25
    # D = 1942 - 2090 = -148: E = .30; P(draw) = .25 x 2 x .30 = .15, P(win) = .30 - .075;
    # K 40: a win +28, a draw +8, a loss -12
    outcomes = {o["rating"]: o["exact"] for o in given["probabilities"]["outcomes"]}
    assert outcomes == {1930: "5/8", 1950: "3/20", 1970: "9/40"}


def test_the_table_fits_80_columns(cli: Cli) -> None:
    club(cli)
    out = ok(cli("forecast", "Fox", "Ames", "Berg", "Cruz", "Dahl", "Eze", "2150", "--date",
                 START, "--target", "1800", "--probabilities")).stdout  # fmt: skip
    assert "score" in out and "next rating" in out and "draw rate c" in out
    assert max(len(line) for line in out.splitlines()) <= 80, out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("Nobody", "2150"), "no player named 'Nobody'"),
        (("Ames",), "give at least one opponent"),
        (("Ames", "ext:abc"), "bad opponent rating 'ext:abc'"),
        (("Ames", "ext:900"), "implausible opponent rating 900"),
        (("Ames", "99"), "implausible opponent rating 99"),
        (("Ames", "Guest"), "Guest, Kai is an external player"),
        (("Ames", "Ames"), "cannot play themselves"),
        (("Guest", "2000"), "Guest, Kai is an external player: tracker does not rate him"),
        (("Ames", "2000", "--date", "2026-06-20"), "the 2026-06 standard period is closed"),
        (("Ames", "2000", "--probabilities", "--draw-rate", "2"), "a draw rate lies within"),
    ],
)
def test_one_line_errors(cli: Cli, args: tuple[str, ...], message: str) -> None:
    club(cli)
    if "--date" not in args:
        args = (*args, "--date", START)
    line = one_line_error(cli("forecast", *args), 2 if message.startswith("give") else 1)
    assert message in line, line


def test_it_writes_nothing(cli: Cli) -> None:
    club(cli)
    before = json.dumps(js(cli, "period", "list"))
    ok(cli("forecast", "Ames", "Berg", "--date", START))
    assert json.dumps(js(cli, "period", "list")) == before
