"""``event list`` and ``event show`` at the service (tracker.services.events.report): the
events' listing, an event's standings, start numbers, crosstable and tie-breaks."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.helpers import TODAY, Services, day, game, seeded, unrated
from tracker.services.events import report
from tracker.services.events.lookup import find_event

D = Decimal


@pytest.fixture
def triangle(db: Services) -> Services:
    """Three players meet once each: Ames beats Berg, draws Cruz; Berg beats Cruz."""
    with db.transaction() as s:
        seeded(s, "Ames", 2000)
        seeded(s, "Berg", 1900)
        seeded(s, "Cruz", 1800)
        game(s, "Ames", "Berg", "1-0", "2026-03-02", event="Spring Trio", round_="1")
        game(s, "Cruz", "Ames", "1/2-1/2", "2026-03-09", event="Spring Trio", round_="2")
        game(s, "Berg", "Cruz", "1-0", "2026-03-16", event="Spring Trio", round_="3")
    return db


def test_the_events_listing(triangle: Services) -> None:
    (trio,) = triangle(report.list_events, TODAY)
    assert (trio.name, trio.tc, trio.start, trio.end, trio.end_declared) == (
        "Spring Trio", "standard", day("2026-03-02"), day("2026-03-16"), False,
    )  # fmt: skip
    assert (trio.games, trio.players, trio.stated) == (3, 3, None)
    assert triangle(report.list_events, TODAY, "rapid") == ()


def test_the_standings_crosstable_and_tie_breaks(triangle: Services) -> None:
    with triangle.transaction() as s:
        out = report.show_event(s, find_event(s, "Spring Trio"), TODAY)
    assert (out.name, out.tc, out.rounds) == ("Spring Trio", "standard", True)
    lines = [(p.rank, p.name, p.number, p.games, p.score) for p in out.standings]
    assert lines == [
        (1, "Ames", 1, 2, D("1.5")),
        (2, "Berg", 2, 2, D(1)),
        (3, "Cruz", 3, 2, D("0.5")),
    ]
    # Buchholz: the opponents' scores; Sonneborn-Berger: each times the points made on him
    assert [tuple(p.tie_breaks) for p in out.standings] == [
        (D("1.5"), D("1.25")), (D(2), D("0.5")), (D("2.5"), D("0.75")),
    ]  # fmt: skip
    ames = out.standings[0].cells
    assert [(c.round, c.opponent_number, c.colour, c.result) for c in ames] == [
        ("1", 2, "w", "1"), ("2", 3, "b", "="),
    ]  # fmt: skip
    assert [p.rating for p in out.standings] == [2000, 1900, 1800]


def test_start_numbers_and_tie_breaks_by_kind() -> None:
    numbers = report.start_numbers(
        {7: (1900, "Berg"), 3: (None, "Able"), 5: (1900, "Adam"), 9: (2100, "Zed")}
    )
    assert numbers == {9: 1, 5: 2, 7: 3, 3: 4}  # rating, the unrated last, then name
    assert report.tie_breaks_of("swiss") == ("BH",)
    assert report.tie_breaks_of("round-robin") == ("SB",)
    assert report.tie_breaks_of(None) == ("BH", "SB")


def test_an_event_of_an_unrated_newcomer(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Ames", 2000)
        unrated(s, "Nova")
        game(s, "Nova", "Ames", "0-1", "2026-03-02", event="Club Night")
        out = report.show_event(s, find_event(s, "Club Night"), TODAY)
    assert [(p.name, p.rating, p.score) for p in out.standings] == [
        ("Ames", 2000, D(1)), ("Nova", None, D(0)),
    ]  # fmt: skip
    assert out.rounds is False  # a game without a round
