"""The pages of ``tracker site build``: HTML drawn from :class:`tracker.services.site.Site`.

Why Python string building with :func:`html.escape` and not Jinja2 templates: the site has
three fixed page shapes (the lists, a player, an event) made of headings and tables; a table
helper and one escaping function (:func:`_e`, through which every value from the database
passes) cover them in a page of code, typed and checked by mypy, with no new dependency to
pin and ship and no template files to package. When the pages grow (crosstables, the
Elo-vs-Glicko page, per-period games) Jinja2 with autoescaping becomes worth its weight.

Deterministic: no timestamps, orders from the service's sorted data, numbers formatted
with fixed precision, so the same database gives byte-identical pages.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from tracker.cli import render
from tracker.months import month_label
from tracker.services.events.report import EventReport
from tracker.services.periods.history import History
from tracker.services.site import Site, SiteList, SitePlayer

CSS = """body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:0 .75rem;
line-height:1.4}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
caption{text-align:left;font-weight:bold;padding:.25rem 0}
th,td{padding:.2rem .5rem;border-bottom:1px solid #ccc}td.n,th.n{text-align:right}
.wide{overflow-x:auto}svg{max-width:100%;height:auto}a{color:#0645ad}"""


def _e(value: object) -> str:
    """A value as HTML text: None is blank, everything else escaped."""
    return "" if value is None else html.escape(str(value), quote=True)


def _page(title: str, body: str, root: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f'<nav><a href="{root}index.html">Rating lists</a> · '
        f'<a href="{root}compare.html">Elo and Glicko</a></nav>\n<main>\n'
        f"<h1>{_e(title)}</h1>\n{body}</main>\n</body>\n</html>\n"
    )


def _table(
    caption: str, columns: Sequence[str], rows: Iterable[Sequence[str]], numeric: set[str]
) -> str:
    """A table; cells are HTML already (escape them with :func:`_e`)."""
    cls = [' class="n"' if c in numeric else "" for c in columns]
    head = "".join(f'<th scope="col"{k}>{_e(c)}</th>' for c, k in zip(columns, cls, strict=True))
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
    stale = " (stale: a rerate is due)" if rl.stale else ""
    caption = f"{rl.tc.capitalize()} list of {rl.list_date.isoformat()}{stale}"
    columns = ["rank", "name", "title", "fed", "rating", "change", "games", sl.preset]
    heading = f'<h2 id="{_e(rl.tc)}">{_e(rl.tc.capitalize())}</h2>\n'
    if not rl.entries:
        return heading + f"<p>{_e(caption)}: nobody is rated on this list.</p>\n"
    numeric = {"rank", "rating", "change", "games", sl.preset}
    return heading + _table(caption, columns, rows, numeric)


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def chart(h: History) -> str:
    """An inline SVG: the published Elo per list (steps) and the shadow at each list."""
    elo = [(i, r.rating) for i, r in enumerate(h.rows) if r.rating is not None]
    shadow = [(i, r.glicko) for i, r in enumerate(h.rows) if r.glicko is not None]
    values = [float(v) for _, v in elo] + [float(v) for _, v in shadow if v is not None]
    label = f"{h.name}: FIDE Elo and the {h.preset} shadow per list ({h.tc})"
    if not values:
        return ""
    width, height, pad = 600, 240, 40
    low, high = min(values) - 20, max(values) + 20
    steps = max(len(h.rows) - 1, 1)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / steps

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / (high - low)

    def line(points: Sequence[tuple[int, float]]) -> str:
        return " ".join(f"{_fmt(x(i))},{_fmt(y(v))}" for i, v in points)

    elo_points = [(i, float(v)) for i, v in elo]
    elo_steps: list[tuple[int, float]] = []
    for n, (i, v) in enumerate(elo_points):
        if n:
            elo_steps.append((i, elo_points[n - 1][1]))
        elo_steps.append((i, v))
    shadow_points = [(i, float(v)) for i, v in shadow if v is not None]
    first, last = h.rows[0].list_date.isoformat(), h.rows[-1].list_date.isoformat()
    return (
        f'<svg role="img" aria-label="{_e(label)}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">\n'
        f"<title>{_e(label)}</title>\n"
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>\n'
        f'<text x="{pad}" y="{pad - 10}" font-size="12">{high:.0f}</text>\n'
        f'<text x="{pad}" y="{height - pad + 15}" font-size="12">{low:.0f} · '
        f"{_e(first)} to {_e(last)}</text>\n"
        f'<polyline fill="none" stroke="#1f4e9c" stroke-width="2" '
        f'points="{line(elo_steps)}"/>\n'
        f'<polyline fill="none" stroke="#c0502e" stroke-width="2" stroke-dasharray="5,3" '
        f'points="{line(shadow_points)}"/>\n'
        f'<text x="{width - pad - 150}" y="{pad - 10}" font-size="12" fill="#1f4e9c">'
        f"FIDE Elo</text>\n"
        f'<text x="{width - pad - 80}" y="{pad - 10}" font-size="12" fill="#c0502e">'
        f"{_e(h.preset)}</text>\n</svg>\n"
    )


def _history_section(h: History) -> str:
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
                _e(r.note),
            )
        )
    numeric = {"before", "rating", "K", "games", "score", "expected", "change", "rounded"}
    numeric |= {h.preset, "RD"}
    peak = ""
    if h.peak is not None:
        peak = (
            f"<p>Peak {_e(h.peak.rating)} on the {_e(h.peak.list_date.isoformat())} list"
            + (
                f" (seeded at {_e(h.seed_rating)})"
                if h.seed_rating is not None and h.seed_rating > h.peak.rating
                else ""
            )
            + "</p>\n"
        )
    return f"<h2>{_e(h.tc.capitalize())}</h2>\n{peak}{chart(h)}" + _table(
        f"{h.name}: {h.tc} history, period by period", columns, rows, numeric
    )


