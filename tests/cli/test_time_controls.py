"""Time controls as files write them, free text included, classified by FIDE's definitions;
``--tc`` is for the games whose file does not tell, and one that contradicts the file is
refused; bullet is on no FIDE list."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Cli, fingerprint, games, ok, summary


def pgn(*controls: str | None) -> str:
    out = []
    for n, control in enumerate(controls, start=1):
        tags = {
            "Event": f"Harbour Open {n}",  # an event is played at one time control
            "Date": f"2026.09.{n:02d}",
            "Round": str(n),
            "White": "Moreau, Luc",
            "Black": "Keller, Anna",
            "Result": "1-0",
            "WhiteElo": "2411",
            "BlackElo": "2302",
        }
        if control is not None:
            tags["TimeControl"] = control
        out.append("".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n1. e4 e5 1-0\n\n")
    return "".join(out)


def test_free_text_time_controls_are_read(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "broadcast.pgn"
    path.write_text(pgn("G/90+30", "15 min. + 10 s. per move", "90 min/40 moves + 30 min", "180+2"))
    f = summary(ok(cli("import", str(path), "--json")))["files"][0]
    assert (f["added"], f["problems"]) == (4, [])
    assert [g["tc"] for g in games(cli)] == ["standard", "rapid", "standard", "blitz"]


def test_a_tc_that_contradicts_the_file_is_refused(cli: Cli, db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "rapid.pgn"
    path.write_text(pgn("15 min. + 10 s. per move", "15 min. + 10 s. per move"))
    before = fingerprint(db_url)
    r = cli("import", str(path), "--tc", "standard")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (
        f"{path}:1: the file says '15 min. + 10 s. per move' (rapid) (and 1 more game) and --tc "
        "says standard: drop --tc, or correct the file"
    )
    assert fingerprint(db_url) == before
    ok(cli("import", str(path), "--tc", "rapid"))  # agrees: fine
    assert {g["tc"] for g in games(cli)} == {"rapid"}


def test_tc_is_for_the_games_whose_file_does_not_tell(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "mixed.pgn"
    path.write_text(pgn(None, "see the invitation"))
    r = cli("import", str(path))
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == (
        f"{path}:1: no time control for this game (and 1 more): the file's 'see the "
        "invitation' tells none of FIDE's time controls; give --tc standard|rapid|blitz"
    )
    ok(cli("import", str(path), "--tc", "blitz"))
    assert [g["tc"] for g in games(cli)] == ["blitz", "blitz"]


def test_bullet_is_skipped_and_said(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "lichess.pgn"
    path.write_text(pgn("60+0", "180+2", "30+0"))
    r = ok(cli("import", str(path), "--json"))
    f = summary(r)["files"][0]
    assert (f["added"], f["skipped"], f["skipped_bullet"]) == (1, 2, 2)
    assert (
        f"2 bullet games skipped ({path}:1: '60+0' is under 3 minutes for 60 moves): no FIDE "
        "list rates bullet"
    ) in f["notes"]
    assert [g["tc"] for g in games(cli)] == ["blitz"]
    only = tmp_path / "bullet.pgn"
    only.write_text(pgn("60+0"))
    f = summary(ok(cli("import", str(only), "--json")))["files"][0]  # nothing wrong: nothing new
    assert (f["added"], f["skipped_bullet"], f["problems"]) == (0, 1, [])


def test_a_trf_122_in_free_text_gives_its_games_time_control(cli: Cli, tmp_path: Path) -> None:
    body = (
        "012 Harbour Quad\n042 2026/09/12\n122 15 min + 10 sec/move\n"
        "001    1 m    Moreau, Luc                       2411 FRA      660011 1990/01/01  1.0"
        "    1     2 w 1\n"
        "001    2 w    Keller, Anna                      2302 GER      660012 1992/01/01  0.0"
        "    2     1 b 0\n"
    )
    path = tmp_path / "quad.trf"
    path.write_text(body)
    ok(cli("import", str(path)))
    assert [g["tc"] for g in games(cli)] == ["rapid"]
