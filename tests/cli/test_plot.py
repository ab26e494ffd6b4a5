"""``--plot FILE.png`` on ``compare`` and ``history``: a real PNG of a sensible size."""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Cli, cli_on, fingerprint, ok

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header: signature, then the IHDR chunk first."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, data[:8]
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    width, height = struct.unpack(">II", data[16:24])
    assert data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82"  # a complete file
    return width, height


def assert_real_png(path: Path) -> None:
    assert path.is_file()
    width, height = png_size(path)
    assert 800 <= width <= 2000, width
    assert 400 <= height <= 1200, height
    assert width > height  # a time line: wider than high
    assert path.stat().st_size > 10_000


@pytest.fixture(scope="module")
def season_url(module_db_url: str) -> str:
    """Six closed months: a seeded 2318 player against a tracked and an external opponent.
    Built once per backend for the whole module: its tests only read it."""
    cli = cli_on(module_db_url)
    with pytest.MonkeyPatch.context() as env:  # the tests' own environment is not set up yet
        env.setenv("TRACKER_TODAY", "2026-11-29")
        ok(cli("player", "add", "Hart", "--rating", "2318", "--games", "100", "--born", "1980"))
        ok(cli("player", "add", "Okafor", "--rating", "2100", "--games", "100", "--born", "1980"))
        ok(cli("player", "add", "Ext", "--external"))
        for month in range(1, 7):
            day = f"2026-{month:02d}"
            ok(cli("game", "add", "Hart", "Okafor", "1/2-1/2", "--date", f"{day}-05"))
            ok(cli("game", "add", "Okafor", "Hart", "0-1", "--date", f"{day}-12"))
            ok(
                cli(
                    "game", "add", "Hart", "Ext", "1-0", "--date", f"{day}-20",
                    "--black-rating", "2250",
                )
            )  # fmt: skip
        ok(cli("period", "close", "2026-06"))
    return module_db_url


@pytest.fixture
def season(season_url: str) -> Iterator[Cli]:
    """The command line on the shared season, which each test must leave as it found it."""
    before = fingerprint(season_url)
    yield cli_on(season_url)
    assert fingerprint(season_url) == before, "a test changed the shared season's database"


def test_compare_plot_writes_a_real_png(season: Cli, tmp_path: Path) -> None:
    target = tmp_path / "hart.png"
    r = ok(season("compare", "Hart", "--plot", str(target)))
    assert_real_png(target)
    assert f"plot written to {target}" in r.stderr
    assert "2026-06" in r.stdout  # the table is still shown


def test_compare_plot_of_an_on_the_fly_preset(season: Cli, tmp_path: Path) -> None:
    lichess, glickman = tmp_path / "lichess.png", tmp_path / "glickman.png"
    ok(season("compare", "Hart", "--plot", str(lichess)))
    ok(season("compare", "Hart", "--preset", "glickman", "--json", "--plot", str(glickman)))
    assert_real_png(glickman)
    assert glickman.read_bytes() != lichess.read_bytes()


def test_history_plot_writes_a_real_png(season: Cli, tmp_path: Path) -> None:
    target = tmp_path / "history.png"
    r = ok(season("history", "Hart", "--plot", str(target)))
    assert_real_png(target)
    assert "plot written to" in r.stderr
    assert "2026-06" in r.stdout


def test_plot_of_a_player_with_only_elo(cli: Cli, tmp_path: Path) -> None:
    """A seeded player who did not play: Elo steps only, still a picture."""
    ok(cli("player", "add", "Hart", "--rating", "2318", "--games", "100", "--born", "1980"))
    ok(cli("player", "add", "Lee", "--rating", "1950", "--games", "100", "--born", "1980"))
    ok(cli("player", "add", "Ext", "--external"))
    for m in (1, 2):
        day = f"2026-0{m}-03"
        ok(cli("game", "add", "Hart", "Ext", "1-0", "--date", day, "--black-rating", "2200"))
    ok(cli("period", "close", "2026-02"))
    target = tmp_path / "lee.png"
    ok(cli("compare", "Lee", "--plot", str(target)))
    assert_real_png(target)


@pytest.mark.parametrize("command", ["compare", "history"])
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("hart.jpg", "the plot is a PNG, SVG or PDF file"),
        ("hart", "the plot is a PNG, SVG or PDF file"),
        ("missing/hart.png", "does not exist"),
    ],
)
def test_bad_plot_target_is_an_error(
    season: Cli, tmp_path: Path, command: str, name: str, message: str
) -> None:
    target = tmp_path / name
    r = season(command, "Hart", "--json", "--plot", str(target))
    assert r.exit_code == 1, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and message in last
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert not target.exists()
    assert not list(tmp_path.glob("*.png"))


@pytest.mark.parametrize("command", ["compare", "history"])
def test_bad_plot_target_fails_before_printing_anything(
    season: Cli, tmp_path: Path, command: str
) -> None:
    r = season(command, "Hart", "--plot", str(tmp_path / "hart.jpg"))
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'hart.jpg'}: the plot is a PNG, SVG or PDF file; "
        "name it *.png, *.svg or *.pdf"
    ]
    assert r.stdout == ""


