"""The pages of ``tracker site build``: HTML drawn from :class:`tracker.services.site.Site`.

Why Python string building with :func:`html.escape` and not Jinja2 templates: the pages are
headings, tables and one chart, and the tables' cells are the very strings the CLI prints
(the same :mod:`tracker.cli.render` formatters, the same :func:`~tracker.cli.history.
detail_heading`, :func:`~tracker.cli.event.grid`); kept in Python they are one call
away from those helpers and checked by mypy with them, where a template would take them
as untyped context and repeat the formatting in its own language. One escaping function
(:func:`_e`) that every value from the database passes through, and a table helper, do
what autoescaping and a macro would; no dependency to pin, no template files to package.

Accessible: a skip link, landmarks, one ``h1`` per page, captions and ``scope`` on every
table, the chart an ``img`` with a title and a description (its numbers are also the
history table's; each point's value on hover), visible focus, links that say where they go;
axe-core finds nothing (tests/browser). No page scrolls sideways: at a desktop's width the
tables fit (long text wraps), on a phone their rows stack as "column value" pairs and the
chart is drawn again narrower with larger text; a date never breaks. Printable (no
navigation, the wide chart). Each page reads fully without JavaScript: its one script
(``site.js``, :data:`SCRIPT`) only sorts the lists and searches them; the style is
``site.css`` (:data:`CSS`), written once beside the pages.

Deterministic: no timestamps, orders from the service's sorted data, numbers formatted
with fixed precision, so the same database gives byte-identical pages.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from tracker.cli import plot, render
from tracker.cli.event import GRID_PLAYERS, ROUNDS_CAPTION, game_code, grid, round_rows
from tracker.cli.h2h import played_words, tally_cells
from tracker.cli.history import (
    LIST_COLUMNS,
    detail_cells,
    detail_heading,
    detail_summary,
    history_cells,
    history_columns,
    list_row,
)
from tracker.cli.plot import chart_data, elo_steps, shadow_line, y_limits
from tracker.cli.status import waiting_words
from tracker.importers.records import csv_file
from tracker.months import month_label
from tracker.services.compare import Comparison
from tracker.services.events.report import EventReport, EventStanding
from tracker.services.h2h import Opponents
from tracker.services.periods.detail import PeriodDetail
from tracker.services.periods.history import History
from tracker.services.site import ListPage, Site, SiteList, SitePlayer, SiteRecord
from tracker.vocabulary import TimeControl

CSS = """*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;line-height:1.45;color:#111;background:#fff}
.top,main,footer{max-width:72rem;margin:0 auto;padding:0 1rem}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem 1.5rem;padding:.6rem 1rem;
border-bottom:1px solid #ccc}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:bold;font-size:1.2rem;
color:#111;text-decoration:none}.brand img{height:2.5rem;width:auto}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
.data{margin:0;color:#444;font-size:.9rem;flex-basis:100%}
footer{border-top:1px solid #ccc;margin-top:2rem;padding:.5rem 1rem;color:#444}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;max-width:100%}
caption{text-align:left;font-weight:bold;padding:.25rem 0}
th,td{padding:.2rem .5rem;border-bottom:1px solid #ccc;white-space:nowrap;
vertical-align:top;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td.c,th.c{text-align:center;width:3.5em;min-width:3.5em}
td.w{white-space:normal;overflow-wrap:anywhere;min-width:7rem}
.d{white-space:nowrap}svg{display:block;width:100%;height:auto}a{color:#0645ad}
:focus-visible{outline:3px solid #c0502e;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{position:static}
button.sort{font:inherit;font-weight:bold;background:none;border:0;padding:0;color:inherit;
cursor:pointer;text-align:inherit}th[aria-sort=ascending] .sort::after{content:" ▲"}
th[aria-sort=descending] .sort::after{content:" ▼"}#find{margin:.5rem 0 1rem}
#find input{font:inherit;padding:.2rem .4rem;max-width:100%}
summary{cursor:pointer;padding:.2rem 0}
.range fieldset{border:0;margin:0 0 .3rem;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .8rem;
align-items:center}.range legend{float:left;padding:0;font-weight:bold}
.range label{padding:.3rem .2rem;cursor:pointer}.range .year{display:none}
.range:has([value=year]:checked) .year{display:block}
.range:has([value=year]:checked) .all{display:none}
.narrow{display:none}.narrow svg{max-width:36rem}
@media (max-width:52rem){.wide{display:none}.narrow{display:block}}
@media (max-width:40rem){h1{font-size:1.5rem}
table.s thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.s,table.s tbody,table.s caption{display:block;width:100%}
table.s tr{display:flex;flex-wrap:wrap;gap:0 .9rem;padding:.35rem 0;
border-bottom:1px solid #ccc}
table.s td{display:block;border:0;padding:0}table.s td.c{width:auto;min-width:0}
table.s td.k{flex-basis:100%;order:-1;font-weight:bold}
table.s td::before{color:#555;font-weight:normal}
table.s td:empty{display:none}}
@media print{nav,.skip,#find,.range fieldset{display:none}
details::details-content{content-visibility:visible}.narrow{display:none}.wide{display:block}
a{color:inherit}h2,h3{break-after:avoid}tr{break-inside:avoid}}"""


#: A closed period changed since it was rated: its stored row and its games, worked out
#: again, may differ until ``tracker rerate`` stores them.
STALE = "stale: a rerate is due"


def _e(value: object) -> str:
    """A value as HTML text: None is blank, everything else escaped."""
    return "" if value is None else html.escape(str(value), quote=True)


#: A date or a month in words (2026-10-01, 2026-10): kept on one line.
DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")


#: What a page does with JavaScript (``site.js`` beside the pages: nothing from the
#: network), each page whole
#: without it: a sortable table's headers become buttons that sort its rows (again: the
#: other way), and the index's search box (hidden without a script) shows only the rows of
#: the lists whose name has what is typed, and opens a player's page when a name is chosen.
SCRIPT = """(() => {
const text = c => c.innerText.trim();
const value = s => {
  const n = parseFloat(s.replace('\\u2212', '-'));
  return s !== '' && /^[-+\\u2212]?[0-9.]/.test(s) && !isNaN(n) ? n : s.toLowerCase();
};
for (const t of document.querySelectorAll('table.sortable')) {
  const heads = [...t.tHead.rows[0].cells];
  heads.forEach((th, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'sort';
    b.textContent = th.textContent;
    th.textContent = '';
    th.appendChild(b);
    b.addEventListener('click', () => {
      const up = th.getAttribute('aria-sort') !== 'ascending';
      heads.forEach(h => h.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      const body = t.tBodies[0];
      const rows = [...body.rows].map(r => [value(text(r.cells[i])), r]);
      rows.sort(([a], [b]) => {
        const c = typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0)
          : typeof a === 'number' ? -1 : 1;
        return up ? c : -c;
      });
      rows.forEach(([, r]) => body.appendChild(r));
    });
  });
}
const find = document.getElementById('find');
if (find) {
  find.hidden = false;
  const input = find.querySelector('input');
  const pages = new Map([...find.querySelectorAll('option')].map(o => [o.value, o.dataset.href]));
  input.addEventListener('input', () => {
    const q = input.value.trim().toLowerCase();
    if (pages.has(input.value)) { location.href = pages.get(input.value); return; }
    for (const r of document.querySelectorAll('table.sortable tbody tr')) {
      const name = r.querySelector('td.k');
      r.hidden = q !== '' && name !== null && !text(name).toLowerCase().includes(q);
    }
  });
}
})();"""


def _w(text: str) -> str:
    """Words as HTML text, each date in them kept on one line (a heading never breaks
    "2026-10-" from "01")."""
    return DATE.sub(lambda m: f'<span class="d">{m[0]}</span>', _e(text))


@dataclass(frozen=True)
class Frame:
    """What every page shows around its own content: the club's title and logo, the
    navigation, the date of the data, the club's address."""

    title: str
    logo: str | None  # the logo's file name in the site's folder
    url: str | None
    data: str  # the date of the data, in words


def frame(site: Site) -> Frame:
    c = site.config
    words = []
    if site.last_game is not None:
        words.append(f"games to {site.last_game.isoformat()}")
    lists = [f"{sl.tc} {sl.rating_list.list_date.isoformat()}" for sl in site.lists]
    if lists:
        words.append("latest lists: " + ", ".join(lists))
    data = "Data: " + ("; ".join(words) if words else "no games yet") + "."
    logo = f"logo.{c.logo_type}" if c.logo_type is not None else None
    return Frame(c.title, logo, c.url, data)


#: The site's navigation: (page, words).
NAV = (
    ("index.html", "Latest lists"),
    ("lists.html", "All lists"),
    ("compare.html", "Elo and Glicko"),
)


#: A table's columns as its ``data-c`` says them (the key column blank).
TABLE_COLUMNS = re.compile(r'<table class="s[^"]*" data-c="([^"]*)">')


def _labels(body: str) -> str:
    """The page's own style: on a phone, each stacked cell of its tables led by its
    column's name (one rule per column of each kind of table on the page, not a label in
    every cell)."""

    def css(text: str) -> str:  # a CSS string's content
        return text.replace("\\", "\\\\").replace('"', '\\"')

    rules = []
    for spec in sorted({html.unescape(s) for s in TABLE_COLUMNS.findall(body)}):
        rules += [
            f'table[data-c="{css(spec)}"] td:nth-child({n})::before{{content:"{css(label)} "}}'
            for n, label in enumerate(spec.split("|"), start=1)
            if label
        ]
    if not rules:
        return ""
    return "<style>@media (max-width:40rem){" + "\n".join(rules) + "}</style>\n"


def _page(fr: Frame, title: str, body: str, root: str) -> str:
    logo = f'<img src="{root}{_e(fr.logo)}" alt="" width="40" height="40">' if fr.logo else ""
    nav = "".join(f'<li><a href="{root}{href}">{_e(words)}</a></li>' for href, words in NAV)
    url = f' <a href="{_e(fr.url)}">{_e(fr.url)}</a>' if fr.url else ""
    full = title if title == fr.title else f"{title} · {fr.title}"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{_e(full)}</title>\n<link rel="stylesheet" href="{root}site.css">\n'
        f"{_labels(body)}</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to the content</a>\n'
        f'<header class="top"><a class="brand" href="{root}index.html">{logo}'
        f"<span>{_e(fr.title)}</span></a>\n"
        f'<nav aria-label="Site"><ul>{nav}</ul></nav>\n<p class="data">{_w(fr.data)}</p>'
        '</header>\n<main id="main">\n'
        f"<h1>{_w(title)}</h1>\n{body}</main>\n"
        f"<footer><p>{_e(fr.title)}: {_w(fr.data)}{url}</p></footer>\n"
        f'<script src="{root}site.js"></script>\n</body>\n</html>\n'
    )


#: The columns whose cells may wrap (names, events, notes).
WRAP = frozenset(
    {"name", "player", "opponent", "event", "note", "games", "status", "white", "black"}
)


def _table(
    caption: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    numeric: set[str],
    key: str | None = None,
    *,
    sortable: bool = False,
    centred: Collection[str] = (),
) -> str:
    """A table; cells are HTML already (escape them with :func:`_e`). Cells stay on one line
    but those of the columns :data:`WRAP` names (text that may be long); ``numeric`` columns
    are aligned right, ``centred`` ones (a crosstable's results) centred, all of one width.
    On a phone its rows stack: each a block of "column value" pairs, the ``key`` column
    (default: the first of name, player or opponent) on a line of its own."""
    if key is None:
        key = next((c for c in columns if c in ("name", "player", "opponent")), None)
    cls = []
    heads = []
    for c in columns:
        align = ["c"] if c in centred else ["n"] if c in numeric else []
        names = align or (["w"] if c in WRAP else [])
        names += ["k"] if c == key else []
        cls.append(f' class="{" ".join(names)}"' if names else "")
        heads.append(f' class="{align[0]}"' if align else "")
    head = "".join(f'<th scope="col"{k}>{_e(c)}</th>' for c, k in zip(columns, heads, strict=True))
    body = "".join(
        "<tr>" + "".join(f"<td{k}>{v}</td>" for v, k in zip(row, cls, strict=True)) + "</tr>\n"
        for row in rows
    )
    kind = "s sortable" if sortable else "s"
    labels = "|".join("" if c == key else c for c in columns)
    return (
        f'<table class="{kind}" data-c="{_e(labels)}">\n<caption>{_w(caption)}</caption>\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n"
    )


def _player_link(player_id: int, name: str, tracked: set[int]) -> str:
    """A player's name, linked to his page when he has one (from a page one folder down:
    a list's, a player's, an event's)."""
    if player_id not in tracked:
        return _e(name)
    return f'<a href="../players/{player_id}.html">{_e(name)}</a>'


def index_page(site: Site, fr: Frame) -> str:
    c = site.config
    body = f"<p>{_w(c.about)}</p>\n" if c.about else ""
    if not site.lists:
        which = " or ".join(site.tcs)
        body += f"<p>No {_e(which)} list yet: no rating period is closed.</p>\n"
    else:
        body += _search(site) + "".join(_list_section(sl) for sl in site.lists)
    if site.events:
        body += _events_list(site)
    return _page(fr, fr.title, body, "")


def _search(site: Site) -> str:
    """The index's search box (shown by the page's script: without it there is nothing to
    search with): the lists' rows whose name has what is typed; a tracked player's name
    chosen opens his page."""
    options = "".join(
        f'<option value="{_e(p.name)}" data-href="players/{p.id}.html"></option>'
        for p in site.players
    )
    return (
        '<form id="find" role="search" hidden onsubmit="return false">'
        '<label for="find-name">Find a player</label> '
        '<input id="find-name" type="search" list="find-names" autocomplete="off">'
        f'<datalist id="find-names">{options}</datalist></form>\n'
    )


def list_name(tc: TimeControl, list_date: dt.date) -> str:
    """A published list's page and CSV file under ``lists/``, without the suffix."""
    return f"lists/{tc}-{list_date.isoformat()}"


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
                _e(render.points(sl.changes.get(e.player_id))),
                _e(e.games),
                _e(s.display if s is not None else None),
                *map(_e, rl.others.cells(e.player_id)),
            )
        )
    stale = f" ({STALE})" if rl.stale else ""
    caption = f"{rl.tc.capitalize()} list of {rl.list_date.isoformat()}{stale}"
    columns = ["rank", "name", "title", "fed", "rating", "change", "games", sl.preset]
    columns += rl.others.beside.headings
    name = list_name(rl.tc, rl.list_date)
    heading = (
        f'<h2 id="{_e(rl.tc)}">{_e(rl.tc.capitalize())}</h2>\n'
        f'<p><a href="{name}.html">The {_w(rl.list_date.isoformat())} list in full, '
        f'with who moved most</a> · <a href="{name}.csv">CSV</a></p>\n'
    )
    if sl.pending is not None:
        waiting = waiting_words(sl.pending) if sl.pending.waiting_games else "no games yet"
        heading += f"<p>Open: {_w(month_label(sl.pending.open_month))}; {_w(waiting)}.</p>\n"
    if not rl.entries:
        return heading + f"<p>{_w(caption)}: nobody is rated on this list.</p>\n"
    numeric = {"rank", "rating", "change", "games", sl.preset, *rl.others.beside.headings}
    return heading + _table(caption, columns, rows, numeric, sortable=True)


def lists_page(site: Site, fr: Frame) -> str:
    """Every published list, by time control, the latest first: its page and its CSV."""
    if not site.published:
        return _page(fr, "All lists", "<p>No rating period is closed yet.</p>\n", "")
    body = ""
    for tc in site.tcs:
        rows = [
            (
                f'<a href="{list_name(p.tc, p.list_date)}.html">{_e(p.list_date.isoformat())}</a>',
                f'<a href="{list_name(p.tc, p.list_date)}.csv">CSV</a>',
                _e(STALE if p.stale else ""),
            )
            for p in site.published
            if p.tc == tc
        ]
        if rows:
            body += f"<h2>{_e(tc.capitalize())}</h2>\n" + _table(
                f"{tc.capitalize()} lists, the latest first",
                ["list", "download", "note"],
                rows,
                set(),
                key="list",
            )
    return _page(fr, "All lists", body, "")


#: How many of the largest gains and losses a list's page names.
MOVERS = 5


def list_page(lp: ListPage, tracked: set[int], fr: Frame) -> str:
    """A published list in full (``tracker list MONTH``) with each line's change, and who
    gained and lost most in the period that made it."""
    rl = lp.rating_list
    title = f"{rl.tc.capitalize()} list of {rl.list_date.isoformat()}"
    name = list_name(rl.tc, rl.list_date).removeprefix("lists/")
    body = f'<p><a href="{name}.csv">Download this list (CSV)</a></p>\n'
    if rl.stale:
        body += f"<p>{_e(STALE.capitalize())}.</p>\n"
    moved = sorted(
        ((c, e) for e in rl.entries if (c := lp.changes.get(e.player_id))),
        key=lambda ce: (-abs(ce[0]), ce[1].rank, ce[1].player_id),
    )
    for words, picked in (
        ("Gained most", [ce for ce in moved if ce[0] > 0][:MOVERS]),
        ("Lost most", [ce for ce in moved if ce[0] < 0][:MOVERS]),
    ):
        if picked:
            items = "".join(
                f"<li>{_player_link(e.player_id, e.name, tracked)}: {c:+d} "
                f"({e.rating - c} to {e.rating})</li>\n"
                for c, e in picked
            )
            body += f"<h2>{_e(words)}</h2>\n<ul>\n{items}</ul>\n"
    rows = [
        (
            _e(e.rank),
            _player_link(e.player_id, e.name, tracked),
            _e(e.title),
            _e(e.federation),
            _e(e.rating),
            _e(render.points(lp.changes.get(e.player_id))),
            _e(e.games),
            _e(e.k),
            *map(_e, rl.others.cells(e.player_id)),
        )
        for e in rl.entries
    ]
    others = rl.others.beside.headings  # the other registered systems' columns
    columns = ["rank", "name", "title", "fed", "rating", "change", "games", "K", *others]
    if rows:
        numeric = {"rank", "rating", "change", "games", "K", *others}
        body += _table(title, columns, rows, numeric, sortable=True)
    else:
        body += "<p>Nobody is rated on this list.</p>\n"
    return _page(fr, title, body, "../")


def list_csv(lp: ListPage) -> str:
    """A published list as CSV: the columns of ``tracker list``, the change, and the other
    registered systems' columns."""
    others = lp.rating_list.others
    return csv_file(
        [*LIST_COLUMNS, "change", *others.beside.headings],
        (
            [*list_row(e), lp.changes.get(e.player_id), *others.cells(e.player_id)]
            for e in lp.rating_list.entries
        ),
    )


def _fmt(value: float) -> str:
    return f"{value:.1f}"


@dataclass(frozen=True)
class ChartShape:
    """A chart's size (SVG user units: it scales to the content's width), margins, text
    size and how many dates it labels at most: one for a wide screen, one for a phone."""

    name: str
    width: int
    height: int
    left: int
    font: int
    labels: int
    legend_rows: bool  # the legend one entry a line (a phone), else on one line


#: The wide chart is shown above 52rem (832 px: its text 15 * 785 / 960 = 12.3 px or more
#: beside a scroll bar), the narrow one below (at 390 px: 14 * 343 / 380 = 12.6 px).
SHAPES = (
    ChartShape("wide", 960, 380, 56, 15, 10, False),
    ChartShape("narrow", 380, 340, 46, 14, 4, True),
)
RIGHT, TOP = 12, 12
#: How far beyond the lines the +-2 RD band widens the plot at most (beyond: clipped).
BAND_ROOM = 150.0
ELO, SHADOW, ONLINE = "#1f4e9c", "#b3401f", "#2e7d32"


def _step(span_: float) -> int:
    """A round gap between the rating lines: at most about six across ``span_``."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span_ / step <= 6:
            return step
    return 1000


def chart(c: Comparison) -> str:
    """The rating chart of one time control as inline SVG, twice (a wide one, and one for
    a phone, each shown at its width), drawn from what ``tracker history --plot`` draws
    (:mod:`tracker.cli.plot`'s data): the published Elo as steps per list, the shadow after
    each game day and on each list date with its +-2 RD band around it, and the real online
    rating of the first linked platform as steps. Each point tells its value on hover."""
    if not elo_steps(c) and not shadow_line(c):
        return ""
    every = "".join(f'<div class="{shape.name}">{_chart(c, shape)}</div>\n' for shape in SHAPES)
    year = last_year(c)
    if year is None:
        return every
    tc = _e(c.tc)
    charts = "".join(
        f'<div class="{shape.name}">{_chart(year, shape, "-year")}</div>\n' for shape in SHAPES
    )
    choice = "".join(
        f'<input type="radio" name="range-{tc}" id="range-{tc}-{v}" value="{v}"'
        f'{" checked" if v == "all" else ""}><label for="range-{tc}-{v}">{words}</label>\n'
        for v, words in (("all", "All"), ("year", "The last year"))
    )
    return (
        f'<div class="range">\n<fieldset><legend>Time range</legend>\n{choice}</fieldset>\n'
        f'<div class="all">\n{every}</div>\n<div class="year">\n{charts}</div>\n</div>\n'
    )


#: A history longer than this many lists has a chart of its last year too.
YEAR_LISTS = 13


def last_year(c: Comparison) -> Comparison | None:
    """The chart's data for the year to its last list (None: the history is no longer than
    :data:`YEAR_LISTS` lists): the lists and games after the day a year before, and the Elo
    in force that day."""
    if len(c.rows) <= YEAR_LISTS:
        return None
    since = c.rows[-1].list_date - dt.timedelta(days=365)
    before = [r for r in c.rows if r.list_date <= since and r.elo is not None]
    start = (since, before[-1].elo) if before and before[-1].elo is not None else c.elo_start
    return c._replace(
        rows=tuple(r for r in c.rows if r.list_date > since),
        points=tuple(p for p in c.points if p.played_on > since),
        elo_start=start,
    )


def _shadow_svg(
    line: list[tuple[dt.date, float, float, bool]],
    xy: tuple[Callable[[dt.date], float], Callable[[float], float]],
    clip: str,
    preset: str,
    provisional: bool,
) -> list[str]:
    """The shadow in its ±2 RD band, point by point, each point telling its value."""
    x, y = xy
    upper = [f"{_fmt(x(d))},{_fmt(y(r + 2 * rd))}" for d, r, rd, _ in line]
    lower = [f"{_fmt(x(d))},{_fmt(y(r - 2 * rd))}" for d, r, rd, _ in reversed(line)]
    dash = ' stroke-dasharray="5,3"' if provisional else ""
    points = " ".join(f"{_fmt(x(d))},{_fmt(y(r))}" for d, r, _, _ in line)
    return [
        f'<polygon class="band" {clip} fill="{SHADOW}" fill-opacity="0.13" '
        f'points="{" ".join(upper + lower)}"/>',
        f'<polyline class="shadow" {clip} fill="none" stroke="{SHADOW}" '
        f'stroke-width="1.8"{dash} points="{points}"/>',
        *(
            f'<circle {clip} cx="{_fmt(x(d))}" cy="{_fmt(y(r))}" r="2.5" fill="{SHADOW}">'
            f"<title>{_e(d.isoformat())}: {_e(preset)} {r:.0f} ±{2 * rd:.0f}</title></circle>"
            for d, r, rd, _ in line
        ),
    ]


def _legend_svg(legend: list[tuple[str, str]], shape: ChartShape, top: float) -> list[str]:
    """The legend under the chart: in one row, or one entry a row (a phone's)."""
    font = shape.font
    lx, ly = shape.left, top
    out = []
    for colour, text in legend:
        out.append(
            f'<line x1="{lx}" x2="{lx + 18}" y1="{_fmt(ly - font / 3)}" '
            f'y2="{_fmt(ly - font / 3)}" stroke="{colour}" stroke-width="3"/>'
            f'<text x="{lx + 22}" y="{_fmt(ly)}" font-size="{font}">{_e(text)}</text>'
        )
        if shape.legend_rows:
            ly += font + 8
        else:
            lx += 40 + round(0.55 * font * len(text))
    return out


def _chart(c: Comparison, shape: ChartShape, suffix: str = "") -> str:
    elo, line, first, last, series, real, shown, online = chart_data(c)
    low, high = y_limits(shown)
    if line:  # the band, as far as BAND_ROOM allows
        low = min(low, max(min(r - 2 * rd for _, r, rd, _ in line), low - BAND_ROOM))
        high = max(high, min(max(r + 2 * rd for _, r, rd, _ in line), high + BAND_ROOM))
    start, end = first - plot.MARGIN, last + plot.MARGIN
    days = (end - start).days
    font = shape.font
    legend = [(ELO, plot.ELO_LEGEND)]
    provisional = bool(line) and all(p for *_, p in line)
    legend.append((SHADOW, f"{c.preset} shadow, ±2 RD band" + (" (provisional)" * provisional)))
    if online:
        legend.append((ONLINE, online))
    legend_height = (len(legend) if shape.legend_rows else 1) * (font + 8)
    width, height, left = shape.width, shape.height, shape.left
    bottom = height - legend_height - font - 16

    def x(day: dt.date) -> float:
        return left + (width - left - RIGHT) * (day - start).days / days

    def y(value: float) -> float:
        return TOP + (bottom - TOP) * (high - value) / (high - low)

    def steps(points: Sequence[tuple[dt.date, int]]) -> str:
        out: list[str] = []
        for n, (day, value) in enumerate(points):
            if n:
                out.append(f"{_fmt(x(day))},{_fmt(y(points[n - 1][1]))}")
            out.append(f"{_fmt(x(day))},{_fmt(y(value))}")
        out.append(f"{_fmt(x(end))},{_fmt(y(points[-1][1]))}")
        return " ".join(out)

    key = f"chart-{_e(c.tc)}-{shape.name}{suffix}"
    area = f'x="{left}" y="{TOP}" width="{width - left - RIGHT}" height="{bottom - TOP}"'
    parts = [
        f'<clipPath id="{key}-clip"><rect {area}/></clipPath>',
        f'<rect {area} fill="#fff" stroke="#767676"/>',
    ]
    step = _step(high - low)
    value = (int(low) // step + 1) * step
    while value < high:
        parts.append(
            f'<line x1="{left}" x2="{width - RIGHT}" y1="{_fmt(y(value))}" '
            f'y2="{_fmt(y(value))}" stroke="#ddd"/><text x="{left - 4}" '
            f'y="{_fmt(y(value) + font / 3)}" font-size="{font}" text-anchor="end">{value}</text>'
        )
        value += step
    list_days = [r.list_date for r in c.rows]
    every = max(1, -(-len(list_days) // shape.labels))
    for day in list_days[::every]:
        parts.append(
            f'<line x1="{_fmt(x(day))}" x2="{_fmt(x(day))}" y1="{bottom}" y2="{bottom + 4}" '
            f'stroke="#767676"/><text x="{_fmt(x(day))}" y="{bottom + font + 4}" '
            f'font-size="{font}" text-anchor="middle">{_e(month_label(day))}</text>'
        )
    clip = f'clip-path="url(#{key}-clip)"'
    if line:
        parts += _shadow_svg(line, (x, y), clip, c.preset, provisional)
    if real:
        parts.append(
            f'<polyline {clip} fill="none" stroke="{ONLINE}" stroke-width="1.8" '
            f'points="{steps(real)}"/>'
        )
    if elo:
        parts.append(
            f'<polyline {clip} fill="none" stroke="{ELO}" stroke-width="2.4" '
            f'points="{steps(elo)}"/>'
        )
        parts += [
            f'<circle cx="{_fmt(x(d))}" cy="{_fmt(y(v))}" r="3.5" fill="{ELO}">'
            f"<title>{_e(d.isoformat())} list: Elo {v}</title></circle>"
            for d, v in elo
        ]
    parts += _legend_svg(legend, shape, height - legend_height + font / 2)
    what = f"FIDE Elo, the {c.preset} shadow" + (
        f" and {series.label}" if series is not None and online else ""
    )
    title = f"{c.name}: {what} ({c.tc})"
    desc = _chart_words(c, elo, line, real)
    return (
        f'<svg role="img" aria-labelledby="{key}-t {key}-d" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">\n'
        f'<title id="{key}-t">{_e(title)}</title>\n<desc id="{key}-d">{_e(desc)}</desc>\n'
        + "\n".join(parts)
        + "\n</svg>"
    )


def _chart_words(
    c: Comparison,
    elo: Sequence[tuple[dt.date, int]],
    line: Sequence[tuple[dt.date, float, float, bool]],
    real: Sequence[tuple[dt.date, int]],
) -> str:
    """What the chart shows, in words (its description for a screen reader): each list's
    Elo, the shadow on each list date, the latest online rating."""
    words = []
    if elo:
        words.append("FIDE Elo " + ", ".join(f"{v} on {d.isoformat()}" for d, v in elo))
    on_lists = {r.list_date for r in c.rows}
    shadow = [(d, r, rd) for d, r, rd, _ in line if d in on_lists]
    if shadow:
        words.append(
            f"{c.preset} shadow "
            + ", ".join(f"{r:.0f} ±{2 * rd:.0f} on {d.isoformat()}" for d, r, rd in shadow)
        )
    if real:
        words.append(f"online {real[-1][1]} on {real[-1][0].isoformat()}")
    return "; ".join(words) + "."


def _history_section(record: SiteRecord, tracked: set[int]) -> str:
    h = record.history
    columns = history_columns(h)
    rows = [
        (
            _e(month_label(r.month)),
            *map(_e, history_cells(r, h.beside)),
            _e("; ".join(filter(None, [STALE if r.stale else None, r.note]))),
        )
        for r in h.rows
    ]
    numeric = set(columns) - {"month", "list", "rank", "note"}
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
        where = render.place(last.standing)
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


def _periods(periods: Sequence[PeriodDetail], tc: TimeControl, tracked: set[int]) -> str:
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
                _player_link(g.opponent_id, g.opponent, tracked),
                _e(g.colour),
                *map(_e, detail_cells(g)),
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
            _player_link(line.id, line.name, tracked),
            *map(_e, tally_cells(line.total)),
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


def player_page(sp: SitePlayer, tracked: set[int], fr: Frame) -> str:
    p = sp.player
    facts = [f"{label} {_e(value)}" for label, value in (
        ("Title", p.title), ("Federation", p.federation), ("FIDE id", p.fide_id),
    ) if value is not None]  # fmt: skip
    body = f"<p>{'; '.join(facts)}</p>\n" if facts else ""
    if not sp.records:
        body += "<p>No closed rating period for this player yet.</p>\n"
    body += "".join(_history_section(r, tracked) for r in sp.records)
    body += _opponents(sp.opponents, tracked)
    return _page(fr, p.name, body, "../")


TIE_BREAK_WORDS = {
    "BH": "BH: Buchholz, the opponents' scores added",
    "SB": "SB: Sonneborn-Berger, each opponent's score times the points made against him",
}
#: A crosstable result from White's side, as a pairing shows it.
PAIRING_RESULT = {"1": "1-0", "0": "0-1", "=": "½-½", "+": "+/-", "-": "-/+"}


def _rating_words(s: EventStanding) -> str:
    """The rating an event is rated with: "unrated", and an external player's the rating
    recorded with his games."""
    if s.rating is None:
        return "unrated"
    return f"{s.rating} (recorded)" if s.external else str(s.rating)


def event_page(report: EventReport, tracked: set[int], fr: Frame) -> str:
    end = f" to {report.end.isoformat()}" if report.end is not None else ""
    what = f"{report.kind.capitalize()}, {report.tc}" if report.kind else report.tc.capitalize()
    body = f"<p>{_w(what)}, from {_w(report.start.isoformat())}"
    body += f"{_w(end)}; {_w(report.rated.text)}.</p>\n"
    shown = report.tie_break_names
    rows = [
        (
            _e(s.rank),
            _player_link(s.player_id, s.name, tracked),
            _e(s.games),
            _e(render.score(s.score)),
            *(_e(render.tie_break(t, s.tie_breaks.value(t))) for t in shown),
            _e(_rating_words(s)),
            _e(s.rated_games),
            _e(render.expected(s.expected) if s.expected is not None else ""),
            _e(s.performance),
            _e(render.change(s.change) if s.change is not None else ""),
        )
        for s in report.standings
    ]
    columns = ["rank", "name", "games", "score", *shown, "rating", "rated", "expected", "perf"]
    columns.append("change")
    numeric = set(columns) - {"name"}
    words = "; ".join(TIE_BREAK_WORDS[t] for t in shown)
    caption = f"{report.name}: standings (tie-breaks {words})"
    body += _table(caption, columns, rows, numeric, sortable=True)
    if report.live:
        body += "<p>The change is what closing the open period now would give.</p>\n"
    if report.waits:
        months = ", ".join(month_label(m) for m in report.waits)
        body += (
            f"<p>No expected score or change yet for the games rated in {_w(months)}: an "
            "earlier open period must be closed first.</p>\n"
        )
    body += _crosstable(report, tracked)
    body += _pairings(report, tracked)
    body += _cards(report, tracked)
    return _page(fr, report.name, body, "../")


def _round_key(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (10**9, name)


def _pairings(report: EventReport, tracked: set[int]) -> str:
    """Each round's pairings, as chess-results shows them: board by board, White first,
    the result, then the byes; only for an event whose every game has a round."""
    if not report.rounds:
        return ""
    rounds: dict[str, list[tuple[str, str, str]]] = {}  # White, the result, Black
    for s in report.standings:
        for c in s.cells:
            if c.round is None:
                continue
            me = _player_link(s.player_id, s.name, tracked)
            if c.bye:
                rounds.setdefault(c.round, []).append((me, _e(f"bye ({c.result})"), ""))
            elif c.colour == "w":
                other = next(o for o in report.standings if o.player_id == c.opponent_id)
                them = _player_link(other.player_id, other.name, tracked)
                result = _e(PAIRING_RESULT.get(c.result, c.result))
                rounds.setdefault(c.round, []).append((me, result, them))
    out = ['<h2 id="pairings">Pairings, round by round</h2>\n']
    for name in sorted(rounds, key=_round_key):
        rows = [(_e(n), *board) for n, board in enumerate(rounds[name], start=1)]
        out.append(
            _table(
                f"Round {name}",
                ["no", "white", "result", "black"],
                rows,
                {"no"},
                key="white",
            )
        )
    return "".join(out)


def _crosstable(report: EventReport, tracked: set[int]) -> str:
    """The crosstable: for a Swiss whose every game has a round, chess-results' (by start
    number, a column per round: opponent's number, colour, result, ``12w1``); else as
    ``event show`` prints it, a grid up to :data:`GRID_PLAYERS` players, each player's games
    in order beyond."""
    if not report.standings:
        return ""
    ids = [s.player_id for s in report.standings]
    if report.kind == "swiss" and report.rounds:
        return _swiss_crosstable(report, tracked)
    if _grid(report):
        columns, key, cells = grid(report)
        rows = [
            (_e(no), _player_link(pid, name, tracked), *map(_e, against), _e(total))
            for pid, (no, name, against, total) in zip(ids, cells, strict=True)
        ]
        caption = f"{report.name}: crosstable ({key})"
        return _table(caption, columns, rows, {"no", "score"}, centred=columns[2:-1])
    rows = [
        (_e(rank), _e(no), _player_link(pid, name, tracked), _e(total), _e(games))
        for pid, (rank, no, name, total, games) in zip(ids, round_rows(report), strict=True)
    ]
    caption = f"{report.name}: {ROUNDS_CAPTION}"
    return _table(
        caption, ["rank", "no", "player", "score", "games"], rows, {"rank", "no", "score"}
    )


def _grid(report: EventReport) -> bool:
    """Whether the crosstable is a grid (numbered by place in the standings), not by start
    number (a Swiss with rounds, or a large event)."""
    return not (report.kind == "swiss" and report.rounds) and len(report.standings) <= GRID_PLAYERS


def _swiss_crosstable(report: EventReport, tracked: set[int]) -> str:
    rounds = sorted({c.round for s in report.standings for c in s.cells if c.round}, key=_round_key)
    rows = []
    for s in sorted(report.standings, key=lambda s: s.number):
        by_round = {c.round: game_code(c) for c in s.cells}
        rows.append(
            (
                _e(s.number),
                _player_link(s.player_id, s.name, tracked),
                _e(_rating_words(s)),
                *(_e(by_round.get(r, "")) for r in rounds),
                _e(render.score(s.score)),
                _e(s.rank),
            )
        )
    columns = ["no", "player", "rating", *(f"rd {r}" for r in rounds), "score", "rank"]
    caption = f"{report.name}: {ROUNDS_CAPTION}, a column per round"
    return _table(caption, columns, rows, {"no", "score", "rank"}, centred=columns[3:-2])


def _cards(report: EventReport, tracked: set[int]) -> str:
    """Each player's card, as chess-results has it: his games round by round (opponent,
    his rating, colour, result) and his figures, one tap away (a disclosure)."""
    by_id = {s.player_id: s for s in report.standings}
    out = ['<h2 id="cards">Player cards</h2>\n']
    grid = _grid(report)  # each card numbered as the crosstable numbers him
    for at, s in enumerate(report.standings, 1):
        rows = [
            (
                _e(c.round or ""),
                _e("bye")
                if c.bye
                else _player_link(c.opponent_id, by_id[c.opponent_id].name, tracked),
                _e("" if c.bye else _rating_words(by_id[c.opponent_id])),
                _e({"w": "white", "b": "black"}.get(c.colour, "")),
                _e(c.result),
            )
            for c in s.cells
        ]
        figures = [f"score {render.score(s.score)} of {s.games}", f"rating {_rating_words(s)}"]
        if s.performance is not None:
            figures.append(f"performance {s.performance}")
        if s.change is not None:
            figures.append(f"change {render.change(s.change)}")
        table = _table(
            f"{s.name}: games in {report.name}",
            ["round", "opponent", "rating", "colour", "result"],
            rows,
            {"round", "rating"},
        )
        out.append(
            f"<details><summary>{at if grid else s.number}. {_e(s.name)}: "
            f"{_e(', '.join(figures))}"
            f"</summary>\n{table}</details>\n"
        )
    return "".join(out)


def compare_page(site: Site, fr: Frame) -> str:
    """The club's FIDE Elo beside the Glicko shadow (and every other registered system), list
    by list, as `tracker compare --all` gives them, and where the two rank players most
    differently."""
    if not site.lists:
        return _page(fr, "Elo and Glicko", "<p>No rating period is closed yet.</p>\n", "")
    body = ""
    for sl in site.lists:
        others = sl.rating_list.others  # the other registered systems' columns
        rows = []
        ranked = sorted(
            (r for r in sl.shadows.values() if r.elo is not None),
            key=lambda r: (r.elo_rank or 0, r.player_id),
        )
        for r in ranked:
            moved = (
                ""
                if r.elo_rank is None or r.glicko_rank is None or r.elo_rank == r.glicko_rank
                else render.points(r.elo_rank - r.glicko_rank)
            )
            rows.append(
                (
                    _e(r.elo_rank),
                    f'<a href="players/{r.player_id}.html">{_e(r.name)}</a>',
                    _e(r.elo),
                    _e(r.display),
                    _e(render.rd(r.rd)),
                    *map(_e, others.cells(r.player_id)),
                    _e(render.points(r.difference)),
                    _e(r.glicko_rank),
                    _e(moved),
                )
            )
        columns = ["Elo rank", "name", "Elo", sl.preset, "RD", *others.beside.headings]
        columns += ["diff", "rank", "moves"]
        numeric = set(columns) - {"name"}
        caption = (
            f"{sl.tc.capitalize()} list of {sl.rating_list.list_date.isoformat()} and the "
            f"{sl.preset} shadow (moves: places gained by the shadow's ranking)"
        )
        body += f"<h2>{_e(sl.tc.capitalize())}</h2>\n"
        body += _table(caption, columns, rows, numeric, sortable=True)
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
    return _page(fr, "Elo and Glicko", body, "")


def paths(site: Site) -> list[str]:
    """The path of every file of the site under its folder, in the order of :func:`pages`."""
    logo = [f"logo.{site.config.logo_type}"] if site.config.logo_type is not None else []
    return [
        *logo,
        "site.css",
        "site.js",
        "index.html",
        "lists.html",
        "compare.html",
        *(
            f"{list_name(p.tc, p.list_date)}.{ext}"
            for p in site.published
            for ext in ("html", "csv")
        ),
        *(f"players/{p.id}.html" for p in site.players),
        *(f"events/{e.id}.html" for e in site.events),
    ]


def pages(
    site: Site,
    lists: Iterable[ListPage],
    players: Iterable[SitePlayer],
    events: Iterable[EventReport],
) -> Iterator[tuple[str, str | bytes]]:
    """Every file of the site, one at a time: its path under the site's folder (those of
    :func:`paths`), and its content (``lists``, ``players`` and ``events``: their data, read
    as the pages are drawn)."""
    fr = frame(site)
    if site.config.logo is not None:
        yield f"logo.{site.config.logo_type}", site.config.logo
    yield "site.css", CSS + "\n"
    yield "site.js", SCRIPT + "\n"
    yield "index.html", index_page(site, fr)
    yield "lists.html", lists_page(site, fr)
    yield "compare.html", compare_page(site, fr)
    tracked = {p.id for p in site.players}
    for lp in lists:
        name = list_name(lp.rating_list.tc, lp.rating_list.list_date)
        yield f"{name}.html", list_page(lp, tracked, fr)
        yield f"{name}.csv", list_csv(lp)
    for sp in players:
        yield f"players/{sp.player.id}.html", player_page(sp, tracked, fr)
    for report in events:
        yield f"events/{report.id}.html", event_page(report, tracked, fr)


def _events_list(site: Site) -> str:
    items = "".join(
        f'<li><a href="events/{r.id}.html">{_e(r.name)}</a> ({_e(r.tc)}, '
        f"{_e(r.start.isoformat())})</li>\n"
        for r in site.events
    )
    return f"<h2>Events</h2>\n<ul>\n{items}</ul>\n"
