"""Pictures of a player's ratings (matplotlib, no display needed)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.errors import InvalidInputError

if TYPE_CHECKING:
    from tracker.services.compare import Comparison


def check_plot_path(path: Path) -> None:
    """Refuse a bad target before any work is done or anything is printed."""
    if path.suffix.lower() != ".png":
        raise InvalidInputError(f"{path}: the plot is a PNG file; name it *.png")
    if not path.parent.exists():
        raise InvalidInputError(f"folder {path.parent} does not exist")


def plot_comparison(c: Comparison, path: Path) -> None:
    """FIDE Elo as steps per published list; the shadow as a line with a +-2 RD band;
    provisional stretches shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import dates as mdates

    date2num: Any = mdates.date2num  # untyped in matplotlib's stubs

    check_plot_path(path)
    if not c.rows:
        raise InvalidInputError(f"nothing to plot: no closed {c.tc} periods for {c.name}")

    elo = [(r.list_date, r.elo) for r in c.rows if r.elo is not None]
    if c.elo_start is not None:
        elo.insert(0, c.elo_start)
    if c.points:
        line = [(p.played_on, p.rating, p.rd, p.provisional) for p in c.points]
    else:
        line = [
            (r.list_date, r.glicko, r.rd, bool(r.provisional))
            for r in c.rows
            if r.glicko is not None and r.rd is not None
        ]

    fig, ax = plt.subplots(figsize=(10, 5.2), dpi=110)
    try:
        if line:
            days = date2num([d for d, *_ in line])
            ratings = [r for _, r, _, _ in line]
            low = [r - 2 * rd for _, r, rd, _ in line]
            high = [r + 2 * rd for _, r, rd, _ in line]
            ax.fill_between(
                days,
                low,
                high,
                color="tab:orange",
                alpha=0.18,
                linewidth=0,
                label=f"{c.preset} ±2 RD",
            )
            ax.plot(
                days,
                ratings,
                color="tab:orange",
                linewidth=1.6,
                marker="o",
                markersize=2.5,
                label=f"{c.preset} shadow",
            )
            _shade_provisional(ax, line, date2num)
        if elo:
            dates = [d for d, _ in elo]
            values = [v for _, v in elo]
            last = max([dates[-1], *(d for d, *_ in line)]) + dt.timedelta(days=15)
            ax.step(
                date2num([*dates, last]),
                [*values, values[-1]],
                where="post",
                color="tab:blue",
                linewidth=2.2,
                label="FIDE Elo (published lists)",
            )
            ax.plot(date2num(dates), values, "o", color="tab:blue", markersize=4)
        ax.xaxis_date()
        ax.set_title(f"{c.name}: FIDE Elo and the {c.preset} shadow ({c.tc})")
        ax.set_ylabel("rating")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=9)
        fig.autofmt_xdate()
        fig.tight_layout()
        fig.savefig(path, format="png")
    except OSError as exc:
        raise InvalidInputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _shade_provisional(
    ax: Any, line: list[tuple[dt.date, float, float, bool]], to_num: Any
) -> None:
    """Grey spans where the shadow is provisional (its RD is still high)."""
    spans: list[tuple[dt.date, dt.date]] = []
    start: dt.date | None = None
    for day, _, _, provisional in line:
        if provisional and start is None:
            start = day
        if not provisional and start is not None:
            spans.append((start, day))
            start = None
    if start is not None:
        spans.append((start, line[-1][0]))
    for i, (a, b) in enumerate(spans):
        ax.axvspan(
            to_num(a),
            to_num(b if b > a else a + dt.timedelta(days=1)),
            color="grey",
            alpha=0.12,
            label="provisional shadow" if i == 0 else None,
        )
