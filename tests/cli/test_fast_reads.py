"""The everyday commands (``history``, ``player show``, ``compare``, ``list``, the ``game``
commands) run on the bare driver: as whole processes they never import SQLAlchemy, print
what the SQLAlchemy path prints, and fall back to it when the database needs its checks (an
older schema, no file)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.helpers import TODAY, Cli, ok
from tracker.cli.context import AppState
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION
from tracker.services.compare import compare
from tracker.services.periods.card import player_card
from tracker.services.periods.history import history
from tracker.services.periods.listing import rating_list

READS = [
    ("history", "Hart, Daniel"),
    ("history", "Hart", "--json"),
    ("history", "Hart", "--month", "2026-01"),
    ("player", "show", "Hart, Daniel"),
    ("player", "show", "#2", "--json"),
    ("compare", "Hart"),
    ("compare", "Hart", "Okafor", "--json"),
    ("compare", "Hart", "--preset", "glickman"),
    ("compare", "--all"),
    ("list",),
    ("list", "--json"),
]

#: What a read that folds no month never loads: the close and the month's fold, the intake's
#: checks, the players' roster, the online ratings' fetching, the change log. (``player show``
#: closes the open months for its live line, in a transaction it rolls back; ``history
#: --month`` works out the month's games again.)
FOLDS = [
    "tracker.services.periods.closing",
    "tracker.ratings.fide.month",
    "tracker.ratings.fide.player",
    "tracker.services.intake",
    "tracker.services.players.roster",
    "tracker.services.online.fetch",
    "tracker.services.log",
]

#: Runs ``tracker ARGS`` as ``tracker`` does, then says on stderr's last line which of the
#: heavy libraries (and of :data:`FOLDS`) the process imported.
PROBE = f"""
FOLDS = {FOLDS!r}
import json, sys
from tracker.cli import main
sys.argv = ["tracker", *sys.argv[1:]]
try:
    main()
finally:
    heavy = ["sqlalchemy", "alembic", "rich", "matplotlib", "chess", *FOLDS]
    print(json.dumps([m for m in heavy if m in sys.modules]), file=sys.stderr)
"""


#: What a read of the stored lines does not use, so never loads: the Glicko modules (the
#: registry's shadow loads them when asked for a rating), ``json`` (``--json``, a pool to read
#: or write) and the plots (``--plot``).
GLICKO = [
    "tracker.ratings.glicko.presets",
    "tracker.ratings.glicko.engine",
    "glicko2",
    "tracker.ratings.shadow",
    "tracker.db.queries.shadow",
    "tracker.services.shadow.config",
    "tracker.services.shadow.reads",
]
UNUSED = [
    (("list",), ["json", "tracker.cli.plot", *GLICKO]),
    (("status",), ["json", *GLICKO]),
    (("history", "Hart, Daniel"), ["json", "tracker.cli.plot"]),
    (("compare", "Hart, Daniel"), ["json"]),
    (("game", "add", "Hart", "Okafor", "1-0", "--date", "2026-03-05"), GLICKO),
]

#: Runs ``tracker ARGS`` and says on stderr's last line which of the modules named in its
#: first argument (comma-separated) the process imported; itself imports nothing else.
LOADED = """
import sys
from tracker.cli import main
watched = sys.argv.pop(1).split(",")
sys.argv = ["tracker", *sys.argv[1:]]
try:
    main()
finally:
    print(",".join(m for m in watched if m in sys.modules), file=sys.stderr)
