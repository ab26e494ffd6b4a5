"""The benchmark's scaling table (benchmarks/scaling.py): the fitted exponent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import scaling


@pytest.mark.parametrize("b", [0.5, 1.0, 1.3, 2.0])
def test_the_exponent_of_a_power_law_is_found(b: float) -> None:
    points = [(n, 0.02 * n**b) for n in (4_000, 41_666, 250_000)]
    assert scaling.exponent(points) == pytest.approx(b)


def test_one_size_has_no_exponent() -> None:
    assert scaling.exponent([(4_000, 0.4), (4_000, 0.5)]) is None


def test_the_table_fits_80_columns_and_fits_each_figure() -> None:
    runs = [
        {
            "size": size,
            "backend": "sqlite",
            "players": 3_000 * k,
            "players_on_file": 3_300 * k,
            "games": 48_000 * k,
            "games_last_month": 4_000 * k,
            "import_games": 48_000 * k,
            "close_s": 0.4 * k,
            "close_peak_rss_mb": 50.0,
            "rerate_s": 3.6 * k**2,
            "rerate_peak_rss_mb": 56.0,
            "import_s": 1.7 * k,
            "import_peak_rss_mb": 51.0,
            **({"history_s": 0.1, "event_show_s": 0.2} if size != "federation" else {}),
        }
        for size, k in (("small", 1), ("large", 12), ("federation", 60))
    ]
    text = scaling.text(scaling.rows(runs))
    assert max(len(line) for line in text.splitlines()) <= 80
    fitted = [line.split() for line in text.splitlines() if "exponent" in line]
    assert [line[0] for line in fitted] == ["close", "rerate", "import", "history", "event"]
    assert fitted[3][2:5] == ["b", "=", "0.00"]  # flat: the same time on every size
    assert fitted[1][5:8] == ["b", "=", "2.00"]  # the rerate's against the games
