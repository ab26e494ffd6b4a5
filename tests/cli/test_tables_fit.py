"""Every table command fits an 80-column terminal and cuts no cell.

A club season (long names included, an external opponent, a forfeit, a rapid game, a stale
period, an import) is printed by every command that prints a table, with ``COLUMNS=80``: no
line is wider than 80 (unless it holds a single word longer than the room left, such as a
database's path, which stays whole), nothing is shortened with "...", and every value the
JSON of the same command holds is there in full.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Cli, js, ok

LONG = "Rodríguez Fernández, María José"  # 31 characters


@pytest.fixture
def club(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    for args in (
        (
            "Hart, Daniel",
            "--fide-id",
            "400101",
            "--born",
            "1988",
            "--federation",
            "ENG",
            "--title",
            "FM",
            "--rating",
            "2318",
            "--games",
            "240",
        ),
        (
            "Okafor, Grace",
            "--fide-id",
            "400102",
            "--born",
            "2001",
            "--federation",
            "ENG",
            "--sex",
            "f",
            "--title",
            "WFM",
            "--rating",
            "2105",
            "--games",
            "95",
        ),
        (
            "Patel, Arjun",
            "--born",
            "2010",
            "--federation",
            "ENG",
            "--rating",
            "1876",
            "--games",
            "41",
        ),
        (
            LONG,
            "--fide-id",
            "2200123456",
            "--born",
            "1995",
            "--federation",
            "ESP",
            "--title",
            "WIM",
            "--rating",
            "2210",
            "--games",
            "300",
        ),
        ("Sato, Yuki", "--born", "2012", "--federation", "JPN", "--sex", "f"),
        ("Kim, Ji-ho", "--external"),
    ):
        ok(cli("player", "add", *args))
    round1 = f"Hart 1-0 Sato\nOkafor = Patel\n{LONG} 1-0 Kim (1803)\n"
    ok(
        cli(
            "game",
            "add-round",
            "Autumn Open of the Riverside Chess Club",
            "--date",
            "2026-09-05",
            "--round",
            "1",
            input=round1,
        )
    )
    round2 = f"Sato = Patel\nKim (1803) 0-1 Hart\nOkafor -+ {LONG}\n"
    ok(
        cli(
            "game",
            "add-round",
            "Autumn Open of the Riverside Chess Club",
            "--date",
            "2026-09-06",
            "--round",
            "2",
            input=round2,
        )
    )
    ok(cli("game", "add", "Sato", "Okafor", "1-0", "--date", "2026-09-20", "--tc", "rapid"))
    ok(cli("period", "close", "2026-09"))
    ok(cli("period", "close", "2026-09", "--tc", "rapid"))
    csv = tmp_path / "club-night-october-2026.csv"
    csv.write_text(
        "date,white,black,result,event,round,tc\n"
        f'2026-10-03,"Sato, Yuki","Hart, Daniel",1/2-1/2,Club League,1,standard\n'
        f'2026-10-03,"Patel, Arjun","{LONG}",1-0,Club League,1,standard\n',
        encoding="utf-8",
    )
    ok(cli("import", str(csv)))
    ok(cli("period", "close", "2026-10"))
    ok(cli("game", "add", "Okafor", "Hart", "1-0", "--date", "2026-09-21", "--event", "Club Night"))
    monkeypatch.setenv("COLUMNS", "80")
    return cli


def fits(text: str) -> None:
    assert "..." not in text and "…" not in text, text
    for line in text.splitlines():
        if len(line) > 80:  # only a single word too long for any column may stick out
            assert any(len(word) > 40 for word in line.split()), line


def has(text: str, *values: Any) -> None:
    """Each value is in the table whole: a one-word value as a word (a recorded rating may
    stand in brackets); a longer one word by word, in order (a wrapped cell goes on over
    the next lines, other columns between)."""
    words = {word.strip("()") for word in text.split()} | set(text.split())
    for value in values:
        if value is None or value == "":
            continue
        parts = str(value).split()
        if len(parts) == 1:
            assert parts[0] in words, (value, text)
        else:
            pattern = r"(?s)(?<!\S)" + r"\s.*?".join(map(re.escape, parts)) + r"(?!\S)"
            assert re.search(pattern, text), (value, text)


def table(cli: Cli, *args: str) -> str:
    out = ok(cli(*args)).stdout
    fits(out)
    return out


def test_player_list_and_show(club: Cli) -> None:
    out = table(club, "player", "list")
    for p in js(club, "player", "list"):
        seed = ", ".join(f"{s['rating']}/{s['games']}" for s in p["seeds"])
        has(out, f"#{p['id']}", p["name"], p["title"], p["federation"], p["birth_year"], seed)
        has(out, "external" if p["external"] else "tracked", p["games"])
    out = table(club, "player", "show", LONG)
    has(out, LONG, "2200123456", "ESP", "WIM")
    assert "2210 after 300 games;" in out


def test_game_list(club: Cli) -> None:
    out = table(club, "game", "list")
    for g in js(club, "game", "list"):
        has(out, g["id"], g["date"], g["white"], g["black"], g["event"], g["round"])
        has(out, g["result"] if g["rated"] else f"{g['result']} (ff)")
        has(out, g["white_rating"], g["black_rating"])
    assert "rapid" in out  # mixed time controls keep the column
    out = table(club, "game", "list", "--tc", "standard", "--player", "Kim")
    has(out, "Kim, Ji-ho (1803)")


def test_history_and_compare(club: Cli) -> None:
    for name in ("Hart, Daniel", "Patel, Arjun", "Sato, Yuki", LONG):
        out = table(club, "history", name)
        for r in js(club, "history", name):
            has(out, r["month"], r["rating_before"] or "unrated", r["rating"] or "unrated")
            has(out, r["games"], f"{r['score']:.1f}", r["note"])
            if r["rating_before"] is not None:
                has(out, f"{r['expected']:.2f}", f"{r['change_exact']:+.2f}", r["k"])
            if r["rd"] is not None:
                has(out, f"{r['rd']:.0f}")
        out = table(club, "compare", name)
        for r in js(club, "compare", name)["periods"]:
            has(out, r["month"], r["elo"] or "unrated", f"{r['rd']:.0f}")
            if r["difference"] is not None:
                has(out, f"{r['difference']:+.0f}")
    assert " * " in table(club, "history", "Hart")  # the stale marker
    out = table(club, "compare", "--all")
    for p in js(club, "compare", "--all")["players"]:
        has(out, p["name"], p["elo"], p["elo_rank"], p["glicko_rank"], f"{p['rd']:.0f}")


def test_lists_periods_and_the_rest(club: Cli, db_url: str) -> None:
    out = table(club, "list")
    for p in js(club, "list")["players"]:
        has(out, p["rank"], p["name"], p["title"], p["federation"], p["rating"], p["k"])
    out = table(club, "list", "2026-10", "--tc", "rapid")
    has(out, "Okafor, Grace", "400102", "2105")
    for command in (
        ("period", "list"),
        ("evaluate",),
        ("shadow", "show"),
        ("status",),
        ("db", "current"),
        ("calc", "elo", "1500", "1400:1", "1600:=", "--k", "20"),
        ("calc", "glicko", "1500", "200", "0.06", "1400/30:1", "--preset", "glickman"),
    ):
        table(club, *command)
    out = table(club, "import", "list")
    for i in js(club, "import", "list"):
        has(out, f"#{i['id']}", i["file"], i["format"], i["added"], i["already_present"])


def test_game_list_with_long_real_names_fits(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real names longer than a wrapped column (a hyphenated surname, a long one) break after
    their hyphen, else where the column ends: the table fits, nothing is cut."""
    for name in ("Vachier-Lagrave, Maxime", "Nepomniachtchi, Ian", "Abdusattorov, Nodirbek"):
        ok(cli("player", "add", name))
    event = ("--event", "Grand Chess Tour Superbet Classic 2026")
    ok(
        cli(
            "game", "add", "Vachier", "Nepo", "1-0", "--date", "2026-09-05", *event, "--round", "10"
        )
    )
    rapid = ("--event", "Grand Chess Tour Superbet Rapid 2026")
    ok(cli("game", "add", "Abdu", "Vachier", "=", "--date", "2026-09-06", "--tc", "rapid", *rapid))
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(cli("game", "list")).stdout
    assert max(len(line) for line in out.splitlines()) <= 80, out
    assert "Vachier-" in out.split() and "Lagrave," in out.split()
    words = out.split()  # every piece of every name is there
    for pieces in (("Vachier-", "Lagrave,"), ("Nepomniacht", "chi,"), ("Abdusattoro", "v,")):
        assert all(piece in words for piece in pieces), (pieces, out)


