"""The Glicko shadow through the CLI on a real database (SQLite, and PostgreSQL when set):
``history``, ``compare``, ``compare --all``, ``shadow set|show`` and ``evaluate`` end to end, their
JSON, tables, messages and errors.

The numbers themselves (seeding, idle growth, external opponents, presets, rerating, each
system's predictions), computed by hand with the pure engine, are checked service by service
in tests/services/shadow/test_shadow.py, compare/test_everyone.py and
compare/test_evaluate.py.
"""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest

from tests.helpers import Cli, at_list, ext, fingerprint, js, ok, one_line_error, query, shadow_rows
from tracker.ratings.glicko import glicko1
from tracker.ratings.glicko.api import new_player, rate_game
from tracker.ratings.glicko.presets import chesscom_preset

D = dt.date


# --------------------------------------------------------------------------- helpers


def add_players(cli: Cli, *players: tuple[str, int | None]) -> None:
    for name, rating in players:
        if rating is None:
            ok(cli("player", "add", name, "--external"))
        else:
            args = ("--rating", str(rating), "--games", "100", "--born", "1980")
            ok(cli("player", "add", name, *args))


def game(cli: Cli, white: str, black: str, result: str, day: str, *extra: str) -> None:
    ok(cli("game", "add", white, black, result, "--date", day, *extra))


# --------------------------------------------------------------------------- scenarios


def hart_draws_external(cli: Cli) -> None:
    """Hart (seeded 2318) draws an external 2200 on 10 January 2026; January closed."""
    add_players(cli, ("Hart", 2318), ("Ext", None))
    game(cli, "Hart", "Ext", "1/2-1/2", "2026-01-10", "--black-rating", "2200")
    ok(cli("period", "close", "2026-01"))


CLUB_GAMES = [
    ("Hart", "Ext", "1/2-1/2", "2026-01-10", ("--black-rating", "2200")),
    ("Okafor", "Lee", "1-0", "2026-01-12", ()),
    ("Lee", "Hart", "1-0", "2026-01-20", ()),
    ("Hart", "Okafor", "0-1", "2026-02-07", ()),
    ("Lee", "Ext", "1-0", "2026-02-14", ("--black-rating", "2000")),
    ("Okafor", "Hart", "1/2-1/2", "2026-03-03", ()),
]


def club(cli: Cli) -> None:
    """Three seeded players and an external over three months, all closed."""
    add_players(cli, ("Hart", 2318), ("Okafor", 2100), ("Lee", 1950), ("Ext", None))
    for white, black, result, day, extra in CLUB_GAMES:
        game(cli, white, black, result, day, *extra)
    ok(cli("period", "close", "2026-03"))


# --------------------------------------------------------------------------- history


def test_history_json_carries_the_shadow_beside_the_elo(cli: Cli) -> None:
    club(cli)
    for name in ("Hart", "Okafor", "Lee"):
        history = js(cli, "history", name)
        periods = js(cli, "compare", name)["periods"]
        assert [h["month"] for h in history] == ["2026-01", "2026-02", "2026-03"]
        for h, c in zip(history, periods, strict=True):
            assert {"glicko", "rd", "volatility", "provisional"} <= set(h)
            assert (h["glicko"], h["rd"], h["volatility"], h["provisional"]) == (
                c["glicko"],
                c["rd"],
                c["volatility"],
                c["provisional"],
            )
            assert h["rating"] == c["elo"]
    # the 2318 player seeded after 100 games starts at RD 45, never provisional ("?")
    assert [h["provisional"] for h in js(cli, "history", "Hart")] == [False, False, False]
    table = ok(cli("history", "Hart")).stdout
    assert "lichess" in table and "RD" in table
    last = js(cli, "history", "Hart")[-1]
    assert f" {math.trunc(last['glicko'])} " in table and "?" not in table
    # with the new-player RD instead (--seed-rd 500) he is provisional all along
    ok(cli("shadow", "set", "--seed-rd", "500"))
    assert [h["provisional"] for h in js(cli, "history", "Hart")] == [True, True, True]
    last = js(cli, "history", "Hart")[-1]
    assert f"{math.trunc(last['glicko'])}?" in ok(cli("history", "Hart")).stdout


# ------------------------------------------------------------------------ compare PLAYER