"""


def season(cli: Cli) -> None:
    """Three tracked players (one with a Lichess account), an external one, two months."""
    ok(cli("player", "add", "Hart, Daniel", "--rating", "2318", "--games", "240", "--born", "1988"))
    ok(cli("player", "add", "Okafor, Grace", "--rating", "2105", "--games", "95", "--born", "2001"))
    ok(cli("player", "add", "Patel, Arjun", "--born", "2010", "--lichess", "apatel"))
    ok(cli("player", "add", "Kim, Ji-ho", "--external"))
    for white, black, result, day in (
        ("Hart, Daniel", "Okafor, Grace", "1-0", "2026-01-10"),
        ("Patel, Arjun", "Hart, Daniel", "0-1", "2026-01-11"),
        ("Okafor, Grace", "Patel, Arjun", "1/2-1/2", "2026-01-12"),
        ("Hart, Daniel", "Kim, Ji-ho", "1/2-1/2", "2026-02-07"),
        ("Okafor, Grace", "Hart, Daniel", "0-1", "2026-03-02"),
    ):
        extra = ["--black-rating", "2250"] if black == "Kim, Ji-ho" else []
        ok(cli("game", "add", white, black, result, "--date", day, "--event", day[:7], *extra))
    ok(cli("period", "close", "2026-02"))


def probe(url: str, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--db", url, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    *stderr, imported = done.stderr.splitlines()
    done.stderr = "".join(f"{line}\n" for line in stderr)
    return done, json.loads(imported)


@pytest.mark.slow
def test_the_everyday_reads_never_import_sqlalchemy(cli: Cli, db_url: str) -> None:
    season(cli)
    for args in READS:
        done, imported = probe(db_url, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert done.stdout.strip(), args
        # what the in-process command (the same code, its output compared below) imports
        folds = args[:2] == ("player", "show") or "--month" in args  # see FOLDS
        assert [m for m in imported if not (folds and m in FOLDS)] == [], (args, imported)
        inline = cli(*args)
        assert (inline.stdout, inline.stderr) == (done.stdout, done.stderr), args


@pytest.mark.slow
def test_the_game_commands_never_import_sqlalchemy(cli: Cli, db_url: str, tmp_path: Path) -> None:
    season(cli)
    pairings = tmp_path / "round.txt"
    pairings.write_text("Hart, Daniel 1-0 Patel, Arjun\nOkafor, Grace = Kim, Ji-ho (2250)\n")
    writes = [
        ("game", "add", "Hart", "Okafor", "1/2-1/2", "--date", "2026-03-05", "--json"),
        ("game", "edit", "6", "--result", "1-0", "--event", "Spring Open"),
        ("game", "add", "Patel", "Okafor", "0-1", "--date", "2026-01-20", "--yes"),  # closed
        (
            "game",
            "add-round",
            "Club",
            "--round",
            "1",
            "--date",
            "2026-03-09",
            "--file",
            str(pairings),
        ),
        ("game", "list", "--player", "Hart", "--month", "2026-03"),
        ("game", "remove", "7"),
    ]
    for args in writes:
        done, imported = probe(db_url, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert [m for m in imported if m not in FOLDS] == [], (args, imported)
    games = json.loads(ok(cli("game", "list", "--json")).stdout)
    assert [(g["id"], g["result"], g["event"]) for g in games if g["id"] >= 6] == [
        (6, "1-0", "Spring Open"),
        (8, "1-0", "Club"),
        (9, "1/2-1/2", "Club"),
    ]
    assert "stale" in cli("period", "list").stdout  # the game of January made it stale


@pytest.mark.slow
def test_the_everyday_commands_load_only_what_they_use(cli: Cli, db_url: str) -> None:
    season(cli)
    for args, unused in UNUSED:
        if db_url.startswith("postgresql"):  # psycopg loads json for its own JSON types
            unused = [m for m in unused if m != "json"]
        done = subprocess.run(
            [sys.executable, "-c", LOADED, ",".join(unused), "--db", db_url, *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, (args, done.stderr)
        assert done.stdout.strip() or args[0] == "game", args
        assert done.stderr.splitlines()[-1] == "", (args, done.stderr)
    # and each loads them when it does use them
    done = subprocess.run(
        [sys.executable, "-c", LOADED, "json", "--db", db_url, "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr.splitlines()[-1] == "json", done.stderr


def test_the_driver_and_the_engine_connections_read_the_same(cli: Cli, db_url: str) -> None:
    """Each read service on the bare driver's connection and on one the engine made, on each
    backend."""
    season(cli)
    reads = [
        lambda db: history(db, "Hart", "standard"),
        lambda db: compare(db, "Hart", "standard", None),
        lambda db: compare(db, "Patel", "standard", "glickman"),
        lambda db: rating_list(db, "standard", None),
    ]
    for read in reads:
        fast = AppState(db_option=db_url).read(read)
        slow = AppState(db_option=_through_the_engine(db_url)).read(read)
        assert fast == slow
    # player show closes the open months in a transaction it rolls back (its live line)
    card = lambda db: player_card(db, "Okafor", TODAY)  # noqa: E731
    fast_card = AppState(db_option=db_url).rehearse(card)
    assert fast_card == AppState(db_option=_through_the_engine(db_url)).rehearse(card)
    assert fast_card.ratings[0].live.months == (dt.date(2026, 3, 1),)


def test_an_older_schema_is_explained_by_every_read(cli: Cli, db_url: str) -> None:
    season(cli)
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    finally:
        engine.dispose()
    for args in READS:
        r = cli(*args)
        assert r.exit_code == 1, args
        assert r.stderr == (
            f"error: the database schema is at revision 0001, this tracker needs "
            f"{SCHEMA_REVISION}: run `tracker db upgrade` (back it up first with "
            "`tracker db backup FILE`)\n"
        ), args


def test_errors_on_the_driver_path_are_one_line(cli: Cli) -> None:
    season(cli)
    for args, expected in (
        (("history", "Nobody"), "error: no player named 'Nobody'"),
        (("history", "Kim"), "error: Kim, Ji-ho is an external player"),
        (("player", "show", "#99999999999999999999"), "error: no player #99999999999999999999"),
        (("player", "show", "99999999999999999999"), "error: "),
        (("list", "2027-01"), "error: no standard list dated 2027-01"),
    ):
        r = cli(*args)
        assert r.exit_code == 1, (args, r.stdout)
        assert r.stderr.startswith(expected) and r.stderr.count("\n") == 1, (args, r.stderr)


@pytest.mark.backends("sqlite")
def test_a_read_of_a_missing_file_still_says_so(tmp_path: Path) -> None:
    from tests.helpers import cli_on, one_line_error

    path = tmp_path / "nowhere" / "club.db"
    for args in READS:
        line = one_line_error(cli_on(str(path))(*args), 1)
        assert line.startswith(f"error: no database at {path}"), args
    assert not path.parent.exists()


@pytest.mark.backends("sqlite")
def test_a_read_of_an_empty_file_leaves_it_empty(tmp_path: Path) -> None:
    from tests.helpers import cli_on, one_line_error

    path = tmp_path / "club.db"
    path.touch()
    for args in READS:
        line = one_line_error(cli_on(str(path))(*args), 1)
        assert line.startswith(f"error: no tracker database at {path} (it is empty"), args
        assert path.stat().st_size == 0, args


def test_a_loose_name_matching_many_players_is_ambiguous(cli: Cli, db_url: str) -> None:
    """More matches than one IN list holds: still the list of candidates, on the driver."""
    ok(cli("player", "add", "Hart, Daniel"))
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO players (name, external) VALUES (:name, false)"),
                [{"name": f"Player{i:04d}, X"} for i in range(1200)],
            )
    finally:
        engine.dispose()
    r = cli("history", "Player")
    assert r.exit_code == 1
    assert r.stderr.startswith("error: 'Player' matches 1200 players: \"Player0000, X\" (id:2)")
    assert r.stderr.rstrip().endswith("and 1190 more; name one by id:ID")


def _through_the_engine(url: str) -> str:
    """``url`` in a form the bare driver does not open itself (a query string of the URL's
    own): the engine makes the connection, the same named queries run on it."""
    if url.startswith("sqlite"):
        return f"{url}?timeout=30"
    return f"{url}?options=-c%20statement_timeout%3D0"


def test_a_url_only_the_engine_opens_reads_and_writes_the_same(cli: Cli, db_url: str) -> None:
    from tracker.db import driver

    season(cli)
    other = _through_the_engine(db_url)
    # the driver leaves this URL to the engine
    assert driver.open_transaction(other, write=False) is None
    for args in (("history", "Hart", "--json"), ("list", "--json"), ("status", "--json")):
        through, direct = (json.loads(ok(run(*args)).stdout) for run in (_on(cli, other), cli))
        if args[0] == "status":  # it names the database by its URL
            through.pop("database"), direct.pop("database")
        assert through == direct
    ok(cli("--db", other, "game", "add", "Hart", "Okafor", "0-1", "--date", "2026-03-09"))
    ok(cli("--db", other, "period", "close", "2026-03"))
    periods = json.loads(ok(cli("period", "list", "--json")).stdout)
    assert [(p["month"], p["status"]) for p in periods] == [
        ("2026-01", "closed"),
        ("2026-02", "closed"),
        ("2026-03", "closed"),
    ]


def _on(cli: Cli, url: str) -> Cli:
    """``cli`` on another URL of the same database."""
    return lambda *args, **kw: cli("--db", url, *args, **kw)


@pytest.mark.slow
def test_the_import_never_imports_sqlalchemy(cli: Cli, db_url: str) -> None:
    """A players file and a games file, a dry run, and the list of imports: on the driver;
    python-chess (whose move tables cost a fifth of a second to load) for a PGN file only."""
    season(cli)
    data = Path(__file__).parent / "data" / "season_2026"
    commands = [
        ("import", str(data / "players.csv"), str(data / "01-midsummer-open.trf"), "--dry-run"),
        ("import", str(data / "players.csv"), str(data / "01-midsummer-open.trf"), "--json"),
        ("import", str(data / "01-midsummer-open.trf")),  # nothing new
        ("import", "list"),
        ("import", "list", "--json"),
    ]
    for args in commands:
        done, imported = probe(db_url, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert [m for m in imported if m not in FOLDS] == [], (args, imported)
    done, imported = probe(db_url, "import", str(data / "league.pgn"), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert [m for m in imported if m not in FOLDS] == ["chess"]
    rows = json.loads(ok(cli("import", "list", "--json")).stdout)
    assert [(r["added"], r["already_present"]) for r in rows] == [(9, 0), (0, 9)]
