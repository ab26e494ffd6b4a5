"""The change log (issue 24, point 6): every command that writes records what it did, `tracker
log` shows it (filters, --json), and a removed game comes back with `game restore ID`: as if
never removed before its period is closed or rerated again, as a correction after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import Cli, js, ok, one_line_error


def changes(cli: Cli, *args: str) -> list[tuple[str, str, list[str]]]:
    """Each entry's command, and its changes as 'did what'."""
    return [
        (e["command"], e["at"], [f"{c['did']} {c['what']}" for c in e["changes"]])
        for e in js(cli, "log", *args, "--json")
    ]


def commands(cli: Cli, *args: str) -> list[str]:
    return [command for command, _, _ in changes(cli, *args)]


def club(cli: Cli) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240"))
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-20", "--event", "Cup"))
    ok(cli("game", "add", "Okafor", "Hart", "1/2-1/2", "--date", "2026-10-04"))
    ok(cli("period", "close", "2026-10"))


def test_every_command_that_writes_says_what_it_did(cli: Cli, tmp_path: Path) -> None:
    club(cli)
    ok(cli("player", "edit", "Okafor", "--federation", "ENG"))
    ok(cli("player", "seed", "Hart", "--list", "2026-08", "--rating", "2310"))
    ok(cli("event", "edit", "Cup", "--ro", "Okafor=2106"))
    ok(cli("rerate"))
    games = tmp_path / "more.csv"
    games.write_text(
        'date,white,black,result,tc\n2026-10-18,"Hart, Daniel","Okafor, Grace",0-1,standard\n'
    )
    ok(cli("import", str(games)))
    log = changes(cli)
    assert [command for command, _, _ in log] == [
        "tracker player add 'Hart, Daniel' --rating 2318 --games 240",
        "tracker player add 'Okafor, Grace' --rating 2105 --games 95",
        "tracker game add Hart Okafor 1-0 --date 2026-09-20 --event Cup",
        "tracker game add Okafor Hart 1/2-1/2 --date 2026-10-04",
        "tracker period close 2026-10",
        "tracker player edit Okafor --federation ENG",
        "tracker player seed Hart --rating 2310 --list 2026-08",
        "tracker event edit Cup --ro Okafor=2106",
        "tracker rerate",
        f"tracker import files {games}",
    ]
    assert log[2][2] == ["added game 1: Hart, Daniel 1-0 Okafor, Grace, 2026-09-20, standard, Cup"]
    assert log[4][2] == ["closed standard periods closed: 2026-09 to 2026-10"]
    assert log[5][2] == ["changed player #2 Okafor, Grace: federation"]  # nothing rated moves
    assert log[6][2] == [
        "set player #1 Hart, Daniel: 2310 on the 2026-08 standard list",
        "stale standard periods made stale: 2026-09, 2026-10",
    ]
    assert log[7][2] == [
        "changed event Cup: Okafor, Grace: rated with 2106 in it",
        "stale standard periods made stale: 2026-09, 2026-10",
    ]
    assert log[8][2] == ["rerated standard periods rerated: 2026-09 to 2026-10"]
    assert log[9][2][0] == "imported " + f"{games} as import #1: 1 games added"
    assert log[9][2][1] == "stale standard periods made stale: 2026-10"


def test_the_filters(cli: Cli) -> None:
    club(cli)
    ok(cli("player", "add", "Sato, Yuki"))
    assert commands(cli, "--player", "Sato") == ["tracker player add 'Sato, Yuki'"]
    assert commands(cli, "--event", "cup") == [
        "tracker game add Hart Okafor 1-0 --date 2026-09-20 --event Cup"
    ]
    assert len(commands(cli, "--player", "Okafor")) == 3  # added, and two games
    today = js(cli, "log", "--json")[0]["at"][:10]
    assert len(commands(cli, "--since", today, "--until", today)) == 6
    assert commands(cli, "--until", "2020-01-01") == []
    empty = ok(cli("log", "--until", "2020-01-01"))
    assert empty.stderr == "nothing logged for that\n"


