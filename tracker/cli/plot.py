"""Pictures of players' ratings (matplotlib, no display needed): PNG, SVG or PDF by the
file's extension.

One player: their FIDE Elo as steps per published list, the shadow as a line through every
game and every list date (to the last one) with a light +-2 RD band behind it, and their real
online rating in the perf beside the list. The y-axis follows the ratings, not the band:
a wide band is cut at the edge rather than squeezing the ratings into a sliver. Provisional
stretches are shaded only where they tell something (part of the shadow provisional, part
not); a shadow provisional all along is said so in the legend.

Several players: one colour each, like Lichess's rating graph; FIDE Elo solid, the shadow
dashed, the online rating dotted; no bands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.errors import InvalidInputError
from tracker.user_input import exists

if TYPE_CHECKING:
    from tracker.services.compare import Comparison
    from tracker.services.online.reads import OnlineSeries

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
MAX_PLAYERS = 12
"""More lines than this on one chart are no longer readable."""
#: Beyond the first and last day drawn (the site's charts leave as much).
MARGIN = dt.timedelta(days=10)
ELO_LEGEND = "FIDE Elo (published lists)"


def check_plot_path(path: Path) -> None:
    """Refuse a bad target before any work is done or anything is printed."""
    if path.suffix.lower() not in FORMATS:
        raise InvalidInputError(
            f"{path}: the plot is a PNG, SVG or PDF file; name it *.png, *.svg or *.pdf"
        )
    if not exists(path.parent):
        raise InvalidInputError(f"folder {path.parent} does not exist")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _to_num(days: Sequence[dt.date]) -> Any:
    from matplotlib import dates as mdates

    date2num: Any = mdates.date2num  # untyped in matplotlib's stubs
    return date2num(list(days))


def elo_steps(c: Comparison) -> list[tuple[dt.date, int]]:
    elo = [(r.list_date, r.elo) for r in c.rows if r.elo is not None]
    if c.elo_start is not None and (not elo or c.elo_start[0] < elo[0][0]):
        elo.insert(0, c.elo_start)
    return elo


def shadow_line(c: Comparison) -> list[tuple[dt.date, float, float, bool]]:
    """(day, rating, RD, provisional): after each day's games (two games on a day are one
    point, after both), and on every list date (so the line runs to the last list, with the
    RD grown since the last game)."""
    points: list[tuple[dt.date, int, float, float, bool]] = [
        (p.played_on, 1, p.rating, p.rd, p.provisional) for p in c.points
    ]
    points += [
        (r.list_date, 0, r.glicko, r.rd, bool(r.provisional))
        for r in c.rows
        if r.glicko is not None and r.rd is not None
    ]
    points.sort(key=lambda p: (p[0], p[1]))  # a list date before that day's games
    by_day = {day: (day, rating, rd, prov) for day, _, rating, rd, prov in points}
    return list(by_day.values())  # one point a day: after its last game


def online_line(
    c: Comparison, platform: str | None, start: dt.date, end: dt.date
) -> tuple[OnlineSeries | None, list[tuple[dt.date, int]]]:
    """The real online ratings of ``platform`` between ``start`` and ``end``, the one in
    force at ``start`` first (steps: each holds until the next)."""
    series = c.online_series(platform) if platform else None
    if series is None:
        return None, []
    inside = [(d, r) for d, r in series.points if start <= d <= end]
    before = series.on(start)
    if before is not None and (not inside or inside[0][0] > start):
        inside.insert(0, (start, before[1]))  # the rating in force when the picture starts
    return series, inside


def span(c: Comparison) -> tuple[dt.date, dt.date]:
    """The first and last day the Elo steps and the shadow line cover."""
    days = [d for d, _ in elo_steps(c)] + [d for d, *_ in shadow_line(c)]
    return min(days), max(days)


class ChartData(NamedTuple):
    """One player's chart, ready to draw (as :func:`draw_comparison` and the site draw it)."""

    elo: list[tuple[dt.date, int]]
    line: list[tuple[dt.date, float, float, bool]]
    first: dt.date
    last: dt.date
    series: OnlineSeries | None
    real: list[tuple[dt.date, int]]
    shown: list[float]  # every rating drawn (the band aside): what the y-axis follows
    online: str | None  # the online line's legend (None: none drawn)


