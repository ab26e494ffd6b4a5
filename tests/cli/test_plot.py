"""``--plot FILE.png`` on ``compare`` and ``history``: a real PNG of a sensible size."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

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
        ("hart.jpg", "the plot is a PNG file"),
        ("hart", "the plot is a PNG file"),
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
        f"error: {tmp_path / 'hart.jpg'}: the plot is a PNG file; name it *.png"
    ]
    assert r.stdout == ""


def test_nothing_to_plot_without_closed_periods(cli: Cli, tmp_path: Path) -> None:
    ok(cli("player", "add", "Hart", "--rating", "2318", "--games", "100", "--born", "1980"))
    target = tmp_path / "empty.png"
    r = cli("compare", "Hart", "--json", "--plot", str(target))
    assert r.exit_code == 1
    assert "nothing to plot" in r.stderr.strip().splitlines()[-1]
    assert not target.exists()
