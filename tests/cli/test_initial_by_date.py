"""A newcomer's first rating by the rules in force for the rating period that works it out,
end to end (`period close`, `history`, `player show`), on every configured backend: games of
2023 get the 2022 rule (FIDE Rating Regulations 2022 §8.2.3: Ra + 20 a half point over 50 %),
from the March 2024 period the 2024 rule (§8.2.2-§8.2.3: two hypothetical 1800s drawn).
The unit tests of the rules are in tests/ratings/test_fide_initial_by_date.py."""

from __future__ import annotations

import json
from typing import Any

from tests.helpers import Cli, ok

FIVE = [("1-0", 2000), ("1-0", 2000), ("1-0", 2000), ("0-1", 2000), ("0-1", 2000)]


def history(cli: Cli, player: str) -> list[dict[str, Any]]:
    return json.loads(ok(cli("history", player, "--json")).stdout)  # type: ignore[no-any-return]


def play(cli: Cli, days: list[str], event: str) -> None:
    """The newcomer's games against an external opponent rated 2000: 3 wins, 2 losses."""
    for i, (day, (result, rating)) in enumerate(zip(days, FIVE, strict=False), start=1):
        ok(
            cli(
                "game", "add", "Newcomer", "Ext", result, "--date", day, "--black-rating",
                str(rating), "--event", event, "--round", str(i),
            )
        )  # fmt: skip


def setup(cli: Cli) -> None:
    ok(cli("player", "add", "Newcomer", "--born", "1990"))
    ok(cli("player", "add", "Ext", "--external"))


def test_games_of_2023_get_the_2022_rule(cli: Cli) -> None:
    """Ra 2000 (rated opponents only), 3 of 5 = one half point over 50 %: Ru = 2000 + 20 =
    2020 (the 2024 rule would give 1993)."""
    setup(cli)
    play(cli, [f"2023-06-{d:02d}" for d in range(10, 15)], "June Open")
    r = cli("period", "close", "2023-06")
    assert r.exit_code == 0, r.stderr
    assert "first rating for Newcomer" in r.stderr
    (row,) = history(cli, "Newcomer")
    assert (row["month"], row["list"]) == ("2023-06", "2023-07-01")
    assert (row["rating_before"], row["rating"], row["games"]) == (None, 2020, 5)
    assert "FIDE Rating Regulations 2022 §8.2.2-§8.2.3" in row["note"]
    card = json.loads(ok(cli("player", "show", "Newcomer", "--json")).stdout)
    assert card["ratings"][0]["rating"] == 2020


def test_a_pool_completed_in_march_2024_gets_the_2024_rule(cli: Cli) -> None:
    """Three games rated in the February 2024 period (pooled: not 5 yet), two in March 2024:
    the whole pool is judged by the rules of the period that works it out, the 2024 rule:
    Ra = (5 x 2000 + 2 x 1800) / 7 = 1942.86, p = 4/7 = .57, dp +50: 1993."""
    setup(cli)
    play(cli, ["2024-02-20", "2024-02-21", "2024-02-22", "2024-03-05", "2024-03-06"], "Cup")
    ok(cli("game", "edit", "4", "--event", "Spring"))
    ok(cli("game", "edit", "5", "--event", "Spring"))
    r = cli("period", "close", "2024-03")
    assert r.exit_code == 0, r.stderr
    feb, mar = history(cli, "Newcomer")
    assert (feb["month"], feb["rating"]) == ("2024-02", None)
    assert (mar["month"], mar["rating"], mar["games"]) == ("2024-03", 1993, 2)
    assert "2022" not in (mar["note"] or "")


def test_the_february_2024_period_still_gets_the_2022_rule(cli: Cli) -> None:
    setup(cli)
    play(cli, [f"2024-02-{d:02d}" for d in range(20, 25)], "Cup")
    ok(cli("period", "close", "2024-02"))
    (row,) = history(cli, "Newcomer")
    assert (row["list"], row["rating"]) == ("2024-03-01", 2020)
