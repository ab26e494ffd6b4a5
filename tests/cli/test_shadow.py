"""The Glicko shadow through the CLI on a real database (SQLite, and PostgreSQL when set).

Expected shadow values are computed by hand with the pure engine (tracker.ratings.glicko,
glicko1, fide, tested on their own), game by game in the order the issue prescribes:
seeding, idle growth since the previous game, external opponents at their recorded rating
with a fixed RD, and the list-date view (idle growth up to the first of the next month).
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

import pytest

from tests.helpers import Cli, fingerprint, js, ok, one_line_error, query
from tracker.ratings import fide, glicko, glicko1
from tracker.ratings.glicko import GlickoState

LICHESS = glicko.get_preset("lichess")
GLICKMAN = glicko.get_preset("glickman")
CHESSCOM = glicko.get_preset("chesscom")
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


SHADOW_ROWS = """
    SELECT p.name, g.played_on, h.preset, h.as_of, h.rating, h.rd, h.volatility,
           h.last_played, h.games, h.game_id IS NULL
    FROM glicko_history h JOIN players p ON p.id = h.player_id
    LEFT JOIN games g ON g.id = h.game_id
"""


def shadow_rows(url: str) -> list[tuple[Any, ...]]:
    """Every stored shadow row, with names and dates instead of ids, in a stable order."""
    out = []
    for r in query(url, SHADOW_ROWS):
        out.append(tuple(str(v) if isinstance(v, dt.date) else v for v in r))
    return sorted(out, key=repr)


def at_list(state: GlickoState, last: dt.date, list_date: dt.date, preset: Any) -> GlickoState:
    """The shadow on a list date: idle growth since the last game (per-game presets)."""
    if preset.period != "game":
        return state
    return glicko.idle(state, preset, days=(list_date - last).days)


def ext(rating: float, rd: float = 60.0, preset: Any = LICHESS) -> GlickoState:
    return GlickoState(rating, rd, preset.initial_volatility)


# --------------------------------------------------------------------------- scenarios


def hart_draws_external(cli: Cli) -> None:
    """Hart (seeded 2318) draws an external 2200 on 10 January 2026; January closed."""
    add_players(cli, ("Hart", 2318), ("Ext", None))
    game(cli, "Hart", "Ext", "1/2-1/2", "2026-01-10", "--black-rating", "2200")
    ok(cli("period", "close", "2026-01"))


def hart_by_hand(start: float, ext_rd: float = 60.0) -> tuple[GlickoState, GlickoState]:
    """(state after the game, state on the 1 February list) for hart_draws_external."""
    after = glicko.rate_game(glicko.new_player(LICHESS, start), ext(2200, ext_rd), 0.5, LICHESS)
    return after, at_list(after, D(2026, 1, 10), D(2026, 2, 1), LICHESS)


CLUB_GAMES = [
    ("Hart", "Ext", "1/2-1/2", "2026-01-10", ("--black-rating", "2200")),
    ("Okafor", "Lee", "1-0", "2026-01-12", ()),
    ("Lee", "Hart", "1-0", "2026-01-20", ()),
    ("Hart", "Okafor", "0-1", "2026-02-07", ()),
    ("Lee", "Ext", "1-0", "2026-02-14", ("--black-rating", "2000")),
    ("Okafor", "Hart", "1/2-1/2", "2026-03-03", ()),
]


def club(cli: Cli, skip: int | None = None) -> None:
    """Three seeded players and an external over three months, all closed."""
    add_players(cli, ("Hart", 2318), ("Okafor", 2100), ("Lee", 1950), ("Ext", None))
    for i, (white, black, result, day, extra) in enumerate(CLUB_GAMES):
        if i != skip:
            game(cli, white, black, result, day, *extra)
    ok(cli("period", "close", "2026-03"))


# ------------------------------------------------------------------- stored at period close


def test_the_shadow_is_stored_when_a_period_closes(cli: Cli, db_url: str) -> None:
    add_players(cli, ("Hart", 2318), ("Ext", None))
    game(cli, "Hart", "Ext", "1/2-1/2", "2026-01-10", "--black-rating", "2200")
    assert js(cli, "compare", "Hart")["periods"] == []
    assert query(db_url, "SELECT COUNT(*) FROM glicko_history") == [(0,)]

    ok(cli("period", "close", "2026-01"))
    after, on_list = hart_by_hand(2318)
    stored = shadow_rows(db_url)
    assert stored == sorted(
        [
            # the row after the game, and the month-end snapshot
            ("Hart", "2026-01-10", "lichess", "2026-01-10", after.rating, after.rd,
             after.volatility, "2026-01-10", 1, False),
            ("Hart", None, "lichess", "2026-01-31", after.rating, after.rd,
             after.volatility, "2026-01-10", 1, True),
        ],
        key=repr,
    )  # fmt: skip
    (jan,) = js(cli, "compare", "Hart")["periods"]
    assert (jan["glicko"], jan["rd"], jan["volatility"]) == (
        on_list.rating,
        on_list.rd,
        on_list.volatility,
    )
    assert jan["rd"] > after.rd  # 22 idle days to the list of 1 February

    # February: the stored January state grows for 24 days before the next game.
    game(cli, "Hart", "Ext", "0-1", "2026-02-03", "--black-rating", "2200")
    ok(cli("period", "close", "2026-02"))
    grown = glicko.idle(after, LICHESS, days=24)
    feb_after = glicko.rate_game(grown, ext(2200), 0.0, LICHESS)
    feb_list = at_list(feb_after, D(2026, 2, 3), D(2026, 3, 1), LICHESS)
    jan2, feb = js(cli, "compare", "Hart")["periods"]
    assert jan2 == jan
    assert (feb["glicko"], feb["rd"], feb["volatility"]) == (
        feb_list.rating,
        feb_list.rd,
        feb_list.volatility,
    )
    ends = query(
        db_url,
        "SELECT as_of, games FROM glicko_history WHERE game_id IS NULL ORDER BY as_of",
    )
    assert [(str(d), n) for d, n in ends] == [("2026-01-31", 1), ("2026-02-28", 2)]


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
    # the seeded 2318 player whose RD started at 500 is still provisional ("?")
    assert [h["provisional"] for h in js(cli, "history", "Hart")] == [True, True, True]
    table = ok(cli("history", "Hart")).stdout
    assert "lichess" in table and "RD" in table
    last = js(cli, "history", "Hart")[-1]
    assert f"{math.trunc(last['glicko'])}?" in table


def test_history_shows_the_shadow_of_a_month_without_games(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    # A player listed on the next list without games has a month-end row: still carried.
    game(cli, "Ext", "Hart", "1-0", "2026-03-05", "--white-rating", "2200")
    ok(cli("period", "close", "2026-03"))
    history = js(cli, "history", "Hart")
    assert [h["month"] for h in history] == ["2026-01", "2026-02", "2026-03"]
    after, _ = hart_by_hand(2318)
    feb = history[1]
    # February: no game, the state of 10 January seen on 1 March
    expected = at_list(after, D(2026, 1, 10), D(2026, 3, 1), LICHESS)
    assert (feb["glicko"], feb["rd"]) == (expected.rating, expected.rd)


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
    assert f"{math.trunc(first['glicko'])}?" in table.stdout
    assert f"{first['difference']:+.0f}" in table.stdout
    assert "fixed RD of 60" in table.stderr


def test_compare_preset_is_computed_on_the_fly_and_equals_what_set_stores(
    cli: Cli, db_url: str
) -> None:
    club(cli)
    lichess = js(cli, "compare", "Hart")
    glickman = js(cli, "compare", "Hart", "--preset", "glickman")
    chesscom = js(cli, "compare", "Hart", "--preset", "chesscom")
    assert glickman["preset"] == "glickman" and chesscom["preset"] == "chesscom"
    for other in (glickman, chesscom):
        assert [p["elo"] for p in other["periods"]] == [p["elo"] for p in lichess["periods"]]
        assert [p["glicko"] for p in other["periods"]] != [p["glicko"] for p in lichess["periods"]]
    assert all(p["provisional"] is False for p in glickman["periods"])  # no "?" in the paper
    # on the fly: nothing stored changes
    assert {r[2] for r in shadow_rows(db_url)} == {"lichess"}

    ok(cli("shadow", "set", "--preset", "glickman"))
    assert js(cli, "compare", "Hart") == glickman
    assert {r[2] for r in shadow_rows(db_url)} == {"glickman"}
    # monthly preset: month-end rows only
    assert all(r[-1] for r in shadow_rows(db_url))
    assert js(cli, "compare", "Hart", "--preset", "lichess") == lichess

    ok(cli("shadow", "set", "--preset", "chesscom"))
    assert js(cli, "compare", "Hart") == chesscom
    assert js(cli, "compare", "Hart", "--preset", "glickman") == glickman


def test_glickman_compare_by_hand(cli: Cli) -> None:
    """One month, Glickman's preset: one rating period from the seeds, no idle growth."""
    hart_draws_external(cli)
    add_players(cli, ("Lee", 1950))
    game(cli, "Lee", "Hart", "1-0", "2026-02-20")
    game(cli, "Hart", "Lee", "1/2-1/2", "2026-02-21")
    ok(cli("period", "close", "2026-02"))
    jan, feb = js(cli, "compare", "Hart", "--preset", "glickman")["periods"]
    hart0 = glicko.new_player(GLICKMAN, 2318)
    hart1 = glicko.rate_period(hart0, [(ext(2200, 60, GLICKMAN), 0.5)], GLICKMAN)
    assert (jan["glicko"], jan["rd"], jan["volatility"]) == (
        hart1.rating,
        hart1.rd,
        hart1.volatility,
    )
    # Lee's first game is in February: seeded at his Elo on the February list (1950)
    lee0 = glicko.new_player(GLICKMAN, 1950)
    hart2 = glicko.rate_period(hart1, [(lee0, 0.0), (lee0, 0.5)], GLICKMAN)
    assert (feb["glicko"], feb["rd"], feb["volatility"]) == (
        hart2.rating,
        hart2.rd,
        hart2.volatility,
    )


