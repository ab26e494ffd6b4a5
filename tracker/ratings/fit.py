"""A straight line through pairs of ratings: ordinary least squares, with how far to trust it.

Used to say "here, FIDE 1900 is about Lichess classical 2050": x is one rating (FIDE Elo),
y the other (an online rating) for the same players. With few players the line is rough;
:class:`LineFit` carries what is needed to say so: n, the residual spread and the standard
error of the slope.

Pure code: standard library only, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LineFit:
    """``y = intercept + slope x`` fitted to ``n`` pairs.

    ``residual_sd``: sqrt(sum of squared residuals / (n - 2)), the typical distance of a
    player from the line (None below 3 pairs: two points always lie on their line).
    ``slope_se``: the slope's standard error, residual_sd / sqrt(sum (x - mean x)^2).
    ``r``: Pearson's correlation (None when every y is the same).
    """

    n: int
    slope: float
    intercept: float
    residual_sd: float | None
    slope_se: float | None
    r: float | None
    x_min: float
    x_max: float

    def predict(self, x: float) -> float:
        return self.intercept + self.slope * x


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> LineFit | None:
    """The least-squares line of ``ys`` on ``xs``; None for fewer than 2 pairs or when every x
    is the same (no line is determined)."""
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} x values but {len(ys)} y values; they must pair up")
    n = len(xs)
    if n < 2:
        return None
    mean_x = math.fsum(xs) / n
    mean_y = math.fsum(ys) / n
    sxx = math.fsum((x - mean_x) ** 2 for x in xs)
    syy = math.fsum((y - mean_y) ** 2 for y in ys)
    sxy = math.fsum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    if sxx == 0:
        return None
    slope = sxy / sxx
    intercept = mean_y - slope * mean_x
    residuals = math.fsum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    residual_sd = math.sqrt(residuals / (n - 2)) if n > 2 else None
    return LineFit(
        n=n,
        slope=slope,
        intercept=intercept,
        residual_sd=residual_sd,
        slope_se=residual_sd / math.sqrt(sxx) if residual_sd is not None else None,
        r=sxy / math.sqrt(sxx * syy) if syy > 0 else None,
        x_min=min(xs),
        x_max=max(xs),
    )
