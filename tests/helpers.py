"""What the tests share: databases on the test server, the command line in-process, and small
checks on what a command returned. Fixtures and hooks live in the conftest.py files; anything a
test module imports lives here.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import functools
import io
import json
import os
import shutil
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
import typer.main
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner, Result

from tracker.cli.app import app
from tracker.db import driver
from tracker.db.driver import Db
from tracker.db.engine import make_engine, sqlite_file
from tracker.db.location import sqlite_url
from tracker.db.migrate import upgrade
from tracker.db.queries.lists import Line
from tracker.importers import detect
from tracker.importers.records import ParseResult
from tracker.ratings.glicko.api import idle, new_player
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState, get_preset
from tracker.ratings.glicko.seeding import seed_rd
from tracker.services import games as game_service
from tracker.services import lists
from tracker.services.games import GameView
from tracker.services.periods import closing as period_service
from tracker.services.periods.closing import CloseReport
from tracker.services.players import roster as player_service
from tracker.services.players.roster import PlayerView, Seed
from tracker.vocabulary import TimeControl

#: e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test; unset: SQLite only.
PG_URL = os.environ.get("TRACKER_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]

# ----------------------------------------------------------------------------- databases


class Postgres:
    """Throw-away databases on the test server (uuid-named: parallel runs are safe).

    A database at head is a copy of a template migrated once per run. Copying takes a
    CREATE DATABASE (100-400 ms: it writes the whole template, catalogs and all, to the
    WAL), so a database handed back by a test that left its schema exactly as at head is
    emptied (TRUNCATE, sequences restarted) and handed to the next test instead; anything
    else (a schema moved by a migration test, a session still connected) is dropped.
    """

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.admin = create_engine(self.url, isolation_level="AUTOCOMMIT")
        self.template: str | None = None
        self._signature: str | None = None
        self._clean: list[str] = []  # emptied databases at head, ready for the next test
        self._lent: set[str] = set()  # databases at head handed out, maybe reusable

    def url_for(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def create(self, *, migrated: bool) -> str:
        """A new database: empty, or at head (a copy of the template, or one emptied)."""
        if not migrated:
            return self._create(None)
        url = self._clean.pop() if self._clean else self.copy(self._template())
        self._lent.add(url)
        return url

    def copy(self, name: str) -> str:
        """A new database copied from database ``name`` (no one may be connected to it)."""
        return self._create(name)

    def _create(self, template: str | None) -> str:
        name = f"tracker_test_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as conn:
            if template is None:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
            else:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url_for(name)

    def _template(self) -> str:
        if self.template is None:
            name = f"tracker_tmpl_{uuid.uuid4().hex[:12]}"
            with self.admin.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
            engine = make_engine(self.url_for(name))
            upgrade(engine)
            engine.dispose()
            self.template = name
            self._signature = self._schema_signature(self.url_for(name))
        return self.template

    def release(self, url: str) -> None:
        """A test is done with ``url``: empty it for the next test if it can be, else drop it."""
        if url in self._lent:
            self._lent.remove(url)
            if self._empty(url):
                self._clean.append(url)
                return
        self.drop(url)

    def _empty(self, url: str) -> bool:
        """Empty a database whose schema is still exactly the template's; False if it is not
        (or someone is still connected to it)."""
        with self.admin.connect() as conn:
            others = conn.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"),
                {"name": make_url(url).database},
            ).scalar_one()
        if others:
            return False
        engine = create_engine(url, poolclass=NullPool)
        try:
            with engine.begin() as conn:
                conn.exec_driver_sql("SET LOCAL lock_timeout = '2s'")
                if conn.execute(text(SCHEMA_SIGNATURE)).scalar_one() != self._signature:
                    return False
                tables = conn.execute(text(USER_TABLES)).scalars().all()
                conn.exec_driver_sql(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
                for sequence in conn.execute(text(SEQUENCES)).scalars():
                    conn.exec_driver_sql(f"ALTER SEQUENCE {sequence} RESTART")
            return True
        except SQLAlchemyError:  # a lock that did not come, anything odd: drop it instead
            return False
        finally:
            engine.dispose()

    @staticmethod
    def _schema_signature(url: str) -> str:
        engine = create_engine(url, poolclass=NullPool)
        try:
            with engine.connect() as conn:
                return str(conn.execute(text(SCHEMA_SIGNATURE)).scalar_one())
        finally:
            engine.dispose()

    def drop(self, url: str) -> None:
        name = make_url(url).database
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        for url in [*self._clean, *self._lent]:
            self.drop(url)
        if self.template is not None:
            self.drop(self.url_for(self.template))
        self.admin.dispose()


#: Everything of a database's schema (and its Alembic revision), as one digest: column order,
#: types, defaults, constraints, indexes, sequences, triggers, functions, types, extensions.
SCHEMA_SIGNATURE = """
SELECT md5(string_agg(item, E'\\n' ORDER BY item)) FROM (
    SELECT 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL
    SELECT 'column ' || c.relname || ' ' || a.attnum || ' ' || a.attname || ' '
        || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' '
        || a.attisdropped || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND a.attnum > 0
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' '
        || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT 'sequence ' || sequencename || ' ' || start_value || ' ' || increment_by
    FROM pg_sequences WHERE schemaname = 'public'
    UNION ALL
    SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname
    FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure::text
    FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'type ' || typname || ' ' || typtype::text
    FROM pg_type WHERE typnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'extension ' || extname FROM pg_extension
    UNION ALL
    SELECT 'schema ' || nspname FROM pg_namespace
    UNION ALL
    SELECT 'revision ' || version_num FROM alembic_version
) AS schema(item)
"""
USER_TABLES = """
SELECT quote_ident(tablename) FROM pg_tables
WHERE schemaname = 'public' AND tablename <> 'alembic_version' ORDER BY tablename
"""
SEQUENCES = "SELECT quote_ident(sequencename) FROM pg_sequences WHERE schemaname = 'public'"


def make_db(
    backend: str, folder: Path, postgres: Postgres | None, template: Path | None
) -> Iterator[str]:
    """A database on ``backend`` for as long as the generator runs, dropped afterwards: a copy
    of the SQLite ``template`` file (or of PostgreSQL's template database), or empty if
    ``template`` is None."""
    if backend == "sqlite":
        path = folder / "tracker.db"
        if template is not None:
            shutil.copyfile(template, path)
        yield sqlite_url(path)
        return
    assert postgres is not None
    url = postgres.create(migrated=template is not None)
    try:
        yield url
    finally:
        postgres.release(url)


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of a query, as tuples."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


def fingerprint(url: str) -> Any:
    """What must not change when a command fails: a SQLite file's bytes, else every row."""
    path = sqlite_file(url)
    if path is not None:
        # The write-ahead log folded into the file first: a connection's close may fold it
        # in (SQLite's checkpoint), moving bytes and changing nothing; a write still shows
        # (the file's change counter moves with every commit).
        with contextlib.closing(sqlite3.connect(path)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        wal = Path(f"{path}-wal")
        return (path.read_bytes(), wal.read_bytes() if wal.exists() else b"")
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
            return {
                table: sorted(map(repr, conn.execute(text(f'SELECT * FROM "{table}"')).all()))
                for table in tables
            }
    finally:
        engine.dispose()


# ----------------------------------------------------------------------------- the CLI


@functools.cache
def click_command(typer_app: typer.Typer) -> Any:
    """typer's click command for ``typer_app``, built once. typer.testing.CliRunner would
    rebuild it for every invocation, which costs more than most commands (20-30 ms); a real
    ``tracker`` process builds it once too. tests/conftest.py installs it for every test."""
    return typer.main.get_command(typer_app)


#: ``cli(ARGS..., input=None)``: ``tracker --db URL ARGS...`` in-process, click's Result.
Cli = Callable[..., Result]


def cli_on(url: str) -> Cli:
    """The command line on the database at ``url``, in-process."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", url, *args], input=input)

    return run


def ok(result: Result) -> Result:
    """A command that must succeed."""
    assert result.exit_code == 0, (result.stderr or result.output, result.exception)
    return result


def js(cli: Cli, *args: str) -> Any:
    """``cli(*args, "--json")``, which must succeed, parsed."""
    return json.loads(ok(cli(*args, "--json")).stdout)


def summary(result: Result) -> dict[str, Any]:
    """An import's JSON report."""
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def games(cli: Cli) -> list[dict[str, Any]]:
    """``tracker game list --json``."""
    data: list[dict[str, Any]] = js(cli, "game", "list")
    return data


def comparable(game: dict[str, Any]) -> tuple[Any, ...]:
    """A game without database ids, to compare two databases."""
    return tuple(
        game[k]
        for k in (
            "date",
            "white",
            "black",
            "result",
            "tc",
            "event",
            "round",
            "white_rating",
            "black_rating",
        )
    )


#: A player's games of one event against external opponents: (the opponent's rating FIDE
#: used, colour "w" or "b", score).
FideGames = list[tuple[int, str, float]]
#: An event of a player's: (name, start, end, games).
FideEvent = tuple[str, str, str, FideGames]


def event_games(
    player: str, event: str, start: str, end: str, games: FideGames
) -> Iterator[dict[str, str]]:
    """``player``'s games of ``event`` (from ``start`` to ``end``) against external opponents
    (``"EVENT opponent N"``), one a day from the start, the last on the end day, each with
    the opponent's rating FIDE used: date, white, black, result, white_rating, black_rating
    (the player's side empty)."""
    first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    for i, (rating, colour, score) in enumerate(games):
        opponent = f"{event} opponent {i + 1}"
        on = last if i == len(games) - 1 else min(first + dt.timedelta(days=i), last)
        mine = {1.0: "1", 0.5: "1/2", 0.0: "0"}[score]
        theirs = {1.0: "0", 0.5: "1/2", 0.0: "1"}[score]
        if colour == "w":
            sides = (player, opponent, f"{mine}-{theirs}", "", str(rating))
        else:
            sides = (opponent, player, f"{theirs}-{mine}", str(rating), "")
        keys = ("white", "black", "result", "white_rating", "black_rating")
        yield {"date": on.isoformat(), **dict(zip(keys, sides, strict=True))}


def play(cli: Cli, player: str, event: str, start: str, end: str, games: FideGames) -> None:
    """:func:`event_games` entered one by one: ``event add EVENT --start START`` (or
    ``event edit``), ``player add OPPONENT --external`` and ``game add ... --event EVENT
    --white-rating/--black-rating R``."""
    declared = cli("event", "add", event, "--start", start)
    if declared.exit_code:
        ok(cli("event", "edit", event, "--start", start))
    for game in event_games(player, event, start, end, games):
        opponent = game["black"] if game["white"] == player else game["white"]
        ok(cli("player", "add", opponent, "--external"))
        side = "--black-rating" if game["white"] == player else "--white-rating"
        rating = game["black_rating"] or game["white_rating"]
        ok(
            cli(
                "game", "add", game["white"], game["black"], game["result"],
                "--date", game["date"], "--event", event, side, rating, "--yes",
            )
        )  # fmt: skip


def import_games(cli: Cli, path: Path, games: list[dict[str, Any]]) -> None:
    """``games`` (each a CSV row by column: date, white, black, result, event, ...) written
    to ``path`` and imported in one ``tracker import --tc standard --yes``, which must
    succeed: many games in one command."""
    out = io.StringIO()
    rows = csv.DictWriter(out, fieldnames=list(dict.fromkeys(k for g in games for k in g)))
    rows.writeheader()
    rows.writerows(games)
    path.write_text(out.getvalue(), encoding="utf-8")
    ok(cli("import", str(path), "--tc", "standard", "--yes"))


def play_events(cli: Cli, path: Path, player: str, events: list[FideEvent]) -> None:
    """:func:`play` for several events at once, in one import (:func:`import_games`) of the
    same games, dates and recorded ratings: the import creates the opponents external (the
    file records their rating)."""
    games = [
        {**game, "event": event, "event_start": start}
        for event, start, end, played in events
        for game in event_games(player, event, start, end, played)
    ]
    import_games(cli, path, games)


def history_row(cli: Cli, player: str, month: str) -> dict[str, Any]:
    """``player``'s row of ``month`` in ``tracker history --json`` (there must be one)."""
    rows = [r for r in js(cli, "history", player, "--json") if r["month"] == month]
    assert len(rows) == 1, rows
    return dict(rows[0])


def one_line_error(result: Result, code: int) -> str:
    """A command that failed with ``code`` and said why in one line: that line."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return lines[0]


# ----------------------------------------------------------------------------- the services

#: The title-norm tests' Open: the IM's first eight opponents, each with her result against
#: him, and the ninth round's opponent (``tests/cli/test_norms.py``, ``tests/services``).
NORM_FIELD = [  # name, federation, title, rating, the IM's result
    ("Berg, Nils", "NOR", "GM", 2470, "0-1"),
    ("Beridze, Giorgi", "GEO", None, 2150, "1-0"),
    ("Braun, Felix", "GER", None, 2410, "1-0"),
    ("Sargsyan, Tigran", "ARM", "IM", 2570, "0-1"),
    ("Kapanadze, Levan", "GEO", None, 2340, "1-0"),
    ("Gelashvili, Dato", "GEO", "FM", 2380, "1-0"),
    ("Petrosyan, Karen", "ARM", "GM", 2675, "1/2-1/2"),
    ("Clarke, James", "ENG", "IM", 2540, "1-0"),
]
NORM_LAST = ("Harris, Sam", "USA", "GM", 2695)

#: The date every test runs on (TRACKER_TODAY, see tests/conftest.py).
TODAY = dt.date(2026, 11, 29)


class Services:
    """The services on one database, the way the CLI calls them: ``with db.transaction() as
    s`` is one transaction (:mod:`tracker.db.driver`), committed if the block succeeds;
    ``db(fn, *args, **kwargs)`` runs ``fn(s, *args, **kwargs)`` in a transaction of its own
    and returns its result."""

    def __init__(self, url: str) -> None:
        self.url = url

    @contextmanager
    def transaction(self) -> Iterator[Db]:
        opened = driver.open_transaction(self.url, write=True)
        assert opened is not None, f"the driver cannot open {self.url}"
        with opened as db:
            yield db

    @contextmanager
    def trial(self) -> Iterator[Db]:
        """A write transaction that is rolled back when the block ends: nothing stays."""
        opened = driver.open_transaction(self.url, write=True)
        assert opened is not None, f"the driver cannot open {self.url}"
        opened.write = False  # rolled back, not committed
        with opened as db:
            yield db

    def __call__(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        with self.transaction() as db:
            return fn(db, *args, **kwargs)

    def dispose(self) -> None:
        pass


def read_file(fmt: str | None, data: bytes, source: str, **options: Any) -> ParseResult:
    """A whole file's bytes read as ``fmt`` (None: the format ``source`` and ``data`` tell),
    as an import reads them (``options``: encoding, event_start, date_order)."""
    chosen = detect.detect_format(source, data) if fmt is None else fmt
    return detect.stream((data,), source, chosen, **options).collect()


def day(text: str) -> dt.date:
    """``"2026-01-10"`` as a date."""
    return dt.date.fromisoformat(text)


def month(text: str) -> dt.date:
    """``"2026-01"`` as the first of the month (how periods are named)."""
    return dt.date.fromisoformat(f"{text}-01")


def seeded(
    s: Db,
    name: str,
    rating: int,
    *,
    games: int = 100,
    born: int | None = 1980,
    ever_2400: bool = False,
    tc: str = "standard",
) -> PlayerView:
    """``tracker player add NAME --rating R --games G --born Y``."""
    seed = Seed(rating, games, ever_2400=ever_2400, tc=tc)
    return player_service.add_player(s, name=name, birth_year=born, seed=seed)


def unrated(s: Db, name: str, *, born: int | None = None) -> PlayerView:
    """``tracker player add NAME [--born Y]``: tracked, no rating yet."""
    return player_service.add_player(s, name=name, birth_year=born)


def external(s: Db, name: str) -> PlayerView:
    """``tracker player add NAME --external``."""
    return player_service.add_player(s, name=name, external=True)


def game(s: Db, white: str, black: str, result: str, on: str, **fields: Any) -> GameView:
    """``tracker game add WHITE BLACK RESULT --date ON`` (fields: event, round_, tc,
    white_rating, black_rating, event_start)."""
    return game_service.add_game(
        s, white=white, black=black, result=result, played_on=day(on), **fields
    )


def close(s: Db, through: str, tc: str = "standard") -> CloseReport:
    """``tracker period close THROUGH [--tc TC]``."""
    return period_service.close(s, tc=tc, month=month(through), today=TODAY)


def hart_beats_sato(db: Services, on: str, through: str) -> None:
    """Hart and Sato, both seeded at 2000; Hart beats Sato on ``on`` (standard); the standard
    periods closed through ``through``."""
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        game(s, "Hart", "Sato", "1-0", on)
    db(close, through)


# ----------------------------------------------------------------------------- the shadow by hand

LICHESS = get_preset("lichess")
GLICKMAN = get_preset("glickman")


def at_list(
    state: GlickoState, last: dt.date, list_date: dt.date, preset: GlickoPreset
) -> GlickoState:
    """The shadow on a list date: idle growth since the last game (per-game presets)."""
    if preset.period != "game":
        return state
    return idle(state, preset, days=(list_date - last).days)


def seed_shadow(
    preset: GlickoPreset, rating: float, games: int = 100, ext_rd: float = 60.0
) -> GlickoState:
    """A player's first shadow when he is seeded at ``rating`` after ``games`` rated games
    (``seeded`` gives 100): the RD those games give (``shadow set --seed-rd auto``)."""
    return new_player(preset, rating, seed_rd(preset, games, opponent_rd=ext_rd))


def ext(rating: float, rd: float = 60.0, preset: GlickoPreset = LICHESS) -> GlickoState:
    """An external opponent: his recorded rating with the fixed RD."""
    return GlickoState(rating, rd, preset.initial_volatility)


SHADOW_ROWS = """
    SELECT p.name, g.played_on, h.preset, h.as_of, h.rating, h.rd, h.volatility,
           h.last_played, h.games, h.game_id IS NULL
    FROM glicko_history h JOIN players p ON p.id = h.player_id
    LEFT JOIN games g ON g.id = h.game_id
"""


def shadow_rows(url: str) -> list[tuple[Any, ...]]:
    """Every stored shadow row, with names and dates instead of ids, in a stable order: (name,
    date of the game or None, preset, as of, rating, RD, volatility, last played, games, is a
    month-end row)."""
    out = []
    for r in query(url, SHADOW_ROWS):
        out.append(tuple(str(v) if isinstance(v, dt.date) else v for v in r))
    return sorted(out, key=repr)


# ------------------------------------------------------------------------ lists worked out


def whole_list(s: Db, tc: TimeControl, month: dt.date) -> dict[int, Line]:
    """Every line of the list that closed ``month``, by player, worked out player by player
    from the history and the seeds (:func:`lists.player_lines`, as ``tracker history`` reads
    them), not read from the stored list: stored lines, lines carried over, seeds not listed
    yet."""
    closed = lists.closed_months(s, tc)
    out: dict[int, Line] = {}
    for pid in s.scalars("SELECT id FROM players"):
        for listed, _, line in lists.player_lines(s, tc, pid, closed):
            if listed == month:
                out[pid] = line
    return out
