"""One rule at every door for the values the intake did not yet hold alike: a player's name
(composed, without invisible characters, never with control characters: typed, in a game
file, a players file, FIDE's list), an event's start (not before 1970) and site, a FIDE
list's month, and numbers (digits 0-9: not fullwidth, not ``2_400``; a birth year 0)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from tests.helpers import Cli, fingerprint, js, ok, one_line_error

COMPOSED = unicodedata.normalize("NFC", "Müller, Jürgen")
DECOMPOSED = unicodedata.normalize("NFD", "Müller, Jürgen")
ZERO_WIDTH = "Müller, Jürgen\u200b"  # a trailing zero-width space
assert COMPOSED != DECOMPOSED

LIST_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA NOV26 Gms K  B-day Flag\n"
)


def list_line(fide_id: int, name: str, fed: str = "GER", rating: int = 2100) -> str:
    """One player of FIDE's standard list (text), each value where its column starts."""
    line = ""
    for column, value in (("ID Number", fide_id), ("Name", name), ("Fed", fed), ("Sex", "M"),
                          ("NOV26", rating), ("Gms", 9), ("K ", 20), ("B-day", 1990)):  # fmt: skip
        line = line.ljust(LIST_HEADER.index(column)) + str(value)
    return line + "\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def names(cli: Cli) -> list[str]:
    return [p["name"] for p in js(cli, "player", "list")]


