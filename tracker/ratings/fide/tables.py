"""The two conversion tables of the FIDE Rating Regulations, as data.

Source: FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02), as amended
1 October 2025, table 8.1.1 (fractional score p -> rating difference dp) and table 8.1.2
(rating difference D -> scoring probability PD).

Probabilities are stored as integer hundredths so that every value is exact; the lookup
functions in :mod:`tracker.ratings.fide` turn them into :class:`decimal.Decimal`. Nothing in
this module reads a file: ``tests/ratings/test_fide.py`` checks these literals against the
reference JSON when it is available.
"""

from __future__ import annotations

from typing import Final

PdRow = tuple[int, int | None, int, int]
"""One row of table 8.1.2: ``(D_min, D_max, PD_higher, PD_lower)``.

``D_max`` is ``None`` for the open-ended last row (D > 735). ``PD_higher`` is the scoring
probability of the higher-rated player and ``PD_lower`` that of the lower-rated player, both in
hundredths (``92`` means 0.92). In every row ``PD_higher + PD_lower == 100``.
"""

PD_ROWS: Final[tuple[PdRow, ...]] = (
    (0, 3, 50, 50),
    (4, 10, 51, 49),
    (11, 17, 52, 48),
    (18, 25, 53, 47),
    (26, 32, 54, 46),
    (33, 39, 55, 45),
    (40, 46, 56, 44),
    (47, 53, 57, 43),
    (54, 61, 58, 42),
    (62, 68, 59, 41),
    (69, 76, 60, 40),
    (77, 83, 61, 39),
    (84, 91, 62, 38),
    (92, 98, 63, 37),
    (99, 106, 64, 36),
    (107, 113, 65, 35),
    (114, 121, 66, 34),
    (122, 129, 67, 33),
    (130, 137, 68, 32),
    (138, 145, 69, 31),
    (146, 153, 70, 30),
    (154, 162, 71, 29),
    (163, 170, 72, 28),
    (171, 179, 73, 27),
    (180, 188, 74, 26),
    (189, 197, 75, 25),
    (198, 206, 76, 24),
    (207, 215, 77, 23),
    (216, 225, 78, 22),
    (226, 235, 79, 21),
    (236, 245, 80, 20),
    (246, 256, 81, 19),
    (257, 267, 82, 18),
    (268, 278, 83, 17),
    (279, 290, 84, 16),
    (291, 302, 85, 15),
    (303, 315, 86, 14),
    (316, 328, 87, 13),
    (329, 344, 88, 12),
    (345, 357, 89, 11),
    (358, 374, 90, 10),
    (375, 391, 91, 9),
    (392, 411, 92, 8),
    (412, 432, 93, 7),
    (433, 456, 94, 6),
    (457, 484, 95, 5),
    (485, 517, 96, 4),
    (518, 559, 97, 3),
    (560, 619, 98, 2),
    (620, 735, 99, 1),
    (736, None, 100, 0),
)
"""FIDE Rating Regulations 2024, table 8.1.2: rating difference D -> PD (in hundredths)."""

DP_BY_PERCENT: Final[tuple[int, ...]] = (
    # p = 0.00 .. 0.09
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,
    # p = 0.10 .. 0.19
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,
    # p = 0.20 .. 0.29
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    # p = 0.30 .. 0.39
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,
    # p = 0.40 .. 0.49
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    # p = 0.50 .. 0.59
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    # p = 0.60 .. 0.69
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    # p = 0.70 .. 0.79
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    # p = 0.80 .. 0.89
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    # p = 0.90 .. 0.99
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    # p = 1.00 (notional)
    800,
)  # fmt: skip
"""FIDE Rating Regulations 2024, table 8.1.1: ``DP_BY_PERCENT[i]`` is dp for p = i / 100.

The end points p = 0 and p = 1 are notional (+-800); with the two hypothetical drawn games of
§8.2.2 a newcomer's p never reaches them.
"""