# --------------------------------------------------------------------------- compare --all


def test_compare_all_ranks_and_flags(cli: Cli) -> None:
    add_players(cli, ("A", 2300), ("B", 2200), ("C", 2100))
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


def test_compare_all_flags_only_the_widest_gap(cli: Cli) -> None:
    add_players(cli, ("A", 2300), ("B", 2200), ("C", 2100), ("D", 2000))
    game(cli, "D", "A", "1-0", "2026-01-05")
    game(cli, "A", "D", "0-1", "2026-01-06")
    game(cli, "B", "C", "1/2-1/2", "2026-01-07")
    ok(cli("period", "close", "2026-01"))
    players = js(cli, "compare", "--all")["players"]
    gaps = {p["name"]: abs(p["elo_rank"] - p["glicko_rank"]) for p in players}
    widest = max(gaps.values())
    assert widest >= 2
    assert {p["name"] for p in players if p["flagged"]} == {
        n for n, g in gaps.items() if g == widest
    }
    assert not all(p["flagged"] for p in players)


def test_compare_all_without_periods_is_empty(cli: Cli) -> None:
    add_players(cli, ("A", 2300))
    out = js(cli, "compare", "--all")
    assert out["players"] == [] and out["list"] is None


# --------------------------------------------------------------------------------- seeding