def test_a_name_with_control_characters_is_refused_in_a_fide_list(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    """As typed (`player add`) and in a game file: a name that clears the screen or holds a
    NUL (which PostgreSQL refuses) is a problem of the file, nothing is written."""
    listed = write(
        tmp_path / "standard_rating_list.txt",
        LIST_HEADER
        + list_line(4600011, "Evil, \x1b[2JName")
        + list_line(4600012, "Null, Na\x00me")
        + list_line(4600013, "Plain, Name"),
    )
    before = fingerprint(db_url)
    r = cli("player", "import-fide-list", str(listed), "--federation", "GER")
    assert r.exit_code == 1
    assert f"{listed}:2: player 4600011: name 'Evil, \\x1b[2JName' contains control characters" in (
        r.stderr
    )
    assert f"{listed}:3: player 4600012: name 'Null, Na\\x00me' contains control characters" in (
        r.stderr
    )
    assert "\x1b" not in r.stderr and "\x00" not in r.stderr
    assert fingerprint(db_url) == before
    assert one_line_error(cli("player", "add", "Evil, \x1b[2JName"), 1).endswith(
        "contains control characters"
    )


def test_a_site_that_cannot_be_stored_is_said(cli: Cli, tmp_path: Path) -> None:
    long = "Town " * 50
    games = write(
        tmp_path / "games.csv",
        "date,white,black,result,event,site,white_rating,black_rating\n"
        f'2026-10-01,"Hart, Daniel","Sato, Yuki",1-0,Bad Cup,"Bad\x1b[2JTown",1900,1900\n'
        f'2026-10-02,"Hart, Daniel","Sato, Yuki",1-0,Long Cup,"{long}",1900,1900\n',
    )
    r = ok(cli("import", str(games), "--create-players", "external", "--tc", "standard"))
    assert f"{games}:2: site 'Bad\\x1b[2JTown' contains control characters: not stored" in (
        r.stderr
    )
    assert f"{games}:3: site 'Town Town Town Town Town Town Town Town '... is cut to 200" in (
        r.stderr
    )
    sites = {g["event"]: g["site"] for g in json.loads(ok(cli("export", "games", "--format",
                                                               "json")).stdout)}  # fmt: skip
    assert sites == {"Bad Cup": None, "Long Cup": long.strip()[:200]}


def test_a_name_is_one_however_it_is_composed(cli: Cli, tmp_path: Path) -> None:
    """Composed or decomposed, with a zero-width space or without: one player, found by
    either spelling, matched by a game file, a players file and FIDE's list."""
    ok(cli("player", "add", DECOMPOSED, "--rating", "2100", "--games", "50"))
    assert names(cli) == [COMPOSED]
    for spelling in (COMPOSED, DECOMPOSED, ZERO_WIDTH):
        line = one_line_error(cli("player", "add", spelling), 1)
        assert f'"{COMPOSED}" is already a player (id:1)' in line
        assert js(cli, "player", "show", spelling)["id"] == 1
    ok(cli("player", "add", "Sato, Yuki", "--rating", "1900", "--games", "50"))
    games = write(
        tmp_path / "games.csv",
        f'date,white,black,result\n2026-10-01,"{DECOMPOSED}","Sato, Yuki",1-0\n'
        f'2026-10-02,"Sato, Yuki","{ZERO_WIDTH}",1-0\n',
    )
    ok(cli("import", str(games), "--create-players", "no", "--tc", "standard"))
    players = write(tmp_path / "players.csv", f'name,federation\n"{ZERO_WIDTH}",GER\n')
    ok(cli("import", str(players)))
    listed = tmp_path / "standard_rating_list.txt"  # FIDE's columns count bytes: one a letter
    listed.write_bytes((LIST_HEADER + list_line(4600020, COMPOSED)).encode("cp1252"))
    ok(cli("player", "import-fide-list", str(listed), "--federation", "GER"))
    assert names(cli) == [COMPOSED, "Sato, Yuki"]
    shown = js(cli, "player", "show", COMPOSED)
    assert (shown["federation"], shown["fide_id"], shown["games"]) == ("GER", 4600020, 2)


@pytest.mark.parametrize(
    "args",
    [
        ["event", "add", "Old Cup", "--start", "1926-05-01"],
        ["event", "edit", "Club Night", "--start", "1969-12-31"],
        ["import", "{nodates}", "--event-start", "1926-05-01"],
        ["import", "{starts}"],
    ],
    ids=["event add", "event edit", "import --event-start", "import event_start"],
)  # fmt: skip
def test_an_event_start_before_1970_is_refused_at_every_door(
    cli: Cli, db_url: str, tmp_path: Path, args: list[str]
) -> None:
    for name in ("Hart, Daniel", "Sato, Yuki"):
        ok(cli("player", "add", name, "--rating", "2000", "--games", "50"))
    ok(cli("game", "add", "Hart", "Sato", "1-0", "--date", "2026-09-05", "--event", "Club Night"))
    nodates = write(tmp_path / "nodates.trf", "012 Old Cup\n" + TRF_GAME)
    starts = write(
        tmp_path / "starts.csv",
        'date,white,black,result,event,event_start\n2026-10-01,"Hart, Daniel","Sato, Yuki",'
        "1-0,Old Cup,1926-05-01\n",
    )
    before = fingerprint(db_url)
    filled = [a.format(nodates=nodates, starts=starts) for a in args]
    r = cli(*filled, input="Hart 1-0 Sato\n")
    assert r.exit_code == 1
    assert "is before 1970: FIDE's first list rated the games of 1970" in r.stderr
    assert fingerprint(db_url) == before


TRF_GAME = (
    "001    1 m    Hart, Daniel                      2000".ljust(91)
    + "   2 w 1\n"
    + "001    2 m    Sato, Yuki                        2000".ljust(91)
    + "   1 b 0\n"
)


def test_a_fide_list_month_before_fide_lists_is_refused(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    """As `player seed --list 1926-05` refuses it."""
    ok(cli("player", "add", "Lindgren, Axel", "--fide-id", "1700101", "--rating", "2200",
           "--games", "50"))  # fmt: skip
    listed = write(tmp_path / "list.txt", LIST_HEADER.replace("NOV26", "Rtng ")
                   + list_line(1700101, "Lindgren, Axel", "SWE"))  # fmt: skip
    before = fingerprint(db_url)
    r = cli("player", "import-fide-list", str(listed), "--month", "1926-05")
    assert r.exit_code == 1
    assert f"{listed}: there is no FIDE list of 1926-05: the first is of 1971" in r.stderr
    assert fingerprint(db_url) == before
    line = one_line_error(
        cli("player", "seed", "Lindgren", "--list", "1926-05", "--rating", "2200"), 1
    )
    assert "there is no FIDE list of 1926-05: the first is of 1971" in line


FULLWIDTH_2400 = "\uff12\uff14\uff10\uff10"


@pytest.mark.parametrize("number", [FULLWIDTH_2400, "2_400", "24OO"])
def test_a_number_is_digits_typed_and_in_a_file(
    cli: Cli, db_url: str, tmp_path: Path, number: str
) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2000", "--games", "50"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    before = fingerprint(db_url)
    typed = one_line_error(cli("player", "add", "Sato", "--rating", number, "--games", "9"), 2)
    assert typed == (
        f"error: Invalid value for '--rating': {number!r} is not a whole number (digits 0-9)"
    )
    one_line_error(cli("game", "add", "Hart", "Kim", "1-0", "--black-rating", number), 2)
    games = write(
        tmp_path / "games.csv",
        f'date,white,black,result,black_rating\n2026-10-01,"Hart, Daniel","Kim, Ji-ho",1-0,'
        f"{number}\n",
    )
    r = cli("import", str(games))
    assert r.exit_code == 1 and f"black_rating {number!r} is not a whole number" in r.stderr
    assert fingerprint(db_url) == before


def test_a_fullwidth_date_is_refused_typed_and_in_a_file(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2000", "--games", "50"))
    ok(cli("player", "add", "Sato, Yuki", "--rating", "2000", "--games", "50"))
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in "2026-10-01")
    before = fingerprint(db_url)
    line = one_line_error(cli("game", "add", "Hart", "Sato", "1-0", "--date", fullwidth), 1)
    assert line == f"error: malformed date {fullwidth!r}: use YYYY-MM-DD"
    games = write(
        tmp_path / "games.csv",
        f'date,white,black,result\n{fullwidth},"Hart, Daniel","Sato, Yuki",1-0\n',
    )
    r = cli("import", str(games))
    assert r.exit_code == 1 and "date" in r.stderr
    assert fingerprint(db_url) == before


def test_a_birth_year_0_is_refused_typed_and_in_a_players_file(
    cli: Cli, db_url: str, tmp_path: Path
) -> None:
    before = fingerprint(db_url)
    typed = one_line_error(cli("player", "add", "Hart, Daniel", "--born", "0"), 1)
    players = write(tmp_path / "players.csv", 'name,birth_year\n"Hart, Daniel",0\n')
    r = cli("import", str(players))
    assert r.exit_code == 1
    assert typed.removeprefix("error: ") in r.stderr
    assert fingerprint(db_url) == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["event", "add", "Old Cup", "--start", "1926-05-01"], "the event start 1926-05-01 is"),
        (["event", "add", "Old Cup", "--start", "2026-05-01", "--end", "1969-12-31"],
         "the event end 1969-12-31 is before 1970"),
        (["event", "add", "Bad Cup", "--start", "2026-05-01", "--site", "Bad\x1b[2JTown"],
         "site 'Bad\\x1b[2JTown' contains control characters"),
        (["event", "add", "Long Cup", "--start", "2026-05-01", "--site", "T" * 201],
         "a site is limited to 200 characters"),
        (["event", "add", "Cup", "--start", "2026-05-01", "--rounds", "\uff15"],
         "is not a whole number (digits 0-9)"),
    ],
)  # fmt: skip
def test_an_event_declared_by_hand_follows_the_rules(
    cli: Cli, db_url: str, args: list[str], said: str
) -> None:
    before = fingerprint(db_url)
    r = cli(*args)
    assert r.exit_code in (1, 2) and said in one_line_error(r, r.exit_code)
    assert fingerprint(db_url) == before