def test_compare_json_periods_have_the_keys_and_full_precision(cli: Cli) -> None:
    club(cli)
    out = js(cli, "compare", "Hart")
    assert out["preset"] == "lichess" and out["external_rd"] == 60.0
    periods = out["periods"]
    assert [p["month"] for p in periods] == ["2026-01", "2026-02", "2026-03"]
    hist = js(cli, "history", "Hart")
    for p, h in zip(periods, hist, strict=True):
        assert {"month", "elo", "glicko", "rd", "volatility", "provisional", "difference"} <= set(p)
        assert isinstance(p["elo"], int) and p["elo"] == h["rating"]
        assert p["difference"] == p["glicko"] - p["elo"]  # exactly, no rounding
        for key in ("glicko", "rd", "volatility", "difference"):
            assert isinstance(p[key], float)
            assert p[key] != round(p[key], 6), (key, p[key])  # full precision, not rounded
        assert p["provisional"] is (p["rd"] >= 110)
    table = cli("compare", "Hart")
    assert table.exit_code == 0
    first = periods[0]
    mark = "?" if first["provisional"] else ""
    assert f"{math.trunc(first['glicko'])}{mark} " in table.stdout
    assert f"{first['difference']:+.0f}" in table.stdout
    assert "fixed RD of 60" in table.stderr


# --------------------------------------------------------------------------- compare --all


def test_compare_all_ranks_and_flags(cli: Cli) -> None:
    add_players(cli, ("A", 2300), ("B", 2200), ("C", 2100))
    ok(cli("shadow", "set", "--seed-rd", "500"))  # new-account RDs: a shadow that moves a lot
    game(cli, "C", "A", "1-0", "2026-01-05")
    game(cli, "A", "C", "0-1", "2026-01-06")
    game(cli, "C", "B", "1-0", "2026-01-07")
    game(cli, "B", "C", "0-1", "2026-01-08")
    ok(cli("period", "close", "2026-01"))
    out = js(cli, "compare", "--all")
    assert (out["preset"], out["list"], out["stale"]) == ("lichess", "2026-02-01", False)
    players = out["players"]
    # FIDE: A -30.4 -> 2270, B -25.6 -> 2174, C +56 -> 2156; sorted by Elo
    assert [(p["name"], p["elo"]) for p in players] == [("A", 2270), ("B", 2174), ("C", 2156)]
    assert [p["elo_rank"] for p in players] == [1, 2, 3]
    # the shadow turns the order round: C won four games with RD 500
    assert [p["glicko_rank"] for p in players] == [3, 2, 1]
    assert [p["flagged"] for p in players] == [True, False, True]
    glickos = {p["name"]: p["glicko"] for p in players}
    assert glickos["C"] > glickos["B"] > glickos["A"]
    for p in players:
        assert p["difference"] == p["glicko"] - p["elo"]
        assert js(cli, "compare", p["name"])["periods"][-1]["glicko"] == p["glicko"]
    table = ok(cli("compare", "--all"))
    flagged = [line.split()[1] for line in table.stdout.splitlines() if line.endswith("<-")]
    assert flagged == ["A", "C"]
    assert "<- marks the players whose two ranks differ most" in table.stderr


# ------------------------------------------------------------------------- settings


