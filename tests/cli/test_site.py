"""``tracker site build DIR``: static rating pages from the same services as the CLI;
deterministic (the same database, the same bytes), rewriting only what changed."""

from __future__ import annotations

import csv
import html
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers import Cli, js, ok, one_line_error
from tracker.cli.site_pages import CSS, SCRIPT

NAMES = ("Hart, Daniel", "Okafor, Grace", "Patel <Arjun> & Co", "Silva, Ana")


@pytest.fixture
def season(cli: Cli) -> Cli:
    for name in NAMES:
        rating = "1900" if name.startswith("S") else "1800"
        ok(cli("player", "add", name, "--rating", rating, "--games", "40"))
    for white, black, result, date, event in (
        ("Hart", "Okafor", "1-0", "2026-09-05", "Autumn Open"),
        ("Patel", "Silva", "0-1", "2026-09-05", "Autumn Open"),
        ("Okafor", "Patel", "1/2-1/2", "2026-09-12", "Autumn Open"),
        ("Silva", "Hart", "1-0", "2026-09-12", "Autumn Open"),
        ("Hart", "Patel", "1-0", "2026-10-03", None),
        ("Okafor", "Silva", "0-1", "2026-10-10", None),
    ):
        args = ["game", "add", white, black, result, "--date", date, "--yes"]
        ok(cli(*args, *(["--event", event] if event else [])))
    ok(cli("period", "close", "2026-09"))
    ok(cli("period", "close", "2026-10"))
    return cli


def build(cli: Cli, folder: Path, *extra: str) -> str:
    return ok(cli("site", "build", str(folder), *extra)).stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The site's folder (tmp_path holds the database: not a folder for a site)."""
    return tmp_path / "site"


def files(folder: Path) -> dict[str, bytes]:
    """The site's files (not its manifest)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".tracker-site"
    }


def page_text(path: Path) -> str:
    """A page's HTML without the spans that keep its dates on one line."""
    return re.sub(r'<span class="d">([^<]*)</span>', r"\1", path.read_text())


CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>")


def cells(page: str) -> list[list[str]]:
    """The text of every table row's cells."""
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in CELL.findall(row)] for row in rows]


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value is not None:
                self.links.append(value)


