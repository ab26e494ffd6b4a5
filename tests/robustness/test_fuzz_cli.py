"""Bad input everywhere: hypothesis drives the command line with plausible and absurd
arguments (names, dates, results, ratings, months, options, any text a command line can
carry) and import files (random bytes, garbled samples, CSV of junk).

Whatever comes in: exit code 0, 1 or 2; never a traceback; on 1 or 2 exactly one line on
stderr, starting with "error:" (import may first list the FILE:LINE problems it found); and a
command that fails changes nothing in the database.

The text strategies include every Unicode character a command line can deliver: not NUL
(argv cannot hold it) and, of the surrogates, only U+DC80..U+DCFF, which is how Python
hands over bytes that are not UTF-8 (os.fsdecode). Import files can hold anything.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import Result

from tests.helpers import fingerprint, ok
from tests.robustness.common import Run

#: Examples per command; TRACKER_FUZZ_CLI_EXAMPLES=500 for a long local run.
EXAMPLES = int(os.environ.get("TRACKER_FUZZ_CLI_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SAMPLES = [
    path.read_bytes()
    for folder in ("importers/data", "cli/data")
    for path in sorted((Path(__file__).parents[1] / folder).iterdir())
    if path.is_file()
]

# ----------------------------------------------------------------------------- strategies

#: Bytes that are not UTF-8 reach Python's argv as U+DC80..U+DCFF (os.fsdecode).
UNDECODABLE = st.integers(0xDC80, 0xDCFF).map(chr)
#: Any other character a command line can carry (not NUL, not other surrogates).
PLAIN = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")


def _no_digit_lookalikes(text: str) -> bool:
    """Leave out '²', '①' and the like where a number may go: str.isdigit() takes them and
    int() does not (see test_digits_that_int_refuses)."""
    core = text.strip().lstrip("#").partition(":")[0].strip().lstrip("-")
    return not (core.isdigit() and not core.isdecimal())


junk = st.one_of(
    st.text(PLAIN, max_size=12),
    st.text(PLAIN, min_size=190, max_size=260),  # longer than any column
    st.text(st.one_of(PLAIN, UNDECODABLE), min_size=1, max_size=12),
).filter(_no_digit_lookalikes)


def mixed(*plausible: str, extra: Any = None) -> Any:
    """Mostly one of the plausible values, else something generated, else junk (so that
    most commands get past the first check and reach the later ones)."""
    options = [st.sampled_from(plausible)] * 3 + [junk]
    if extra is not None:
        options.insert(-1, extra)
    return st.one_of(*options)


names = mixed(
    "Hart, Daniel",
    "Okafor, Grace",
    "Kim, Ji-ho",
    "Lee, Min",
    "#1",
    "#2",
    "#3",
    "#0",
    "#99",
    "#-1",
    "#",
    "400101",
    "0",
    " Hart,  Daniel ",
    "hart, daniel",
    "Hart",
    "-",
)
dates = mixed(
    "2026-09-05",
    "2026-10-10",
    "2026-02-30",
    "2026-13-01",
    "2026-9-5",
    "05/09/2026",
    "2026.09.05",
    "0000-01-01",
    "9999-12-31",
    "2026-11-30",
    extra=st.builds(
        "{}-{:02d}-{:02d}".format,
        st.integers(2025, 2027),
        st.integers(0, 13),
        st.integers(0, 32),
    ),
)
months = mixed(
    "2026-09",
    "2026-10",
    "2026-11",
    "2026-12",
    "2026-13",
    "2026-00",
    "2026-9",
    "26-09",
    "2026/09",
    "0000-01",
    "2026-09-01",
    # not 9999-12: see test_months_and_dates_at_the_ends_of_the_calendar
    extra=st.builds("{}-{:02d}".format, st.integers(2025, 2027), st.integers(0, 13)),
)
results = mixed("1-0", "0-1", "1/2-1/2", "½-½", "=", "+-", "-+", "2-0", "1-1", "0-0", "1:0", "*")
integers = st.one_of(
    *[st.sampled_from(["0", "1", "5", "40", "1500", "2318", "4000", "4001", "-1", "400101"])] * 3,
    st.integers(-(10**6), 10**19).map(str),
    st.sampled_from(
        ["1e3", "abc", " 1500", "0x10", "\u0661\u0665\u0660\u0660", "99999999999999999999999"]
    ),  # a float, a word, a blank, hex, Arabic-Indic digits, beyond 64 bits
    junk,
)
# Finite, below 10,000 and not tiny: NaN, infinities, huge and tiny values crash
# `calc glicko` (see test_calc_glicko_refuses_numbers_it_cannot_use).
floats = mixed(
    "0",
    "-0",
    "1500",
    "350",
    "0.06",
    "1e4",
    "-1e4",
    "1e-6",
    extra=st.floats(-1e4, 1e4).filter(lambda x: x == 0 or abs(x) >= 1e-6).map(repr),
)
tcs = mixed("standard", "rapid", "blitz", "bullet", "STANDARD", "")
years = mixed("2010", "1849", "2201", "1988", extra=st.integers(-5, 3000).map(str))
events = mixed("Autumn Open", "Club League", "  Autumn   Open ", "")
rounds = mixed("1", "2.1", "17", "0", "-1", "a" * 17)


def options(*choices: tuple[str, Any] | str) -> Any:
    """Zero to four options: ``(name, values)`` pairs, or flags; now and then an unknown one."""
    items = [
        st.tuples(st.just(c)) if isinstance(c, str) else st.tuples(st.just(c[0]), c[1])
        for c in choices
    ]
    unknown = st.sampled_from([[]] * 20 + [["--frobnicate"], ["--json=1"], ["-x"], ["--"]])
    return st.tuples(st.lists(st.one_of(*items), max_size=4), unknown).map(
        lambda drawn: [token for option in drawn[0] for token in option] + drawn[1]
    )


def command(*parts: Any) -> Any:
    """A command line from fixed words, strategies and option lists."""
    return st.tuples(*(st.just(p) if isinstance(p, str) else p for p in parts)).map(
        lambda words: [w for part in words for w in (part if isinstance(part, list) else [part])]
    )


SEED_OPTIONS: tuple[tuple[str, Any] | str, ...] = (
    ("--fide-id", integers),
    ("--born", years),
    ("--federation", mixed("ENG", "FRA", "EN", "eng", "ÆØÅ")),
    ("--sex", mixed("m", "f", "x", "M")),
    ("--title", mixed("GM", "IM", "XM", "wfm", "WCM")),
    ("--rating", integers),
    ("--games", integers),
    "--ever-2400",
    "--ever-2300",
    "--json",
)

COMMANDS = {
    "player add": command("player", "add", names, options(*SEED_OPTIONS, "--external")),
    "player edit": command(
        "player",
        "edit",
        names,
        options(
            ("--name", names),
            *SEED_OPTIONS[:5],
            "--json",
            "--external",
            "--tracked",
            ("--clear", mixed("fide-id", "born", "federation", "sex", "title", "seed")),
        ),
    ),
    "player seed": command(
        "player",
        "seed",
        names,
        options(
            *SEED_OPTIONS[5:],
            ("--list", mixed("2026-07", "2026-7", "2031-01", "1999-13", "July")),
            "--clear",
            ("--tc", mixed("standard", "rapid", "blitz", "bullet")),
        ),
    ),
    "player show": command("player", "show", names, options("--json")),
    "game add": command(
        "game",
        "add",
        names,
        names,
        results,
        options(
            ("--date", dates),
            ("--event", events),
            ("--round", rounds),
            ("--tc", tcs),
            ("--white-rating", integers),
            ("--black-rating", integers),
            "--json",
        ),
    ),
    "game list": command(
        "game",
        "list",
        options(
            ("--player", names), ("--month", months), ("--event", events), ("--tc", tcs), "--json"
        ),
    ),
    "game edit": command(
        "game",
        "edit",
        integers,
        options(
            ("--white", names),
            ("--black", names),
            ("--result", results),
            ("--date", dates),
            ("--tc", tcs),
            ("--event", events),
            ("--round", rounds),
            ("--white-rating", integers),
            ("--clear", mixed("event", "round", "white-rating", "black-rating")),
            "--json",
        ),
    ),
    "game remove": command("game", "remove", integers, options("--json")),
    "period close": command(
        "period", "close", st.one_of(st.just([]), months), options(("--tc", tcs), "--json")
    ),
    "history": command(
        "history",
        names,
        options(("--tc", tcs), "--json", ("--plot", mixed("missing/folder/plot.png", "plot.txt"))),
    ),
    "list": command("list", st.one_of(st.just([]), months), options(("--tc", tcs), "--json")),
    "export": command(
        "export",
        mixed("games", "history", "list"),
        options(
            ("--player", names),
            ("--month", months),
            ("--tc", tcs),
            ("--event", events),
            ("--format", mixed("csv", "json", "pgn", "trf", "xml")),
            ("--out", mixed("missing/folder/out.csv", ".", "out.csv")),
        ),
    ),
}

opponent_games = st.lists(
    st.builds(
        "{}:{}".format,
        mixed("1500", "2900", "0", "-5", "abc", extra=st.integers(-100, 5000)),
        mixed("1", "0", "0.5", "1/2", "½", "=", "2", "-1", "0.25", ""),
    ),
    max_size=4,
)
glicko_games = st.lists(
    st.builds(
        "{}/{}:{}".format,
        floats,
        floats,
        mixed("1", "0", "0.5", "½", "=", "2", "-1"),
    ),
    max_size=4,
)
CALCULATORS = {
    "calc elo": command(
        "calc",
        "elo",
        integers,
        opponent_games,
        options(
            ("--k", integers),
            ("--games", integers),
            ("--born", years),
            "--ever-2400",
            "--ever-2300",
            ("--formula", mixed("table", "logistic", "elo")),
            "--no-400-rule",
            ("--date", dates),
            "--json",
        ),
    ),
    "calc glicko": command(
        "calc",
        "glicko",
        floats,
        floats,
        floats,
        glicko_games,
        options(
            ("--preset", mixed("lichess", "glickman", "chesscom", "fide")),
            ("--tau", floats),
            ("--idle-days", floats),
            ("--idle-periods", integers),
            "--json",
        ),
    ),
}


@st.composite
def garbled(draw: st.DrawFn) -> bytes:
    """A sample import file with a few bytes replaced, inserted or cut."""
    data = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        patch = draw(st.binary(max_size=4))
        cut = draw(st.integers(0, 3))
        data[at : at + cut] = patch
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


csv_field = st.one_of(names, dates, results, integers, events, st.text(max_size=8))


@st.composite
def junk_csv(draw: st.DrawFn) -> bytes:
    """A CSV with a real or junk header and rows of anything (NUL, surrogates, quotes)."""
    header = draw(
        st.sampled_from(
            [
                "date,white,black,result",
                "date;white;black;result;tc;event;round;white_rating;black_rating",
                "Date,White,Black,Result,White FIDE ID,Black FIDE ID,Site",
                "date,white,black,result,date",
                "",
            ]
        )
    )
    width = max(header.count(",") + 1, header.count(";") + 1)
    rows = draw(st.lists(st.lists(csv_field, min_size=width - 1, max_size=width + 1), max_size=5))
    sep = ";" if ";" in header else ","
    text = "\n".join([header, *(sep.join(row) for row in rows)])
    encoding = draw(st.sampled_from(["utf-8", "latin-1", "utf-16"]))
    return text.encode(encoding, "surrogatepass" if encoding.startswith("utf") else "replace")


@st.composite
def good_csv(draw: st.DrawFn) -> bytes:
    """A valid CSV of new games between the club's tracked players: an import that goes in,
    unless a bad file beside it (or an option) spoils it."""
    rows = ["date,white,black,result,round,tc"]
    for _ in range(draw(st.integers(1, 4))):
        white, black = draw(st.permutations(["Hart, Daniel", "Okafor, Grace", "Lee, Min"]))[:2]
        day = draw(st.dates(dt.date(2026, 10, 1), dt.date(2026, 11, 28)))
        result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-"]))
        rows.append(f'{day},"{white}","{black}",{result},{draw(st.integers(1, 10**9))},standard')
    return "\n".join(rows).encode()


import_files = st.one_of(
    st.tuples(
        st.one_of(st.binary(max_size=600), garbled(), junk_csv()),
        st.sampled_from(["csv", "pgn", "trf", "txt", "", "CSV"]),
    ),
    st.tuples(good_csv(), st.just("csv")),
)
import_options = options(
    ("--format", mixed("pgn", "csv", "trf", "xls")),
    ("--tc", tcs),
    ("--create-players", mixed("auto", "tracked", "external", "no", "yes")),
    "--skip-invalid",
    "--dry-run",
    ("--encoding", mixed("utf-8", "latin-1", "cp1252", "utf-16", "rot13", "hex", "base64")),
    "--json",
)

# ----------------------------------------------------------------------------- checks


class Checker:
    """Runs commands on one database and checks every outcome; remembers the database's
    fingerprint so each example needs one dump, not two."""

    def __init__(self, run: Run, url: str) -> None:
        self.run, self.url = run, url
        self.before = fingerprint(url)

    def __call__(
        self, args: list[str], *, problems_from: str | None = None, stdin: bytes | None = None
    ) -> Result:
        result = self.run(self.url, *args, input=stdin)
        shown = f"tracker {' '.join(map(repr, args))}\n{result.stderr}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            shown,
            result.exception,
        )
        assert result.exit_code in (0, 1, 2), shown
        assert "Traceback" not in result.stdout + result.stderr, shown
        before, self.before = self.before, fingerprint(self.url)
        if result.exit_code:
            lines = result.stderr.splitlines()
            assert lines and lines[-1].startswith("error: "), shown
            if problems_from is None:
                assert len(lines) == 1, shown
            else:
                # the import's report first: FILE:LINE: problems, FILE: summaries, indented
                # details, the dry-run note
                assert all(
                    line.startswith((problems_from, "  ")) or line == "dry run: nothing was written"
                    for line in lines[:-1]
                ), shown
            assert self.before == before, f"a failed command changed the database: {shown}"
        return result


@pytest.fixture
def check(run: Run, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Checker:
    """A club with seeded, unrated and external players, games, and a closed September."""
    monkeypatch.chdir(tmp_path)  # export --out and history --plot write here
    for args in (
        ("Hart, Daniel", "--fide-id", "400101", "--rating", "2318", "--games", "240"),
        ("Okafor, Grace", "--rating", "2105", "--games", "95", "--born", "2001", "--sex", "f"),
        ("Lee, Min", "--born", "2012"),
        ("Kim, Ji-ho", "--external"),
    ):
        ok(run(db_url, "player", "add", *args))
    event = ("--event", "Autumn Open")
    for game in (
        ("Hart, Daniel", "Okafor, Grace", "1-0", "--date", "2026-09-05", *event),
        ("Lee, Min", "Hart, Daniel", "1/2-1/2", "--date", "2026-09-06", *event),
        ("Okafor, Grace", "Lee, Min", "0-1", "--date", "2026-10-03", *event),
        ("Hart, Daniel", "Kim, Ji-ho", "1-0", "--date", "2026-10-04", "--black-rating", "1803"),
    ):
        ok(run(db_url, "game", "add", *game))
    ok(run(db_url, "period", "close", "2026-09"))
    return Checker(run, db_url)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_database_commands_take_any_arguments(check: Checker, name: str) -> None:
    @FUZZ
    @given(args=COMMANDS[name])
    def fuzz(args: list[str]) -> None:
        check(args)

    fuzz()


_files = itertools.count()


def test_import_takes_any_file(check: Checker, tmp_path: Path) -> None:
    folder = tmp_path / "imports"
    folder.mkdir()

    @settings(FUZZ, max_examples=2 * EXAMPLES)
    @given(files=st.lists(import_files, min_size=1, max_size=2), extra=import_options)
    def fuzz(files: list[tuple[bytes, str]], extra: list[str]) -> None:
        paths = []
        for data, suffix in files:
            path = folder / f"f{next(_files)}{'.' if suffix else ''}{suffix}"
            path.write_bytes(data)
            paths.append(str(path))
        check(["import", *paths, *extra], problems_from=str(folder))

    fuzz()


def test_import_of_a_good_file_and_a_bad_one_writes_nothing(check: Checker, tmp_path: Path) -> None:
    """A valid file beside a rejected one: nothing of either is written."""
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text(
        'date,white,black,result,tc\n2026-10-07,"Lee, Min","Hart, Daniel",1-0,standard\n',
        encoding="utf-8",
    )
    bad.write_bytes(b"date,white,black,result\n2026-10-08,Nobody,Somebody,2-0\n")
    assert check(["import", str(good), str(bad)], problems_from=str(tmp_path)).exit_code == 1
    assert check(["import", str(good)]).exit_code == 0  # on its own the good file goes in


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_calculators_take_any_arguments(
    name: str, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No database: the calculators never open one (a --db that cannot exist proves it)."""
    monkeypatch.chdir(tmp_path)
    nowhere = str(tmp_path / "no" / "such" / "folder" / "tracker.db")

    @settings(FUZZ, max_examples=2 * EXAMPLES)
    @given(args=CALCULATORS[name])
    def fuzz(args: list[str]) -> None:
        result = run(nowhere, *args)
        shown = f"tracker {' '.join(map(repr, args))}\n{result.stderr}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            shown,
            result.exception,
        )
        assert result.exit_code in (0, 1, 2), shown
        assert "Traceback" not in result.stdout + result.stderr, shown
        if result.exit_code:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), shown
        assert not (tmp_path / "no").exists()

    fuzz()