def test_settings_survive_and_apply_to_later_periods(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    r = ok(cli("shadow", "set", "--preset", "glickman", "--seed", "fresh", "--external-rd", "80",
               "--json"))  # fmt: skip
    out = json.loads(r.stdout)
    assert (out["preset"], out["seed"], out["external_rd"]) == ("glickman", "fresh", 80.0)
    assert "recomputed" in r.stderr
    shown = js(cli, "shadow", "show")
    assert (shown["preset"], shown["seed"], shown["external_rd"]) == ("glickman", "fresh", 80.0)
    assert query(db_url, "SELECT preset, seed, external_rd FROM shadow_settings") == [
        ("glickman", "fresh", 80.0)
    ]
    # nothing changed -> nothing recomputed
    again = cli("shadow", "set", "--preset", "glickman")
    assert again.exit_code == 0 and "nothing changed" in again.stderr

    # a later period is closed with the stored settings (the numbers: tests/services)
    game(cli, "Hart", "Ext", "1-0", "2026-02-11", "--black-rating", "2200")
    ok(cli("period", "close", "2026-02"))
    ok(cli("rerate", "--from", "2026-01"))
    shown = js(cli, "shadow", "show")
    assert (shown["preset"], shown["seed"], shown["external_rd"]) == ("glickman", "fresh", 80.0)
    assert {r[2] for r in shadow_rows(db_url)} == {"glickman"}
    compared = cli("compare", "Hart", "--json")
    assert [p["month"] for p in json.loads(ok(compared).stdout)["periods"]] == [
        "2026-01",
        "2026-02",
    ]
    assert json.loads(compared.stdout)["external_rd"] == 80.0
    assert "fixed RD of 80" in ok(cli("compare", "Hart")).stderr

    table = cli("shadow", "show")
    assert table.exit_code == 0 and "glickman" in table.stdout and "80" in table.stdout


def test_chesscom_start_setting_and_its_assumptions(cli: Cli) -> None:
    add_players(cli, ("Hart", 2318), ("Ext", None))
    ok(cli("player", "add", "Newbie", "--born", "1990"))
    game(cli, "Newbie", "Ext", "1-0", "2026-01-10", "--black-rating", "1600")
    ok(cli("period", "close", "2026-01"))
    shown = js(cli, "shadow", "set", "--preset", "chesscom", "--chesscom-start", "800")
    assert shown["chesscom_start"] == 800.0
    assert any("assumption" in a.lower() or "Chess.com" in a for a in shown["assumptions"])
    (n,) = js(cli, "compare", "Newbie")["periods"]
    preset = chesscom_preset(start=800)
    after = rate_game(new_player(preset), ext(1600, 60, preset), 1.0, preset)
    by_hand = at_list(after, D(2026, 1, 10), D(2026, 2, 1), preset)
    assert (n["glicko"], n["rd"]) == (by_hand.rating, by_hand.rd)
    # Glicko-1 per game by hand: one game from 800 / 350 against 1600 / 60
    rating, rd = glicko1.update(800.0, 350.0, [(1600.0, 60.0, 1.0)])
    assert n["glicko"] == rating
    assert n["rd"] == pytest.approx(math.sqrt(rd**2 + 8.1**2 * 22))
    # Glicko-1 has no volatility: no column, null in the JSON
    assert n["volatility"] is None
    table = ok(cli("compare", "Newbie", "Hart"))
    headers = [line.split() for line in table.stdout.splitlines() if line.startswith("month")]
    assert headers == [["month", "list", "Elo", "chesscom", "RD", "difference"]] * 2
    # the assumptions: one line, once per command (here for two players)
    notes = [line for line in table.stderr.splitlines() if line.startswith("assumption:")]
    assert notes == [
        "assumption: chesscom is Chess.com-like, not Chess.com: Glicko-1, start 800, "
        "new-player RD 350, RD 30..350, c = 8.1 per day and the rest are assumed "
        "(`tracker shadow show` lists them)"
    ]
    # shadow show lists them all, on stdout, within 80 columns
    shown_text = ok(cli("shadow", "show")).stdout
    assert "assumptions:\n- Glicko-1 (Glickman's first paper)" in shown_text
    assert shown_text.count("\n- ") == len(shown["assumptions"])
    assert max(len(line) for line in shown_text.splitlines()) <= 80
    assert "assumption" not in ok(cli("shadow", "show")).stderr


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        (
            ("shadow", "set", "--preset", "elo"),
            1,
            "error: unknown preset 'elo': use lichess, glickman, chesscom",
        ),
        (("shadow", "set", "--seed", "zero"), 1, "error: unknown seeding 'zero': use elo or fresh"),
        (("shadow", "set", "--external-rd", "5"), 1, "error: external RD 5 is outside 10..500"),
        (("shadow", "set", "--external-rd", "abc"), 2, None),
        (("compare",), 2, "error: give a PLAYER or --all"),
        (("compare", "Hart", "--all"), 2, "error: give a PLAYER or --all"),
        (("compare", "--all", "--preset", "glickman"), 2, None),
        (("compare", "--all", "--online", "lichess", "--plot", "x.png"), 2, None),
        (("compare", "Hart", "--online", "fics"), 1, None),
        (
            ("compare", "Hart", "--preset", "fide"),
            1,
            "error: unknown preset 'fide': use lichess, glickman, chesscom",
        ),
        (("compare", "Nobody"), 1, None),
        (("compare", "Ext"), 1, None),
        (("compare", "Hart", "--tc", "bullet"), 1, None),
        (("evaluate", "--from", "2026-13"), 1, None),
        (("evaluate", "--tc", "blitz"), 1, None),
    ],
)
def test_errors_are_one_line_and_change_nothing(
    cli: Cli, db_url: str, args: tuple[str, ...], code: int, expected: str | None
) -> None:
    hart_draws_external(cli)
    before = fingerprint(db_url)
    shadow_before = shadow_rows(db_url)
    result = cli(*args)
    line = one_line_error(result, code)
    if expected is not None:
        assert line == expected
    assert result.stdout == ""
    assert fingerprint(db_url) == before
    assert shadow_rows(db_url) == shadow_before
    assert js(cli, "shadow", "show")["preset"] == "lichess"


# ----------------------------------------------------------------------------- evaluate


