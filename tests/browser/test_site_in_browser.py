"""The demo season's static site (``tracker site build``) in a real browser: every page is
reached by its links and none is dead, each player's history tables show what
``tracker history --json`` says, no page scrolls sideways on a phone, and Tab walks the links
in order.

The pages are opened as file:// URLs; the numbers are read from the rendered page
(``element.text``), never from the HTML files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import REQUIRED
from tests.helpers import Cli, cli_on, js, ok
from tracker.vocabulary import TIME_CONTROLS

# The demo makes its own SQLite file: these tests run once, not once per backend.
pytestmark = pytest.mark.backends("sqlite")

DESKTOP = (1280, 800)
PHONE = (390, 844)
CAPTION = re.compile(r"(?P<name>.+): (?P<tc>\w+) history, period by period")


@dataclass(frozen=True)
class Demo:
    cli: Cli  # tracker --db <the demo database> ...
    site: Path


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """The demo season's database and its site, built once for the module (the demo takes a
    few seconds), under the environment tests/conftest.py's _isolated_env gives each test."""
    folder = tmp_path_factory.mktemp("browser-demo")
    with pytest.MonkeyPatch.context() as env:
        env.delenv("TRACKER_DB", raising=False)
        env.setenv("XDG_DATA_HOME", str(folder / "xdg-data"))
        env.setenv("TRACKER_TODAY", "2026-11-29")
        env.setenv("COLUMNS", "1000")
        db = folder / "demo.db"
        cli = cli_on(str(db))
        ok(cli("demo", "--file", str(db)))
        ok(cli("site", "build", str(folder / "site")))
    return Demo(cli, folder / "site")


def url(path: Path) -> str:
    return path.resolve().as_uri()


def site_file(site: Path, address: str) -> Path | None:
    """The file a file:// URL (without its fragment) names, if it is inside the site."""
    parts = urlparse(address)
    if parts.scheme != "file":
        return None
    path = Path(unquote(parts.path)).resolve()
    return path if path.is_relative_to(site.resolve()) else None


def open_page(driver: WebDriver, address: str) -> None:
    driver.get(address)
    assert driver.execute_script("return document.readyState") == "complete"


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def crawl(driver: WebDriver, site: Path) -> tuple[set[Path], list[str]]:
    """Every page reachable from index.html by <a href>, and what is wrong on the way."""
    problems: list[str] = []
    index = (site / "index.html").resolve()
    seen = {index}
    todo = [index]
    while todo:
        page = todo.pop()
        name = page.relative_to(site.resolve())
        open_page(driver, url(page))
        title, lang, h1s = driver.execute_script(
            "return [document.title, document.documentElement.lang,"
            " document.querySelectorAll('h1').length]"
        )
        if not title.strip():
            problems.append(f"{name}: no <title>")
        if not lang.strip():
            problems.append(f"{name}: no <html lang>")
        if h1s < 1:
            problems.append(f"{name}: no <h1>")
        links: list[list[str]] = driver.execute_script(
            "return [...document.querySelectorAll('a[href]')]"
            ".map(a => [a.getAttribute('href'), a.href])"
        )
        if not links and page != index:
            problems.append(f"{name}: no link out (a dead end)")
        for href, absolute in links:
            address, fragment = urldefrag(absolute)
            if urlparse(address).scheme in ("http", "https", "mailto"):
                continue  # the world outside: not this site's to check (the network is closed)
            target = site_file(site, address)
            if target is None or not target.is_file():
                problems.append(f"{name}: dead link {href!r}")
                continue
            if fragment:
                open_page(driver, absolute)
                found = driver.execute_script(
                    "return document.getElementById(arguments[0]) !== null", unquote(fragment)
                )
                if not found:
                    problems.append(f"{name}: link {href!r} to a missing #{fragment}")
                open_page(driver, url(page))
            if target.suffix == ".html" and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen, problems


@pytest.fixture
def desktop(driver: WebDriver) -> WebDriver:
    driver.set_window_size(*DESKTOP)
    return driver


