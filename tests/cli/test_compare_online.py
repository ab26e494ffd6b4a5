"""``compare`` with the real online ratings: per list date the Elo, the shadow and the latest
online point on or before the list date, in the table, the JSON and the plot; several players
at once; and ``compare --all --online PLATFORM``, the least-squares line."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from tests.helpers import Cli, Services, js, ok, one_line_error

DATA = Path(__file__).resolve().parent / "data" / "online"
LICHESS = DATA / "lichess_rating_history.json"


def club(cli: Cli) -> None:
    """Hart (2318/240, Lichess dhart_fm with the recorded history), Okafor (2105/95), Lee
    (1950/100) and an external; a game a month from January to March 2026, all closed."""
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240",
           "--born", "1988", "--lichess", "dhart_fm"))  # fmt: skip
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95", "--born", "2001"))
    ok(cli("player", "add", "Lee", "--rating", "1950", "--games", "100", "--born", "1980"))
    for white, black, result, day in (
        ("Hart, Daniel", "Okafor, Grace", "1-0", "2026-01-10"),
        ("Lee", "Hart, Daniel", "1/2-1/2", "2026-02-14"),
        ("Okafor, Grace", "Lee", "1-0", "2026-03-07"),
    ):
        ok(cli("game", "add", white, black, result, "--date", day))
    ok(cli("period", "close", "2026-03"))
    ok(cli("online", "import", str(LICHESS), "--player", "Hart, Daniel"))


# ----------------------------------------------------------------- one player, three numbers


def test_the_three_numbers_side_by_side_in_the_table(cli: Cli) -> None:
    club(cli)
    r = ok(cli("compare", "Hart, Daniel"))
    lines = r.stdout.splitlines()
    assert lines[0] == "Hart, Daniel (standard): Elo, lichess shadow, Lichess classical (dhart_fm)"
    assert lines[1].split() == [
        "month", "list", "Elo", "lichess", "RD", "volatility", "difference", "lichess.org"
    ]  # fmt: skip
    periods = js(cli, "compare", "Hart, Daniel")["periods"]
    # Lichess classical on or before each list date: 31 Jan 2425, 27 Feb 2433, 15 Mar 2428
    assert [row.split()[-1] for row in lines[2:]] == ["2425", "2433", "2428"]
    for row, p in zip(lines[2:], periods, strict=True):
        assert row.split()[2] == str(p["elo"])
        assert row.split()[3] == str(int(p["glicko"]))  # truncated, as Lichess shows it
    assert max(len(line) for line in lines) <= 80
    assert "lichess.org: Hart, Daniel's real Lichess classical rating" in r.stderr


def test_the_three_numbers_in_the_json(cli: Cli) -> None:
    club(cli)
    out = js(cli, "compare", "Hart, Daniel")
    assert out["online"] == {"lichess": {"user": "dhart_fm", "perf": "classical", "points": 6}}
    assert [(p["list"], p["elo"] is not None, p["glicko"] is not None) for p in out["periods"]] == [
        ("2026-02-01", True, True),
        ("2026-03-01", True, True),
        ("2026-04-01", True, True),
    ]
    assert [p["online"] for p in out["periods"]] == [
        {"lichess": {"rating": 2425, "day": "2026-01-31"}, "chesscom": None},
        {"lichess": {"rating": 2433, "day": "2026-02-27"}, "chesscom": None},
        {"lichess": {"rating": 2428, "day": "2026-03-15"}, "chesscom": None},
    ]
    # a point on the list date itself counts: 15 March is before 1 April; 1 Feb sees 31 Jan
    rapid = js(cli, "compare", "Hart, Daniel", "--tc", "rapid")
    assert rapid["periods"] == [] and rapid["online"]["lichess"]["perf"] == "rapid"


def test_the_three_numbers_in_the_plot(cli: Cli, db_url: str, tmp_path: Path) -> None:
    from tracker.cli.plot import draw_comparison, first_platform
    from tracker.services.compare import compare

    club(cli)
    target = tmp_path / "hart.png"
    r = ok(cli("compare", "Hart, Daniel", "--plot", str(target)))
    assert target.stat().st_size > 10_000 and f"plot written to {target}" in r.stderr
    # what the picture holds
    c = Services(db_url)(compare, "Hart, Daniel", "standard", None)
    assert first_platform(c) == "lichess"
    fig = draw_comparison(c)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "FIDE Elo (published lists)" in labels and "lichess shadow" in labels
    assert "Lichess classical (dhart_fm), real" in labels
    low, high = ax.get_ylim()
    # the axis follows the ratings (Elo about 2318, shadow, Lichess up to 2433), not the band
    assert 2150 < low < 2320 and 2433 < high < 2600


def test_several_players_one_after_another_and_on_one_chart(cli: Cli, tmp_path: Path) -> None:
    club(cli)
    both = js(cli, "compare", "Hart, Daniel", "Okafor, Grace")
    assert [c["player"] for c in both] == ["Hart, Daniel", "Okafor, Grace"]
    assert both[0] == js(cli, "compare", "Hart, Daniel")
    table = ok(cli("compare", "Hart, Daniel", "Okafor, Grace")).stdout
    assert "Hart, Daniel (standard)" in table and "Okafor, Grace (standard)" in table
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF-")):
        target = tmp_path / f"club{suffix}"
        ok(cli("compare", "Hart, Daniel", "Okafor, Grace", "Lee", "--plot", str(target)))
        assert target.read_bytes()[: len(magic)] == magic, suffix
    svg = (tmp_path / "club.svg").read_text()
    assert "Okafor, Grace" in svg and "Lee" in svg  # the legend names every player


def test_compare_all_plot_draws_the_listed_players(cli: Cli, tmp_path: Path) -> None:
    club(cli)
    target = tmp_path / "all.svg"
    r = ok(cli("compare", "--all", "--plot", str(target)))
    assert f"plot written to {target}" in r.stderr
    svg = target.read_text()
    assert all(name in svg for name in ("Hart, Daniel", "Okafor, Grace", "Lee"))


def test_online_option_picks_the_platform_shown(cli: Cli) -> None:
    club(cli)
    ok(cli("player", "edit", "Hart, Daniel", "--chesscom", "DanielHart"))
    table = ok(cli("compare", "Hart, Daniel", "--online", "chesscom"))
    # Chess.com has no classical: nothing of it stands beside the standard list
    assert "chess.com" not in table.stdout and "lichess.org" not in table.stdout
    assert "Hart, Daniel: Chess.com has no rating beside the standard list" in table.stderr
    assert "also stored: Lichess classical (dhart_fm); --online lichess shows it" in table.stderr
    ok(cli("online", "import", str(DATA / "chesscom_2026_01.json")))
    rapid = ok(cli("compare", "Hart, Daniel", "--online", "chesscom", "--tc", "rapid"))
    assert "no closed rapid periods" in rapid.stderr  # no rapid games: no rows to show
    assert js(cli, "compare", "Okafor, Grace", "--online", "lichess")["online"] == {}
    assert (
        "Okafor, Grace: no linked Lichess account"
        in ok(cli("compare", "Okafor, Grace", "--online", "lichess")).stderr
    )


# ------------------------------------------------------------------ the line across players


def write_history(path: Path, points: list[list[int]]) -> Path:
    path.write_text(json.dumps([{"name": "Classical", "points": points}]))
    return path


def fit_club(cli: Cli, tmp_path: Path) -> dict[str, int]:
    """Five seeded players with Lichess histories (one too old, one without classical), one
    without a link; the January list is the latest."""
    ok(cli("player", "add", "Ext", "--external"))
    online = {"A": 2470, "B": 2405, "C": 2250, "D": 2190, "E": 2010}
    elo = {"A": 2400, "B": 2320, "C": 2110, "D": 1980, "E": 1850, "F": 1700, "G": 1600}
    for name, rating in elo.items():
        ok(cli("player", "add", name, "--rating", str(rating), "--games", "100", "--born", "1980"))
    for name in (*online, "F"):
        ok(cli("player", "edit", name, "--lichess", f"{name.lower()}_online"))
    for name, r in online.items():
        history = write_history(
            tmp_path / f"{name}.json", [[2025, 11, 30, r - 5], [2026, 0, 20, r]]
        )
        ok(cli("online", "import", str(history), "--player", name))
    # F's only Lichess point is from 2024: too old to say how strong he is now
    old = write_history(tmp_path / "F.json", [[2024, 5, 1, 1900]])
    ok(cli("online", "import", str(old), "--player", "F"))
    ok(cli("game", "add", "A", "Ext", "1/2-1/2", "--date", "2026-01-10", "--black-rating", "2400"))
    ok(cli("period", "close", "2026-01"))
    return online


def test_the_least_squares_line_between_fide_and_lichess(cli: Cli, tmp_path: Path) -> None:
    online = fit_club(cli, tmp_path)
    out = js(cli, "compare", "--all", "--online", "lichess")
    assert (out["platform"], out["perf"], out["list"], out["from_list"]) == (
        "lichess",
        "classical",
        "2026-02-01",
        True,
    )
    players = out["players"]
    assert [p["name"] for p in players] == ["A", "B", "C", "D", "E"]
    elos = [p["elo"] for p in players]
    assert elos[1:] == [2320, 2110, 1980, 1850] and abs(elos[0] - 2400) <= 1  # A drew
    assert [p["online"] for p in players] == list(online.values())
    assert {p["online_day"] for p in players} == {"2026-01-20"}
    expected = statistics.linear_regression(elos, list(online.values()))
    fit = out["fit"]
    assert fit["n"] == 5
    assert fit["slope"] == pytest.approx(expected.slope, rel=1e-12)
    assert fit["intercept"] == pytest.approx(expected.intercept, rel=1e-12)
    residuals = [p["residual"] for p in players]
    assert sum(residuals) == pytest.approx(0, abs=1e-9)
    assert fit["residual_sd"] == pytest.approx((sum(e * e for e in residuals) / 3) ** 0.5)
    assert out["left_out"] == [{"name": "F", "why": "last Lichess rating on 2024-06-01"}]

    r = ok(cli("compare", "--all", "--online", "lichess"))
    lines = r.stdout.splitlines()
    assert lines[0] == "Standard list of 2026-02-01 beside Lichess classical (players with both)"
    sign = "+" if fit["intercept"] >= 0 else "-"
    assert (
        f"Lichess classical ~ {fit['slope']:.2f} x FIDE {sign} {abs(fit['intercept']):.0f} "
        "(least squares, n = 5, FIDE 1850.."
    ) in r.stdout
    assert f"players sit {fit['residual_sd']:.0f} points from the line" in r.stdout
    here = next(line for line in lines if line.startswith("here: "))
    assert f"FIDE 1900 ~ {fit['intercept'] + fit['slope'] * 1900:.0f}" in here
    assert "left out: F (last Lichess rating on 2024-06-01)" in r.stderr
    assert "only 5 players: a rough line" in r.stderr
    assert max(len(line) for line in lines) <= 80


def test_too_few_players_for_a_line(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "A", "--rating", "2000", "--games", "50", "--lichess", "a_online"))
    ok(cli("player", "add", "B", "--rating", "1800", "--games", "50"))
    history = write_history(tmp_path / "a.json", [[2026, 10, 1, 2100]])
    ok(cli("online", "import", str(history), "--player", "A"))
    out = js(cli, "compare", "--all", "--online", "lichess")
    # no closed period yet: the seeds and today's date (29 November 2026) stand in
    assert (out["from_list"], out["list"]) == (False, "2026-11-29")
    assert [p["name"] for p in out["players"]] == ["A"] and out["fit"] is None
    r = ok(cli("compare", "--all", "--online", "lichess"))
    assert "Seeded standard ratings (2026-11-29) beside Lichess classical" in r.stdout
    assert "a line needs at least 2 players with different Elos; here 1" in r.stderr


def test_chesscom_has_nothing_beside_the_standard_list(cli: Cli) -> None:
    ok(cli("player", "add", "A", "--rating", "2000", "--games", "50", "--chesscom", "a_cc"))
    line = one_line_error(cli("compare", "--all", "--online", "chesscom"), 1)
    assert line == (
        "error: Chess.com has no rating beside the FIDE standard list (it has no classical "
        "perf): try --tc rapid or --tc blitz"
    )
    out = js(cli, "compare", "--all", "--online", "chesscom", "--tc", "rapid")
    assert out["perf"] == "rapid" and out["players"] == []