def evaluation_club(cli: Cli) -> None:
    """A 2000, B 1800 (seeded), E external; three games over two months, both closed."""
    add_players(cli, ("A", 2000), ("B", 1800), ("E", None))
    game(cli, "A", "B", "1-0", "2026-01-10")
    game(cli, "B", "E", "1/2-1/2", "2026-01-12", "--black-rating", "1900")
    game(cli, "B", "A", "1-0", "2026-02-03")
    ok(cli("period", "close", "2026-02"))


def test_evaluate_prints_every_system(cli: Cli) -> None:
    evaluation_club(cli)
    out = js(cli, "evaluate")
    assert (out["games"], out["decisive_games"]) == (3, 2)
    systems = {s["system"]: s for s in out["systems"]}
    assert [s["system"] for s in out["systems"]] == [
        "coin flip",
        "fide-elo",
        "lichess",
        "glickman",
        "chesscom",
    ]
    for s in out["systems"]:
        assert set(s) == {"system", "games", "log_loss", "brier", "accuracy"}
        assert s["games"] == 3
    coin = systems["coin flip"]
    assert coin["log_loss"] == math.log(2)
    assert (coin["brier"], coin["accuracy"]) == ((0.25 + 0 + 0.25) / 3, 0.5)
    assert (
        systems["fide-elo"]["accuracy"] == 0.5
    )  # the rest: tests/services/compare/test_evaluate.py
    table = ok(cli("evaluate")).stdout
    assert "fide-elo" in table and f"{systems['lichess']['log_loss']:.4f}" in table
    restricted = js(cli, "evaluate", "--from", "2026-02")
    assert (restricted["games"], restricted["decisive_games"]) == (1, 1)


def test_evaluate_without_closed_periods_is_an_error(cli: Cli, db_url: str) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    game(cli, "A", "B", "1-0", "2026-01-10")
    before = fingerprint(db_url)
    line = one_line_error(cli("evaluate"), 1)
    assert "close a period" in line
    assert fingerprint(db_url) == before


def test_every_shadow_output_says_externals_count_with_a_fixed_rd(cli: Cli) -> None:
    hart_draws_external(cli)
    for args in (("history", "Hart"), ("compare", "--all"), ("evaluate",)):
        result = cli(*args)
        assert result.exit_code == 0, result.stderr
        assert "fixed RD of 60" in result.stderr, args


# --------------------------------------------------------------------------- a late game


AUTUMN = [  # an open from 28 September to 3 October (rated in October); the third is late
    ("A", "B", "1-0", "2026-08-10"),
    ("C", "D", "1/2-1/2", "2026-09-12"),
    ("A", "C", "0-1", "2026-09-28", "--event", "Autumn Open", "--round", "1"),
    ("B", "D", "1-0", "2026-09-29", "--event", "Autumn Open", "--round", "2"),
    ("C", "B", "1-0", "2026-10-03", "--event", "Autumn Open", "--round", "3"),
    ("D", "A", "1-0", "2026-10-15"),
]


def test_rerate_after_a_late_game_before_its_events_month_equals_logging_on_time(
    cli: Cli, db_url: str, other_cli: Cli, other_db_url: str
) -> None:
    """A game of 29 September entered after October closed, in an open rated in October:
    `game add` makes September stale (the shadow rates the game there), and after `rerate`
    every history (Elo and shadow) and every stored shadow row equal the season logged on
    time and closed month by month."""
    players = (("A", 1800), ("B", 1900), ("C", 2000), ("D", 1700))
    for one in (cli, other_cli):
        add_players(one, *players)
    for when in ("2026-08", "2026-09", "2026-10"):
        for white, black, result, day, *extra in AUTUMN:
            if day.startswith(when):
                game(other_cli, white, black, result, day, *extra)
        ok(other_cli("period", "close", when))

    for i, (white, black, result, day, *extra) in enumerate(AUTUMN):
        if i != 3:
            game(cli, white, black, result, day, *extra)
    ok(cli("period", "close", "2026-10"))
    white, black, result, day, *extra = AUTUMN[3]
    r = ok(cli("game", "add", white, black, result, "--date", day, *extra))
    assert "closed standard periods 2026-09 to 2026-10 are now stale" in r.stderr
    status = {p["month"]: p["status"] for p in js(cli, "period", "list")}
    assert status == {"2026-08": "closed", "2026-09": "stale", "2026-10": "stale"}
    ok(cli("rerate"))

    for name, _ in players:
        assert js(cli, "history", name) == js(other_cli, "history", name)
    rows = shadow_rows(db_url)
    assert rows == shadow_rows(other_db_url)
    late = [r[:2] for r in rows if r[1] == "2026-09-29"]
    assert late == [("B", "2026-09-29"), ("D", "2026-09-29")]