def test_build_twice_gives_the_same_bytes_and_rewrites_nothing(season: Cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    first = build(season, site)
    assert "written" in first and "0 unchanged" in first
    before = files(site)
    assert {"index.html", "events/1.html"} <= set(before)
    assert len([f for f in before if f.startswith("players/")]) == 4
    second = build(season, site)
    assert f"{len(before)} files, 0 written, {len(before)} unchanged" in second
    assert files(site) == before
    mtimes = {p: p.stat().st_mtime_ns for p in site.rglob("*.html")}
    (site / "index.html").write_text("old")  # a changed file is written again, only it
    third = build(season, site)
    assert "1 written" in third
    assert files(site) == before
    assert all(p.stat().st_mtime_ns == t for p, t in mtimes.items() if p.name != "index.html")
    other = tmp_path / "again"
    build(season, other)
    assert files(other) == before


def test_the_index_shows_the_list_of_tracker_list(season: Cli, folder: Path) -> None:
    build(season, folder)
    index = page_text(folder / "index.html")
    listed = js(season, "list")
    assert f"Standard list of {listed['list']}" in index
    shown = [row for row in cells(index) if row and row[0].isdigit()]
    assert [(int(r[0]), r[1], int(r[4]), int(r[6])) for r in shown] == [
        (p["rank"], p["name"], p["rating"], p["games"]) for p in listed["players"]
    ]
    compare = {r["name"]: r for r in js(season, "compare", "--all")["players"]}
    for row in shown:
        assert round(float(row[7].rstrip("?"))) == int(compare[row[1]]["glicko"])


def test_a_player_page_shows_tracker_history(season: Cli, folder: Path) -> None:
    build(season, folder)
    hart = js(season, "player", "show", "Hart")["id"]
    page = page_text(folder / "players" / f"{hart}.html")
    assert '<svg role="img" aria-labelledby="chart-standard-wide-t chart-standard-wide-d"' in page
    assert '<title id="chart-standard-wide-t">Hart, Daniel: FIDE Elo' in page
    rows = [r for r in cells(page) if r and re.fullmatch(r"\d{4}-\d\d", r[0])]
    history = js(season, "history", "Hart")
    assert len(rows) == len(history) == 2
    for row, h in zip(rows, history, strict=True):
        assert row[0] == h["month"] and row[1] == h["list"]
        assert row[3] == str(h["rating"] if h["rating"] is not None else "unrated")
        assert row[4] == (f"{h['rank']}/{h['of']}" if h["rank"] is not None else "")
        assert int(row[6]) == h["games"] and float(row[7]) == h["score"]
        assert round(float(row[11].rstrip("?"))) == int(h["glicko"])
    best = max(h["rating"] for h in history if h["rating"] is not None)
    first = next(h["list"] for h in history if h["rating"] == best)
    seeded = " (seeded at 1800)" if best < 1800 else ""
    assert f"Peak {best} on the {first} list{seeded}.</p>" in page
    shown = js(season, "player", "show", "Hart")["ratings"][0]
    where = f"rank {shown['rank']} of {shown['of']}, percentile {shown['percentile']:.0f}"
    assert f"<p>Rated {history[-1]['rating']} on the {history[-1]['list']} list: {where}." in page


def test_every_link_points_to_a_file_and_names_are_escaped(season: Cli, folder: Path) -> None:
    build(season, folder)
    for page in folder.rglob("*.html"):
        text = page.read_text()
        assert text.startswith('<!DOCTYPE html>\n<html lang="en">')
        assert '<meta name="viewport"' in text and "<h1>" in text
        # one script (sorting and searching) and one style, the site's own files
        assert (folder / "site.css").read_text() == CSS + "\n"
        assert (folder / "site.js").read_text() == SCRIPT + "\n"
        root = "../" if page.parent != folder else ""
        assert text.count("<script") == 1 and f'<script src="{root}site.js"></script>' in text
        assert f'<link rel="stylesheet" href="{root}site.css">' in text
        assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in text
        parser = Links()
        parser.feed(text)
        for link in parser.links:
            target, _, anchor = link.partition("#")
            assert (page.parent / target).resolve().is_file() if target else anchor, (page, link)
            if anchor:  # a skip link or a section: the id is on that page
                linked = (page.parent / target).read_text() if target else text
                assert f'id="{anchor}"' in linked, (page, link)
        assert text.count("<table>") == text.count("<table>\n<caption>")  # each captioned
    index = page_text(folder / "index.html")
    assert "Patel &lt;Arjun&gt; &amp; Co" in index
    assert "<Arjun>" not in "".join(p.read_text() for p in folder.rglob("*.html"))
    event = page_text(folder / "events" / "1.html")
    assert "Autumn Open: standings" in event and "Patel &lt;Arjun&gt; &amp; Co" in event


def test_without_a_closed_period_the_index_says_so(cli: Cli, folder: Path) -> None:
    ok(cli("player", "add", "Hart, Daniel"))
    err = build(cli, folder, "--tc", "rapid")
    assert "no closed rating period yet" in err
    assert "No rapid list yet: no rating period is closed." in page_text(folder / "index.html")
    assert (folder / "players" / "1.html").is_file()


def test_a_file_for_the_folder_is_one_line(season: Cli, tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    line = one_line_error(season("site", "build", str(target)), 1)
    assert "is a file: the site needs a folder" in line
    assert target.read_text() == "x"
    line = one_line_error(season("site", "build", str(target / "inside")), 1)
    assert line == f"error: cannot write {target / 'inside'}: Not a directory"


def test_the_elo_and_glicko_page_shows_compare_all(season: Cli, folder: Path) -> None:
    build(season, folder)
    page = page_text(folder / "compare.html")
    shown = [row for row in cells(page) if row and row[0].isdigit()]
    players = js(season, "compare", "--all")["players"]
    expected = sorted(
        (p for p in players if p["elo"] is not None), key=lambda p: (p["elo_rank"], p["id"])
    )
    assert [(int(r[0]), r[1], int(r[2]), int(r[6])) for r in shown] == [
        (p["elo_rank"], p["name"], p["elo"], p["glicko_rank"]) for p in expected
    ]
    for row, p in zip(shown, expected, strict=True):
        moved = p["elo_rank"] - p["glicko_rank"]
        assert row[7] == ("" if moved == 0 else f"{moved:+d}")


def tables(page: str) -> dict[str, list[list[str]]]:
    """Each table's body rows (cell texts), by its caption."""
    out = {}
    for caption, body in re.findall(
        r"<caption>(.*?)</caption>.*?<tbody>(.*?)</tbody>", page, flags=re.S
    ):
        out[html.unescape(caption)] = cells(body)
    return out


def test_a_player_page_lists_each_period_games_as_history_month(season: Cli, folder: Path) -> None:
    build(season, folder)
    page = page_text(folder / "players" / "1.html")  # Hart
    shown = tables(page)
    for h in js(season, "history", "Hart"):
        d = js(season, "history", "Hart", "--month", h["month"])
        caption = next(c for c in shown if c.startswith(f"{h['month']}: "))
        k = f", K {d['k']}" if d["k"] is not None else ""
        assert caption == f"{h['month']}: {d['rating_before']} -> {d['rating']} on the " + (
            f"{d['list']} list{k}"
        )
        rows = shown[caption]
        assert [(r[0], r[1], r[2], r[4], r[5], r[6]) for r in rows] == [
            (
                g["date"],
                g["opponent"],
                g["colour"],
                f"{g['score']:.1f}",
                f"{g['expected']:.2f}",
                f"{g['change']:+.2f}",
            )
            for g in d["games"]
        ]
        summary = f"score {d['score']:.1f}, expected {d['expected']:.2f}, change "
        assert summary in html.unescape(page) and f"-> {d['change']:+d}" in html.unescape(page)
    # an opponent with a page is linked to it
    assert '<a href="../players/2.html">Okafor, Grace</a>' in page


def test_a_player_page_shows_h2h_against_each_opponent(season: Cli, folder: Path) -> None:
    build(season, folder)
    page = page_text(folder / "players" / "1.html")
    rows = tables(page)["Hart, Daniel against each opponent"]
    o = js(season, "h2h", "Hart")
    assert [(r[0], int(r[1]), r[2], int(r[3]), int(r[4]), int(r[5]), r[7]) for r in rows] == [
        (
            x["name"],
            x["games"],
            f"{x['score']:.1f}-{x['against']:.1f}",
            x["wins"],
            x["draws"],
            x["losses"],
            x["last"],
        )
        for x in o["opponents"]
    ]
    assert len(rows) == 3


def test_an_event_page_has_the_crosstable_of_event_show(season: Cli, folder: Path) -> None:
    build(season, folder)
    page = page_text(folder / "events" / "1.html")
    (caption,) = [c for c in tables(page) if "crosstable" in c]
    grid = tables(page)[caption]
    shown = js(season, "event", "show", "Autumn Open")
    standings = shown["standings"]
    position = {s["id"]: i for i, s in enumerate(standings)}
    for row, s in zip(grid, standings, strict=True):
        assert row[1] == s["name"]
        expected = [""] * len(standings)
        for c in s["games_by_round"]:
            expected[position[c["opponent_id"]]] += c["result"]
        expected[position[s["id"]]] = "x"
        assert row[2:-1] == expected
    assert len(grid) == 4


def test_pages_of_removed_players_and_events_are_deleted(season: Cli, folder: Path) -> None:
    build(season, folder)
    ok(season("player", "add", "Quinn, Ada"))
    quinn = js(season, "player", "show", "Quinn")["id"]
    build(season, folder)
    assert (folder / "players" / f"{quinn}.html").is_file()
    ok(season("player", "remove", "Quinn, Ada"))
    err = build(season, folder)
    assert "1 removed" in err
    assert not (folder / "players" / f"{quinn}.html").exists()
    assert "players/" + f"{quinn}.html" not in page_text(folder / "index.html")


def test_the_index_says_what_is_pending_as_status_does(season: Cli, folder: Path) -> None:
    ok(season("game", "add", "Hart", "Silva", "1-0", "--date", "2026-11-05", "--yes"))
    build(season, folder)
    index = html.unescape(page_text(folder / "index.html"))
    (standard,) = [s for s in js(season, "status")["lists"] if s["tc"] == "standard"]
    assert (standard["open_month"], standard["games_waiting"]) == ("2026-11", 1)
    assert "<p>Open: 2026-11; 1 game not yet rated (2026-11).</p>" in index


def test_one_player_games_of_an_event_begun_last_month_are_rated_with_it(cli: Cli) -> None:
    """An event that began in May (his only game) and ends in June is rated in June: his
    period alone (`history --month`, `event show` with him the only tracked player) has that
    game, as the close and the month worked out for everyone have."""
    for name in ("Hart", "Sato", "Okafor"):
        ok(cli("player", "add", name, "--rating", "1800", "--games", "40"))
    ok(cli("player", "add", "Guest", "--external"))
    for white, black, day in (("Hart", "Sato", "2026-05-28"), ("Okafor", "Guest", "2026-06-02")):
        ok(cli("game", "add", white, black, "1-0", "--date", day, "--event", "Spanner", "--yes"))
    ok(cli("period", "close", "2026-05"))
    ok(cli("period", "close", "2026-06"))
    june = next(h for h in js(cli, "history", "Hart") if h["month"] == "2026-06")
    detail = js(cli, "history", "Hart", "--month", "2026-06")
    assert (detail["rating"], detail["change"], len(detail["games"])) == (
        june["rating"], june["change"], 1
    )  # fmt: skip
    assert june["change"] != 0
    (hart,) = [s for s in js(cli, "event", "show", "Spanner")["standings"] if s["name"] == "Hart"]
    assert (hart["rated_games"], hart["change_exact"]) == (1, detail["change_exact"])


def test_stale_periods_are_marked_on_the_player_page(season: Cli, folder: Path) -> None:
    ok(season("game", "edit", "1", "--result", "0-1", "--yes"))  # a September game
    build(season, folder)
    shown = tables(page_text(folder / "players" / "1.html"))
    history = [r for r in shown["Hart, Daniel: standard history, period by period"]]
    assert history[0][0] == "2026-09" and history[0][-1].startswith("stale: a rerate is due")
    assert any(c.startswith("2026-09: ") and c.endswith("(stale: a rerate is due)") for c in shown)
    ok(season("rerate"))
    build(season, folder)
    assert "stale" not in page_text(folder / "players" / "1.html")


def test_an_event_without_games_has_no_page(season: Cli, folder: Path) -> None:
    ok(season("game", "add", "Hart", "Silva", "1-0", "--date", "2026-10-20", "--event", "Blip"))
    build(season, folder)
    (blip,) = [e for e in js(season, "event", "list") if e["event"] == "Blip"]
    assert (folder / "events" / f"{blip['id']}.html").is_file()
    game = js(season, "game", "list", "--event", "Blip")[0]["id"]
    ok(season("game", "remove", str(game)))
    assert "1 removed" in build(season, folder)
    assert "Blip" not in page_text(folder / "index.html")


def test_a_build_warns_on_stale_periods_and_games_waiting(season: Cli, folder: Path) -> None:
    assert "warning" not in build(season, folder)
    ok(season("game", "edit", "1", "--result", "0-1", "--yes"))  # a September game
    ok(season("game", "add", "Hart", "Silva", "1-0", "--date", "2026-11-05", "--yes"))
    err = build(season, folder).splitlines()
    assert err[:2] == [
        "warning: standard 2026-09, 2026-10: stale (games changed after closing), as the "
        "pages say; run `tracker rerate`",
        "warning: standard 2026-11 is open, 1 game not yet rated (2026-11): the pages' list "
        "is of 2026-11-01 (see `tracker period close`)",
    ]
    index = html.unescape(page_text(folder / "index.html"))
    assert "1 game not yet rated (2026-11)" in index and "stale: a rerate is due" in index
    ok(season("rerate"))
    assert "warning: standard 2026-09" not in build(season, folder)


PNG = b"\x89PNG\r\n\x1a\n" + bytes(24)


def test_site_config_is_kept_and_every_page_shows_the_title(
    season: Cli, folder: Path, tmp_path: Path
) -> None:
    assert js(season, "site", "config", "--json")["title"] == "Club ratings"
    logo = tmp_path / "logo.png"
    logo.write_bytes(PNG)
    ok(season("site", "config", "--title", "Riverside Chess Club", "--logo", str(logo)))
    ok(season("site", "config", "--about", "We meet on Tuesdays.", "--url", "https://x.org"))
    assert js(season, "site", "config", "--json") == {
        "title": "Riverside Chess Club",
        "about": "We meet on Tuesdays.",
        "url": "https://x.org",
        "logo": "png",
    }
    build(season, folder)
    assert (folder / "logo.png").read_bytes() == PNG
    pages = sorted(folder.rglob("*.html"))
    assert len(pages) >= 8
    for page in pages:
        text = page_text(page)
        assert "<span>Riverside Chess Club</span></a>" in text, page
        assert "Data: games to 2026-10-10; latest lists: standard 2026-11-01." in text, page
        assert 'src="' + ("../" if page.parent != folder else "") + 'logo.png"' in text, page
    assert "<p>We meet on Tuesdays.</p>" in page_text(folder / "index.html")
    ok(season("site", "config", "--no-logo"))
    assert "1 removed" in build(season, folder)
    assert not (folder / "logo.png").exists()


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--title", " "), "the title is blank: give the club's name"),
        (("--url", "example.org"), "'example.org' is no web address: give https://..."),
        (("--title", "x" * 101), "the title is 101 characters: at most 100"),
    ],
)
def test_site_config_refuses_what_a_page_cannot_show(
    cli: Cli, args: tuple[str, ...], error: str
) -> None:
    assert one_line_error(cli("site", "config", *args), 1) == f"error: {error}"
    assert js(cli, "site", "config", "--json")["title"] == "Club ratings"