def test_nothing_to_plot_without_closed_periods(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Hart", "--rating", "2318", "--games", "100", "--born", "1980"))
    target = tmp_path / "empty.png"
    r = cli("compare", "Hart", "--json", "--plot", str(target))
    assert r.exit_code == 1
    assert "nothing to plot" in r.stderr.strip().splitlines()[-1]
    assert not target.exists()


# ------------------------------------------------------------------ what the picture holds


def comparison(rds: list[float], *, provisional_from: float = 110.0) -> Any:
    """A hand-made comparison: Elo 2318 on four lists, the shadow near it with ``rds``."""
    from tracker.services.compare import ComparePoint, CompareRow, Comparison

    days = [dt.date(2026, m, 10) for m in (1, 2, 3)]
    points = tuple(
        ComparePoint(day, 2310.0 + 5 * i, rd, rd >= provisional_from)
        for i, (day, rd) in enumerate(zip(days, rds, strict=False))
    )
    rows = tuple(
        CompareRow(
            month=dt.date(2026, m, 1),
            list_date=dt.date(2026, m + 1, 1),
            elo=2318 + m,
            glicko=2312.0 + 5 * m,
            display=str(2312 + 5 * m),
            rd=rds[min(m, len(rds)) - 1] + 5,
            volatility=0.09,
            provisional=rds[min(m, len(rds)) - 1] + 5 >= provisional_from,
            difference=None,
        )
        for m in (1, 2, 3, 4)
    )
    return Comparison(
        player_id=1,
        name="Hart",
        tc="standard",
        preset="lichess",
        stored=True,
        external_rd=60.0,
        assumptions=(),
        rows=rows,
        points=points,
        stale_months=(),
        elo_start=(dt.date(2026, 1, 1), 2318),
    )


def test_the_y_axis_follows_the_ratings_not_a_wide_band() -> None:
    from tracker.cli.plot import draw_comparison

    fig = draw_comparison(comparison([480.0, 420.0, 400.0]))  # a new account's RD: +-960
    low, high = fig.axes[0].get_ylim()
    # ratings from 2310 to 2332: the axis spans them with a margin, not 1350..3300
    assert 2220 < low < 2310 and 2332 < high < 2420
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_the_shadow_runs_to_the_last_list_date() -> None:
    from matplotlib import dates as mdates

    from tracker.cli.plot import draw_comparison, shadow_line

    c = comparison([60.0, 58.0, 57.0])
    line = shadow_line(c)
    assert line[-1][0] == dt.date(2026, 5, 1)  # the last list, after the last game (10 March)
    assert [d for d, *_ in line] == sorted(d for d, *_ in line)
    fig = draw_comparison(c)
    shadow = next(ln for ln in fig.axes[0].get_lines() if ln.get_label() == "lichess shadow")
    assert max(shadow.get_xdata()) == mdates.date2num(dt.date(2026, 5, 1))


@pytest.mark.parametrize(
    ("rds", "spans", "label"),
    [
        ([60.0, 58.0, 57.0], 0, "lichess shadow"),  # never provisional: nothing to shade
        ([300.0, 250.0, 200.0], 0, "lichess shadow (provisional throughout)"),  # all: says so
        ([300.0, 80.0, 60.0], 1, "lichess shadow"),  # provisional at first: shaded there
    ],
)
def test_provisional_shading_only_where_it_tells_something(
    rds: list[float], spans: int, label: str
) -> None:
    from tracker.cli.plot import draw_comparison

    fig = draw_comparison(comparison(rds))
    ax = fig.axes[0]
    shaded = [p for p in ax.patches if p.get_label() == "provisional shadow"]
    assert len(shaded) == spans
    assert label in [t.get_text() for t in ax.get_legend().get_texts()]
    import matplotlib.pyplot as plt

    plt.close(fig)


@pytest.mark.parametrize(("suffix", "magic"), [(".svg", b"<?xml"), (".pdf", b"%PDF-")])
def test_svg_and_pdf_by_the_extension(
    season: Cli, tmp_path: Path, suffix: str, magic: bytes
) -> None:
    target = tmp_path / f"hart{suffix.upper()}"
    ok(season("compare", "Hart", "--plot", str(target)))
    assert target.read_bytes()[: len(magic)] == magic


def test_compare_all_plot_caps_the_players(cli: Cli, tmp_path: Path) -> None:
    from tracker.cli.plot import MAX_PLAYERS

    for i in range(MAX_PLAYERS + 2):
        ok(cli("player", "add", f"P{i:02d}", "--rating", str(1600 + 25 * i), "--games", "50"))
    ok(cli("player", "add", "Ext", "--external"))
    ok(cli("game", "add", "P00", "Ext", "1-0", "--date", "2026-01-05", "--black-rating", "1700"))
    ok(cli("period", "close", "2026-01"))
    target = tmp_path / "all.svg"
    r = ok(cli("compare", "--all", "--plot", str(target)))
    assert f"plotted the {MAX_PLAYERS} highest-rated of {MAX_PLAYERS + 2} players" in r.stderr
    svg = target.read_text()
    assert "P13" in svg and "P02" in svg and "P01" not in svg and "P00" not in svg
