"""FIDE's published rating periods, reproduced end to end from what an officer can give.

Each case of ``data/fide_published_periods.json`` is one real player's period as FIDE's
individual calculation page shows it (ratings.fide.com/calculations.phtml, as transcribed by
the public fixtures of zugzwang-foundation/Chess-ELO-Rating, fetched 2026-10-09; see
``data/README.md``). The officer enters what that page and FIDE's lists tell him, and nothing
worked out from FIDE's answer:

- the player, seeded with his rating on the list before the period (``player seed``), with
  the games and flags that give FIDE's K;
- his rating on an earlier list for an event that started while it was in force
  (``player seed --list``);
- the month FIDE rated an event in, where later than the month it ended in
  (``event edit --rated-in``);
- the Ro FIDE used for him in an event, where it differs from the list in force when the
  event started (``event edit --ro``);
- every game against an external opponent, recording the opponent's rating FIDE used (a
  rating printed with * is the 400-point-capped one, recorded as printed); a case's games
  come in one ``tracker import`` of a CSV (the intake of ``game add``, in one command).

Then the period is closed, and tracker's change must be FIDE's "Total change" to the
hundredth, each event's change FIDE's K*chg, and the new rating FIDE's next list.

Two periods tracker does not reproduce, each pinned by a test of its own stating the
difference and why: F-P02 (FIDE's list is one point above its own total change, rounded) and
F-M02 (FIDE's list follows the published rating, not the corrected Ro it rated with). The
2025 US Championship is tracked as one club: twelve players, 66 games between them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Cli, FideEvent, history_row, import_games, js, ok, play_events

DATA = json.loads((Path(__file__).parent / "data" / "fide_published_periods.json").read_text())
CASES: dict[str, dict[str, Any]] = {case["case"]: case for case in DATA["cases"]}
US = DATA["us_championship_2025"]

#: The periods FIDE published other than by tracker's rules; each has a test below.
NOT_REPRODUCED = ("F-P02", "F-M02")


def tracker_month(rating_period: str) -> str:
    """FIDE's rating period, named by its list (2026-04: the list of 1 April 2026), as
    tracker names it: the month whose games that list rates (2026-03)."""
    first = dt.date.fromisoformat(f"{rating_period}-01") - dt.timedelta(days=1)
    return first.strftime("%Y-%m")


def seed_options(k: int) -> list[str]:
    """The seed's games and flags that give FIDE's K (every player here is past 30 games and
    no junior): 10 once published at 2400, else 20."""
    assert k in (10, 20), k
    return ["--games", "200", *(["--ever-2400"] if k == 10 else [])]


def officer_enters(cli: Cli, tmp: Path, case: dict[str, Any]) -> str:
    """Enter ``case`` as the officer would (the games in one import of a CSV written in
    ``tmp``); returns the period (tracker's month) it closes."""
    name, period = case["case"], tracker_month(case["rating_period"])
    lists: dict[str, int] = case["lists"]
    ok(cli("player", "add", name, "--born", str(case["born"]), "--fide-id", str(case["fide_id"])))
    ok(cli("player", "seed", name, "--rating", str(lists[period]), *seed_options(case["k"])))
    earlier = sorted({e["start"][:7] for e in case["events"]} - {period})
    for month in earlier:
        assert month < period, (name, month)
        ok(cli("player", "seed", name, "--list", month, "--rating", str(lists[month])))
    events: list[FideEvent] = [
        (e["name"], e["start"], e["end"], [(g[0], g[1], g[2]) for g in e["games"]])
        for e in case["events"]
    ]
    play_events(cli, tmp / f"{name}.csv", name, events)
    for event in case["events"]:
        if event["end"][:7] < period:
            ok(cli("event", "edit", event["name"], "--rated-in", period))
        if event["Ro"] != lists[event["start"][:7]]:
            ok(cli("event", "edit", event["name"], "--ro", f"{name}={event['Ro']}"))
    ok(cli("period", "close", period))
    return period


def event_changes(cli: Cli, player: str, period: str) -> dict[str, tuple[set[int], Decimal]]:
    """Each event of ``player``'s period, game by game (``history --month``): the ratings he
    was rated with (Ro) and the sum of the games' changes (FIDE's K*chg)."""
    shown = js(cli, "history", player, "--month", period)
    events: dict[str, tuple[set[int], Decimal]] = defaultdict(lambda: (set(), Decimal(0)))
    for game in shown["games"]:
        assert game["status"] == "rated", game
        ro, change = events[game["event"]]
        events[game["event"]] = (ro | {game["own_rating"]}, change + Decimal(str(game["change"])))
    return dict(events)


def fides(case: dict[str, Any]) -> dict[str, tuple[set[int], Decimal]]:
    return {e["name"]: ({e["Ro"]}, Decimal(e["K_chg"])) for e in case["events"]}


REPRODUCED = [pytest.param(CASES[c], id=c) for c in CASES if c not in NOT_REPRODUCED]


@pytest.mark.parametrize("case", REPRODUCED)
def test_fides_published_period_is_reproduced(
    cli: Cli, tmp_path: Path, case: dict[str, Any]
) -> None:
    name = case["case"]
    period = officer_enters(cli, tmp_path, case)
    got = history_row(cli, name, period)
    rated = sum(e["n"] for e in case["events"])
    assert rated == case["games_on_new_list"]
    assert (got["rating_before"], got["k"], got["games"]) == (
        case["lists"][period],
        case["k"],
        rated,
    )
    assert Decimal(str(got["score"])) == sum(Decimal(e["w"]) for e in case["events"])
    assert event_changes(cli, name, period) == fides(case)
    assert Decimal(str(got["change_exact"])) == Decimal(case["total_change"])  # FIDE's total
    assert got["rating"] == case["new_list"]  # FIDE's new list


def test_f_p02_fides_list_is_a_point_above_its_rounded_total(cli: Cli, tmp_path: Path) -> None:
    """F-P02 (FIDE id 9953698, the list of 1 December 2025): FIDE's total change is +5.40 and
    the November list 2400, yet the December list shows 2406, not 2405. Rounding each event
    (-6.10, +3.70, +7.80 -> -6 +4 +8 = +6) fits it; §8.3.4 rounds the period's change once,
    as tracker does (and as FIDE's lists do in every other case here; the source's rounding
    analysis marks this the one period that follows per-event rounding). tracker agrees with
    FIDE's calculation to the hundredth and publishes 2405."""
    case = CASES["F-P02"]
    period = officer_enters(cli, tmp_path, case)
    got = history_row(cli, "F-P02", period)
    assert event_changes(cli, "F-P02", period) == fides(case)
    assert Decimal(str(got["change_exact"])) == Decimal(case["total_change"]) == Decimal("5.40")
    assert (got["rating_before"], got["change"], got["rating"]) == (2400, 5, 2405)
    assert case["new_list"] == 2406 == got["rating"] + 1
    per_event = sum(round(Decimal(e["K_chg"])) for e in case["events"])
    assert per_event == 6  # no half-way value among them: round() is exact here


def test_f_m02_fides_list_follows_the_published_rating_not_its_corrected_ro(
    cli: Cli, tmp_path: Path
) -> None:
    """F-M02 (FIDE id 4317874, the list of 1 November 2025): FIDE rated both October events
    with Ro 1617 while the October list shows 1620 (the capped '2017 *' = 1617 + 400 shows
    the calculation used 1617), and published 1621 = 1620 + round(0.60). In F-P04, F-M04,
    F-M11, F-M01 and F-M17 the new list follows the corrected Ro instead, as tracker does:
    with the officer's --ro it matches FIDE's calculation to the hundredth and publishes
    1617 + 1 = 1618, three points (1620 - 1617) below FIDE's list. Without --ro it rates
    from 1620 and misses FIDE's calculation. Nothing on FIDE's page tells the two apart: an
    anomaly of FIDE's, not reproduced."""
    case = CASES["F-M02"]
    period = officer_enters(cli, tmp_path, case)
    got = history_row(cli, "F-M02", period)
    assert event_changes(cli, "F-M02", period) == fides(case)
    assert Decimal(str(got["change_exact"])) == Decimal(case["total_change"]) == Decimal("0.60")
    assert (got["rating_before"], got["change"], got["rating"]) == (1620, 1, 1618)
    assert case["new_list"] == 1621 == case["lists"]["2025-10"] + got["change"]
    assert "rated from 1617, FIDE's corrected rating" in got["note"]

    for event in case["events"]:
        ok(cli("event", "edit", event["name"], "--clear-ro", "F-M02"))
    ok(cli("rerate"))
    listed = history_row(cli, "F-M02", period)
    assert Decimal(str(listed["change_exact"])) != Decimal(case["total_change"])


def us_player(fide_id: int) -> str:
    return f"FIDE {fide_id}"


def test_the_2025_us_championship_as_one_club(cli: Cli, tmp_path: Path) -> None:
    """The 2025 US Championship (St. Louis, 12-24 October 2025, FIDE event 432532, rated on
    the 1 November 2025 list): a round robin of twelve, all tracked, seeded with the October
    2025 list, K 10. FIDE rated every player with Ro = his October list rating, so no --ro.
    Ten of them played nothing else rated in the period: tracker gives FIDE's change to the
    hundredth and FIDE's November list. Two also played the 2025 Grand Chess Tour Finals
    (28 September - 2 October), rated in the same period, whose games the source does not
    transcribe (only its summary: Ro, n, K*chg; for 13300474 Ro 2744, an earlier list than
    October's 2722): their US Championship change is FIDE's, and their November list is
    FIDE's less the Finals, as FIDE's own totals show."""
    for p in US["players"]:
        name = us_player(p["fide_id"])
        assert p["Ro"] == p["list_2025_10"]
        ok(cli("player", "add", name, "--fide-id", str(p["fide_id"])))
        ok(cli("player", "seed", name, "--rating", str(p["list_2025_10"]), *seed_options(p["k"])))
    start, end = dt.date.fromisoformat(US["start"]), dt.date.fromisoformat(US["end"])
    rounds = max(g[0] for g in US["games"])
    games = [
        {
            "date": (end if rnd == rounds else start + dt.timedelta(days=rnd - 1)).isoformat(),
            "white": us_player(white),
            "black": us_player(black),
            "result": result,
            "event": US["name"],
            "event_start": US["start"],
            "round": rnd,
            "white_fide_id": white,
            "black_fide_id": black,
        }
        for rnd, white, black, result, *_ in US["games"]
    ]
    import_games(cli, tmp_path / "us-championship-2025.csv", games)
    ok(cli("period", "close", "2025-10"))

    fide_change: dict[tuple[str, str], Decimal] = {}  # (player, opponent): K x FIDE's chg
    for _, white, black, _, white_chg, black_chg in US["games"]:
        fide_change[us_player(white), us_player(black)] = 10 * Decimal(white_chg)
        fide_change[us_player(black), us_player(white)] = 10 * Decimal(black_chg)
    for p in US["players"]:
        name = us_player(p["fide_id"])
        got = history_row(cli, name, "2025-10")
        assert (got["rating_before"], got["k"], got["games"]) == (p["list_2025_10"], 10, 11)
        assert Decimal(str(got["score"])) == Decimal(p["w"])
        shown = js(cli, "history", name, "--month", "2025-10")["games"]
        assert {(name, g["opponent"]): Decimal(str(g["change"])) for g in shown} == {
            pair: change for pair, change in fide_change.items() if pair[0] == name
        }
        assert Decimal(str(got["change_exact"])) == Decimal(p["K_chg"]), name  # FIDE's K*chg
        others = p["other_events_in_period"]
        if not others:
            assert Decimal(p["K_chg"]) == Decimal(p["total_change"])
            assert got["rating"] == p["list_2025_11"], name  # FIDE's November list
            continue
        # The Finals, not in the data: FIDE's total adds their K*chg, and its November list is
        # the October list + that total, rounded; tracker's, without them, is not.
        with_finals = Decimal(str(got["change_exact"])) + sum(Decimal(o["K_chg"]) for o in others)
        assert with_finals == Decimal(p["total_change"])
        rounded = int(with_finals.to_integral_value(rounding=ROUND_HALF_UP))
        assert p["list_2025_10"] + rounded == p["list_2025_11"]
        assert got["rating"] == p["list_2025_10"] + got["change"] != p["list_2025_11"]