def test_every_page_is_linked_and_every_link_leads_to_a_page(
    desktop: WebDriver, demo: Demo
) -> None:
    reached, problems = crawl(desktop, demo.site)
    assert problems == []
    # every page (the build's manifest, .tracker-site, is the build's own: no page)
    every = {p.resolve() for p in demo.site.rglob("*.html") if p.is_file()}
    assert sorted(p.name for p in demo.site.iterdir() if p.is_file() and p.suffix != ".html") == [
        ".tracker-site", "site.css", "site.js"
    ]  # fmt: skip
    assert sorted(str(p.relative_to(demo.site.resolve())) for p in every - reached) == []
    # the site is what the demo promises: the lists, the comparison, players and events
    names = {str(p.relative_to(demo.site.resolve())) for p in reached}
    assert {"index.html", "compare.html", "players/1.html", "events/1.html"} <= names


# ---------------------------------------------------------------------- the history tables


# One script reads a whole table: element.text is a WebDriver round trip per cell (about 10 ms:
# 10 s for the demo's ~900 cells), and innerText is the same rendered text; history_tables
# checks that the two agree on the first row of each page's first history table.
CELLS = """const t = arguments[0], text = c => c.innerText.trim();
return [[...t.tHead.rows[0].cells].map(text),
        ...[...t.tBodies].flatMap(b => [...b.rows]).map(tr => [...tr.cells].map(text))]"""


def table_rows(table: WebElement, *, spot_check: bool) -> list[dict[str, str]]:
    """A table's body rows as {column header: the cell's text as the browser shows it}."""
    headers, *texts = table.parent.execute_script(CELLS, table)
    assert len(set(headers)) == len(headers), headers
    if spot_check and texts:
        first = table.find_element(By.CSS_SELECTOR, "tbody tr")
        shown = [td.text.strip() for td in first.find_elements(By.CSS_SELECTOR, "td, th")]
        assert shown == texts[0]
    rows = []
    for cells in texts:
        assert len(cells) == len(headers), (headers, cells)
        rows.append(dict(zip(headers, cells, strict=True)))
    return rows


def history_tables(driver: WebDriver) -> dict[str, tuple[str, list[dict[str, str]]]]:
    """The page's history tables, found by their captions: {tc: (player's name, rows)}."""
    found: dict[str, tuple[str, list[dict[str, str]]]] = {}
    for table in driver.find_elements(By.CSS_SELECTOR, "table"):
        caption = table.parent.execute_script("return arguments[0].caption?.innerText", table)
        match = CAPTION.fullmatch(caption.strip()) if caption else None
        if match is None:
            continue  # another table (games, head to head, ...)
        assert match["tc"] not in found, f"two {match['tc']} history tables"
        found[match["tc"]] = (match["name"], table_rows(table, spot_check=not found))
    return found


def number(text: str) -> float:
    return float(text.replace("\u2212", "-"))  # a typographic minus reads as a minus


def close_to(text: str, value: float, places: int) -> bool:
    return text != "" and abs(number(text) - value) <= 0.5 * 10**-places + 1e-9


def row_problems(cell: dict[str, str], want: dict[str, Any], preset: str) -> list[str]:
    """Where a table row differs from ``tracker history --json``'s row."""
    rated = want["rating_before"] is not None
    checks: list[tuple[str, bool]] = [
        ("month", cell["month"] == want["month"]),
        (
            "rating",
            cell["rating"] == ("unrated" if want["rating"] is None else str(want["rating"])),
        ),
        ("rounded", cell["rounded"] == (f"{want['change']:+d}" if rated else "")),
        ("games", cell["games"] == str(want["games"])),
        ("score", close_to(cell["score"], want["score"], 1)),
    ]
    # the columns the site shows besides (each checked when the page has it)
    if "list" in cell:
        checks.append(("list", cell["list"] == want["list"]))
    if "before" in cell:
        checks.append(
            ("before", cell["before"] == (str(want["rating_before"]) if rated else "unrated"))
        )
    if "K" in cell:
        checks.append(("K", cell["K"] == ("" if want["k"] is None else str(want["k"]))))
    if "expected" in cell:
        ok_ = close_to(cell["expected"], want["expected"], 2) if rated else cell["expected"] == ""
        checks.append(("expected", ok_))
    if "change" in cell:
        ok_ = close_to(cell["change"], want["change_exact"], 2) if rated else cell["change"] == ""
        checks.append(("change", ok_))
    if preset in cell:
        shown = cell[preset]
        if want["glicko"] is None:
            checks.append((preset, shown == ""))
        else:
            whole = re.fullmatch(r"(-?\d+)(\?)?", shown)
            checks.append(
                (
                    preset,
                    whole is not None
                    and abs(int(whole[1]) - want["glicko"]) <= 1
                    and (whole[2] is not None) == want["provisional"],
                )
            )
    if "RD" in cell:
        checks.append(
            ("RD", cell["RD"] == "" if want["rd"] is None else close_to(cell["RD"], want["rd"], 0))
        )
    return [f"{column}: shown {cell.get(column)!r}" for column, good in checks if not good]