def player_page(sp: SitePlayer) -> str:
    p = sp.player
    facts = [f"{label} {_e(value)}" for label, value in (
        ("Title", p.title), ("Federation", p.federation), ("FIDE id", p.fide_id),
    ) if value is not None]  # fmt: skip
    body = f"<p>{'; '.join(facts)}</p>\n" if facts else ""
    if not sp.histories:
        body += "<p>No closed rating period for this player yet.</p>\n"
    body += "".join(_history_section(h) for h in sp.histories)
    return _page(p.name, body, "../")


def event_page(report: EventReport, tracked: set[int]) -> str:
    end = f" to {report.end.isoformat()}" if report.end is not None else ""
    body = f"<p>{_e(report.tc.capitalize())}, from {_e(report.start.isoformat())}{_e(end)}</p>\n"
    rows = []
    for s in report.standings:
        name = _e(s.name)
        if s.player_id in tracked:
            name = f'<a href="../players/{s.player_id}.html">{name}</a>'
        rows.append(
            (
                _e(s.rank),
                name,
                _e(s.games),
                _e(render.score(s.score)),
                _e(s.rating),
                _e(s.rated_games),
                _e(render.expected(s.expected) if s.expected is not None else ""),
                _e(s.performance),
                _e(render.change(s.change) if s.change is not None else ""),
            )
        )
    columns = ["rank", "name", "games", "score", "rating", "rated", "expected", "perf", "change"]
    numeric = set(columns) - {"name"}
    body += _table(f"{report.name}: standings", columns, rows, numeric)
    return _page(report.name, body, "../")


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


def pages(site: Site) -> dict[str, str]:
    """Every file of the site: its path under the site's folder, and its text."""
    out = {"index.html": index_page(site), "compare.html": compare_page(site)}
    tracked = {sp.player.id for sp in site.players}
    for sp in site.players:
        out[f"players/{sp.player.id}.html"] = player_page(sp)
    for report in site.events:
        out[f"events/{report.id}.html"] = event_page(report, tracked)
    return out


def _events_list(site: Site) -> str:
    items = "".join(
        f'<li><a href="events/{r.id}.html">{_e(r.name)}</a> ({_e(r.tc)}, '
        f"{_e(r.start.isoformat())})</li>\n"
        for r in site.events
    )
    return f"<h2>Events</h2>\n<ul>\n{items}</ul>\n"