def chart_data(c: Comparison, platform: str | None = None) -> ChartData:
    """The Elo steps, the shadow line, the days they span and the real online ratings of
    ``platform`` (by default the first linked platform with ratings) over them."""
    elo = elo_steps(c)
    line = shadow_line(c)
    first, last = span(c)
    series, real = online_line(c, platform or first_platform(c), first, last)
    shown = [float(v) for _, v in elo] + [r for _, r, _, _ in line] + [float(r) for _, r in real]
    online = f"{series.label} ({series.user}), real" if series is not None and real else None
    return ChartData(elo, line, first, last, series, real, shown, online)


def y_limits(values: Sequence[float]) -> tuple[float, float]:
    """Around the ratings shown, with a margin (at least 40 points each side)."""
    low, high = min(values), max(values)
    pad = max(40.0, 0.12 * (high - low))
    return low - pad, high + pad


def _shade_provisional(ax: Any, line: list[tuple[dt.date, float, float, bool]]) -> None:
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
            *_to_num([a, b if b > a else a + dt.timedelta(days=1)]),
            color="grey",
            alpha=0.10,
            linewidth=0,
            label="provisional shadow" if i == 0 else None,
        )


def write_plot(fig: Any, path: Path) -> None:
    """A figure (:func:`draw_comparison`, :func:`draw_players`) to ``path``, in the format its
    extension names (the path checked again, see :func:`check_plot_path`); then let go of it."""
    try:
        check_plot_path(path)
        fig.savefig(path, format=FORMATS[path.suffix.lower()])
    except OSError as exc:
        raise InvalidInputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        _pyplot().close(fig)


def _finish(
    fig: Any, ax: Any, shown: list[float], days: tuple[dt.date, dt.date], title: str
) -> None:
    """The axes around the ratings ``shown`` from the first to the last of ``days``, the
    title, the grid."""
    first, last = days
    ax.set_ylim(*y_limits(shown))
    ax.set_xlim(*_to_num([first - MARGIN, last + MARGIN]))
    ax.xaxis_date()
    ax.set_title(title)
    ax.set_ylabel("rating")
    ax.grid(True, alpha=0.3)
    fig.autofmt_xdate()
    fig.tight_layout()


def _steps(ax: Any, points: Sequence[tuple[dt.date, float]], last: dt.date, **style: Any) -> None:
    """A rating that holds from each point to the next (a published list), drawn on to
    ``last``."""
    ax.step(
        _to_num([d for d, _ in points] + [last + MARGIN]),
        [v for _, v in points] + [points[-1][1]],
        where="post",
        **style,
    )


def _draw_shadow(ax: Any, preset: str, line: list[tuple[dt.date, float, float, bool]]) -> None:
    """The shadow, point by point, in its ±2 RD band (provisional stretches shaded)."""
    days = _to_num([d for d, *_ in line])
    provisional = [p for *_, p in line]
    ax.fill_between(
        days,
        [r - 2 * rd for _, r, rd, _ in line],
        [r + 2 * rd for _, r, rd, _ in line],
        color="tab:orange",
        alpha=0.10,
        linewidth=0,
        label=f"{preset} ±2 RD",
    )
    label = f"{preset} shadow"
    if all(provisional):
        label += " (provisional throughout)"
    elif any(provisional):
        _shade_provisional(ax, line)
    ax.plot(
        days,
        [r for _, r, _, _ in line],
        color="tab:orange",
        linewidth=1.6,
        linestyle="--" if all(provisional) else "-",
        marker="o",
        markersize=2.5,
        label=label,
    )