def test_player_pages_show_the_history_the_command_line_gives(
    desktop: WebDriver, demo: Demo
) -> None:
    players = pages(demo.site / "players")
    assert len(players) == 8  # the demo tracks 8 players
    compared = 0
    for page in players:
        pid = page.stem
        open_page(desktop, url(page))
        h1 = desktop.find_element(By.TAG_NAME, "h1").text.strip()
        tables = history_tables(desktop)
        histories = {
            tc: rows
            for tc in TIME_CONTROLS
            if (rows := js(demo.cli, "history", f"#{pid}", "--tc", tc))
        }
        assert set(tables) == set(histories), f"players/{page.name}: a table per time control"
        for tc, want in histories.items():
            name, rows = tables[tc]
            assert name == h1, f"players/{page.name}: the {tc} caption names {name!r}"
            preset = js(demo.cli, "compare", f"#{pid}", "--tc", tc)["preset"]
            assert len(rows) == len(want), f"players/{page.name} {tc}: periods"
            for cell, row in zip(rows, want, strict=True):
                for column in ("month", "rating", "change", "rounded", "games", "score", preset):
                    assert column in cell, f"players/{page.name} {tc}: no {column!r} column"
                problems = row_problems(cell, row, preset)
                assert problems == [], f"players/{page.name} {tc} {row['month']}: {problems}"
                compared += 1
    assert compared >= 30  # the demo's season: 8 players, 4 standard and 2 rapid months


# ---------------------------------------------------------------------- a phone's width


