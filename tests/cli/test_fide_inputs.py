"""FIDE's inputs an officer gives (issue 23, points 1-3): a player's rating on an earlier list
(``player seed --list``), the period an event is rated in (``event edit --rated-in``), the
Ro FIDE used for a player in an event (``event edit --ro``). Each is pinned by a real period
of FIDE's published individual calculations (ratings.fide.com/calculations.phtml, as
transcribed by the public fixtures of zugzwang-foundation/Chess-ELO-Rating, fetched
2026-10-09): tracker, given the same inputs, publishes FIDE's list to the point, and without
them it does not. Opponents are external, each game recording the rating FIDE used."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.helpers import Cli, FideGames, history_row, js, ok, one_line_error, play

# F-M20: FIDE id 25034430, the list of 1 April 2026 (period 2026-03). Lists: February 2418,
# March 2436, April 2418; K 10. The Russian Chess Crown (19-26 February) ended on the
# closing date of the March list and was rated on the April one; the Aeroflot Open (28
# February - 5 March) started under the February list. Both are rated with Ro 2418 (the
# February list): -3.90 and -13.60, total -17.50, published 2436 - 18 = 2418.
CROWN: FideGames = [
    (2283, "w", 1), (2366, "b", 0), (2241, "w", 1), (2246, "b", 1), (2402, "w", 0.5),
    (2507, "b", 0), (2269, "w", 0.5), (2240, "b", 0.5), (2303, "w", 0.5), (2274, "b", 1),
]  # fmt: skip
AEROFLOT: FideGames = [
    (2251, "b", 1), (2553, "w", 0), (2619, "w", 0), (2339, "b", 0.5), (2357, "w", 0),
    (2347, "b", 0.5), (2320, "w", 1), (2363, "b", 0.5), (2361, "w", 0),
]  # fmt: skip


def fm20(cli: Cli, *, earlier: bool, rated_in: bool) -> dict[str, Any]:
    ok(cli("player", "add", "F-M20", "--born", "1999"))
    ok(cli("player", "seed", "F-M20", "--rating", "2436", "--games", "400", "--ever-2400"))
    if earlier:
        ok(cli("player", "seed", "F-M20", "--list", "2026-02", "--rating", "2418"))
    play(cli, "F-M20", "Russian Chess Crown A", "2026-02-19", "2026-02-26", CROWN)
    play(cli, "F-M20", "Aeroflot Open 2026", "2026-02-28", "2026-03-05", AEROFLOT)
    if rated_in:
        ok(cli("event", "edit", "russian chess crown a", "--rated-in", "2026-03"))
    ok(cli("period", "close", "2026-03"))
    return history_row(cli, "F-M20", "2026-03")


def test_an_earlier_list_and_a_later_period_give_fides_list(cli: Cli) -> None:
    april = fm20(cli, earlier=True, rated_in=True)
    assert (april["rating_before"], april["k"], april["games"]) == (2436, 10, 19)
    assert Decimal(str(april["change_exact"])) == Decimal("-17.50")
    assert (april["change"], april["rating"]) == (-18, 2418)  # FIDE's April list
    assert "Russian Chess Crown A ended 2026-02-26, rated in 2026-03" in april["note"]
    assert "Aeroflot Open 2026 rated with the 2026-02 list (2418)" in april["note"]
    march = history_row(cli, "F-M20", "2026-02")
    assert (march["games"], march["rating"]) == (0, 2436)  # FIDE's March list
    shown = js(cli, "player", "show", "F-M20", "--json")
    assert shown["earlier_lists"] == [{"tc": "standard", "list": "2026-02", "rating": 2418}]


def test_without_the_earlier_list_the_events_are_rated_with_the_seed(cli: Cli) -> None:
    april = fm20(cli, earlier=False, rated_in=True)
    assert april["rating"] != 2418  # Ro 2436: the expected score is higher
    assert Decimal(str(april["expected"])) > Decimal("10.40")


def test_without_the_rated_in_month_the_crown_is_rated_a_list_early(cli: Cli) -> None:
    fm20(cli, earlier=True, rated_in=False)
    march = history_row(cli, "F-M20", "2026-02")
    assert (march["games"], march["change"]) == (10, -4)  # -3.90 a list early
    assert march["rating"] == 2432  # FIDE's March list says 2436


# F-M12: FIDE id 214973, the list of 1 April 2026. Lists: February 2012, March 1984, April
# 1983; K 20. Cappelle la Grande (21-27 February) was rated on the April list with the
# February rating 2012 (-15.00); four March events with 1984 (+11.00, -11.60, +7.20, +7.00);
# total -1.40, published 1984 - 1 = 1983. Two opponents were capped by the 400-point rule at
# 1612 (2012 - 400): their ratings are recorded as FIDE used them.
CAPPELLE: FideGames = [
    (2207, "w", 0), (1812, "b", 0.5), (1612, "w", 1), (1879, "b", 0.5), (1684, "w", 0.5),
    (2142, "b", 0), (1612, "w", 1), (1776, "b", 1), (1837, "w", 1),
]  # fmt: skip


def test_a_late_rated_event_of_an_earlier_list_beside_the_months_events(cli: Cli) -> None:
    ok(cli("player", "add", "F-M12", "--born", "1994"))
    ok(cli("player", "seed", "F-M12", "--rating", "1984", "--games", "200"))
    ok(cli("player", "seed", "F-M12", "--list", "2026-02", "--rating", "2012"))
    play(cli, "F-M12", "Cappelle la Grande 2026", "2026-02-21", "2026-02-27", CAPPELLE)
    ok(cli("event", "edit", "Cappelle la Grande 2026", "--rated-in", "2026-03"))
    for event, day, rating, colour, score in (
        ("Belgian Interclubs R8", "2026-03-01", 2018, "w", 1.0),
        ("VPTD Clubkampioenschap 4", "2026-03-07", 1926, "b", 0.0),
        ("Belgian Interclubs R9", "2026-03-15", 1881, "b", 1.0),
        ("Belgian Interclubs R10", "2026-03-29", 1877, "w", 1.0),
    ):
        play(cli, "F-M12", event, day, day, [(rating, colour, score)])
    ok(cli("period", "close", "2026-03"))
    april = history_row(cli, "F-M12", "2026-03")
    assert (april["rating_before"], april["k"], april["games"]) == (1984, 20, 13)
    assert Decimal(str(april["score"])) == Decimal("8.5")
    assert Decimal(str(april["change_exact"])) == Decimal("-1.40")
    assert (april["change"], april["rating"]) == (-1, 1983)  # FIDE's April list


# F-P04: FIDE id 30915422, the list of 1 December 2025. The November list shows 2052; FIDE
# rated the Washington Dulles Open (7-9 November 2025) with Ro 2053: -0.20, and published
# 2053 on the December list, its corrected rating plus the change.
DULLES: FideGames = [(1675, "b", 1), (2310, "w", 0), (1653, "b", 1), (1884, "w", 1), (2218, "b", 0)]


def test_a_corrected_ro_rates_the_event_and_the_new_list_follows_it(cli: Cli) -> None:
    ok(cli("player", "add", "F-P04", "--born", "1998"))
    ok(cli("player", "seed", "F-P04", "--rating", "2052", "--games", "150"))
    play(cli, "F-P04", "1st Washington Dulles Open", "2025-11-07", "2025-11-09", DULLES)
    ok(cli("period", "close", "2025-11"))
    listed = history_row(cli, "F-P04", "2025-11")
    assert listed["rating"] != 2053  # rated from the list's 2052

    edited = ok(cli("event", "edit", "1st Washington Dulles Open", "--ro", "F-P04=2053"))
    assert "now stale" in edited.stderr
    ok(cli("rerate"))
    december = history_row(cli, "F-P04", "2025-11")
    assert Decimal(str(december["change_exact"])) == Decimal("-0.20")
    assert Decimal(str(december["expected"])) == Decimal("3.01")
    assert (december["rating_before"], december["change"], december["rating"]) == (2052, 0, 2053)
    assert "Ro 2053 in 1st Washington Dulles Open (list: 2052)" in december["note"]
    assert "rated from 2053, FIDE's corrected rating" in december["note"]

    again = ok(cli("event", "edit", "1st Washington Dulles Open", "--ro", "F-P04=2053"))
    assert again.stderr.startswith("unchanged (nothing differs)")
    ok(cli("event", "edit", "1st Washington Dulles Open", "--clear-ro", "F-P04"))
    ok(cli("rerate"))
    assert history_row(cli, "F-P04", "2025-11") == listed


def test_what_is_refused_is_refused_with_one_line(cli: Cli) -> None:
    ok(cli("player", "add", "Hart", "--rating", "2391", "--games", "240"))
    ok(cli("player", "add", "Okafor"))
    ok(cli("player", "add", "Guest", "--external"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-08-29", "--event", "Weekend"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-05"))
    ok(cli("period", "close", "2026-09"))
    usage = ("nothing to change", "--ro 'Hart:2400'")
    for args, error in (
        (
            ("event", "edit", "Weekend", "--rated-in", "2026-07"),
            "Weekend ends on 2026-08-29: it cannot be rated before 2026-08",
        ),
        (
            ("event", "edit", "Weekend"),
            "nothing to change: give --name, --start, --end, --rounds, --type, --tc, --site, "
            "--rated-in, --ro or --clear-ro",
        ),
        (("event", "edit", "Weekly", "--rated-in", "2026-09"), "no event 'Weekly'"),
        (
            ("event", "edit", "Weekend", "--ro", "Guest=2000"),
            "Guest is external: tracker does not rate them, so no rating is given for them",
        ),
        (("event", "edit", "Weekend", "--ro", "Hart:2400"), "--ro 'Hart:2400': give"),
        (
            ("player", "seed", "Hart", "--list", "2026-09", "--rating", "2380"),
            "tracker publishes the standard lists from 2026-09 on itself (its first closed "
            "period is 2026-08): an earlier list is one before",
        ),
        (
            ("player", "seed", "Hart", "--list", "2026-11", "--rating", "2380"),
            "tracker publishes the standard lists from 2026-09 on itself",
        ),
        (
            ("player", "seed", "Hart", "--list", "1970-12", "--rating", "2380"),
            "there is no FIDE list of 1970-12: the first is of 1971",
        ),
        (
            ("player", "seed", "Okafor", "--list", "2026-06", "--rating", "2000"),
            "Okafor has no standard seed: an earlier list goes with one",
        ),
        (
            ("player", "seed", "Hart", "--list", "2026-06", "--rating", "2380", "--games", "9"),
            "an earlier list gives the rating only",
        ),
        (
            ("player", "seed", "Hart", "--list", "2026-06", "--clear"),
            "Hart has no standard rating on the 2026-06 list to clear",
        ),
        (
            ("player", "seed", "Hart", "--list", "2027-01", "--rating", "2380"),
            "the 2027-01 list is not out yet",
        ),
    ):
        code = 2 if any(u in error for u in usage) else 1
        assert error in one_line_error(cli(*args), code), args


def fide_list_file(path: Path, month: str, lines: list[tuple[int, str, int, int, int]]) -> Path:
    """A FIDE standard list download of ``month`` (``FEB26``): (FIDE id, name, rating, K,
    birth year) per line, in FIDE's fixed columns."""
    header = (
        f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'Sex':<4}{'Tit':<5}{'WTit':<5}{'OTit':<15}"
        f"{'FOA':<4}{month:<6}{'Gms':<4}{'K':<3}{'B-day':<6}Flag"
    )
    rows = [
        f"{fide_id:<15}{name:<61}{'RUS':<4}{'M':<4}{'':<5}{'':<5}{'':<15}{'':<4}"
        f"{rating:<6}{0:<4}{k:<3}{born:<6}"
        for fide_id, name, rating, k, born in lines
    ]
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def test_monthly_list_files_give_the_seed_and_the_earlier_lists(cli: Cli, tmp_path: Path) -> None:
    """F-M20 from FIDE's own downloads: the March 2026 list seeds the player, the February
    one (imported after it) is kept as an earlier list; then the period is FIDE's."""
    ok(cli("player", "add", "F-M20", "--fide-id", "25034430"))
    march = fide_list_file(tmp_path / "standard_mar26frl.txt", "MAR26", [
        (25034430, "F-M20", 2436, 10, 1999)])  # fmt: skip
    february = fide_list_file(tmp_path / "standard_feb26frl.txt", "FEB26", [
        (25034430, "F-M20", 2418, 10, 1999)])  # fmt: skip
    future = fide_list_file(tmp_path / "standard_mar27frl.txt", "MAR27", [
        (25034430, "F-M20", 2500, 10, 1999)])  # fmt: skip
    refused = cli("player", "import-fide-list", str(future))
    assert refused.exit_code == 1 and "the 2027-03 list is not out yet" in refused.stderr
    ok(cli("player", "import-fide-list", str(march)))
    kept = ok(cli("player", "import-fide-list", str(february)))
    assert "F-M20 (25034430): the 2026-02 list" in kept.stderr
    assert "kept the seed of a later list imported before" in kept.stderr
    assert "1 rating kept as the players' on the 2026-02 list" in kept.stderr
    shown = js(cli, "player", "show", "F-M20", "--json")
    assert [(s["rating"], s["ever_2400"]) for s in shown["seeds"]] == [(2436, True)]
    assert shown["earlier_lists"] == [
        {"tc": "standard", "list": "2026-02", "rating": 2418},
        {"tc": "standard", "list": "2026-03", "rating": 2436},
    ]
    play(cli, "F-M20", "Russian Chess Crown A", "2026-02-19", "2026-02-26", CROWN)
    play(cli, "F-M20", "Aeroflot Open 2026", "2026-02-28", "2026-03-05", AEROFLOT)
    ok(cli("event", "edit", "Russian Chess Crown A", "--rated-in", "2026-03"))
    ok(cli("period", "close", "2026-03"))
    april = history_row(cli, "F-M20", "2026-03")
    assert Decimal(str(april["change_exact"])) == Decimal("-17.50")
    assert april["rating"] == 2418  # FIDE's April list