BIG = "99999999999999999999999"  # beyond 64 bits
AWKWARD = [
    ["game", "remove", BIG],
    ["game", "edit", BIG, "--round", "2"],
    ["player", "show", BIG],
    ["player", "show", f"#{BIG}"],
    ["player", "add", "Big, Id", "--fide-id", BIG],
    ["player", "add", "Big, Games", "--rating", "1500", "--games", BIG],
    ["player", "add", "Many, Games", "--rating", "1500", "--games", "9999999999"],
    ["player", "add", "Old, Player", "--born", BIG],
    ["calc", "elo", "1500", "1500:1", "--games", BIG, "--born", BIG],
    ["player", "add", "Bad\udcff"],
    ["history", "\udcff"],
    ["game", "add", "Hart, Daniel", "Okafor, Grace", "1-0", "--event", "Caf\udce9"],
    ["player", "add", "N" * 300],
    ["player", "edit", "Lee, Min", "--name", "N" * 300],
    ["game", "add", "Hart, Daniel", "Okafor, Grace", "1-0", "--round", "r" * 40],
    ["game", "add", "Hart, Daniel", "Okafor, Grace", "1-0", "--event", "E" * 300],
    ["game", "list", "--event", "E" * 5000, "--player", "P" * 5000],
]


@pytest.mark.parametrize("args", AWKWARD, ids=lambda args: " ".join(a[:12] for a in args))
def test_awkward_arguments(check: Checker, args: list[str]) -> None:
    """What the fuzzing found or might miss: numbers beyond 64 bits, bytes that are not
    UTF-8, text longer than its column."""
    check(args)


