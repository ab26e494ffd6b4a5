"""The pages of ``tracker site build``: HTML drawn from :class:`tracker.services.site.Site`.

Why Python string building with :func:`html.escape` and not Jinja2 templates: the pages are
headings, tables and one chart, and the tables' cells are the very strings the CLI prints
(the same :mod:`tracker.cli.render` formatters, the same :func:`~tracker.cli.history.
detail_heading`, :func:`~tracker.cli.event.grid_rows`); kept in Python they are one call
away from those helpers and checked by mypy with them, where a template would take them
as untyped context and repeat the formatting in its own language. One escaping function
(:func:`_e`) that every value from the database passes through, and a table helper, do
what autoescaping and a macro would; no dependency to pin, no template files to package.

Accessible: a skip link, landmarks, one ``h1`` per page, captions and ``scope`` on every
table, the chart an ``img`` with a title and a description (its numbers are also the
history table's), visible focus, links that say where they go. Readable on a phone (wide
tables scroll inside their own box) and printable (no navigation, no scroll boxes).

Deterministic: no timestamps, orders from the service's sorted data, numbers formatted
with fixed precision, so the same database gives byte-identical pages.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterable, Iterator, Sequence

from tracker.cli import render
from tracker.cli.event import GRID_PLAYERS, ROUNDS_CAPTION, grid_columns, grid_rows, round_rows
from tracker.cli.h2h import both_scores, played_words
from tracker.cli.history import detail_heading, detail_summary, game_status
from tracker.cli.player import place
from tracker.cli.plot import elo_steps, first_platform, online_line, shadow_line, span, y_limits
from tracker.cli.status import waiting_words
from tracker.months import month_label
from tracker.services.compare import Comparison
from tracker.services.events.report import EventReport
from tracker.services.h2h import Opponents
from tracker.services.periods.detail import PeriodDetail
from tracker.services.periods.history import History
from tracker.services.site import Site, SiteList, SitePlayer, SiteRecord

CSS = """body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:0 .75rem;
line-height:1.4;color:#111;background:#fff}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
caption{text-align:left;font-weight:bold;padding:.25rem 0;position:sticky;left:0;
max-width:calc(100vw - 2rem)}
th,td{padding:.2rem .5rem;border-bottom:1px solid #ccc;white-space:nowrap;vertical-align:top}
td.n,th.n{text-align:right}td.w{white-space:normal;min-width:10rem}
.wide{overflow-x:auto}svg{max-width:100%;height:auto}a{color:#0645ad}
a:focus-visible{outline:3px solid #c0502e;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{position:static}
@media print{nav,.skip{display:none}.wide{overflow:visible}a{color:inherit}
h2,h3{break-after:avoid}tr{break-inside:avoid}}"""


#: A closed period changed since it was rated: its stored row and its games, worked out
#: again, may differ until ``tracker rerate`` stores them.
STALE = "stale: a rerate is due"


def _e(value: object) -> str:
    """A value as HTML text: None is blank, everything else escaped."""
    return "" if value is None else html.escape(str(value), quote=True)


def _page(title: str, body: str, root: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to the content</a>\n'
        f'<nav aria-label="Site"><a href="{root}index.html">Rating lists</a> · '
        f'<a href="{root}compare.html">Elo and Glicko</a></nav>\n<main id="main">\n'
        f"<h1>{_e(title)}</h1>\n{body}</main>\n</body>\n</html>\n"
    )


#: The columns whose cells may wrap (names, events, notes).
WRAP = frozenset({"name", "player", "opponent", "event", "note", "games"})


def _table(
    caption: str, columns: Sequence[str], rows: Iterable[Sequence[str]], numeric: set[str]
) -> str:
    """A table; cells are HTML already (escape them with :func:`_e`). Cells stay on one line
    but those of the columns :data:`WRAP` names (text that may be long)."""
    cls = [' class="n"' if c in numeric else ' class="w"' if c in WRAP else "" for c in columns]
    head = "".join(
        f'<th scope="col"{k if c in numeric else ""}>{_e(c)}</th>'
        for c, k in zip(columns, cls, strict=True)
    )
    body = "".join(
        "<tr>" + "".join(f"<td{k}>{v}</td>" for v, k in zip(row, cls, strict=True)) + "</tr>\n"
        for row in rows
    )
    return (
        f'<div class="wide"><table>\n<caption>{_e(caption)}</caption>\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table></div>\n"
    )


def _signed(value: int | None) -> str:
    return "" if value is None else f"{value:+d}"


def _player_link(player_id: int, name: str, tracked: set[int], root: str) -> str:
    """A player's name, linked to his page when he has one."""
    if player_id not in tracked:
        return _e(name)
    return f'<a href="{root}players/{player_id}.html">{_e(name)}</a>'


def index_page(site: Site) -> str:
    if not site.lists:
        which = " or ".join(site.tcs)
        body = f"<p>No {_e(which)} list yet: no rating period is closed.</p>\n"
    else:
        body = "".join(_list_section(sl) for sl in site.lists)
    if site.events:
        body += _events_list(site)
    return _page("Rating lists", body, "")


def _list_section(sl: SiteList) -> str:
    rl = sl.rating_list
    rows = []
    for e in rl.entries:
        s = sl.shadows.get(e.player_id)
        rows.append(
            (
                _e(e.rank),
                f'<a href="players/{e.player_id}.html">{_e(e.name)}</a>',
                _e(e.title),
                _e(e.federation),
                _e(e.rating),
                _e(_signed(sl.changes.get(e.player_id))),
                _e(e.games),
                _e(s.display if s is not None else None),
            )
        )
    stale = f" ({STALE})" if rl.stale else ""
    caption = f"{rl.tc.capitalize()} list of {rl.list_date.isoformat()}{stale}"
    columns = ["rank", "name", "title", "fed", "rating", "change", "games", sl.preset]
    heading = f'<h2 id="{_e(rl.tc)}">{_e(rl.tc.capitalize())}</h2>\n'
    if sl.pending is not None:
        heading += (
            f"<p>Open: {_e(month_label(sl.pending.open_month))}; "
            f"{_e(waiting_words(sl.pending))}.</p>\n"
        )
    if not rl.entries:
        return heading + f"<p>{_e(caption)}: nobody is rated on this list.</p>\n"
    numeric = {"rank", "rating", "change", "games", sl.preset}
    return heading + _table(caption, columns, rows, numeric)


def _fmt(value: float) -> str:
    return f"{value:.1f}"


#: The chart's size and margins (SVG user units: it scales to the page's width).
WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 70
#: Beyond the first and last day drawn, as ``--plot`` leaves them.
MARGIN = dt.timedelta(days=10)
ELO, SHADOW, ONLINE = "#1f4e9c", "#c0502e", "#2e7d32"


def _step(span_: float) -> int:
    """A round gap between the rating lines: at most about six across ``span_``."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span_ / step <= 6:
            return step
    return 1000


def chart(c: Comparison) -> str:
    """The rating chart of one time control as inline SVG, drawn from what ``tracker history
    --plot`` draws (:mod:`tracker.cli.plot`'s data): the published Elo as steps per list,
    the shadow through every game and list date with its +-2 RD band, and the real online
    rating of the first linked platform as steps."""
    elo = elo_steps(c)
    line = shadow_line(c)
    if not elo and not line:
        return ""
    first, last = span(c)
    series, real = online_line(c, first_platform(c), first, last)
    shown = [float(v) for _, v in elo] + [r for _, r, _, _ in line] + [float(r) for _, r in real]
    low, high = y_limits(shown)
    start, end = first - MARGIN, last + MARGIN
    days = (end - start).days

    def x(day: dt.date) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (day - start).days / days

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    def steps(points: Sequence[tuple[dt.date, int]]) -> str:
        out: list[str] = []
        for n, (day, value) in enumerate(points):
            if n:
                out.append(f"{_fmt(x(day))},{_fmt(y(points[n - 1][1]))}")
            out.append(f"{_fmt(x(day))},{_fmt(y(value))}")
        out.append(f"{_fmt(x(end))},{_fmt(y(points[-1][1]))}")
        return " ".join(out)

    bottom = HEIGHT - BOTTOM
    parts = [
        f'<clipPath id="plot-{_e(c.tc)}"><rect x="{LEFT}" y="{TOP}" '
        f'width="{WIDTH - LEFT - RIGHT}" height="{bottom - TOP}"/></clipPath>',
        f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" height="{bottom - TOP}" '
        'fill="#fff" stroke="#999"/>',
    ]
    step = _step(high - low)
    value = (int(low) // step + 1) * step
    while value < high:
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y(value))}" '
            f'y2="{_fmt(y(value))}" stroke="#ddd"/><text x="{LEFT - 4}" '
            f'y="{_fmt(y(value) + 4)}" font-size="11" text-anchor="end">{value}</text>'
        )
        value += step
    list_days = [r.list_date for r in c.rows]
    every = max(1, -(-len(list_days) // 8))  # at most 8 labels
    for day in list_days[::every]:
        parts.append(
            f'<line x1="{_fmt(x(day))}" x2="{_fmt(x(day))}" y1="{bottom}" y2="{bottom + 4}" '
            f'stroke="#999"/><text x="{_fmt(x(day))}" y="{bottom + 16}" font-size="11" '
            f'text-anchor="middle">{_e(month_label(day))}</text>'
        )
    clip = f'clip-path="url(#plot-{_e(c.tc)})"'
    provisional = bool(line) and all(p for *_, p in line)
    if line:
        upper = [f"{_fmt(x(d))},{_fmt(y(r + 2 * rd))}" for d, r, rd, _ in line]
        lower = [f"{_fmt(x(d))},{_fmt(y(r - 2 * rd))}" for d, r, rd, _ in reversed(line)]
        parts.append(
            f'<polygon {clip} fill="{SHADOW}" fill-opacity="0.12" '
            f'points="{" ".join(upper + lower)}"/>'
        )
        dash = ' stroke-dasharray="5,3"' if provisional else ""
        points = " ".join(f"{_fmt(x(d))},{_fmt(y(r))}" for d, r, _, _ in line)
        parts.append(
            f'<polyline {clip} fill="none" stroke="{SHADOW}" stroke-width="1.6"{dash} '
            f'points="{points}"/>'
        )
    if real:
        parts.append(
            f'<polyline {clip} fill="none" stroke="{ONLINE}" stroke-width="1.6" '
            f'points="{steps(real)}"/>'
        )
    if elo:
        parts.append(
            f'<polyline {clip} fill="none" stroke="{ELO}" stroke-width="2.2" '
            f'points="{steps(elo)}"/>'
        )
        parts += [
            f'<circle cx="{_fmt(x(d))}" cy="{_fmt(y(v))}" r="3" fill="{ELO}"/>' for d, v in elo
        ]
    legend = [(ELO, "FIDE Elo (published lists)")]
    legend.append((SHADOW, f"{c.preset} shadow ±2 RD" + (" (provisional)" * provisional)))
    if series is not None and real:
        legend.append((ONLINE, f"{series.label} ({series.user}), real"))
    lx = LEFT
    for colour, text in legend:
        parts.append(
            f'<line x1="{lx}" x2="{lx + 18}" y1="{HEIGHT - 20}" y2="{HEIGHT - 20}" '
            f'stroke="{colour}" stroke-width="3"/><text x="{lx + 22}" y="{HEIGHT - 16}" '
            f'font-size="11">{_e(text)}</text>'
        )
        lx += 34 + 6 * len(text)
    what = f"FIDE Elo, the {c.preset} shadow" + (
        f" and {series.label}" if series is not None and real else ""
    )
    title = f"{c.name}: {what} ({c.tc})"
    desc = _chart_words(c, elo, line, real)
    key = f"chart-{_e(c.tc)}"
    return (
        f'<svg role="img" aria-labelledby="{key}-t {key}-d" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">\n'
        f'<title id="{key}-t">{_e(title)}</title>\n<desc id="{key}-d">{_e(desc)}</desc>\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


def _chart_words(
    c: Comparison,
    elo: Sequence[tuple[dt.date, int]],
    line: Sequence[tuple[dt.date, float, float, bool]],
    real: Sequence[tuple[dt.date, int]],
) -> str:
    """What the chart shows, in words (its description for a screen reader)."""
    words = []
    if elo:
        words.append(
            f"FIDE Elo {elo[0][1]} on {elo[0][0].isoformat()}, {elo[-1][1]} on "
            f"{elo[-1][0].isoformat()}"
        )
    if line:
        day, rating, rd, _ = line[-1]
        words.append(f"{c.preset} shadow {rating:.0f} ±{2 * rd:.0f} on {day.isoformat()}")
    if real:
        words.append(f"online {real[-1][1]} on {real[-1][0].isoformat()}")
    return "; ".join(words) + "."


def _history_section(record: SiteRecord, tracked: set[int]) -> str:
    h = record.history
    columns = ["month", "list", "before", "rating", "rank", "K", "games", "score", "expected"]
    columns += ["change", "rounded", h.preset, "RD", "note"]
    rows = []
    for r in h.rows:
        rated = r.rating_before is not None
        rows.append(
            (
                _e(month_label(r.month)),
                _e(r.list_date.isoformat()),
                _e(r.rating_before if rated else "unrated"),
                _e(r.rating if r.rating is not None else "unrated"),
                _e("" if r.standing is None else f"{r.standing.rank}/{r.standing.of}"),
                _e(r.k),
                _e(r.games),
                _e(render.score(r.score)),
                _e(render.expected(r.expected) if rated else ""),
                _e(render.change(r.change_exact) if rated else ""),
                _e(_signed(r.change) if rated else ""),
                _e(r.glicko_display),
                _e(render.rd(r.rd)),
                _e("; ".join(filter(None, [STALE if r.stale else None, r.note]))),
            )
        )
    numeric = {"before", "rating", "K", "games", "score", "expected", "change", "rounded"}
    numeric |= {h.preset, "RD"}
    tc = _e(h.tc)
    return (
        f'<section aria-labelledby="{tc}">\n<h2 id="{tc}">{_e(h.tc.capitalize())}</h2>\n'
        + _standing(h)
        + chart(record.comparison)
        + _table(f"{h.name}: {h.tc} history, period by period", columns, rows, numeric)
        + _periods(record.periods, h.tc, tracked)
        + "</section>\n"
    )


def _standing(h: History) -> str:
    """Where he stands on the latest list he is on, and his peak."""
    words = []
    last = next((r for r in reversed(h.rows) if r.rating is not None), None)
    if last is not None:
        where = place(last.standing)
        words.append(
            f"Rated {last.rating} on the {last.list_date.isoformat()} list"
            + (f": {where}" if where else "")
            + "."
        )
    if h.peak is not None:
        seeded = h.seed_rating is not None and h.seed_rating > h.peak.rating
        words.append(
            f"Peak {h.peak.rating} on the {h.peak.list_date.isoformat()} list"
            + (f" (seeded at {h.seed_rating})" if seeded else "")
            + "."
        )
    return f"<p>{_e(' '.join(words))}</p>\n" if words else ""


def _periods(periods: Sequence[PeriodDetail], tc: str, tracked: set[int]) -> str:
    """Each closed period's games, as ``tracker history PLAYER --month`` lists them."""
    if not periods:
        return ""
    columns = ["date", "opponent", "colour", "rating", "score", "expected", "change", "event"]
    columns += ["status"]
    numeric = {"rating", "score", "expected", "change"}
    out = [f'<h3 id="{_e(tc)}-games">{_e(tc.capitalize())} games, period by period</h3>\n']
    for d in periods:
        rows = [
            (
                _e(g.played_on.isoformat()),
                _player_link(g.opponent_id, g.opponent, tracked, "../"),
                _e(g.colour),
                _e(g.opponent_rating if g.opponent_rating is not None else "unrated"),
                _e(render.score(g.score)),
                _e(render.expected(g.expected) if g.expected is not None else ""),
                _e(render.change(g.change) if g.change is not None else ""),
                _e(g.event),
                _e(game_status(g)),
            )
            for g in d.games
        ]
        caption = detail_heading(d) + (f" ({STALE})" if d.stale else "")
        out.append(_table(caption, columns, rows, numeric))
        notes = "".join(f"; note: {n}" for n in d.notes)
        out.append(f"<p>{_e(detail_summary(d) + notes)}</p>\n")
    return "".join(out)


def _opponents(o: Opponents, tracked: set[int]) -> str:
    """``tracker h2h PLAYER``: his score against each opponent."""
    if not o.lines:
        return ""
    rows = [
        (
            _player_link(line.id, line.name, tracked, "../"),
            _e(line.total.games),
            _e(both_scores(line.total)),
            _e(line.total.wins),
            _e(line.total.draws),
            _e(line.total.losses),
            _e(line.forfeits or ""),
            _e(line.last.isoformat() if line.last is not None else ""),
        )
        for line in o.lines
    ]
    columns = ["opponent", "games", "score", "won", "drawn", "lost", "forfeits", "last"]
    which = "" if o.tc is None else f" ({o.tc})"
    t = o.total
    total = f"<p>{_e(played_words(t))}</p>\n" if t.games else ""
    return (
        '<section aria-labelledby="h2h">\n<h2 id="h2h">Head to head</h2>\n'
        + total
        + _table(
            f"{o.a} against each opponent{which}",
            columns,
            rows,
            set(columns) - {"opponent", "last"},
        )
        + "</section>\n"
    )


def player_page(sp: SitePlayer, tracked: set[int]) -> str:
    p = sp.player
    facts = [f"{label} {_e(value)}" for label, value in (
        ("Title", p.title), ("Federation", p.federation), ("FIDE id", p.fide_id),
    ) if value is not None]  # fmt: skip
    body = f"<p>{'; '.join(facts)}</p>\n" if facts else ""
    if not sp.records:
        body += "<p>No closed rating period for this player yet.</p>\n"
    body += "".join(_history_section(r, tracked) for r in sp.records)
    body += _opponents(sp.opponents, tracked)
    return _page(p.name, body, "../")


def event_page(report: EventReport, tracked: set[int]) -> str:
    end = f" to {report.end.isoformat()}" if report.end is not None else ""
    body = f"<p>{_e(report.tc.capitalize())}, from {_e(report.start.isoformat())}{_e(end)}; "
    body += f"{_e(report.rated.text)}.</p>\n"
    rows = [
        (
            _e(s.rank),
            _player_link(s.player_id, s.name, tracked, "../"),
            _e(s.games),
            _e(render.score(s.score)),
            _e(s.rating),
            _e(s.rated_games),
            _e(render.expected(s.expected) if s.expected is not None else ""),
            _e(s.performance),
            _e(render.change(s.change) if s.change is not None else ""),
        )
        for s in report.standings
    ]
    columns = ["rank", "name", "games", "score", "rating", "rated", "expected", "perf", "change"]
    numeric = set(columns) - {"name"}
    body += _table(f"{report.name}: standings", columns, rows, numeric)
    if report.live:
        body += "<p>The change is what closing the open period now would give.</p>\n"
    if report.waits:
        months = ", ".join(month_label(m) for m in report.waits)
        body += (
            f"<p>No expected score or change yet for the games rated in {_e(months)}: an "
            "earlier open period must be closed first.</p>\n"
        )
    body += _crosstable(report, tracked)
    return _page(report.name, body, "../")


def _crosstable(report: EventReport, tracked: set[int]) -> str:
    """The crosstable as ``event show`` prints it: a grid up to :data:`GRID_PLAYERS`
    players, else each player's games in order."""
    if not report.standings:
        return ""
    ids = [s.player_id for s in report.standings]
    if len(ids) <= GRID_PLAYERS:
        columns, key = grid_columns(report)
        rows = [
            (_e(no), _player_link(pid, name, tracked, "../"), *map(_e, against), _e(total))
            for pid, (no, name, against, total) in zip(ids, grid_rows(report), strict=True)
        ]
        caption = f"{report.name}: crosstable ({key})"
        return _table(caption, columns, rows, {"no", "score"})
    rows = [
        (_e(rank), _e(no), _player_link(pid, name, tracked, "../"), _e(total), _e(games))
        for pid, (rank, no, name, total, games) in zip(ids, round_rows(report), strict=True)
    ]
    caption = f"{report.name}: {ROUNDS_CAPTION}"
    return _table(
        caption, ["rank", "no", "player", "score", "games"], rows, {"rank", "no", "score"}
    )


def compare_page(site: Site) -> str:
    """The club's FIDE Elo beside the Glicko shadow, list by list, as `tracker compare --all`
    gives them, and where the two rank players most differently."""
    if not site.lists:
        return _page("Elo and Glicko", "<p>No rating period is closed yet.</p>\n", "")
    body = ""
    for sl in site.lists:
        rows = []
        ranked = sorted(
            (r for r in sl.shadows.values() if r.elo is not None),
            key=lambda r: (r.elo_rank or 0, r.player_id),
        )
        for r in ranked:
            moved = (
                ""
                if r.elo_rank is None or r.glicko_rank is None or r.elo_rank == r.glicko_rank
                else _signed(r.elo_rank - r.glicko_rank)
            )
            rows.append(
                (
                    _e(r.elo_rank),
                    f'<a href="players/{r.player_id}.html">{_e(r.name)}</a>',
                    _e(r.elo),
                    _e(r.display),
                    _e(render.rd(r.rd)),
                    _e(_signed(round(r.difference)) if r.difference is not None else ""),
                    _e(r.glicko_rank),
                    _e(moved),
                )
            )
        columns = ["Elo rank", "name", "Elo", sl.preset, "RD", "diff", "rank", "moves"]
        numeric = set(columns) - {"name"}
        caption = (
            f"{sl.tc.capitalize()} list of {sl.rating_list.list_date.isoformat()} and the "
            f"{sl.preset} shadow (moves: places gained by the shadow's ranking)"
        )
        body += f"<h2>{_e(sl.tc.capitalize())}</h2>\n" + _table(caption, columns, rows, numeric)
        apart = sorted(
            (r for r in ranked if r.elo_rank is not None and r.glicko_rank is not None),
            key=lambda r: (-abs((r.elo_rank or 0) - (r.glicko_rank or 0)), r.player_id),
        )[:3]
        if apart and (apart[0].elo_rank != apart[0].glicko_rank):
            items = "".join(
                f"<li>{_e(r.name)}: {_e(r.elo_rank)} by Elo, {_e(r.glicko_rank)} by the "
                f"shadow</li>\n"
                for r in apart
                if r.elo_rank != r.glicko_rank
            )
            body += f"<p>Ranked most differently:</p>\n<ul>\n{items}</ul>\n"
        else:
            body += "<p>Both rank every player alike.</p>\n"
    return _page("Elo and Glicko", body, "")


def paths(site: Site) -> list[str]:
    """The path of every file of the site under its folder, in the order of :func:`pages`."""
    return [
        "index.html",
        "compare.html",
        *(f"players/{p.id}.html" for p in site.players),
        *(f"events/{e.id}.html" for e in site.events),
    ]


def pages(
    site: Site, players: Iterable[SitePlayer], events: Iterable[EventReport]
) -> Iterator[tuple[str, str]]:
    """Every file of the site, one at a time: its path under the site's folder (those of
    :func:`paths`), and its text (``players`` and ``events``: their data, read as the pages
    are drawn)."""
    yield "index.html", index_page(site)
    yield "compare.html", compare_page(site)
    tracked = {p.id for p in site.players}
    for sp in players:
        yield f"players/{sp.player.id}.html", player_page(sp, tracked)
    for report in events:
        yield f"events/{report.id}.html", event_page(report, tracked)


def _events_list(site: Site) -> str:
    items = "".join(
        f'<li><a href="events/{r.id}.html">{_e(r.name)}</a> ({_e(r.tc)}, '
        f"{_e(r.start.isoformat())})</li>\n"
        for r in site.events
    )
    return f"<h2>Events</h2>\n<ul>\n{items}</ul>\n"