def test_nothing_done_nothing_logged(cli: Cli, tmp_path: Path) -> None:
    club(cli)
    before = js(cli, "log", "--json")
    ok(cli("player", "edit", "Hart", "--name", "Hart, Daniel"))  # unchanged
    one_line_error(cli("game", "add", "Hart", "Nobody", "1-0", "--date", "2026-10-05"), 1)
    games = tmp_path / "dry.csv"
    games.write_text(
        'date,white,black,result,tc\n2026-10-18,"Hart, Daniel","Okafor, Grace",0-1,standard\n'
    )
    ok(cli("import", str(games), "--dry-run"))
    ok(cli("rerate"))  # nothing stale
    assert js(cli, "log", "--json") == before


def test_a_removed_game_comes_back_before_and_after_a_rerate(cli: Cli) -> None:
    club(cli)
    history: Any = js(cli, "history", "Hart", "--json")
    removed = ok(cli("game", "remove", "1"))
    assert "closed standard periods 2026-09 to 2026-10 are now stale" in removed.stderr
    restored = ok(cli("game", "restore", "1"))
    assert restored.stderr.startswith("restored game 1: Hart, Daniel 1-0 Okafor, Grace")
    assert "stale" not in restored.stderr
    assert [g["id"] for g in js(cli, "game", "list", "--json")] == [1, 2]
    # removed and restored before a rerate: as if never removed, nothing stale
    assert {p["status"] for p in js(cli, "period", "list", "--json")} == {"closed"}
    assert js(cli, "history", "Hart", "--json") == history

    ok(cli("game", "remove", "1"))
    ok(cli("rerate"))
    # after a rerate it comes back as a correction: what it touches goes stale (the rerate
    # dropped September, which held nothing: tracking starts there again)
    restored = ok(cli("game", "restore", "1"))
    assert "closed standard period 2026-10 is now stale" in restored.stderr
    ok(cli("rerate"))
    assert js(cli, "history", "Hart", "--json") == history
    assert one_line_error(cli("game", "restore", "2"), 1) == "error: game 2 is not removed"
    assert one_line_error(cli("game", "restore", "9"), 1) == "error: no removed game 9 to restore"
    ok(cli("game", "remove", "1"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-09-20", "--event", "Cup"))
    assert sorted(g["id"] for g in js(cli, "game", "list", "--json")) == [2, 3]  # never 1 again


def test_a_restore_keeps_the_marks_of_other_changes(cli: Cli) -> None:
    club(cli)
    ok(cli("game", "remove", "2"))  # October's game: October stale
    ok(cli("game", "add", "Hart", "Okafor", "1/2-1/2", "--date", "2026-09-21", "--event",
           "Late"))  # fmt: skip
    ok(cli("game", "restore", "2"))
    statuses = {p["month"]: p["status"] for p in js(cli, "period", "list", "--json")}
    assert (statuses["2026-09"], statuses["2026-10"]) == ("stale", "stale")  # the late game's


def test_a_removed_game_whose_player_or_event_went_does_not_come_back(cli: Cli) -> None:
    club(cli)
    ok(cli("player", "add", "Novak, Eva"))
    ok(cli("game", "add", "Novak", "Hart", "1-0", "--date", "2026-11-03"))
    ok(cli("game", "remove", "3"))
    ok(cli("player", "remove", "Novak"))
    error = one_line_error(cli("game", "restore", "3"), 1)
    assert error == (
        "error: game 3 cannot come back: player #3 no longer there; add it again with "
        "`tracker game add`"
    )
    ok(cli("game", "add", "Okafor", "Hart", "1-0", "--date", "2026-11-08", "--event", "Nov Cup"))
    ok(cli("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-11-09", "--event", "Rapid"))
    ok(cli("game", "remove", "4"))
    ok(cli("event", "merge", "Rapid", "Nov Cup"))
    error = one_line_error(cli("game", "restore", "4"), 1)
    assert "its event (merged into another since?) no longer there" in error