@pytest.mark.slow
def test_bytes_that_are_not_utf8_on_a_real_command_line(check: Checker, tmp_path: Path) -> None:
    """What a shell hands over when the terminal is not UTF-8: refused in one line."""
    for args in (
        [b"player", b"add", b"M\xfcller, J\xf6rg"],  # Latin-1
        [b"history", b"\xff"],
        [b"game", b"list", b"--event", b"Caf\xe9 Open"],
    ):
        before = fingerprint(check.url)
        done = subprocess.run(
            [sys.executable, "-m", "tracker", "--db", check.url, *args],
            capture_output=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert done.returncode == 1, done.stderr
        assert done.stdout == b""
        (line,) = done.stderr.decode("utf-8", "replace").splitlines()
        assert line.startswith("error: argument ") and "is not valid UTF-8" in line
        assert fingerprint(check.url) == before


# calc_glicko (tracker/services/calc.py) checks only that RD and volatility are above 0:
# NaN, infinite, huge or tiny numbers reach the ratings layer, which raises ValueError.
@pytest.mark.parametrize(
    "numbers",
    [
        ("nan", "350", "0.06"),
        ("1500", "inf", "0.06"),
        ("1e308", "350", "0.06", "1500/50:1"),
        ("1500", "350", "1e-320", "1500/50:1"),
        ("1500", "350", "0.06", "nan/50:1"),
        ("1500", "350", "0.06", "--idle-days", "inf"),
    ],
    ids=" ".join,
)
def test_calc_glicko_refuses_numbers_it_cannot_use(
    numbers: tuple[str, ...], run: Run, tmp_path: Path
) -> None:
    result = run(str(tmp_path / "unused.db"), "calc", "glicko", *numbers)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


# tracker/user_input.py accepts any year Python's dates take: next_month(9999-12) raises
# ValueError (services/games game_filter: game list, export games --month 9999-12); a
# game dated 0001-01-01 is stored, and `period close 0001-01` then fails in previous_month()
# while closing a later month would rate every month from year 1.
@pytest.mark.parametrize(
    "commands",
    [
        [["game", "list", "--month", "9999-12"]],
        [["export", "games", "--month", "9999-12"]],
        [
            ["game", "add", "Hart, Daniel", "Okafor, Grace", "1-0", "--date", "0001-01-01"],
            ["period", "close", "0001-01"],
        ],
    ],
    ids=["game-list", "export-games", "game-add-year-1"],
)
def test_months_and_dates_at_the_ends_of_the_calendar(
    check: Checker, commands: list[list[str]]
) -> None:
    for args in commands:
        check(args)


# str.isdigit() is true for '²' and '①', which int() refuses: tracker/services/players/__init__.py
# resolve() (`#²`, `²`) and tracker/services/calc.py parse_game() raise ValueError.
@pytest.mark.parametrize(
    "args",
    [
        ["player", "show", "²"],
        ["history", "#³"],
        ["game", "add", "①", "Hart, Daniel", "1-0"],
        ["calc", "elo", "1500", "²:1"],
    ],
    ids=" ".join,
)
def test_digits_that_int_refuses(check: Checker, args: list[str]) -> None:
    check(args)


# ----------------------------------------------------------------------------- issue 35

#: Lines of a round as a terminal that is not UTF-8 sends them (Latin-1, Windows-1252,
#: UTF-16), or any bytes at all.
round_lines = st.one_of(
    st.builds(
        lambda white, black, result, encoding: f"{white} {result} {black}\n".encode(
            encoding, "replace"
        ),
        mixed("Hart, Daniel", "Müller, Jörg", "Okafor", "Lee"),
        mixed("Okafor, Grace", "Çelik, Ayşe", "Kim, Ji-ho (1803)"),
        mixed("1-0", "½-½", "0-1", "="),
        st.sampled_from(["latin-1", "cp1252", "utf-16", "utf-8", "utf-8-sig", "cp437"]),
    ),
    st.binary(max_size=200),
)


def test_add_round_takes_any_stdin(check: Checker) -> None:
    """Bytes that are not UTF-8 on stdin, as with --file: one line, nothing written."""

    @FUZZ
    @given(lines=st.lists(round_lines, min_size=1, max_size=3), round_=mixed("3", "4", ""))
    def fuzz(lines: list[bytes], round_: str) -> None:
        args = ["game", "add-round", "Autumn Open", "--round", round_]
        check(args, stdin=b"".join(lines), problems_from="stdin:")  # its problems, then why

    fuzz()


#: A password as users write them, unencoded: what must never be printed.
passwords = st.text(st.sampled_from("abcXYZ019@:"), min_size=1, max_size=8).map("PW{}".format)


@st.composite
def database_urls(draw: st.DrawFn, socket_dir: str) -> tuple[str, str]:
    """A database URL that cannot be used, with a password in it, and that password. None
    reaches a network: each fails to parse, names no driver, or points at a socket folder
    with no server in it."""
    password = draw(passwords)
    quiet = draw(st.text(st.sampled_from("abcXYZ019"), min_size=1, max_size=8).map("PW{}".format))
    port = draw(mixed("notaport", "5432x", ":1", "", extra=st.text(PLAIN, max_size=4)))
    url = draw(
        st.sampled_from(
            [
                f"postgresql+psycopg://u:{password}@[::1/x",
                f"postgresql+psycopg://u:{password}@127.0.0.1:{port}x/db",
                f"postgres://u:{password}@[::1/x",
                f"foo://u:{password}@host/db",
                f"mysql://u:{password}@host/db",
                f"postgresql+psycopg://u:{quiet}@/db?host={socket_dir}",
                f"postgresql+psycopg://u@/db?host={socket_dir}&password={quiet}",
                f"postgresql+psycopg://u@/db?password={quiet}&host={socket_dir}&sslmode=disable",
            ]
        )
    )
    return url, quiet if quiet in url else password


def test_any_database_url_is_one_line_without_its_password(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sockets = tmp_path / "no-server-here"
    sockets.mkdir()

    @FUZZ
    @given(
        url=database_urls(str(sockets)),
        args=st.sampled_from(
            [["status"], ["db", "current"], ["db", "check"], ["db", "upgrade"], ["player", "list"],
             ["player", "add", "Hart, Daniel"], ["list", "--live"], ["db", "backup", "b.db"]]
        ),
    )  # fmt: skip
    def fuzz(url: tuple[str, str], args: list[str]) -> None:
        address, password = url
        result = run(address, *args)
        shown = f"tracker --db {address!r} {' '.join(args)}\n{result.stderr}"
        assert result.exit_code == 1, shown
        assert result.exception is None or isinstance(result.exception, SystemExit), shown
        (line,) = result.stderr.splitlines()
        assert line.startswith("error: "), shown
        assert password not in result.stdout + result.stderr, shown
        assert sorted(p.name for p in tmp_path.iterdir()) == ["no-server-here"], shown

    fuzz()


@pytest.mark.parametrize("depth", [10, 990, 1_100, 100_000])
@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_online_import_of_json_nested_deep(
    check: Checker, tmp_path: Path, depth: int, opening: str
) -> None:
    closing = "]" if opening == "[" else "}"
    path = tmp_path / "deep.json"
    path.write_text(opening * depth + ("1" if opening != "[" else "") + closing * depth)
    check(["online", "import", str(path), "--player", "Hart, Daniel"])


#: Every door a file comes in by, with ``{}`` where the file goes.
INPUT_DOORS = [
    ["import", "{}"],
    ["import", "{}", "--format", "pgn"],
    ["game", "add-round", "Autumn Open", "--round", "3", "--file", "{}"],
    ["online", "import", "{}", "--player", "Hart, Daniel"],
    ["player", "import-fide-list", "{}"],
    ["list", "--against", "{}"],
]


@pytest.mark.parametrize("door", INPUT_DOORS, ids=" ".join)
@pytest.mark.parametrize("kind", ["pipe", "folder", "missing"])
def test_an_input_that_is_no_regular_file_is_one_line(
    check: Checker, tmp_path: Path, door: list[str], kind: str
) -> None:
    """A pipe (or a device such as /dev/zero) would never end: refused before it is read."""
    path = tmp_path / f"input-{kind}"
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    result = check([part.replace("{}", str(path)) for part in door])
    assert result.exit_code in (1, 2)
