"""The least-squares line between two ratings, against the standard library's regression."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.ratings.fit import fit_line

ELO = [2397.0, 2332.0, 2108.0, 1961.0, 1844.0, 1623.0]
LICHESS = [2465.0, 2418.0, 2242.0, 2167.0, 2117.0, 1860.0]


def test_against_statistics_linear_regression() -> None:
    fit = fit_line(ELO, LICHESS)
    assert fit is not None
    expected = statistics.linear_regression(ELO, LICHESS)
    assert fit.slope == pytest.approx(expected.slope, rel=1e-12)
    assert fit.intercept == pytest.approx(expected.intercept, rel=1e-12)
    assert fit.r == pytest.approx(statistics.correlation(ELO, LICHESS), rel=1e-12)
    residuals = [y - fit.predict(x) for x, y in zip(ELO, LICHESS, strict=True)]
    assert math.fsum(residuals) == pytest.approx(0.0, abs=1e-9)
    assert fit.residual_sd == pytest.approx(math.sqrt(sum(e * e for e in residuals) / 4))
    mean = statistics.fmean(ELO)
    sxx = sum((x - mean) ** 2 for x in ELO)
    assert fit.slope_se == pytest.approx(fit.residual_sd / math.sqrt(sxx))
    assert (fit.n, fit.x_min, fit.x_max) == (6, 1623.0, 2397.0)


def test_a_perfect_line() -> None:
    fit = fit_line([1500, 1700, 1900], [1650, 1850, 2050])
    assert fit is not None
    assert (fit.slope, fit.intercept, fit.residual_sd, fit.r) == (1.0, 150.0, 0.0, 1.0)
    assert fit.predict(1800) == 1950.0


def test_too_few_or_degenerate() -> None:
    assert fit_line([], []) is None
    assert fit_line([2000], [2100]) is None
    assert fit_line([2000, 2000, 2000], [2100, 2200, 2150]) is None  # every Elo the same
    two = fit_line([1800, 2000], [1900, 2150])
    assert two is not None and two.slope == 1.25
    assert two.residual_sd is None and two.slope_se is None  # two points: always on the line
    flat = fit_line([1800, 2000, 2200], [2000, 2000, 2000])
    assert flat is not None and flat.slope == 0 and flat.r is None
    with pytest.raises(ValueError):
        fit_line([1, 2], [1])


@given(
    st.lists(
        st.tuples(st.integers(1000, 2800), st.integers(800, 3000)), min_size=3, max_size=40
    ).filter(lambda pairs: len({x for x, _ in pairs}) > 1)
)
def test_the_line_passes_through_the_means(pairs: list[tuple[int, int]]) -> None:
    xs = [float(x) for x, _ in pairs]
    ys = [float(y) for _, y in pairs]
    fit = fit_line(xs, ys)
    assert fit is not None
    assert fit.predict(statistics.fmean(xs)) == pytest.approx(statistics.fmean(ys), abs=1e-6)
    assert fit.residual_sd is not None and fit.residual_sd >= 0
