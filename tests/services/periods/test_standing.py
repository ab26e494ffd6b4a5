"""Where a player stands on a list (tracker.services.periods.standing): rank, ties and
percentile; his peak; a rehearsal that keeps nothing it wrote."""

from __future__ import annotations

from tests.helpers import Services, month, unrated
from tracker.db.queries import lists as list_queries
from tracker.db.queries.status import player_counts
from tracker.services.periods import standing
from tracker.services.periods.standing import Standing


def test_a_place_among_a_lists_ratings() -> None:
    ratings = [1800, 1900, 1900, 2000]  # lowest first
    assert standing.place(ratings, 2000) == Standing(1, 4, 75.0)
    assert standing.place(ratings, 1900) == Standing(2, 4, 25.0)  # two share the 2nd place
    assert standing.place(ratings, 1800) == Standing(4, 4, 0.0)
    assert standing.place([], 2000) is None and standing.place(ratings, None) is None
    assert standing.stood(1, 1, 1) == Standing(1, 1, 0.0)


def test_each_list_a_player_is_on(season: Services) -> None:
    with season.transaction() as s:
        hart = s.scalar("SELECT id FROM players WHERE name = 'Hart'")
        places = standing.ListPlaces(s, "standard", hart)
        lines = sorted(
            (m, True, line) for m, line in list_queries.player_lines(s, "standard", hart).items()
        )
    assert places.place(month("2026-02")) == Standing(1, 2, 50.0)
    assert places.place(month("2025-12")) is None
    assert standing.peak(lines) == standing.Peak(2007, month("2026-02"))
    assert standing.peak([]) is None


def test_a_rehearsal_keeps_what_it_read_not_what_it_wrote(db: Services) -> None:
    with db.transaction() as s:
        unrated(s, "Kept")
        counted = standing.rehearsed(s, lambda: (unrated(s, "Gone"), player_counts(s))[1])
        assert counted == (2, 0)
        assert player_counts(s) == (1, 0)
        assert unrated(s, "Next").id == 2  # PostgreSQL's sequence put back too
