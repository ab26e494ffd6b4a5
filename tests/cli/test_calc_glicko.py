"""``tracker calc glicko``: the worked examples through the CLI, no database.

Reference numbers: tests/ratings/data/worked-examples.md (Glicko-2, Glicko-1: Glickman's papers,
Lichess's calculator tests and its idle-growth constant).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from tracker.cli.app import app
from tracker.ratings.glicko import glicko1

runner = CliRunner()

PAPER_GAMES = ("1400/30:1", "1550/100:0", "1700/300:0")
JSON_KEYS = {"rating", "rd", "volatility", "provisional", "display"}


def run(*args: str) -> Result:
    return runner.invoke(app, ["calc", "glicko", *args])


def calc(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    assert set(out) >= JSON_KEYS
    return out


def test_glickmans_example_as_one_period() -> None:
    out = calc("1500", "200", "0.06", *PAPER_GAMES, "--preset", "glickman")
    assert out["rating"] == pytest.approx(1464.06, abs=0.01)
    assert out["rd"] == pytest.approx(151.52, abs=0.01)
    assert out["volatility"] == pytest.approx(0.05999, abs=1e-5)
    # full precision in JSON (the reference code's 1464.0507 / 151.5165 / 0.0599960)
    assert out["rating"] == pytest.approx(1464.0507, abs=1e-4)
    assert out["rd"] == pytest.approx(151.5165, abs=1e-4)
    assert out["volatility"] == pytest.approx(0.0599960, abs=1e-7)
    assert out["rating"] != round(out["rating"], 4)
    assert (out["provisional"], out["display"]) == (False, "1464")


def test_glickman_order_of_the_games_does_not_matter() -> None:
    a = calc("1500", "200", "0.06", *PAPER_GAMES, "--preset", "glickman")
    b = calc("1500", "200", "0.06", *reversed(PAPER_GAMES), "--preset", "glickman")
    assert a["rating"] == pytest.approx(b["rating"], abs=1e-9)
    assert a["rd"] == pytest.approx(b["rd"], abs=1e-9)


def test_lichess_one_game_between_new_players() -> None:
    out = calc("1500", "500", "0.09", "1500/500:1")
    assert out["rating"] == pytest.approx(1741.48, abs=0.01)
    assert out["rd"] == pytest.approx(396.69, abs=0.01)
    assert out["volatility"] == pytest.approx(0.0899983, abs=1e-7)
    assert out["provisional"] is True
    assert out["display"] == "1741?"
    loser = calc("1500", "500", "0.09", "1500/500:0")
    assert loser["rating"] == pytest.approx(1258.52, abs=0.01)
    assert loser["rd"] == pytest.approx(396.69, abs=0.01)
    assert loser["display"] == "1258?"  # truncated, like Lichess's intRating


def test_lichess_table_view_rounds_only_for_display() -> None:
    result = run("1500", "500", "0.09", "1500/500:1")
    assert result.exit_code == 0, result.stderr
    assert "1741.48" in result.stdout and "396.69" in result.stdout
    assert "shown as 1741?" in result.stdout
    assert "0.089998" in result.stdout
    assert "1741.4758" not in result.stdout


def test_tau_075_with_glickmans_start() -> None:
    # the lichess preset's tau is 0.75 already; --tau 0.75 must give the same
    for extra in ((), ("--tau", "0.75")):
        out = calc("1500", "350", "0.06", "1500/350:1", *extra)
        assert out["rating"] == pytest.approx(1662.21, abs=0.01)
        assert out["rd"] == pytest.approx(290.23, abs=0.01)
        assert out["volatility"] == pytest.approx(0.0599993, abs=1e-7)
        assert out["display"] == "1662?"


def test_tau_changes_the_volatility_of_a_surprise() -> None:
    upsets = ["2100/50:1"] * 8  # eight wins against players 600 points higher
    low = calc("1500", "50", "0.06", *upsets, "--preset", "glickman", "--tau", "0.3")
    high = calc("1500", "50", "0.06", *upsets, "--preset", "glickman", "--tau", "1.2")
    default = calc("1500", "50", "0.06", *upsets, "--preset", "glickman")  # tau 0.5
    assert high["volatility"] > default["volatility"] > low["volatility"] > 0.06
    assert high["volatility"] - low["volatility"] > 1e-3


def test_lichess_idle_growth_60_to_110_in_a_year() -> None:
    out = calc("1500", "60", "0.06", "--idle-days", "365")
    assert out["rd"] == pytest.approx(110.0, abs=0.01)
    assert out["rating"] == 1500.0 and out["volatility"] == 0.06
    assert out["display"] == "1500?"  # RD >= 110: provisional again
    assert out["provisional"] is True
    # the default volatility 0.09 grows faster: 150.7 (Lichess's idle rule, computed)
    assert calc("1500", "60", "0.09", "--idle-days", "365")["rd"] == pytest.approx(150.7, abs=0.05)
    # and the idle growth is applied before the games
    idle_then_game = calc("1500", "60", "0.06", "1500/60:1", "--idle-days", "365")
    direct = calc("1500", "110.00078549354839", "0.06", "1500/60:1")
    assert idle_then_game["rating"] == pytest.approx(direct["rating"], abs=1e-6)


def test_lichess_idle_growth_is_capped_at_500() -> None:
    assert calc("1500", "60", "0.1", "--idle-days", "36500")["rd"] == 500.0


def test_glickman_idle_120_periods_without_games() -> None:
    out = calc("1500", "50", "0.06", "--preset", "glickman", "--idle-periods", "120")
    assert out["rd"] == pytest.approx(124.65, abs=0.01)


def test_glickman_idle_periods_reaches_the_cli() -> None:
    """What the CLI does today: 120 idle periods, then one more (empty) period."""
    out = run("1500", "50", "0.06", "--preset", "glickman", "--idle-periods", "120", "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["rd_after_idle"] == pytest.approx(124.65, abs=0.01)
    assert data["rating"] == 1500.0 and data["volatility"] == 0.06


def test_chesscom_is_per_game_glicko1_and_labels_its_assumptions() -> None:
    args = ("1500", "200", *PAPER_GAMES, "--preset", "chesscom", "--json")
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    out = json.loads(first.stdout)
    # by hand: Glicko-1, one game at a time, in the order given
    rating, rd = 1500.0, 200.0
    for game in PAPER_GAMES:
        opp, score = game.split(":")
        opp_rating, opp_rd = opp.split("/")
        rating, rd = glicko1.update(rating, rd, [(float(opp_rating), float(opp_rd), float(score))])
    assert out["rating"] == pytest.approx(rating, rel=1e-12)
    assert out["rd"] == pytest.approx(rd, rel=1e-12)
    assert out["rating"] == pytest.approx(1464.22, abs=0.01)
    assert out["rd"] == pytest.approx(151.25, abs=0.01)
    # not the paper's one-period answer (1464.11 / 151.40): Chess.com rates every game
    assert abs(out["rd"] - 151.40) > 0.1
    assert (out["provisional"], out["display"]) == (False, "1464")
    assert out["volatility"] is None  # Glicko-1 has none
    # deterministic, and the assumptions are on stderr (never in the JSON on stdout), once
    second = run(*args)
    assert second.stdout == first.stdout
    notes = [line for line in first.stderr.splitlines() if line.startswith("assumption:")]
    assert notes == [
        "assumption: chesscom is Chess.com-like, not Chess.com: Glicko-1, start 1200, "
        "new-player RD 350, RD 30..350, c = 8.1 per day and the rest are assumed "
        "(`tracker shadow show` lists them)"
    ]
    assert "assumption" not in first.stdout


def test_chesscom_asks_for_no_volatility_and_shows_none() -> None:
    table = run("1500", "200", *PAPER_GAMES, "--preset", "chesscom")
    assert table.exit_code == 0, table.stderr
    assert table.stdout.splitlines()[0].split() == [
        "game", "opponent", "opp", "RD", "score", "expected", "rating", "RD"
    ]  # fmt: skip
    assert "volatility" not in table.stdout
    assert table.stdout.splitlines()[-1] == "chesscom: rating 1464.22, RD 151.25; shown as 1464"
    given = run("1500", "200", "0.06", *PAPER_GAMES, "--preset", "chesscom")
    assert given.exit_code == 2
    assert given.stderr.strip() == (
        "error: chesscom is Glicko-1: it has no volatility; give RATING RD and the games"
    )


def test_glicko2_presets_still_need_the_volatility() -> None:
    r = run("1500", "200", *PAPER_GAMES)
    assert r.exit_code == 2
    assert r.stderr.strip() == (
        "error: lichess is Glicko-2: give the volatility after the RD "
        "(a new lichess player has 0.09)"
    )
    r = run("1500", "200", "0.o6", *PAPER_GAMES)
    assert r.exit_code == 2 and "invalid volatility '0.o6'" in r.stderr


def test_chesscom_idle_days_use_c_per_day() -> None:
    out = calc("1500", "50", "--preset", "chesscom", "--idle-days", "30")
    assert out["rd"] == pytest.approx(math.sqrt(50**2 + 8.1**2 * 30), rel=1e-12)
    assert calc("1500", "50", "--preset", "chesscom", "--idle-days", "9999")["rd"] == 350


def test_lichess_games_in_order_are_not_one_period() -> None:
    per_game = calc("1500", "200", "0.06", *PAPER_GAMES)
    reordered = calc("1500", "200", "0.06", *reversed(PAPER_GAMES))
    assert abs(per_game["rating"] - reordered["rating"]) > 0.01


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        (
            ("1500", "200", "0.06", "1400/30:1", "--preset", "fide"),
            1,
            "error: unknown preset 'fide': use lichess, glickman, chesscom",
        ),
        (
            ("1500", "200", "0.06", "1400-30:1"),
            1,
            "error: invalid game '1400-30:1': write OPPONENT_RATING/OPPONENT_RD:SCORE, "
            "e.g. 1400/30:1",
        ),
        (("1500", "200", "0.06", "1400/30:2"), 1, None),
        (("1500", "200", "0.06", "1400/30"), 1, None),
        (("1500", "200", "0.06", "x/30:1"), 1, None),
        (("1500", "200", "0.06", "1400/0:1"), 1, None),
        (("1500", "0", "0.06", "1400/30:1"), 1, "error: RD 0 is outside 1..1000"),
        (("1500", "200", "0", "1400/30:1"), 1, "error: volatility 0 is outside 0.0001..1"),
        (("1500", "200", "0.06"), 1, None),
        (("1500", "200", "0.06", "1400/30:1", "--tau", "0"), 1, None),
        (
            ("1500", "200", "0.06", "--idle-days", "-3"),
            1,
            "error: --idle-days -3 is outside 0..36525",
        ),
        (
            ("1500", "200", "0.06", "--preset", "glickman", "--idle-days", "3"),
            1,
            "error: glickman counts idle time in rating periods: use --idle-periods",
        ),
        (
            ("1500", "200", "0.06", "--idle-periods", "3"),
            1,
            "error: lichess counts idle time in days: use --idle-days",
        ),
        (
            ("1500", "200", "0.06", "--idle-periods", "3", "--idle-days", "3"),
            2,
            "error: give either --idle-days or --idle-periods, not both",
        ),
        (("abc", "200", "0.06", "1400/30:1"), 2, None),
        (("1500",), 2, None),
    ],
)
def test_errors_are_one_line(args: tuple[str, ...], code: int, expected: str | None) -> None:
    result = run(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    if expected is not None:
        assert lines[0] == expected
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_opponent_rd_above_1000_gets_a_truthful_message() -> None:
    result = run("1500", "200", "0.06", "1400/1500:1")
    assert result.exit_code == 1
    assert "must be above 0" not in result.stderr
    assert "1000" in result.stderr


def test_calc_touches_no_database(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_DB", str(tmp_path / "nowhere" / "t.db"))
    out = calc("1500", "500", "0.09", "1500/500:1")
    assert out["display"] == "1741?"
    assert not (tmp_path / "nowhere").exists()