def test_seed_elo_starts_from_the_seeded_rating_and_fresh_from_1500(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    (jan,) = js(cli, "compare", "Hart")["periods"]
    _, on_list = hart_by_hand(2318)
    assert (jan["glicko"], jan["rd"], jan["volatility"]) == (
        on_list.rating,
        on_list.rd,
        on_list.volatility,
    )
    # a draw against a lower-rated opponent costs points from 2318 with RD 500
    assert 2200 < jan["glicko"] < 2318
    assert js(cli, "shadow", "show")["seed"] == "elo"

    out = cli("shadow", "set", "--seed", "fresh")
    assert out.exit_code == 0 and "recomputed" in out.stderr
    (fresh,) = js(cli, "compare", "Hart")["periods"]
    after_f, on_list_f = hart_by_hand(1500)
    assert (fresh["glicko"], fresh["rd"], fresh["volatility"]) == (
        on_list_f.rating,
        on_list_f.rd,
        on_list_f.volatility,
    )
    assert 1500 < fresh["glicko"] < 2200  # from 1500, a draw with a 2200 gains a lot
    # the Elo does not care: PD 0.66 for a 118-point edge, 20 x -0.16 = -3.2 -> 2315
    assert fresh["elo"] == jan["elo"] == 2315
    game_rows = [r for r in shadow_rows(db_url) if not r[-1]]
    assert [(r[4], r[5]) for r in game_rows] == [(after_f.rating, after_f.rd)]

    ok(cli("shadow", "set", "--seed", "elo"))
    assert js(cli, "compare", "Hart")["periods"] == [jan]


def test_unrated_player_is_seeded_fresh_even_with_seed_elo(cli: Cli) -> None:
    add_players(cli, ("Okafor", 2100))
    ok(cli("player", "add", "Newbie", "--born", "1990"))
    game(cli, "Newbie", "Okafor", "0-1", "2026-01-12")
    ok(cli("period", "close", "2026-01"))
    new = glicko.new_player(LICHESS)
    oka = glicko.new_player(LICHESS, 2100)
    newbie = glicko.rate_game(new, oka, 0.0, LICHESS)
    okafor = glicko.rate_game(oka, new, 1.0, LICHESS)
    (n,) = js(cli, "compare", "Newbie")["periods"]
    (o,) = js(cli, "compare", "Okafor")["periods"]
    assert n["elo"] is None and n["difference"] is None
    assert n["glicko"] == at_list(newbie, D(2026, 1, 12), D(2026, 2, 1), LICHESS).rating
    assert o["glicko"] == at_list(okafor, D(2026, 1, 12), D(2026, 2, 1), LICHESS).rating


# ------------------------------------------------------------------------- external RD


def test_external_rd_default_60_and_set_external_rd_100(cli: Cli) -> None:
    hart_draws_external(cli)
    assert js(cli, "shadow", "show")["external_rd"] == 60.0
    (rd60,) = js(cli, "compare", "Hart")["periods"]
    assert rd60["glicko"] == hart_by_hand(2318, 60.0)[1].rating

    ok(cli("shadow", "set", "--external-rd", "100"))
    assert js(cli, "shadow", "show")["external_rd"] == 100.0
    out = js(cli, "compare", "Hart")
    assert out["external_rd"] == 100.0
    (rd100,) = out["periods"]
    _, by_hand = hart_by_hand(2318, 100.0)
    assert (rd100["glicko"], rd100["rd"]) == (by_hand.rating, by_hand.rd)
    assert rd100["glicko"] != pytest.approx(rd60["glicko"], abs=0.5)
    assert "fixed RD of 100" in cli("compare", "Hart").stderr


# ----------------------------------------------------------------------------- rerate


def test_rerate_recomputes_the_shadow_like_logging_the_game_on_time(
    cli: Cli, db_url: str, other_cli: Cli, other_db_url: str
) -> None:
    on_time, on_time_url = other_cli, other_db_url
    club(on_time)
    # the same club, the 12 January game forgotten, then logged after the periods closed
    club(cli, skip=1)
    white, black, result, day, extra = CLUB_GAMES[1]
    names = ("Hart", "Okafor", "Lee")
    before = {n: js(cli, "compare", n) for n in names}
    assert before != {n: js(on_time, "compare", n) for n in names}
    game(cli, white, black, result, day, *extra)
    assert js(cli, "compare", "Lee") == before["Lee"]  # stale: nothing recomputed yet

    ok(cli("rerate"))
    for n in names:
        assert js(cli, "compare", n) == js(on_time, "compare", n)
        assert js(cli, "history", n) == js(on_time, "history", n)
    assert js(cli, "compare", "--all") == js(on_time, "compare", "--all")
    assert shadow_rows(db_url) == shadow_rows(on_time_url)
    # the same games, predicted the same way (summed in another order: the last bit may move)
    late, timely = js(cli, "evaluate"), js(on_time, "evaluate")
    assert late["games"] == timely["games"] == 6
    for a, b in zip(late["systems"], timely["systems"], strict=True):
        assert (a["system"], a["games"], a["accuracy"]) == (b["system"], b["games"], b["accuracy"])
        assert a["log_loss"] == pytest.approx(b["log_loss"], rel=1e-12)
        assert a["brier"] == pytest.approx(b["brier"], rel=1e-12)


def test_rerate_after_removing_a_game_drops_its_shadow(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    game(cli, "Hart", "Ext", "1-0", "2026-01-25", "--black-rating", "2200")
    ok(cli("rerate"))
    (two,) = js(cli, "compare", "Hart")["periods"]
    gid = query(db_url, "SELECT id FROM games WHERE played_on = '2026-01-25'")[0][0]
    ok(cli("game", "remove", str(gid)))
    ok(cli("rerate"))
    (one,) = js(cli, "compare", "Hart")["periods"]
    assert one["glicko"] == hart_by_hand(2318)[1].rating != two["glicko"]
    assert len([r for r in shadow_rows(db_url) if not r[-1]]) == 1


# ------------------------------------------------------------------------- settings


def test_settings_survive_and_apply_to_later_periods(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    out = js(cli, "shadow", "set", "--preset", "glickman", "--seed", "fresh", "--external-rd", "80")
    assert (out["preset"], out["seed"], out["external_rd"]) == ("glickman", "fresh", 80.0)
    shown = js(cli, "shadow", "show")
    assert (shown["preset"], shown["seed"], shown["external_rd"]) == ("glickman", "fresh", 80.0)
    assert query(db_url, "SELECT preset, seed, external_rd FROM shadow_settings") == [
        ("glickman", "fresh", 80.0)
    ]
    # nothing changed -> nothing recomputed
    again = cli("shadow", "set", "--preset", "glickman")
    assert again.exit_code == 0 and "nothing changed" in again.stderr

    # a later period is closed with the stored settings
    game(cli, "Hart", "Ext", "1-0", "2026-02-11", "--black-rating", "2200")
    ok(cli("period", "close", "2026-02"))
    ok(cli("rerate", "--from", "2026-01"))
    shown = js(cli, "shadow", "show")
    assert (shown["preset"], shown["seed"], shown["external_rd"]) == ("glickman", "fresh", 80.0)
    assert {r[2] for r in shadow_rows(db_url)} == {"glickman"}
    hart0 = glicko.new_player(GLICKMAN)  # fresh: 1500 / 350 / 0.06
    x = ext(2200, 80, GLICKMAN)
    hart1 = glicko.rate_period(hart0, [(x, 0.5)], GLICKMAN)
    hart2 = glicko.rate_period(hart1, [(x, 1.0)], GLICKMAN)
    jan, feb = js(cli, "compare", "Hart")["periods"]
    assert (jan["glicko"], feb["glicko"], feb["rd"]) == (hart1.rating, hart2.rating, hart2.rd)

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
    preset = glicko.chesscom_preset(start=800)
    after = glicko.rate_game(glicko.new_player(preset), ext(1600, 60, preset), 1.0, preset)
    by_hand = at_list(after, D(2026, 1, 10), D(2026, 2, 1), preset)
    assert (n["glicko"], n["rd"]) == (by_hand.rating, by_hand.rd)
    # Glicko-1 per game by hand: one game from 800 / 350 against 1600 / 60
    rating, rd = glicko1.update(800.0, 350.0, [(1600.0, 60.0, 1.0)])
    assert n["glicko"] == rating
    assert n["rd"] == pytest.approx(math.sqrt(rd**2 + 8.1**2 * 22))
    assert "assumption" in cli("compare", "Newbie").stderr


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
        (("compare", "--all", "--plot", "x.png"), 2, None),
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


OUTCOMES = [1.0, 0.5, 1.0]  # White's score in the three games


def log_loss(predictions: list[float], outcomes: list[float]) -> float:
    total = 0.0
    for p, o in zip(predictions, outcomes, strict=True):
        q = min(max(p, 0.01), 0.99)
        total -= o * math.log(q) + (1 - o) * math.log(1 - q)
    return total / len(predictions)


def brier(predictions: list[float], outcomes: list[float]) -> float:
    return sum((p - o) ** 2 for p, o in zip(predictions, outcomes, strict=True)) / len(outcomes)


def accuracy(predictions: list[float], outcomes: list[float]) -> float | None:
    calls = [
        0.5 if p == 0.5 else float((p > 0.5) == (o == 1.0))
        for p, o in zip(predictions, outcomes, strict=True)
        if o != 0.5
    ]
    return sum(calls) / len(calls) if calls else None


def fide_predictions(cli: Cli) -> list[float]:
    """White's expected score from table 8.1.2 and the ratings on the list in force."""
    (a_jan, _) = js(cli, "history", "A")
    b_jan = js(cli, "history", "B")[0]
    # the February list: A beat B (PD 0.76, +4.8 -> 2005); B -4.8 + 2.8 -> -2.0 -> 1798
    assert (a_jan["rating"], b_jan["rating"]) == (2005, 1798)
    jan = fide.rules_for("standard", D(2026, 1, 10))
    feb = fide.rules_for("standard", D(2026, 2, 3))
    p = [
        fide.expected_score(2000, 1800, jan),
        fide.expected_score(1800, 1900, jan),
        fide.expected_score(1798, 2005, feb),
    ]
    assert p[:2] == [Decimal("0.76"), Decimal("0.36")]
    return [float(x) for x in p]


def lichess_predictions() -> list[float]:
    a0, b0 = glicko.new_player(LICHESS, 2000), glicko.new_player(LICHESS, 1800)
    x = ext(1900)
    p1 = glicko.expected_score(a0, b0, LICHESS)
    a1, b1 = glicko.rate_game(a0, b0, 1.0, LICHESS), glicko.rate_game(b0, a0, 0.0, LICHESS)
    b1 = glicko.idle(b1, LICHESS, days=2)
    p2 = glicko.expected_score(b1, x, LICHESS)
    b2 = glicko.rate_game(b1, x, 0.5, LICHESS)
    p3 = glicko.expected_score(
        glicko.idle(b2, LICHESS, days=22), glicko.idle(a1, LICHESS, days=24), LICHESS
    )
    return [p1, p2, p3]


def glickman_predictions() -> list[float]:
    a0, b0 = glicko.new_player(GLICKMAN, 2000), glicko.new_player(GLICKMAN, 1800)
    x = ext(1900, 60, GLICKMAN)
    p1 = glicko.expected_score(a0, b0, GLICKMAN)
    p2 = glicko.expected_score(b0, x, GLICKMAN)
    a1 = glicko.rate_period(a0, [(b0, 1.0)], GLICKMAN)
    b1 = glicko.rate_period(b0, [(a0, 0.0), (x, 0.5)], GLICKMAN)
    return [p1, p2, glicko.expected_score(b1, a1, GLICKMAN)]


def chesscom_predictions() -> list[float]:
    # Glicko-1 by hand: 350 start RD, c = 8.1 per day, both RDs in the expectation
    a, b, x = (2000.0, 350.0), (1800.0, 350.0), (1900.0, 60.0)
    p1 = glicko1.expected_game(*a, *b)
    a1 = glicko1.update(*a, [(*b, 1.0)])
    b1 = glicko1.update(*b, [(*a, 0.0)])
    b1 = (b1[0], math.sqrt(b1[1] ** 2 + 8.1**2 * 2))
    p2 = glicko1.expected_game(*b1, *x)
    b2 = glicko1.update(*b1, [(*x, 0.5)])
    b2 = (b2[0], math.sqrt(b2[1] ** 2 + 8.1**2 * 22))
    a1 = (a1[0], math.sqrt(a1[1] ** 2 + 8.1**2 * 24))
    return [p1, p2, glicko1.expected_game(*b2, *a1)]


def test_evaluate_scores_every_system_against_hand_computed_predictions(cli: Cli) -> None:
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

    for name, predictions in (
        ("fide-elo", fide_predictions(cli)),
        ("lichess", lichess_predictions()),
        ("glickman", glickman_predictions()),
        ("chesscom", chesscom_predictions()),
    ):
        got = systems[name]
        assert got["log_loss"] == pytest.approx(log_loss(predictions, OUTCOMES), rel=1e-12), name
        assert got["brier"] == pytest.approx(brier(predictions, OUTCOMES), rel=1e-12), name
        assert got["accuracy"] == accuracy(predictions, OUTCOMES), name

    # FIDE by hand: 0.76 (won), 0.36 (drawn), B 1798 v A 2005 (won by the underdog)
    p3 = fide_predictions(cli)[2]
    assert p3 < 0.5
    assert systems["fide-elo"]["accuracy"] == 0.5
    assert systems["fide-elo"]["log_loss"] == pytest.approx(
        -(math.log(0.76) + 0.5 * math.log(0.36) + 0.5 * math.log(0.64) + math.log(p3)) / 3
    )
    assert systems["fide-elo"]["brier"] == pytest.approx((0.24**2 + 0.14**2 + (1 - p3) ** 2) / 3)
    table = ok(cli("evaluate")).stdout
    assert "fide-elo" in table and f"{systems['lichess']['log_loss']:.4f}" in table


def test_evaluate_from_restricts_the_scored_games(cli: Cli) -> None:
    evaluation_club(cli)
    out = js(cli, "evaluate", "--from", "2026-02")
    assert (out["games"], out["decisive_games"]) == (1, 1)
    systems = {s["system"]: s for s in out["systems"]}
    assert all(s["games"] == 1 for s in out["systems"])
    assert systems["coin flip"]["log_loss"] == math.log(2)
    # still predicted from the whole replay: the shadow remembers January
    for name, predictions in (
        ("fide-elo", fide_predictions(cli)),
        ("lichess", lichess_predictions()),
        ("glickman", glickman_predictions()),
        ("chesscom", chesscom_predictions()),
    ):
        p = predictions[2]
        assert systems[name]["log_loss"] == pytest.approx(-math.log(min(max(p, 0.01), 0.99)))
        assert systems[name]["brier"] == pytest.approx((1 - p) ** 2)
    # nothing left to score from March on: an error, never January's games
    assert "no rated standard games" in one_line_error(cli("evaluate", "--from", "2026-03"), 1)


def test_evaluate_leaves_out_games_with_an_unrated_side(cli: Cli) -> None:
    evaluation_club(cli)
    ok(cli("player", "add", "Newbie", "--born", "1990"))
    game(cli, "Newbie", "A", "0-1", "2026-01-20")
    ok(cli("rerate"))
    assert js(cli, "evaluate")["games"] == 3


def test_evaluate_without_closed_periods_is_an_error(cli: Cli, db_url: str) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    game(cli, "A", "B", "1-0", "2026-01-10")
    before = fingerprint(db_url)
    line = one_line_error(cli("evaluate"), 1)
    assert "close a period" in line
    assert fingerprint(db_url) == before


def test_coin_flip_log_loss_is_exactly_ln2_for_a_bigger_pool(cli: Cli) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    for day in range(1, 31):
        game(cli, "A", "B", "1-0", f"2026-01-{day:02d}")
    ok(cli("period", "close", "2026-01"))
    coin = js(cli, "evaluate")["systems"][0]
    assert coin["games"] == 30
    assert coin["log_loss"] == math.log(2)


def test_fide_prediction_uses_the_list_in_force_when_the_event_started(cli: Cli) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    game(cli, "A", "B", "1-0", "2026-01-10")
    # an event that starts on 31 January and has its second round in February
    game(cli, "B", "A", "0-1", "2026-01-31", "--event", "Winter", "--round", "1")
    game(cli, "A", "B", "0-1", "2026-02-02", "--event", "Winter", "--round", "2")
    ok(cli("period", "close", "2026-02"))
    a_jan = js(cli, "history", "A")[0]
    assert a_jan["rating"] == 2010  # +4.8 +4.8 -> +10 on the February list
    jan = fide.rules_for("standard", D(2026, 1, 31))
    p = [
        float(fide.expected_score(2000, 1800, jan)),
        float(fide.expected_score(1800, 2000, jan)),
        float(fide.expected_score(2000, 1800, jan)),  # January list, not 2010 v 1790
    ]
    assert p == [0.76, 0.24, 0.76]
    assert float(fide.expected_score(2010, 1790, jan)) == 0.78  # what the February list says
    systems = {s["system"]: s for s in js(cli, "evaluate")["systems"]}
    outcomes = [1.0, 0.0, 0.0]
    assert systems["fide-elo"]["log_loss"] == pytest.approx(log_loss(p, outcomes), rel=1e-12)
    assert systems["fide-elo"]["brier"] == pytest.approx(brier(p, outcomes), rel=1e-12)
    assert systems["fide-elo"]["accuracy"] == pytest.approx(2 / 3)


def test_forfeits_do_not_move_the_shadow(cli: Cli, db_url: str) -> None:
    hart_draws_external(cli)
    add_players(cli, ("Lee", 1950))
    game(cli, "Hart", "Lee", "+-", "2026-02-05")
    ok(cli("game", "add", "--date", "2026-02-06", "--", "Lee", "Hart", "-+"))
    ok(cli("period", "close", "2026-02"))
    after, _ = hart_by_hand(2318)
    _, feb = js(cli, "compare", "Hart")["periods"]
    expected = at_list(after, D(2026, 1, 10), D(2026, 3, 1), LICHESS)
    assert (feb["glicko"], feb["rd"]) == (expected.rating, expected.rd)
    assert js(cli, "compare", "Lee")["periods"][-1]["glicko"] is None
    assert len([r for r in shadow_rows(db_url) if not r[-1]]) == 1  # only the January game


def test_games_the_same_day_follow_the_order_they_were_entered(cli: Cli) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    game(cli, "A", "B", "1-0", "2026-01-10", "--round", "1")
    game(cli, "B", "A", "1-0", "2026-01-10", "--round", "2")
    ok(cli("period", "close", "2026-01"))
    a, b = glicko.new_player(LICHESS, 2000), glicko.new_player(LICHESS, 1800)
    a, b = glicko.rate_game(a, b, 1.0, LICHESS), glicko.rate_game(b, a, 0.0, LICHESS)
    a, b = glicko.rate_game(a, b, 0.0, LICHESS), glicko.rate_game(b, a, 1.0, LICHESS)
    (row,) = js(cli, "compare", "A")["periods"]
    by_hand = at_list(a, D(2026, 1, 10), D(2026, 2, 1), LICHESS)
    assert (row["glicko"], row["rd"]) == (by_hand.rating, by_hand.rd)


def test_each_time_control_has_its_own_shadow_and_set_recomputes_all(cli: Cli, db_url: str) -> None:
    add_players(cli, ("A", 2000), ("B", 1800))
    game(cli, "A", "B", "1-0", "2026-01-10")
    game(cli, "B", "A", "1-0", "2026-01-11", "--tc", "rapid")
    ok(cli("period", "close", "2026-01"))
    ok(cli("period", "close", "2026-01", "--tc", "rapid"))
    a, b = glicko.new_player(LICHESS, 2000), glicko.new_player(LICHESS, 1800)
    standard = at_list(glicko.rate_game(a, b, 1.0, LICHESS), D(2026, 1, 10), D(2026, 2, 1), LICHESS)
    # rapid: unrated in rapid, so the standard rating seeds it (Rapid & Blitz 7.2.1)
    rapid = at_list(glicko.rate_game(a, b, 0.0, LICHESS), D(2026, 1, 11), D(2026, 2, 1), LICHESS)
    assert js(cli, "compare", "A")["periods"][0]["glicko"] == standard.rating
    assert js(cli, "compare", "A", "--tc", "rapid")["periods"][0]["glicko"] == rapid.rating
    assert js(cli, "history", "A", "--tc", "rapid")[0]["glicko"] == rapid.rating

    ok(cli("shadow", "set", "--preset", "glickman"))
    assert {r[2] for r in shadow_rows(db_url)} == {"glickman"}
    a, b = glicko.new_player(GLICKMAN, 2000), glicko.new_player(GLICKMAN, 1800)
    rapid_g = glicko.rate_period(a, [(b, 0.0)], GLICKMAN)
    assert js(cli, "compare", "A", "--tc", "rapid")["periods"][0]["glicko"] == rapid_g.rating


def test_a_seeded_player_without_games_has_no_shadow_yet(cli: Cli) -> None:
    hart_draws_external(cli)
    add_players(cli, ("Okafor", 2100))
    ok(cli("rerate"))
    (row,) = js(cli, "history", "Okafor")
    assert row["rating"] == 2100
    assert all(row[k] is None for k in ("glicko", "rd", "volatility", "provisional"))
    players = {p["name"]: p for p in js(cli, "compare", "--all")["players"]}
    assert players["Okafor"]["glicko"] is None and players["Okafor"]["glicko_rank"] is None
    assert players["Okafor"]["elo_rank"] == 2 and players["Hart"]["elo_rank"] == 1


def test_every_shadow_output_says_externals_count_with_a_fixed_rd(cli: Cli) -> None:
    hart_draws_external(cli)
    for args in (("history", "Hart"), ("compare", "--all"), ("evaluate",)):
        result = cli(*args)
        assert result.exit_code == 0, result.stderr
        assert "fixed RD of 60" in result.stderr, args