#: Each element wider than its box: the document, and every table (tag, scroll, client).
WIDER = """const e = document.documentElement, out = [];
if (e.scrollWidth > e.clientWidth) out.push(['document', e.scrollWidth, e.clientWidth]);
for (const t of document.querySelectorAll('table')) {
  const box = t.parentElement.clientWidth;
  if (t.scrollWidth > t.clientWidth || t.getBoundingClientRect().width > box + 0.5)
    out.push([t.caption ? t.caption.innerText : 'table', t.scrollWidth, box]);
}
for (const c of document.querySelectorAll('td'))  // nothing spills out of its cell
  if (c.scrollWidth > c.clientWidth + 1) out.push(['cell', c.innerText, c.scrollWidth]);
return out"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_no_page_scrolls_sideways(driver: WebDriver, demo: Demo, size: tuple[int, int]) -> None:
    driver.set_window_size(*size)
    try:
        open_page(driver, url(demo.site / "index.html"))
        assert driver.execute_script("return window.innerWidth") == size[0]
        wider = {}
        for page in pages(demo.site):
            open_page(driver, url(page))
            if found := driver.execute_script(WIDER):
                wider[str(page.relative_to(demo.site))] = found
        assert wider == {}, "wider than the window: (what, scrollWidth, box)"
    finally:
        driver.set_window_size(*DESKTOP)


# ---------------------------------------------------------------------- the keyboard


def test_tab_walks_the_links_and_controls_of_the_index_in_document_order(
    desktop: WebDriver, demo: Demo
) -> None:
    open_page(desktop, url(demo.site / "index.html"))
    links = desktop.find_elements(By.CSS_SELECTOR, "a[href], button, input")
    assert len(links) >= 10
    keys = ActionChains(desktop)
    for i, link in enumerate(links):
        keys.send_keys(Keys.TAB).perform()
        focused = desktop.switch_to.active_element
        assert focused == link, f"Tab {i + 1} focused {focused.text!r}, not {link.text!r}"
    # Enter on a focused link follows it
    open_page(desktop, url(demo.site / "index.html"))
    keys.send_keys(Keys.TAB, Keys.TAB).perform()
    second = desktop.switch_to.active_element.get_attribute("href")
    keys.send_keys(Keys.ENTER).perform()
    WebDriverWait(desktop, 10).until(lambda d: d.current_url == second)


def test_printed_pages_drop_the_navigation_and_print_the_wide_chart(
    desktop: WebDriver, demo: Demo
) -> None:
    """In print (the browser's print media), the navigation and the skip link are hidden
    and the wide chart is printed, not the phone's; on screen they are there."""
    page = url(demo.site / "players" / "1.html")
    looks = (
        "return [getComputedStyle(document.querySelector('nav')).display,"
        " getComputedStyle(document.querySelector('.skip')).display,"
        " getComputedStyle(document.querySelector('.wide')).display,"
        " getComputedStyle(document.querySelector('.narrow')).display]"
    )
    open_page(desktop, page)
    assert desktop.execute_script(looks) == ["block", "block", "block", "none"]
    desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        open_page(desktop, page)
        assert desktop.execute_script(looks) == ["none", "none", "block", "none"]
    finally:
        desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


# ---------------------------------------------------------------------- axe-core

#: axe-core, as `make test` installs it from package-lock.json (`npm ci`): never fetched here.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: One page of each kind.
KINDS = (
    "index.html",
    "lists.html",
    "lists/standard-2026-05-01.html",
    "compare.html",
    "players/1.html",
    "events/1.html",
    "events/2.html",
)
#: axe's violations (rule, what it asks, up to three elements) and how many rules passed.
RUN_AXE = """const done = arguments[arguments.length - 1];
const where = v => v.nodes.slice(0, 3).map(n => n.target.join(' '));
axe.run(document, {resultTypes: ['violations']})
  .then(r => done([r.violations.map(v => [v.id, v.help, where(v)]), r.passes.length]))
  .catch(e => done([[['error', String(e), []]], 0]));"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_axe_core_finds_nothing_on_any_kind_of_page(
    driver: WebDriver, demo: Demo, size: tuple[int, int]
) -> None:
    if not AXE.is_file():
        if REQUIRED:
            pytest.fail(f"{AXE} missing: `make test` installs it (npm ci)")
        pytest.skip(f"{AXE} missing (npm ci)")
    source = AXE.read_text(encoding="utf-8")
    driver.set_window_size(*size)
    driver.set_script_timeout(60)
    try:
        found = {}
        for kind in KINDS:
            open_page(driver, url(demo.site / kind))
            driver.execute_script(source)
            violations, passed = driver.execute_async_script(RUN_AXE)
            assert passed >= 10, f"{kind}: axe ran {passed} rules"  # it did run
            if violations:
                found[kind] = violations
        assert found == {}
    finally:
        driver.set_window_size(*DESKTOP)


def test_list_columns_sort_and_the_search_box_finds_players(desktop: WebDriver, demo: Demo) -> None:
    """Progressive enhancement: the page's own script makes each list header a button that
    sorts (again: the other way) and shows the search box, which keeps the rows whose name
    has what is typed."""
    open_page(desktop, url(demo.site / "index.html"))
    table = desktop.find_element(By.CSS_SELECTOR, "table.sortable")
    ranks = [r["rank"] for r in table_rows(table, spot_check=False)]
    assert ranks == sorted(ranks, key=int)
    name = table.find_element(By.XPATH, ".//th[2]/button")
    name.click()
    names = [r["name"] for r in table_rows(table, spot_check=False)]
    assert names == sorted(names, key=str.lower)
    name.click()
    assert [r["name"] for r in table_rows(table, spot_check=False)] == names[::-1]
    rating = table.find_element(By.XPATH, ".//th[5]/button")
    rating.click()
    ratings = [int(r["rating"]) for r in table_rows(table, spot_check=False)]
    assert ratings == sorted(ratings)
    box = desktop.find_element(By.ID, "find-name")
    assert box.is_displayed()
    box.send_keys("oka")
    shown = [
        tr.text for tr in table.find_elements(By.CSS_SELECTOR, "tbody tr") if tr.is_displayed()
    ]
    assert len(shown) == 1 and "Okafor, Grace" in shown[0]


# ---------------------------------------------------------------------- the chart

CHART = """const svg = document.querySelector(arguments[0]);
const pts = e => e.getAttribute('points').trim().split(/\\s+/)
  .map(p => p.split(',').map(Number));
const at = (c, a) => Number(c.getAttribute(a));
const dots = s => [...svg.querySelectorAll(s)]
  .map(c => [c.querySelector('title').textContent, at(c, 'cx'), at(c, 'cy')]);
return {band: pts(svg.querySelector('polygon.band')),
        line: pts(svg.querySelector('polyline.shadow')),
        elo: dots('circle[fill="#1f4e9c"]'), shadow: dots('circle[fill="#b3401f"]'),
        width: svg.getBoundingClientRect().width}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_band_is_two_rd_either_side_of_the_shadow_line(
    driver: WebDriver, demo: Demo, size: tuple[int, int]
) -> None:
    """Read from the SVG the browser shows: the band's edges, turned into ratings by the
    scale of two Elo points, are the shadow of `tracker compare --json` +- 2 RD on each list
    date; the line has one point a day; the chart spans the content."""
    driver.set_window_size(*size)
    shape = ".wide svg" if size == DESKTOP else ".narrow svg"
    checked = 0
    try:
        for pid in range(1, 9):
            want = js(demo.cli, "compare", f"#{pid}", "--tc", "standard")
            if not any(p["rd"] for p in want["periods"]):
                continue
            open_page(driver, url(demo.site / "players" / f"{pid}.html"))
            got = driver.execute_script(CHART, shape)
            main = driver.execute_script("return document.querySelector('main').clientWidth")
            assert got["width"] >= min(main - 40, 570), (pid, got["width"], main)
            elo = {(round(y, 1), int(t.rsplit(" ", 1)[1])) for t, _, y in got["elo"]}
            (y1, v1), (y2, v2) = sorted(elo, key=lambda e: e[1])[:: max(1, len(elo) - 1)][:2]
            if v1 == v2:
                continue

            def rating(
                y: float, y1: float = y1, v1: int = v1, y2: float = y2, v2: int = v2
            ) -> float:
                return v1 + (y - y1) * (v2 - v1) / (y2 - y1)

            # the SVG's coordinates have one decimal: a rating read from them is that close,
            # the error growing with the distance from the two points of the scale
            def close(
                y: float, y1: float = y1, y2: float = y2, per: float = (v2 - v1) / (y2 - y1)
            ) -> float:
                return 0.5 + abs(per) * 0.05 * (1 + 2 * abs(y - y1) / abs(y2 - y1))

            n = len(got["line"])
            assert len(got["band"]) == 2 * n
            upper, lower = got["band"][:n], got["band"][n:][::-1]
            days = [t.split(":")[0] for t, _, _ in got["shadow"]]
            assert len(days) == len(set(days)) == n  # one point a day
            for period in want["periods"]:
                if period["rd"] is None:
                    continue
                i = days.index(period["list"])
                assert upper[i][0] == lower[i][0] == got["line"][i][0]
                for y, value in (
                    (got["line"][i][1], period["glicko"]),
                    (upper[i][1], period["glicko"] + 2 * period["rd"]),
                    (lower[i][1], period["glicko"] - 2 * period["rd"]),
                ):
                    assert abs(rating(y) - value) < close(y), (pid, period["list"], y, value)
                checked += 1
    finally:
        driver.set_window_size(*DESKTOP)
    assert checked >= 10


# ---------------------------------------------------------------------- a season of events

SEASON_PLAYERS = (
    ("Hart, Daniel", 2318), ("Okafor, Grace", 2105), ("Patel, Arjun", 1999),
    ("Silva, Ana", 1950), ("Moreau, Claire", 1880), ("Sato, Yuki", 1790),
)  # fmt: skip
SWISS = (  # round, white, black, result
    ("1", "Hart", "Silva", "1-0"), ("1", "Okafor", "Moreau", "1/2-1/2"),
    ("1", "Patel", "Sato", "+-"),
    ("2", "Patel", "Hart", "0-1"), ("2", "Silva", "Okafor", "0-1"), ("2", "Sato", "Moreau", "1-0"),
    ("3", "Hart", "Okafor", "1/2-1/2"), ("3", "Moreau", "Patel", "0-1"),
    ("3", "Silva", "Sato", "1/2-1/2"),
)  # fmt: skip
ROUND_ROBIN = (
    ("1", "Hart", "Sato", "1-0"), ("1", "Okafor", "Patel", "0-1"),
    ("2", "Sato", "Patel", "1/2-1/2"), ("2", "Hart", "Okafor", "1-0"),
    ("3", "Patel", "Hart", "1/2-1/2"), ("3", "Okafor", "Sato", "1-0"),
)  # fmt: skip
LEAGUE = (  # day, white, black, result
    ("2026-09-08", "Silva", "Moreau", "1-0"), ("2026-09-22", "Moreau", "Sato", "0-1"),
    ("2026-10-06", "Sato", "Silva", "1/2-1/2"), ("2026-10-20", "Moreau", "Silva", "1-0"),
)  # fmt: skip
TITLE = "Riverside Chess Club"


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """A season with a Swiss (a forfeit), a round robin and a league, two closed months,
    and the club's title: its site."""
    folder = tmp_path_factory.mktemp("browser-season")
    with pytest.MonkeyPatch.context() as env:
        env.delenv("TRACKER_DB", raising=False)
        env.setenv("XDG_DATA_HOME", str(folder / "xdg-data"))
        env.setenv("TRACKER_TODAY", "2026-11-29")
        env.setenv("COLUMNS", "1000")
        cli = cli_on(str(folder / "season.db"))
        ok(cli("db", "upgrade"))
        for name, rating in SEASON_PLAYERS:
            ok(cli("player", "add", name, "--rating", str(rating), "--games", "40"))
        ok(cli("site", "config", "--title", TITLE, "--about", "Tuesdays, 7 pm."))
        for name, start, kind, rounds in (
            ("Autumn Swiss", "2026-09-12", "swiss", "3"),
            ("Club Round Robin", "2026-10-03", "round-robin", "3"),
        ):
            ok(cli("event", "add", name, "--start", start, "--type", kind, "--rounds", rounds))
        ok(cli("event", "add", "Club League", "--start", "2026-09-01", "--type", "league"))
        for rnd, white, black, result in SWISS:
            day = f"2026-09-{11 + int(rnd)}"
            ok(cli("game", "add", white, black, result, "--date", day, "--event",
                   "Autumn Swiss", "--round", rnd, "--yes"))  # fmt: skip
        for rnd, white, black, result in ROUND_ROBIN:
            day = f"2026-10-0{2 + int(rnd)}"
            ok(cli("game", "add", white, black, result, "--date", day, "--event",
                   "Club Round Robin", "--round", rnd, "--yes"))  # fmt: skip
        for day, white, black, result in LEAGUE:
            ok(cli("game", "add", white, black, result, "--date", day, "--event",
                   "Club League", "--yes"))  # fmt: skip
        ok(cli("period", "close", "2026-09"))
        ok(cli("period", "close", "2026-10"))
        ok(cli("site", "build", str(folder / "site")))
    return Demo(cli, folder / "site")


def test_the_season_site_has_the_title_everywhere_and_every_link_works(
    desktop: WebDriver, season: Demo
) -> None:
    reached, problems = crawl(desktop, season.site)
    assert problems == []
    assert {p.resolve() for p in season.site.rglob("*.html")} == reached
    for page in reached:
        open_page(desktop, url(page))
        brand = desktop.find_element(By.CSS_SELECTOR, "header .brand").text
        data = desktop.find_element(By.CSS_SELECTOR, "header .data").text
        assert brand == TITLE, page
        assert data.startswith("Data: games to 2026-10-20; latest lists: standard 2026-11-01"), page
        assert desktop.title.endswith(TITLE), page


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_season_site_fits_and_axe_finds_nothing(
    driver: WebDriver, season: Demo, size: tuple[int, int]
) -> None:
    if not AXE.is_file():
        if REQUIRED:
            pytest.fail(f"{AXE} missing: `make test` installs it (npm ci)")
        pytest.skip(f"{AXE} missing (npm ci)")
    source = AXE.read_text(encoding="utf-8")
    driver.set_window_size(*size)
    driver.set_script_timeout(60)
    try:
        wider, found = {}, {}
        for page in pages(season.site):
            name = str(page.relative_to(season.site))
            open_page(driver, url(page))
            if too_wide := driver.execute_script(WIDER):
                wider[name] = too_wide
            if name.startswith("events/") or name == "index.html":
                driver.execute_script(source)
                violations, _ = driver.execute_async_script(RUN_AXE)
                if violations:
                    found[name] = violations
        assert (wider, found) == ({}, {})
    finally:
        driver.set_window_size(*DESKTOP)


def test_event_pages_show_what_event_show_gives(desktop: WebDriver, season: Demo) -> None:
    """Each event's standings (rank, name, score; the tie-breaks its kind uses, named),
    its pairings round by round, as `tracker event show --json` has them."""
    events = js(season.cli, "event", "list")
    assert {e["event"] for e in events} == {"Autumn Swiss", "Club Round Robin", "Club League"}
    for e in events:
        want = js(season.cli, "event", "show", e["event"])
        open_page(desktop, url(season.site / "events" / f"{want['id']}.html"))
        tables = {
            t.parent.execute_script("return arguments[0].caption.innerText", t): t
            for t in desktop.find_elements(By.CSS_SELECTOR, "table")
        }
        (caption,) = [c for c in tables if c.startswith(f"{want['event']}: standings")]
        rows = table_rows(tables[caption], spot_check=True)
        assert [(r["rank"], r["name"], r["score"]) for r in rows] == [
            (str(s["rank"]), s["name"], f"{s['score']:.1f}") for s in want["standings"]
        ]
        breaks = {"swiss": ["BH"], "round-robin": ["SB"], "league": ["SB"]}[want["type"]]
        assert [c for c in ("BH", "SB") if c in rows[0]] == breaks
        assert all(f"{b}: " in caption for b in breaks)
        rounds = sorted(
            {g["round"] for s in want["standings"] for g in s["games_by_round"] if g["round"]}
        )
        shown = sorted(c.removeprefix("Round ") for c in tables if c.startswith("Round "))
        assert shown == rounds
        for rnd in rounds:
            pairs = {
                (r["white"], r["result"], r["black"])
                for r in table_rows(tables[f"Round {rnd}"], spot_check=False)
            }
            played = {
                (s["name"], g["result"], g["opponent_id"])
                for s in want["standings"]
                for g in s["games_by_round"]
                if g["round"] == rnd and g["colour"] == "white"
            }
            assert len(pairs) == len(played)
    swiss = js(season.cli, "event", "show", "Autumn Swiss")
    open_page(desktop, url(season.site / "events" / f"{swiss['id']}.html"))
    round_one = desktop.find_element(By.XPATH, "//table[caption='Round 1']")
    assert ("Patel, Arjun", "+/-", "Sato, Yuki") in {
        (r["white"], r["result"], r["black"]) for r in table_rows(round_one, spot_check=False)
    }


def test_on_a_phone_each_stacked_cell_says_its_column(driver: WebDriver, demo: Demo) -> None:
    driver.set_window_size(*PHONE)
    try:
        open_page(driver, url(demo.site / "players" / "1.html"))
        heads, labels, display = driver.execute_script(
            "const t = document.querySelector('table.s');"
            "const tds = [...t.tBodies[0].rows[0].cells];"
            "return [[...t.tHead.rows[0].cells].map(c => c.innerText.trim()),"
            " tds.map(c => getComputedStyle(c, '::before').content),"
            " getComputedStyle(t.tBodies[0].rows[0]).display]"
        )
        assert display == "flex"
        assert labels == [f'"{h} "' for h in heads]  # the history table has no key column
    finally:
        driver.set_window_size(*DESKTOP)


def test_a_grids_result_columns_are_of_one_width(desktop: WebDriver, season: Demo) -> None:
    """The league's grid: "x", "=" and "10" (two games) in columns of one width, centred."""
    league = js(season.cli, "event", "show", "Club League")
    open_page(desktop, url(season.site / "events" / f"{league['id']}.html"))
    widths, texts, align = desktop.execute_script(
        "const t = [...document.querySelectorAll('table')]"
        ".find(t => t.caption.innerText.includes('crosstable'));"
        "const cells = [...t.querySelectorAll('td.c')];"
        "return [[...t.querySelectorAll('th.c, td.c')].map(c => c.offsetWidth),"
        " cells.map(c => c.innerText), getComputedStyle(cells[0]).textAlign]"
    )
    assert len(texts) == 9 and {"x", "=", "10"} <= set(texts)
    assert len(set(widths)) == 1 and align == "center"


def test_closed_player_cards_are_printed(desktop: WebDriver, season: Demo) -> None:
    """A card is one tap away on screen (closed) and printed open."""
    swiss = js(season.cli, "event", "show", "Autumn Swiss")
    page = url(season.site / "events" / f"{swiss['id']}.html")
    shown = "return [...document.querySelectorAll('details table')].map(t => t.checkVisibility())"
    open_page(desktop, page)
    on_screen = desktop.execute_script(shown)
    assert len(on_screen) == len(swiss["standings"]) and not any(on_screen)
    desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        open_page(desktop, page)
        assert all(desktop.execute_script(shown))
    finally:
        desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


@pytest.fixture(scope="module")
def long_history(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """Two players, a draw a month over fourteen closed months: a history past a year."""
    folder = tmp_path_factory.mktemp("browser-long")
    with pytest.MonkeyPatch.context() as env:
        env.delenv("TRACKER_DB", raising=False)
        env.setenv("XDG_DATA_HOME", str(folder / "xdg-data"))
        env.setenv("TRACKER_TODAY", "2026-11-29")
        cli = cli_on(str(folder / "long.db"))
        for name, rating in (("Hart", "2300"), ("Okafor", "2100")):
            ok(cli("player", "add", name, "--rating", rating, "--games", "40"))
        for month in [f"2025-{m:02d}" for m in range(1, 13)] + ["2026-01", "2026-02"]:
            ok(cli("game", "add", "Hart", "Okafor", "=", "--date", f"{month}-10", "--yes"))
            ok(cli("period", "close", month))
        ok(cli("site", "build", str(folder / "site")))
    return Demo(cli, folder / "site")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_long_history_chart_has_a_time_range(
    driver: WebDriver, long_history: Demo, size: tuple[int, int]
) -> None:
    """All the history at first; "The last year" shows the chart from 2025-03 on instead
    (the keyboard chooses it too), without a script."""
    labels = (
        "return [...document.querySelectorAll('.range svg')].filter(s => s.checkVisibility())"
        ".map(s => [...s.querySelectorAll('text[text-anchor=middle]')].map(t => t.textContent))"
    )
    driver.set_window_size(*size)
    try:
        open_page(driver, url(long_history.site / "players" / "1.html"))
        (shown,) = driver.execute_script(labels)
        assert shown[0] == "2025-02"  # the first list, of the January period
        driver.find_element(By.CSS_SELECTOR, "label[for=range-standard-year]").click()
        (shown,) = driver.execute_script(labels)
        assert shown[0] >= "2025-03"
        driver.find_element(By.ID, "range-standard-year").send_keys(Keys.ARROW_LEFT)
        assert driver.execute_script(labels)[0][0] == "2025-02"
        assert driver.execute_script(WIDER) == []
    finally:
        driver.set_window_size(*DESKTOP)


#: The smallest text on the page as drawn, in CSS pixels: each shown chart's labels (their
#: font size times the chart's scale) and every other element with text of its own.
SMALLEST_TEXT = """let least = Infinity, where = '';
for (const svg of document.querySelectorAll('svg')) {
  if (!svg.checkVisibility()) continue;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  for (const t of svg.querySelectorAll('text')) {
    const px = parseFloat(t.getAttribute('font-size')) * scale;
    if (px < least) { least = px; where = t.textContent; }
  }
}
for (const e of document.body.querySelectorAll('*')) {
  if (e.closest('svg') || !e.checkVisibility()) continue;
  if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
  const px = parseFloat(getComputedStyle(e).fontSize);
  if (px < least) { least = px; where = e.textContent.trim().slice(0, 40); }
}
return [least, where];"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_no_text_is_drawn_below_twelve_pixels(
    driver: WebDriver, demo: Demo, size: tuple[int, int]
) -> None:
    driver.set_window_size(*size)
    try:
        for page in ("players/1.html", "index.html", "events/1.html", "compare.html"):
            open_page(driver, url(demo.site / page))
            least, where = driver.execute_script(SMALLEST_TEXT)
            assert least >= 12, (page, least, where)
    finally:
        driver.set_window_size(*DESKTOP)
