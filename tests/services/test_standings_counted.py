"""A list's ratings kept as counts (issue 26: `history` ranks each list without sorting
every player's rating) place a rating exactly as the sorted list does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tracker.services.periods.standing import _Counted, place

ratings = st.lists(st.integers(min_value=1000, max_value=2900), max_size=60)


@given(ratings, st.one_of(st.none(), st.integers(min_value=900, max_value=3000)))
def test_counts_place_a_rating_as_the_sorted_list_does(
    values: list[int], rating: int | None
) -> None:
    counts: dict[int, int] = {}
    for r in values:
        counts[r] = counts.get(r, 0) + 1
    counts.setdefault(1234, 0)  # a rating nobody may hold any more (its players moved)
    assert _Counted(counts).place(rating) == place(sorted(values), rating)


def test_equal_ratings_share_a_rank() -> None:
    standing = _Counted({1500: 2, 1600: 1, 1400: 3}).place(1500)
    assert standing is not None
    assert (standing.rank, standing.of, standing.percentile) == (2, 6, 50.0)
