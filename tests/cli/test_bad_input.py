"""Every bad input: one line on stderr, exit 1 (2 for usage), and the database unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Cli, cli_on, fingerprint, one_line_error


@pytest.fixture
def club(cli: Cli) -> Cli:
    for args in (
        ("Hart, Daniel", "--rating", "2318", "--games", "240"),
        ("Okafor, Grace",),
        ("Kim, Ji-ho", "--external"),
    ):
        assert cli("player", "add", *args).exit_code == 0
    r = cli(
        "game",
        "add",
        "Hart, Daniel",
        "Okafor, Grace",
        "1-0",
        "--date",
        "2026-01-08",
        "--event",
        "Club",
        "--round",
        "1",
    )
    assert r.exit_code == 0
    return cli


CASES = [
    pytest.param(
        ("game", "add", "#1", "#2", "2-0"),
        1,
        "error: invalid result '2-0': use 1-0, 0-1, 1/2-1/2 (also 1:0, 0:1, 1/2:1/2, 0.5-0.5, "
        "½-½, =, draw), +- / -+ for a forfeit, or 0-0 for a double forfeit",
        id="malformed-result",
    ),
    pytest.param(("game", "add", "#1", "#2", "1-1"), 1, None, id="impossible-result"),
    pytest.param(
        ("game", "add", "Hart, Danial", "#2", "1-0"),
        1,
        "error: no player named 'Hart, Danial'; did you mean \"Hart, Daniel\"?",
        id="unknown-player",
    ),
    pytest.param(
        ("game", "add", "#1", "#2", "1-0", "--date", "8/1/2026"),
        1,
        "error: malformed date '8/1/2026': use YYYY-MM-DD",
        id="malformed-date",
    ),
    pytest.param(
        ("game", "add", "#1", "#2", "1-0", "--date", "2026-02-30"),
        1,
        "error: impossible date '2026-02-30': no such day",
        id="impossible-date",
    ),
    pytest.param(
        ("game", "add", "#1", "Hart, Daniel", "1-0"),
        1,
        "error: Hart, Daniel cannot play themselves: white and black are one player",
        id="self-pairing",
    ),
    pytest.param(
        ("player", "add", "X", "--rating", "5000", "--games", "1"),
        1,
        "error: implausible seed rating 5000: FIDE ratings lie within 1000..3000",
        id="seed-rating",
    ),
    pytest.param(
        (
            "game",
            "add",
            "Hart, Daniel",
            "Okafor, Grace",
            "0-1",
            "--date",
            "2026-01-08",
            "--event",
            "Club",
            "--round",
            "1",
        ),
        1,
        "error: this game is already recorded as game 1 (same date, players, event "
        "and round); give a --round to tell two games apart, or --again if it is another game",
        id="duplicate-game",
    ),
    pytest.param(
        ("game", "add", "#1", "#2", "1-0", "--tc", "bullet"),
        1,
        "error: unknown time control 'bullet': use standard, rapid or blitz",
        id="unknown-tc",
    ),
    pytest.param(
        ("game", "list", "--month", "2026-13"),
        1,
        "error: impossible month '2026-13'",
        id="impossible-month",
    ),
    pytest.param(("player", "add", "  "), 1, "error: a player needs a name", id="empty-name"),
    pytest.param(
        ("player", "add", "Y", "--sex", "x"), 1, "error: invalid sex 'x': use m or f", id="bad-sex"
    ),
    pytest.param(("player", "add", "Y", "--title", "XM"), 1, None, id="bad-title"),
    pytest.param(
        ("player", "add", "Y", "--federation", "EN"),
        1,
        "error: invalid federation 'EN': three letters",
        id="bad-federation",
    ),
    pytest.param(("game", "add", "#1", "#2"), 2, None, id="missing-argument"),
    pytest.param(
        ("game", "add", "#1", "#2", "1-0", "--white-rating", "abc"),
        2,
        None,
        id="non-numeric-rating",
    ),
    pytest.param(("player", "frobnicate"), 2, None, id="unknown-command"),
    pytest.param(("game", "remove", "77"), 1, "error: no game 77", id="unknown-game"),
]


@pytest.mark.parametrize(("args", "code", "expected"), CASES)
def test_bad_input_changes_nothing(
    club: Cli, db_url: str, args: tuple[str, ...], code: int, expected: str | None
) -> None:
    before = fingerprint(db_url)
    result = club(*args)
    assert result.exit_code == code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    if expected is not None:
        assert lines[0] == expected
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert fingerprint(db_url) == before


LONG = "x" * 300  # longer than a file name may be (255 bytes on Linux's file systems)


def test_paths_the_system_cannot_use_are_one_line(club: Cli, db_url: str, tmp_path: Path) -> None:
    """A file name too long to look up, or a folder given as the database: one line."""
    before = fingerprint(db_url)
    for args in (
        ("export", "games", "--out", LONG),
        ("db", "backup", str(tmp_path / LONG)),
        ("site", "build", str(tmp_path / LONG)),
    ):
        r = club(*args)
        assert r.exit_code == 1, args
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, args
    for db in (str(tmp_path / LONG), str(tmp_path)):
        for args in (("list",), ("history", "Hart"), ("player", "list"), ("db", "upgrade"),
                     ("db", "current"), ("db", "check"), ("player", "add", "New")):  # fmt: skip
            r = cli_on(db)(*args)
            assert r.exit_code == 1, (db, args)
            assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, (db, args)
    assert fingerprint(db_url) == before


def input_cases(tmp_path: Path) -> list[tuple[tuple[str, ...], str | bytes | None, str]]:
    """(arguments, stdin, the error line) of inputs that are not text files tracker reads."""
    fifo = tmp_path / "pipe.pgn"
    os.mkfifo(fifo)
    latin = tmp_path / "round.txt"
    latin.write_bytes("M\xfcller 1-0 Hart\n".encode("latin-1"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    pipe = (
        f"error: {fifo} is a pipe: tracker reads only regular files (a device or a pipe might "
        "never end)"
    )
    add_round = ("game", "add-round", "Club", "--round", "2")
    return [
        (add_round, "M\xfcller 1-0 Hart\n".encode("latin-1"), "error: stdin is not UTF-8 text"),
        ((*add_round, "--file", str(latin)), None, f"error: {latin} is not UTF-8 text"),
        (
            add_round,
            b"\0" * 1_000_001,  # `< /dev/zero` (which never ends)
            "error: stdin holds more than 1 MB: a round is one game a line (a big file of games "
            "is for `tracker import`)",
        ),
        ((*add_round, "--file", str(fifo)), None, pipe),
        (("import", str(fifo)), None, pipe),
        (("online", "import", str(fifo), "--player", "Hart"), None, pipe),
        (("player", "import-fide-list", str(fifo)), None, pipe),
        (("list", "--against", str(fifo)), None, pipe),
        (
            ("online", "import", str(deep), "--player", "Hart"),
            None,
            f"error: {deep}: not JSON tracker reads (arrays or objects nested too deeply)",
        ),
    ]


def test_inputs_that_are_no_text_file_are_one_line(club: Cli, db_url: str, tmp_path: Path) -> None:
    """Latin-1 on stdin as in a file, a pipe or a device (which would never end), JSON nested
    100,000 deep: one line each, nothing changed."""
    before = fingerprint(db_url)
    for args, stdin, expected in input_cases(tmp_path):
        r = club(*args, input=stdin)
        assert one_line_error(r, 1) == expected, args
    assert fingerprint(db_url) == before