WEEKEND_CSV = """date,white,black,result,event,tc
2026-08-29,Hart,Okafor,1-0,Late Weekend,standard
2026-08-30,Okafor,Hart,1/2-1/2,Late Weekend,standard
"""


def test_an_import_states_the_period_its_events_are_rated_in(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Hart", "--rating", "2391", "--games", "240"))
    ok(cli("player", "add", "Okafor", "--rating", "2105", "--games", "100"))
    games = tmp_path / "weekend.csv"
    games.write_text(WEEKEND_CSV)
    early = cli("import", str(games), "--rated-in", "2026-07")
    assert "Late Weekend ends on 2026-08-30: it cannot be rated before 2026-08" in early.stderr
    assert early.exit_code == 1 and js(cli, "game", "list", "--json") == []  # nothing written
    ok(cli("import", str(games), "--rated-in", "2026-09"))
    periods = {p["month"]: p["games"] for p in js(cli, "period", "list", "--json")}
    assert periods == {"2026-09": 2}  # August rates nothing
    ok(cli("period", "close", "2026-09"))
    assert history_row(cli, "Hart", "2026-09")["games"] == 2
    assert (
        "Late Weekend ended 2026-08-30, rated in 2026-09"
        in history_row(cli, "Hart", "2026-09")["note"]
    )
    again = ok(cli("import", str(games), "--rated-in", "2026-08"))  # nothing new: the month
    assert "closed standard periods from 2026-08 are now stale" in again.stderr
    ok(cli("rerate"))
    assert history_row(cli, "Hart", "2026-08")["games"] == 2


def test_giving_fides_inputs_after_the_close_and_rerating_equals_giving_them_before(
    cli: Cli, db_url: str, other_cli: Cli, other_db_url: str
) -> None:
    """F-M20 and a club opponent: the inputs given before the close (``other_cli``) or after
    it, with the stale marks they make and ``rerate``, give the same lists and shadows."""
    inputs = (
        ("player", "seed", "F-M20", "--list", "2026-02", "--rating", "2418"),
        ("event", "edit", "Russian Chess Crown A", "--rated-in", "2026-03"),
        ("event", "edit", "Aeroflot Open 2026", "--ro", "F-M20=2419"),
    )
    for one in (cli, other_cli):
        ok(one("player", "add", "F-M20", "--born", "1999"))
        ok(one("player", "seed", "F-M20", "--rating", "2436", "--games", "400", "--ever-2400"))
        ok(one("player", "add", "Club, Member", "--rating", "2290", "--games", "80"))
        play(one, "F-M20", "Russian Chess Crown A", "2026-02-19", "2026-02-26", CROWN)
        play(one, "F-M20", "Aeroflot Open 2026", "2026-02-28", "2026-03-05", AEROFLOT)
        ok(one("game", "add", "F-M20", "Club, Member", "1/2-1/2", "--date", "2026-03-20"))
    for args in inputs:
        ok(other_cli(*args))
    ok(other_cli("period", "close", "2026-04"))
    ok(cli("period", "close", "2026-04"))
    for args in inputs:
        assert "are now stale" in ok(cli(*args)).stderr, args
    ok(cli("rerate"))
    for name in ("F-M20", "Club, Member"):
        assert js(cli, "history", name, "--json") == js(other_cli, "history", name, "--json")
    assert history_row(cli, "F-M20", "2026-03")["rating"] != 2418  # the Ro 2419 moved it


def test_a_ro_is_a_rated_players_in_an_event_rated_whole(cli: Cli) -> None:
    ok(cli("player", "add", "Hart", "--rating", "2391", "--games", "240"))
    ok(cli("player", "add", "Okafor"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-08-29", "--event", "Weekend"))
    ok(cli("event", "add", "Long League", "--start", "2026-03-01", "--type", "league"))
    for day in ("2026-03-01", "2026-07-01"):
        ok(cli("game", "add", "Okafor", "Hart", "0-1", "--date", day, "--event", "Long League"))
    for args, error in (
        (
            ("event", "edit", "Weekend", "--ro", "Okafor=2000"),
            "Okafor is unrated on the standard list in force when Weekend started (2026-08): "
            "a Ro is a rated player's",
        ),
        (
            ("event", "edit", "Long League", "--ro", "Hart=2400"),
            "Long League lasts 123 days (a league): each month is rated with that month's "
            "list, so one Ro cannot be given for it",
        ),
        (
            ("event", "edit", "Long League", "--rated-in", "2026-08"),
            "Long League lasts 123 days (a league): it is rated month by month",
        ),
        (
            ("event", "edit", "Weekend", "--rated-in", "2026-11"),
            "Weekend ends on 2026-08-29: FIDE rates it by the period 2026-10 or not at all "
            "(§9.1: the third list after it ends)",
        ),
    ):
        assert error in one_line_error(cli(*args), 1), args
    ok(cli("event", "edit", "Weekend", "--rated-in", "2026-10"))  # the last it may be
