"""``tracker calc elo``: every number in the worked examples, and no database on this path."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tests.helpers import Cli
from tracker.cli.app import COMMANDS, app, command_words, make_app

runner = CliRunner()


def calc(*args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["calc", "elo", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_one_period_from_the_calculator_pages() -> None:
    out = calc("1500", "1400:1", "1600:=", "1550:0", "--k", "20")
    assert [g["expected"] for g in out["games"]] == [0.64, 0.36, 0.43]
    assert [g["change"] for g in out["games"]] == [7.2, 2.8, -8.6]
    assert (out["change_exact"], out["change"], out["new_rating"]) == (1.4, 1, 1501)
    assert out["k"] == 20 and out["rating"] == 1500


@pytest.mark.parametrize(
    ("rating", "game", "k", "expected", "change"),
    [
        ("1500", "1700:1", "20", 0.24, 15.2),
        ("1500", "1700:0.5", "20", 0.24, 5.2),
        ("1500", "1700:0", "20", 0.24, -4.8),
        ("1500", "1600:1", "20", 0.36, 12.8),
        ("1500", "1600:1/2", "20", 0.36, 2.8),
        ("1892", "2026:1", "40", 0.32, 27.2),
        ("1500", "1000:1", "20", 0.92, 1.6),
        ("1500", "1000:0", "20", 0.92, -18.4),
        ("2400", "2400:1", "10", 0.5, 5.0),
        ("2003", "2000:1", "10", 0.5, 5.0),
        ("2004", "2000:1", "10", 0.51, 4.9),
        ("2010", "2000:1", "10", 0.51, 4.9),
        ("2011", "2000:1", "10", 0.52, 4.8),
        ("2206", "2000:1", "10", 0.76, 2.4),
        ("2207", "2000:1", "10", 0.77, 2.3),
        ("2391", "2000:1", "10", 0.91, 0.9),
        ("2392", "2000:1", "10", 0.92, 0.8),
        ("2000", "2003:0", "10", 0.5, -5.0),
        ("2000", "2004:0", "10", 0.49, -4.9),
        ("1656", "2000:0", "10", 0.12, -1.2),
        ("1655", "2000:0", "10", 0.11, -1.1),
        ("1500", "2000:=", "20", 0.08, 8.4),
        ("2100", "2700:0", "20", 0.08, -1.6),
        ("2200", "2700:0", "20", 0.08, -1.6),
        ("2649", "2149:1", "10", 0.92, 0.8),
        ("2650", "2150:1", "10", 0.96, 0.4),
        ("2700", "1964:1", "10", 1.0, 0.0),
        ("2700", "1900:0", "10", 1.0, -10.0),
        ("2813", "2400:1", "10", 0.93, 0.7),
    ],
)
def test_single_games_from_fide_and_the_pages(
    rating: str, game: str, k: str, expected: float, change: float
) -> None:
    out = calc(rating, game, "--k", k, "--date", "2026-11-29")
    assert out["games"][0]["expected"] == expected
    assert out["games"][0]["change"] == change


def test_new_rating_1919_and_the_2650_rule_depends_on_the_date() -> None:
    assert calc("1892", "2026:1", "--k", "40")["new_rating"] == 1919
    before = calc("2700", "1964:1", "--k", "10", "--date", "2025-09-15")
    assert before["games"][0]["expected"] == 0.92 and before["games"][0]["change"] == 0.8


def test_logistic_formula_reproduces_the_calculator_pages() -> None:
    capped = calc("1500", "1000:1", "--k", "20", "--formula", "logistic")
    assert round(capped["games"][0]["expected"], 2) == 0.91
    assert round(capped["games"][0]["change"], 1) == 1.8
    loss = calc("1500", "1000:0", "--k", "20", "--formula", "logistic")
    assert round(loss["games"][0]["change"], 1) == -18.2
    uncapped = calc("1500", "1000:1", "--k", "20", "--formula", "logistic", "--no-400-rule")
    assert round(uncapped["games"][0]["expected"], 2) == 0.95
    assert round(uncapped["games"][0]["change"], 1) == 1.1
    uncapped_loss = calc("1500", "1000:0", "--k", "20", "--formula", "logistic", "--no-400-rule")
    assert round(uncapped_loss["games"][0]["change"], 1) == -18.9
    pages = calc("1892", "2026:1", "--k", "40", "--formula", "logistic")
    assert round(pages["games"][0]["expected"], 3) == 0.316
    assert round(pages["games"][0]["change"], 1) == 27.4 and pages["new_rating"] == 1919


def test_k_from_games_age_and_peak_with_the_700_rule() -> None:
    games = [f"{1800 + i}:1" for i in range(20)]
    out = calc("1700", *games, "--games", "10")
    assert out["k"] == 35  # K 40 with 20 games -> 700 // 20
    assert calc("2100", "2000:1", "--games", "200", "--born", "2012")["k"] == 40
    assert calc("2100", "2000:1", "--games", "200", "--born", "1990")["k"] == 20
    assert calc("2100", "2000:1", "--games", "200", "--ever-2400")["k"] == 10
    assert calc("2100", "2000:1", "--games", "5", "--born", "2012", "--ever-2300")["k"] == 40
    assert calc("2350", "2000:1", "--games", "500", "--born", "2012")["k"] == 20
    forty = [f"{2000 + i}:0.5" for i in range(40)]
    assert calc("2000", *forty, "--k", "20")["k"] == 17


def test_period_rounding_half_away_from_zero() -> None:
    # 2000 draws 1811 (D=189 -> PD .75) with K 10: -2.50 is published as -3.
    out = calc("2000", "1811:=", "--k", "10")
    assert (out["change_exact"], out["change"], out["new_rating"]) == (-2.5, -3, 1997)
    out = calc("1811", "2000:=", "--k", "10")
    assert (out["change_exact"], out["change"]) == (2.5, 3)


def test_table_output_and_errors() -> None:
    r = runner.invoke(app, ["calc", "elo", "1500", "1700:1", "--k", "20"])
    assert r.exit_code == 0
    assert "+15.20" in r.stdout and "new rating 1515" in r.stdout
    r = runner.invoke(app, ["calc", "elo", "1500", "1700"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        "error: invalid game '1700': write OPPONENT_RATING:SCORE, e.g. 1700:1"
    )
    r = runner.invoke(app, ["calc", "elo", "1500", "1700:1", "--k", "20", "--games", "3"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["calc", "elo", "1500", "1700:1"])
    assert "note: K 20 assumed" in r.stderr


def test_calculator_never_imports_sqlalchemy() -> None:
    code = (
        "import sys\n"
        "from tracker.cli.app import app\n"
        "try:\n"
        "    app(['calc', 'elo', '1500', '1700:1', '--k', '20'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('sqlalchemy' in sys.modules, 'alembic' in sys.modules)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip().splitlines()[-1] == "False False", r.stderr


def test_the_console_command_loads_only_the_command_it_runs() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['tracker', 'calc', 'elo', '1500', '1700:1', '--k', '20']\n"
        "from tracker.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('tracker.cli.'))\n"
        "print(' '.join(loaded), 'sqlalchemy' in sys.modules, 'rich.markdown' in sys.modules)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "change +" in r.stdout, r.stderr
    modules, sqlalchemy, rich_markdown = r.stdout.strip().splitlines()[-1].rsplit(" ", 2)
    assert set(modules.split()) <= {
        "tracker.cli.app",
        "tracker.cli.calc",
        "tracker.cli.context",
        "tracker.cli.options",
        "tracker.cli.render",
    }, modules
    assert "tracker.cli.calc" in modules
    assert (sqlalchemy, rich_markdown) == ("False", "False")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["calc", "elo"], ("calc", "elo")),
        (["--db", "x.db", "history", "#1"], ("history", "#1")),
        (["--db=x.db", "player", "list"], ("player", "list")),
        (["--db", "calc", "list"], ("list", None)),
        (["--help"], (None, None)),
        ([], (None, None)),
        (["nosuch", "calc"], (None, None)),
        (["--version"], (None, None)),
        (["-h", "calc"], (None, None)),
        (["--db", "x.db", "--help", "player"], (None, None)),
        (["calc", "--help"], ("calc", None)),
        (["player", "--help", "show"], ("player", "show")),
        (["game", "list", "--player", "Hart"], ("game", "list")),
        (["event", "--db", "show"], ("event", "show")),
    ],
)
def test_command_words(args: list[str], words: tuple[str | None, str | None]) -> None:
    assert command_words(args) == words


@pytest.mark.parametrize(
    "args",
    [
        ["player", "show", "--help"],
        ["event", "show", "--help"],
        ["player", "shw", "Hart"],  # a typo: the group's commands to choose from
        ["player", "--help"],
        ["game", "list", "--nosuch"],
    ],
)
def test_a_group_loaded_with_one_command_says_what_the_whole_group_says(args: list[str]) -> None:
    """``tracker player show`` builds the ``player`` group with ``show`` alone (typer reads
    every command's signature to build a group): the same help and the same errors."""
    lean = runner.invoke(make_app(*command_words(args)), args)
    whole = runner.invoke(make_app(), args)
    assert (lean.exit_code, lean.stdout, lean.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )


def group_commands(app: typer.Typer, name: str) -> list[str]:
    root: Any = typer.main.get_command(app)
    return list(root.commands[name].commands)


def test_a_group_loaded_for_one_command_holds_that_command_alone() -> None:
    assert group_commands(make_app("player", "show"), "player") == ["show"]
    assert {"show", "add"} <= set(group_commands(make_app("player", "nosuch"), "player"))


@pytest.mark.parametrize("args", [["--help"], [], ["nosuch"], ["--db", "x.db"]])
def test_the_root_with_no_command_loaded_says_what_the_whole_app_says(args: list[str]) -> None:
    # `tracker --help` lists every command by its help without typer's analysis of them all
    whole, bare = runner.invoke(make_app(), args), runner.invoke(make_app(""), args)
    assert (bare.exit_code, bare.stdout, bare.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )
    if args in (["--help"], []):
        listed = bare.stdout.split("Commands:")[1].split()
        assert all(name in listed for name, *_ in COMMANDS)
        assert "Log, list, edit, remove and restore games." in bare.stdout  # a group's help
        assert "A player's rating history, period by period." in bare.stdout  # a docstring's


@pytest.mark.parametrize("name", [name for name, *_ in COMMANDS])
def test_every_command_runs_when_loaded_alone(name: str) -> None:
    r = runner.invoke(make_app(name), [name, "--help"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith(f"Usage: tracker {name} "), r.stdout


@pytest.mark.parametrize("k", ["0", "-5", "101"])
def test_a_k_outside_what_the_message_says_is_refused(cli: Cli, k: str) -> None:
    r = cli("calc", "elo", "1500", "1400:1", "--k", k)
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: K {k} is not a development coefficient: give 1..100 (FIDE's are 10, 20 and "
        "40; earlier rules used 15, 25 and 30)"
    )
    assert cli("calc", "elo", "1500", "1400:1", "--k", "30").exit_code == 0  # as the message says


def initial(*args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["calc", "initial", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_calc_initial_rates_a_newcomers_games() -> None:
    """§8.2.2: Ra = (1600 + 1700 + 1500 + 1800 + 1650 + 2 x 1800) / 7 = 1692.86; p = (3 + 1) / 7
    = .57, dp +50 (table 8.1.1); Ru = 1743."""
    out = initial("1600:1", "1700:0.5", "1500:1", "1800:0", "1650:=")
    assert (out["games"], out["ra"], out["p"], out["dp"]) == (5, 1692.86, 0.57, 50)
    assert (out["rating"], out["published"], out["missing"]) == (1743, True, [])
    text = runner.invoke(
        app, ["calc", "initial", "1600:1", "1700:0.5", "1500:1", "1800:0", "1650:="]
    )
    assert text.stdout.splitlines()[-1] == "first rating 1743"


def test_calc_initial_says_what_is_missing() -> None:
    # five draws with 1240s: Ra = (5 x 1240 + 3600) / 7 = 1400 exactly: published
    assert initial(*["1240:="] * 5)["published"] is True
    below = initial(*["1239:="] * 5)
    assert (below["rating"], below["published"]) == (1399, False)
    assert below["missing"] == ["1399 is below 1400: no rating is published under it (§7.1.4)"]
    short = initial("1500:1", "1500:1", "1500:0")
    assert short["missing"] == [
        "3 of the 5 games against rated opponents a first rating needs (§7.1.4): 2 more"
    ]
    zero = initial(*["2700:0"] * 5)  # a rating of 2134 on paper, but no score
    assert zero["rating"] == 2134 and not zero["published"]
    assert "§8.2.1" in zero["missing"][0]
    capped = initial(*["2500:1"] * 5)  # Ra 2300 + dp 309: limited to 2200 (§8.2.3)
    assert (capped["rating"], capped["capped"], capped["published"]) == (2200, True, True)


def test_calc_initial_refuses_a_bad_game_in_one_line() -> None:
    result = runner.invoke(app, ["calc", "initial", "1500:x"])
    assert result.exit_code != 0
    assert (
        result.stderr.strip() == "error: invalid score in '1500:x': use 1, 0.5 (or 1/2, ½, =) or 0"
    )


def test_calc_initial_date_picks_the_rules_of_the_rating_period() -> None:
    """Five 2000s, 3 points: the February 2024 period (2022 §8.2.3: Ra + 20 for the half point
    over 50 %) gives 2020, the March 2024 period (2024 §8.2.2-§8.2.3) 1993."""
    games = ["2000:1", "2000:1", "2000:1", "2000:0", "2000:0"]
    old = initial(*games, "--date", "2024-02-29")
    assert (old["ra"], old["dp"], old["rating"], old["rules"]) == (2000, 20, 2020, "2022-01-01")
    new = initial(*games, "--date", "2024-03-01")
    assert (new["ra"], new["dp"], new["rating"], new["rules"]) == (1942.86, 50, 1993, "2024-03-01")
    assert initial(*games)["rating"] == 1993  # today
    # no text before 2022: the 2024 rule, and a note says so
    text = runner.invoke(app, ["calc", "initial", *games, "--date", "2021-12-31"])
    assert text.stdout.splitlines()[-1] == "first rating 1993"
    assert text.stderr.strip() == (
        "note: initial-rating rules of 2024-03-01 applied to the rating period 2021-12: "
        "tracker has no text of the rules then in force"
    )
    # the 2022 rule publishes from 1000, with no maximum
    low = initial(*["1000:="] * 4, "999:=", "--date", "2023-01-15")
    assert (low["rating"], low["published"]) == (1000, True)
    below = initial(*["1000:="] * 3, "999:=", "998:=", "--date", "2023-01-15")
    assert below["missing"] == ["999 is below 1000: no rating is published under it (§7.1.4)"]
    high = initial(*["2500:1"] * 5, "--date", "2023-01-15")
    assert (high["rating"], high["capped"]) == (2600, False)
