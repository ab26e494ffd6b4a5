"""Seeding from FIDE's lists (tracker.services.players.fide_list): the tracked players a list
names refreshed, a federation's new players added, a seed from a list line. Read from FIDE's
list of 2026-11 in tests/importers/data."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Services, month
from tracker.db.queries.players import SeedRow
from tracker.importers.fidelist import FideListEntry
from tracker.services.players import fide_list, refs, roster

TXT = Path(__file__).parents[2] / "importers" / "data" / "standard_rating_list.txt"


def _entry(rating: int, k: int | None, games: int = 9) -> FideListEntry:
    return FideListEntry(
        2, 1700101, "Lindgren, Axel", "SWE", "m", "FM", 1991, rating, games, k, False
    )


def test_a_seed_from_a_list_line() -> None:
    seed, guessed = fide_list.seed_from_list(_entry(2221, 20), "standard", None, junior=False)
    assert (seed.rating, seed.games, seed.ever_2400, seed.ever_2300, guessed) == (
        2221,
        30,
        False,
        False,
        False,
    )
    seed, guessed = fide_list.seed_from_list(_entry(1900, 40), "standard", None, junior=False)
    assert (seed.games, guessed) == (0, True)  # K 40, no earlier count: a guess
    old = SeedRow(1, "standard", 1890, 12, False, False)
    seed, guessed = fide_list.seed_from_list(_entry(1900, 40), "standard", old, junior=False)
    assert (seed.games, guessed) == (12, False)
    seed, _ = fide_list.seed_from_list(_entry(2390, 10), "standard", None, junior=False)
    assert seed.ever_2400 and seed.ever_2300  # K 10: once 2400


def _read(db: Services, **options: object) -> fide_list.FideListReport:
    with db.transaction() as s, TXT.open("rb") as stream:
        return fide_list.import_fide_list(s, stream, TXT.name, **options)  # type: ignore[arg-type]


def test_the_tracked_players_a_list_names_refreshed(db: Services) -> None:
    db(roster.add_player, name="Lindgren, Axel", fide_id=1700101)
    db(roster.add_player, name="Someone, Else", fide_id=9999999)
    out = _read(db)
    assert (out.format, out.tc, out.list_month, out.problems) == (
        "txt",
        "standard",
        month("2026-11"),
        (),
    )
    assert out.matched == 1 and out.created == ()
    (change,) = out.updated
    assert (change.name, change.fide_id, change.seed_before, change.seed_after) == (
        "Lindgren, Axel", 1700101, None, 2221,
    )  # fmt: skip
    assert set(change.fields) >= {"federation", "birth_year", "title"}
    axel = db(refs.show_player, "Lindgren")
    assert (axel.federation, axel.birth_year, axel.title, axel.sex) == ("SWE", 1991, "FM", "m")
    assert [(s.rating, s.games) for s in axel.seeds] == [(2221, 30)]
    assert _read(db).unchanged == 1  # the same list again changes nothing


def test_a_federations_players_added_in_a_dry_run_and_for_real(db: Services) -> None:
    dry = _read(db, federation="nor", dry_run=True)
    names = sorted(c.name for c in dry.created)
    assert "Haugen, Kari" in names and "Nilsen, Ingrid" in names
    assert all(c.player_id is None for c in dry.created)
    assert db(roster.list_players) == ()  # nothing written
    real = _read(db, federation="NOR")
    assert sorted(c.name for c in real.created) == names
    kari = db(refs.show_player, "Haugen, Kari")
    assert (kari.fide_id, kari.birth_year, kari.sex) == (1500202, 2004, "f")
    assert [s.rating for s in kari.seeds] == [2016]