def draw_comparison(c: Comparison, platform: str | None = None) -> Any:
    """The figure of one player (``platform``: whose real ratings to draw, if any)."""
    if not c.rows:
        raise InvalidInputError(f"nothing to plot: no closed {c.tc} periods for {c.name}")
    plt = _pyplot()
    elo, line, first, last, series, real, shown, online = chart_data(c, platform)
    fig, ax = plt.subplots(figsize=(10, 5.2), dpi=110)
    if line:
        _draw_shadow(ax, c.preset, line)
    if elo:
        _steps(ax, elo, last, color="tab:blue", linewidth=2.2, label=ELO_LEGEND)
        ax.plot(_to_num([d for d, _ in elo]), [v for _, v in elo], "o", color="tab:blue", ms=4)
    if series is not None and online:
        _steps(ax, real, last, color="tab:green", linewidth=1.6, label=online)
        ax.plot(_to_num([d for d, _ in real]), [r for _, r in real], "s", color="tab:green", ms=3)
    # Below the chart, where it hides no line.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=9, frameon=False)
    if series is not None and online:
        what = f"FIDE Elo, the {c.preset} shadow and {series.label}"
    else:
        what = f"FIDE Elo and the {c.preset} shadow"
    _finish(fig, ax, shown, (first, last), f"{c.name}: {what} ({c.tc})")
    return fig


def draw_players(comparisons: Sequence[Comparison], platform: str | None = None) -> Any:
    """The figure of several players on one chart."""
    drawn = [c for c in comparisons if c.rows]
    if not drawn:
        raise InvalidInputError("nothing to plot: none of these players has a closed period")
    if len(drawn) > MAX_PLAYERS:
        raise InvalidInputError(f"{len(drawn)} players on one chart: at most {MAX_PLAYERS}")
    plt = _pyplot()
    from matplotlib.lines import Line2D

    spans = [span(c) for c in drawn]
    first, last = min(a for a, _ in spans), max(b for _, b in spans)
    fig, ax = plt.subplots(figsize=(12, 6), dpi=110)
    # tab20's strong halves without its greys (grey is the style legend's colour).
    strong = plt.get_cmap("tab20").colors[::2]
    colours = [c for i, c in enumerate(strong) if i != 7] + list(plt.get_cmap("tab20").colors[1::2])
    shown: list[float] = []
    any_online = False
    for i, c in enumerate(drawn):
        colour = colours[i % len(colours)]
        elo = elo_steps(c)
        if elo:
            _steps(ax, elo, last, color=colour, linewidth=2.0)
            shown += [v for _, v in elo]
        line = shadow_line(c)
        if line:
            ax.plot(
                _to_num([d for d, *_ in line]),
                [r for _, r, _, _ in line],
                color=colour,
                linewidth=1.3,
                linestyle="--",
            )
            shown += [r for _, r, _, _ in line]
        _, real = online_line(c, platform or first_platform(c), first, last)
        if real:
            any_online = True
            _steps(ax, real, last, color=colour, linewidth=1.2, linestyle=":")
            shown += [r for _, r in real]
    players = [Line2D([], [], color=colours[i % len(colours)], lw=3) for i in range(len(drawn))]
    # Beside the chart, where they hide no line: the players, then what each line style is.
    first_legend = ax.legend(
        players,
        [c.name for c in drawn],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        title="players",
        frameon=False,
    )
    ax.add_artist(first_legend)
    styles = [
        Line2D([], [], color="dimgrey", lw=2.0),
        Line2D([], [], color="dimgrey", lw=1.3, ls="--"),
    ]
    names = ["FIDE Elo", f"{drawn[0].preset} shadow"]
    if any_online:
        styles.append(Line2D([], [], color="dimgrey", lw=1.2, ls=":"))
        names.append("real online rating")
    ax.legend(
        styles, names, loc="lower left", bbox_to_anchor=(1.01, 0.0), fontsize=8, frameon=False
    )
    extra = " and the real online ratings" if any_online else ""
    title = f"FIDE Elo, the {drawn[0].preset} shadow{extra} ({drawn[0].tc})"
    _finish(fig, ax, shown, (first, last), title)
    return fig


def first_platform(c: Comparison) -> str | None:
    """The first linked platform with ratings stored: the one a picture draws."""
    return next((s.platform for s in c.online if s.points), None)
