"""A realistic 10-player round robin (tests/importers/data/roundrobin10.trf) imported, seeded,
closed, and its ratings checked against a hand computation, service by service.

The file: Riverside Club Championship 2026, 9 rounds 7-15 March 2026, standard time control
(its 122 record is free text and it has no 222 record, so the import needs the time control).
Its import through the CLI is checked in tests/cli/test_import_round_robin.py.

Hand computation (FIDE Rating Regulations 2024 as amended 1 October 2025): everybody is
seeded with his TRF rating after 50 games, so K is 20, and 40 for the two juniors (Novak,
born 2009, and Van Dijk, born 2010: under 18 at the end of 2026, never published at 2300).
The event starts in March, before any list of ours: the seeds are the ratings in force.
Per game the expected score comes from table 8.1.2 with differences above 400 counted as
400 (nobody is rated 2650 or more); the period's change is K x (score - expected), rounded
half away from zero only for the total.

    Lindqvist 2287, 7.5 points. Opponents (rounds 1-9) and PD:
      1645 (diff 642 -> 400) 0.92, 2214 (73) 0.60, 2158 (129) 0.67, 2093 (194) 0.75,
      2031 (256) 0.81, 1958 (329) 0.88, 1884 (403 -> 400) 0.92, 1802 (485) 0.92,
      1731 (556) 0.92; sum 7.39
      20 x (7.5 - 7.39) = +2.2 -> +2 -> 2289
    Kowalczyk 2093, 7.5 points. PD: 1884 0.77, 1802 0.85, 1731 0.90, 2287 0.25,
      2214 0.34, 2158 0.41, 1645 0.92, 2031 0.59, 1958 0.68; sum 5.71
      20 x (7.5 - 5.71) = +35.8 -> +36 -> 2129
    Esposito 2031, 4 points. PD: 1958 0.60, 1884 0.70, 1802 0.79, 1731 0.85, 2287 0.19,
      2214 0.26, 2158 0.33, 2093 0.41, 1645 0.91; sum 5.04
      20 x (4 - 5.04) = -20.8 -> -21 -> 2010
    Novak 1958 (junior, K 40), 4.5 points. PD: 2031 0.40, 1645 0.86, 1884 0.60, 1802 0.71,
      1731 0.79, 2287 0.12, 2214 0.19, 2158 0.24, 2093 0.32; sum 4.23
      40 x (4.5 - 4.23) = +10.8 -> +11 -> 1969
    Van Dijk 1802 (junior, K 40), 2 points. PD: 2158 0.11, 2093 0.15, 2031 0.21,
      1958 0.29, 1884 0.39, 1645 0.71, 1731 0.60, 2287 0.08, 2214 0.08; sum 2.62
      40 x (2 - 2.62) = -24.8 -> -25 -> 1777
    Petrov 1645, 1.5 points. PD: 2287 0.08, 1958 0.14, 2214 0.08, 1884 0.20, 2158 0.08,
      1802 0.29, 2093 0.08, 1731 0.38, 2031 0.09; sum 1.42
      20 x (1.5 - 1.42) = +1.6 -> +2 -> 1647
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from tests.helpers import Services, close
from tracker.ratings.fide.arithmetic import round_half_away
from tracker.ratings.fide.game import capped_difference, table_expected
from tracker.ratings.fide.rules import rules_for
from tracker.services import games, imports
from tracker.services.imports.report import ImportOptions, SourceFile
from tracker.services.periods import history, listing
from tracker.services.players import roster as players
from tracker.services.players.roster import Seed

ROUND_ROBIN = Path(__file__).parents[1] / "importers" / "data" / "roundrobin10.trf"
SEEDS = {
    "Lindqvist, Tomas": 2287,
    "Brennan, Patrick": 2214,
    "Moreau, Camille": 2158,
    "Kowalczyk, Marek": 2093,
    "Esposito, Luca": 2031,
    "Novak, Jana": 1958,
    "Haddad, Karim": 1884,
    "Van Dijk, Sander": 1802,
    "Ito, Yuki": 1731,
    "Petrov, Nikolai": 1645,
}
JUNIORS = {"Novak, Jana", "Van Dijk, Sander"}

#: name: (score, sum of PD, K, change exact, change, new rating), worked out by hand above.
BY_HAND = {
    "Lindqvist, Tomas": ("7.5", "7.39", 20, "2.2", 2, 2289),
    "Kowalczyk, Marek": ("7.5", "5.71", 20, "35.8", 36, 2129),
    "Esposito, Luca": ("4", "5.04", 20, "-20.8", -21, 2010),
    "Novak, Jana": ("4.5", "4.23", 40, "10.8", 11, 1969),
    "Van Dijk, Sander": ("2", "2.62", 40, "-24.8", -25, 1777),
    "Petrov, Nikolai": ("1.5", "1.42", 20, "1.6", 2, 1647),
}


def import_and_close(db: Services) -> None:
    """Import the file, give each new tracked player his FIDE state, close March."""
    source = SourceFile(str(ROUND_ROBIN), ROUND_ROBIN.read_bytes())
    # the club's own championship: its players are ours to rate (by default, players with a
    # recorded rating would be created external)
    options = ImportOptions(tc="standard", create_players="tracked")
    report = db(imports.import_files, [source], options)
    assert report.total("added") == 45
    with db.transaction() as s:
        for name, rating in SEEDS.items():
            players.edit_player(s, name, changes={}, seed=Seed(rating, 50))
    db(close, "2026-03")


def test_round_robin_ratings_match_the_hand_computation(db: Services) -> None:
    import_and_close(db)
    for name, (score, expected, k, exact, change, rating) in BY_HAND.items():
        rows = db(history.history, name, "standard").rows
        assert len(rows) == 1, name
        row = rows[0]
        assert (row.month, row.list_date) == (dt.date(2026, 3, 1), dt.date(2026, 4, 1))
        assert (row.rating_before, row.games, row.k) == (SEEDS[name], 9, k), name
        assert row.score == Decimal(score), name
        assert row.expected == Decimal(expected), name
        assert row.change_exact == Decimal(exact), name
        assert (row.change, row.rating) == (change, rating), name


def test_round_robin_ratings_match_the_fide_module_for_everyone(db: Services) -> None:
    """The same computation for all ten players, done independently of the period code with
    the pure rating functions (table, 400 cap, rounding), from the games in the database."""
    import_and_close(db)
    rules = rules_for("standard", dt.date(2026, 3, 7))  # the event's start (042)
    totals: dict[str, list[Decimal]] = {name: [Decimal(0), Decimal(0)] for name in SEEDS}
    for g in db(games.list_games):
        white_score = {"1-0": Decimal(1), "0-1": Decimal(0), "1/2-1/2": Decimal("0.5")}[g.result]
        for own, opp, score in (
            (g.white, g.black, white_score),
            (g.black, g.white, 1 - white_score),
        ):
            diff = capped_difference(SEEDS[own], SEEDS[opp], rules)
            totals[own][0] += score
            totals[own][1] += table_expected(diff)
    published = {e.name: e.rating for e in db(listing.rating_list, "standard", None).entries}
    for name, (score, expected) in totals.items():
        k = 40 if name in JUNIORS else 20
        change = round_half_away(k * (score - expected))
        assert published[name] == SEEDS[name] + change, name
    for name, (*_, rating) in BY_HAND.items():
        assert published[name] == rating