def test_head_to_head(club: Cli) -> None:
    ok(club("game", "add", LONG, "Okafor", "=", "--date", "2026-10-10", "--tc", "blitz"))
    ok(club("game", "add", "Okafor", LONG, "1-0", "--date", "2026-10-11", "--event", LONG))
    out = table(club, "h2h", LONG, "Okafor")
    h = js(club, "h2h", LONG, "Okafor")
    for g in h["games"]:
        has(out, g["date"], g["event"], g["round"], g["colour"], g["result"])
    has(out, LONG, "Okafor, Grace", "forfeit")


def test_forecast(club: Cli) -> None:
    args = ("forecast", LONG, "Hart", "Okafor", "Sato", "2150", "--date", "2026-11-15")
    out = table(club, *args, "--target", "2215", "--probabilities")
    f = js(club, *args, "--target", "2215", "--probabilities")
    has(out, LONG, f["rating"], f["k"], *(o["name"] or o["rating"] for o in f["opponents"]))
    for row in f["scores"]:
        has(out, f"{row['score']:.1f}", row["low"]["rating"], f"{row['low']['change']:+d}")
    assert f["target"]["score"] is not None
    has(out, "target", f"{f['target']['score']:.1f}")
    for o in f["probabilities"]["outcomes"]:
        has(out, o["rating"], f"{o['probability'] * 100:.2f}")
    out = table(club, "forecast", "Sato", LONG, "Patel", "--date", "2026-11-15")
    has(out, "unrated:", LONG)


def test_events(club: Cli) -> None:
    out = table(club, "event", "list")
    for e in js(club, "event", "list"):
        has(out, e["event"], e["start"], e["end"], e["games"], e["rated"])
    out = table(club, "event", "show", "Autumn Open of the Riverside Chess Club")
    for s in js(club, "event", "show", "Autumn Open of the Riverside Chess Club")["standings"]:
        has(out, s["name"], s["rank"], s["performance"])