def test_site_config_refuses_a_logo_that_is_no_image(cli: Cli, tmp_path: Path) -> None:
    bad = tmp_path / "logo.png"
    bad.write_text("hello")
    assert one_line_error(cli("site", "config", "--logo", str(bad)), 1) == (
        f"error: {bad} is no image a page shows: use png, jpeg, gif, webp, svg"
    )


def test_each_list_has_its_page_and_csv_as_tracker_list(season: Cli, folder: Path) -> None:
    build(season, folder)
    lists = page_text(folder / "lists.html")
    for month in ("2026-10", "2026-11"):
        want = js(season, "list", month, "--tc", "standard")
        name = f"lists/standard-{month}-01"
        assert f'href="{name}.html"' in lists and f'href="{name}.csv"' in lists
        rows = list(csv.DictReader(io.StringIO((folder / f"{name}.csv").read_text())))
        assert [(r["rank"], r["name"], r["rating"], r["games"]) for r in rows] == [
            (str(p["rank"]), p["name"], str(p["rating"]), str(p["games"])) for p in want["players"]
        ]
        shown = tables(page_text(folder / f"{name}.html"))[f"Standard list of {month}-01"]
        assert [(r[1], r[4]) for r in shown] == [
            (p["name"], str(p["rating"])) for p in want["players"]
        ]
    history = {h["month"]: h for h in js(season, "history", "Silva")}
    rows = list(csv.DictReader(io.StringIO((folder / "lists/standard-2026-11-01.csv").read_text())))
    (silva,) = [r for r in rows if r["name"] == "Silva, Ana"]
    assert silva["change"] == str(history["2026-10"]["change"])
    page = page_text(folder / "lists/standard-2026-11-01.html")
    assert "<h2>Gained most</h2>" in page


def test_an_event_page_shows_tie_breaks_pairings_and_what_a_rating_is(
    season: Cli, folder: Path
) -> None:
    """Autumn Open: Hart 1-0 Okafor, Patel 0-1 Silva (round 1), Okafor = Patel, Silva 1-0
    Hart (round 2): Silva 2, Hart 1, Okafor 0.5, Patel 0.5."""
    ok(season("player", "add", "Guest", "--external"))
    ok(season("game", "add", "Guest", "Hart", "0-1", "--date", "2026-09-13", "--event",
              "Autumn Open", "--yes"))  # fmt: skip
    build(season, folder)
    page = page_text(folder / "events" / "1.html")
    shown = tables(page)
    (caption,) = [c for c in shown if c.startswith("Autumn Open: standings")]
    assert "BH: Buchholz" in caption and "SB: Sonneborn-Berger" in caption
    by_name = {r[1]: r for r in shown[caption]}
    # Hart: 2 of 3; opponents Okafor 0.5, Silva 2, Guest 0: BH 2.5, SB 0.5 + 0 = 0.5
    assert by_name["Hart, Daniel"][3:6] == ["2.0", "2.5", "0.50"]
    assert by_name["Silva, Ana"][3:6] == ["2.0", "2.5", "2.50"]
    assert by_name["Guest"][6] == "unrated"
    want = {s["name"]: s for s in js(season, "event", "show", "Autumn Open")["standings"]}
    for name, row in by_name.items():
        assert row[3] == f"{want[name]['score']:.1f}"


def test_a_long_history_has_a_chart_of_its_last_year_too(cli: Cli, folder: Path) -> None:
    for name, rating in (("Hart", "2300"), ("Okafor", "2100")):
        ok(cli("player", "add", name, "--rating", rating, "--games", "40"))
    months = [f"2025-{m:02d}" for m in range(1, 13)] + ["2026-01", "2026-02"]
    for month in months:
        ok(cli("game", "add", "Hart", "Okafor", "1/2-1/2", "--date", f"{month}-10", "--yes"))
        ok(cli("period", "close", month))
    build(cli, folder)
    page = page_text(folder / "players" / "1.html")
    assert page.count("<legend>Time range</legend>") == 1
    assert page.count('name="range-standard"') == 2  # all, the last year
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    year = page[page.index('<div class="year">') :]
    labels = re.findall(r'text-anchor="middle">(\d{4}-\d{2})</text>', year.split("</svg>")[0])
    assert labels and labels[0] >= "2025-03"  # the year to the 2026-03-01 list
