"""Plain SQL on the database driver itself (``sqlite3``, ``psycopg``), without SQLAlchemy.

Importing SQLAlchemy takes longer (0.2-0.3 s) than all the work of the everyday commands
(``history``, ``player show``, ``compare``, ``list``, the ``game`` commands), so those run
here from start to end, in a transaction :func:`open_transaction` opens. The same service
functions serve every command that holds a SQLAlchemy session: :meth:`Db.of` runs them on
that session's own connection, inside its transaction, so there is one copy of each query.

SQL is written once for both databases, with ``:name`` parameters (psycopg's ``%(name)s``
is made from them); a list or tuple parameter stands for the items of an ``IN (...)`` list.
Rows come back as the driver gives them: on SQLite a date is ISO text and a boolean 0 or 1,
so a query reads its rows as their named type (:meth:`Db.rows`, :func:`reader`), which passes
dates through :func:`day` and flags through ``bool``. A date goes to SQLite as its ISO text,
as SQLAlchemy's ``Date`` stores it.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import os
import re
import sqlite3
import time
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints
from urllib.parse import quote, unquote

from tracker.db.revision import SCHEMA_REVISION
from tracker.db.rows import TABLES, EloRow, GlickoRow
from tracker.errors import ConflictError, DatabaseError, InvalidInputError, TrackerError
from tracker.vocabulary import TimeControl

Row = tuple[Any, ...]
T = TypeVar("T")
#: A row type: a named tuple of a query's columns, in order.
R = TypeVar("R", bound=tuple[Any, ...])

#: How long a connection waits for another's lock (SQLite's busy timeout, PostgreSQL's
#: lock_timeout for writers), and SQLite's page cache per connection: 32 MiB instead of
#: SQLite's 2 MiB (a month's close inserts some 160,000 history rows into indexes that grow
#: with every month; with the default cache the close of month 24 of a federation took 1.3
#: times month 1's, with this 1.2 times).
BUSY_TIMEOUT_MS = 30_000
CACHE_KIB = 32 * 1024

BUSY_MESSAGE = (
    "the database is busy (another tracker command is writing); nothing was changed, "
    "try again in a moment"
)
#: PostgreSQL's SQLSTATEs for a lock wait that ran out of ``lock_timeout``, and for "integer
#: out of range" and its kin.
LOCK_NOT_AVAILABLE = "55P03"
NUMBER_OUT_OF_RANGE = "22003"

#: Rows a streamed query (:meth:`Db.stream`) reads at a time.
STREAM_BATCH = 2000
_STREAMS = itertools.count()

_PARAM = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


class _IsoDates(dict[dt.date, str]):
    """Each date's ISO text, made once: a month's close binds the same few dozen days to tens
    of thousands of rows (sqlite3 calls the adapter for every value)."""

    def __missing__(self, day: dt.date) -> str:
        text = self[day] = day.isoformat()
        return text


# SQLite has no date type: a date is stored as its ISO text (SQLAlchemy's ``Date`` does the
# same), for every statement and every bulk insert. Only ``datetime.date`` itself: a datetime
# keeps sqlite3's own handling.
sqlite3.register_adapter(dt.date, _IsoDates().__getitem__)


class Db:
    """A connection to run plain SQL on, in the transaction it is in."""

    __slots__ = ("_cache", "connection", "dialect", "journal")

    def __init__(self, connection: Any, dialect: str) -> None:
        self.connection = connection
        self.dialect = dialect  # "sqlite" or "postgresql"
        self._cache: dict[object, tuple[str, list[tuple[str, bool]]]] = {}
        # What the command did, entry by entry, for the change log (tracker.services.log):
        # written with the command's other changes, or not at all.
        self.journal: list[dict[str, Any]] = []

    @property
    def sqlite(self) -> bool:
        return self.dialect == "sqlite"

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        """Run one statement; the driver's cursor."""
        text, values = self._prepare(sql, params or {})
        cursor = self.connection.cursor()
        cursor.execute(text, values)
        return cursor

    def all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        cursor = self.execute(sql, params)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def stream(
        self, sql: str, params: Mapping[str, Any] | None = None, *, batch: int = STREAM_BATCH
    ) -> Iterator[Row]:
        """The rows of a query as the caller goes, ``batch`` at a time, never all in memory:
        on PostgreSQL through a server-side cursor (a plain one has libpq read every row
        first), on SQLite as the statement steps. The transaction must stay open until the
        rows are read (or the iterator is dropped)."""
        text, values = self._prepare(sql, params or {})
        if self.sqlite:
            cursor = self.connection.cursor()
        else:
            cursor = self.connection.cursor(name=f"tracker_stream_{next(_STREAMS)}")
            cursor.itersize = batch
        try:
            cursor.execute(text, values)
            while rows := cursor.fetchmany(batch):
                yield from rows
        finally:
            try:
                cursor.close()
            except Exception as exc:
                # A reader that stopped half-way (`tracker list | head -1`) may drop the
                # iterator after its transaction ended: the connection closed the cursor.
                if not is_driver_error(exc):
                    raise

    def first(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        cursor = self.execute(sql, params)
        try:
            row = cursor.fetchone()
            return tuple(row) if row is not None else None
        finally:
            cursor.close()

    def scalar(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        row = self.first(sql, params)
        return None if row is None else row[0]

    def scalars(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        return [first for first, *_ in self.all(sql, params)]

    def rows(self, kind: type[R], sql: str, params: Mapping[str, Any] | None = None) -> list[R]:
        """The rows of a query as ``kind``, a named tuple of its columns (:func:`reader`)."""
        return list(map(reader(kind), self.all(sql, params)))

    def row(self, kind: type[R], sql: str, params: Mapping[str, Any] | None = None) -> R | None:
        """The first row of a query as ``kind`` (:func:`reader`), if there is one."""
        found = self.first(sql, params)
        return None if found is None else reader(kind)(found)

    def all_in(
        self,
        sql: str,
        values: Iterable[Any],
        params: Mapping[str, Any] | None = None,
        *,
        name: str = "ids",
    ) -> list[Row]:
        """The rows of a query whose list parameter ``name`` stands for ``values``, asked a
        slice at a time (:func:`chunks`): the values once each, sorted."""
        found: list[Row] = []
        for chunk in chunks(sorted(set(values))):
            found += self.all(sql, {**(params or {}), name: chunk})
        return found

    def rows_in(
        self,
        kind: type[R],
        sql: str,
        values: Iterable[Any],
        params: Mapping[str, Any] | None = None,
        *,
        name: str = "ids",
    ) -> list[R]:
        """:meth:`all_in`'s rows as ``kind`` (:func:`reader`)."""
        return list(map(reader(kind), self.all_in(sql, values, params, name=name)))

    def run(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement that returns no rows (an UPDATE, a DELETE); the rows it changed."""
        cursor = self.execute(sql, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def insert(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run one ``INSERT`` into a table with an ``id`` key; the new row's id."""
        if self.sqlite:
            cursor = self.execute(sql, params)
            try:
                return int(cursor.lastrowid)
            finally:
                cursor.close()
        return int(self.scalar(f"{sql} RETURNING id", params))

    def _prepare(
        self, sql: str, params: Mapping[str, Any]
    ) -> tuple[str, list[Any] | dict[str, Any]]:
        """The statement in the driver's parameter style, and its values: SQLite's ``?``
        with a list (by name, sqlite3 builds a string a parameter: a query with an IN list
        of 500 took twice as long), psycopg's ``%(name)s`` with a dict. A list or tuple
        value stands for an IN list, one parameter an item."""
        lists = tuple(
            (name, len(value)) for name, value in params.items() if isinstance(value, list | tuple)
        )
        key: object = (sql, lists) if lists else sql
        translated = self._cache.get(key)
        if translated is None:
            translated = self._cache[key] = self._translate(sql, dict(lists))
        text, order = translated
        if self.sqlite:
            values: list[Any] = []
            for name, many in order:
                if many:
                    values.extend(params[name])
                else:
                    values.append(params[name])
            return text, values
        named: dict[str, Any] = {}
        for name, value in params.items():
            if isinstance(value, list | tuple):
                named.update((f"{name}__{i}", item) for i, item in enumerate(value))
            else:
                named[name] = value
        return text, named

    def _translate(self, sql: str, lists: dict[str, int]) -> tuple[str, list[tuple[str, bool]]]:
        """``sql`` in the driver's style, and (SQLite) the parameters in the order they stand
        in it, each with whether it is an IN list."""
        order: list[tuple[str, bool]] = []

        def name(match: re.Match[str]) -> str:
            param = match.group(1)
            if param not in lists:
                order.append((param, False))
                return "?" if self.sqlite else f"%({param})s"
            if not lists[param]:
                return "NULL"  # x IN (NULL) holds for no x
            order.append((param, True))
            if self.sqlite:
                return ", ".join("?" * lists[param])
            return ", ".join(f"%({param}__{i})s" for i in range(lists[param]))

        if not self.sqlite:
            sql = sql.replace("%", "%%")
        return _PARAM.sub(name, sql), order

    def savepoint(self, name: str) -> Savepoint:
        """A savepoint in this transaction, named ``name``: see :class:`Savepoint`."""
        return Savepoint(self, name)

    def insert_many(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """Insert many rows (in the order of ``columns``) in one driver call: ``COPY`` on
        PostgreSQL, several times faster than INSERTs (the same constraints apply), one
        ``executemany`` on SQLite. Tens of thousands of history rows a month and a million
        games in an import go in this way; ``rows`` are taken as they come (a federation's
        list is never all in memory)."""
        names = ", ".join(columns)
        if not self.sqlite:
            with (
                self.connection.cursor() as cursor,
                cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join("?" for _ in columns)
        # sqlite3 binds a plain tuple's values directly, a named tuple's through the sequence
        # protocol (several times slower for history rows)
        self.connection.executemany(
            f"INSERT INTO {table} ({names}) VALUES ({marks})", map(tuple, rows)
        )

    def store(self, rows: Iterable[EloRow] | Iterable[GlickoRow], batch: int = 20_000) -> None:
        """Insert rows of a history table (:mod:`tracker.db.rows`), ``batch`` rows a driver
        call: rows made as they are stored (a generator) are never all held at once (a
        federation's month has half a million shadow rows)."""
        pending: Iterator[EloRow | GlickoRow] = iter(rows)
        while chunk := list(islice(pending, batch)):
            first = chunk[0]
            self.insert_many(TABLES[type(first)], first._fields, chunk)


class Savepoint:
    """A savepoint in a transaction: what is written after it is kept (:meth:`keep`) or
    undone (:meth:`undo`), the transaction going on either way. As a ``with`` block: undone
    if the block raises, else kept."""

    def __init__(self, db: Db, name: str) -> None:
        self.db = db
        self.name = name
        self.noted = len(db.journal)  # what is undone is not logged either
        db.run(f"SAVEPOINT {name}")

    def keep(self) -> None:
        self.db.run(f"RELEASE SAVEPOINT {self.name}")

    def undo(self) -> None:
        self.db.run(f"ROLLBACK TO SAVEPOINT {self.name}")
        self.db.run(f"RELEASE SAVEPOINT {self.name}")
        del self.db.journal[self.noted :]

    def __enter__(self) -> Savepoint:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.keep()
        else:
            self.undo()


class Same(dict[Any, Any]):
    """Each value as the object first read for it: the driver makes a value anew on every
    row, and a long read (a federation's month, its 600,000 seeds) holds each thousands of
    times."""

    def __missing__(self, value: Any) -> Any:
        self[value] = value
        return value


def day(value: Any) -> dt.date:
    """A date column's value: the driver's date, or SQLite's ISO text."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)


def maybe_day(value: Any) -> dt.date | None:
    return None if value is None else day(value)


def stored_tc(value: Any) -> TimeControl:
    """A time control column's value, unparsed: the schema's check (``TC_CHECK``) lets only
    the three lists in."""
    return cast("TimeControl", str(value))


def moment(value: Any) -> dt.datetime:
    """A timestamp column's value: the driver's datetime, or SQLite's ISO text."""
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)


#: How a column is read by the type its row's field declares, where the drivers differ: on
#: SQLite a date is ISO text and a flag 0 or 1; on PostgreSQL ``bytea`` comes as a view.
_READ: dict[object, Callable[[Any], Any]] = {
    dt.date: day,
    dt.datetime: moment,
    bool: bool,
    bytes: bytes,
}


def reader(kind: type[R]) -> Callable[[Row], R]:
    """What makes a row of the driver's into ``kind`` (a named tuple of the query's columns,
    in order): each column whose field is declared a date, a timestamp, a flag or bytes
    (or None) read as :data:`_READ` says, the others as the driver gives them."""
    return cast("Callable[[Row], R]", _reader(kind))


@functools.cache
def _reader(kind: type[tuple[Any, ...]]) -> Callable[[Row], Any]:
    hints = get_type_hints(kind)
    steps = []
    for i, name in enumerate(cast(Any, kind)._fields):
        hint = hints[name]
        declared = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
        read = next((_READ[t] for t in declared if t in _READ), None)
        if read is not None:
            steps.append((i, read))
    make: Callable[[Iterable[Any]], Any] = cast(Any, kind)._make
    if not steps:
        return make

    def typed(row: Row) -> Any:
        values = list(row)
        for i, read in steps:
            if values[i] is not None:
                values[i] = read(values[i])
        return make(values)

    return typed


def insert_sql(table: str, names: Iterable[str]) -> str:
    """``INSERT INTO table (names) VALUES (:names)``: a row given by column name."""
    names = list(names)
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(f':{n}' for n in names)})"


def update_sql(table: str, names: Iterable[str], where: str = "id = :id") -> str:
    """``UPDATE table SET name = :name, ... WHERE where``: columns given by name."""
    return f"UPDATE {table} SET {', '.join(f'{n} = :{n}' for n in names)} WHERE {where}"


def save_single_row(db: Db, table: str, values: Mapping[str, Any]) -> None:
    """Store ``values`` (by column name) in the single row (id 1) of ``table``, made if
    missing (the shadow's settings, the site's configuration)."""
    if db.scalar(f"SELECT 1 FROM {table} WHERE id = 1") is None:
        db.run(insert_sql(table, ["id", *values]), {"id": 1, **values})
    else:
        db.run(update_sql(table, values, "id = 1"), values)


#: Values per ``IN (...)`` list of a lookup (SQLite takes a few thousand parameters); more
#: players than this are read whole and filtered after reading, or read by chunks.
IN_CHUNK = 500


def chunks(items: Sequence[T]) -> Iterator[Sequence[T]]:
    """``items`` in slices of :data:`IN_CHUNK` for ``IN (...)`` lists."""
    for start in range(0, len(items), IN_CHUNK):
        yield items[start : start + IN_CHUNK]


# ---------------------------------------------------------------------------------------
# Opening a database: one transaction


#: Any constant will do: it names the lock every tracker write transaction takes on
#: PostgreSQL (SQLite's own write lock does it there, with ``BEGIN IMMEDIATE``).
WRITER_LOCK = 0x7472_6B72


class Transaction:
    """One transaction on the bare driver. A read is rolled back when the block ends (a
    consistent view, nothing written); a write is committed if the block succeeds, rolled
    back if it fails. ``release`` ends the connection (by default it is closed)."""

    def __init__(self, db: Db, *, write: bool, release: Callable[[], None] | None = None) -> None:
        self.db = db
        self.write = write
        self._release = release

    def __enter__(self) -> Db:
        return self.db

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if self.write and kind is None:
                self.db.connection.commit()
        finally:
            try:
                self.db.connection.rollback()
            finally:
                (self._release or self.db.connection.close)()


def run(
    opener: Callable[[], Transaction],
    work: Callable[[Db], T],
    *,
    keep: Callable[[T], bool] | None = None,
    attempts: int = 3,
) -> T:
    """Run ``work`` in one transaction of ``opener``'s: all of it is committed or none of it
    (none of it, too, when ``keep`` says its result keeps nothing: a dry run, a refused file;
    a commit would still write the pages it touched). A transaction another writer kept
    waiting past the busy timeout is tried again a few times; a failure of the database is
    raised as tracker's one-line error (:func:`failure`), anything else (a bug) as it is."""
    for attempt in range(1, attempts + 1):
        try:
            transaction = opener()
            with transaction as db:
                result = work(db)
                if keep is not None and not keep(result):
                    transaction.write = False  # rolled back when the block ends
                return result
        except Exception as exc:
            error = failure(exc)
            if error is None:
                raise
            if str(error) == BUSY_MESSAGE and attempt < attempts:
                time.sleep(0.2 * attempt)  # another writer held on: try again
                continue
            raise error from None
    raise AssertionError("unreachable")


#: A number beyond what the database stores: an id, a count or a FIDE id typed by hand.
TOO_LARGE = "a number in the command is too large for the database"


def failure(exc: BaseException) -> TrackerError | None:
    """The one-line error for a failure of the database (the driver's own errors); None for
    anything else."""
    if is_out_of_range(exc):
        return InvalidInputError(TOO_LARGE)
    if not is_driver_error(exc):
        return None
    if is_integrity_error(exc):
        return ConflictError(f"the change clashes with stored data: {first_line(exc)}")
    if is_locked(exc):
        return DatabaseError(BUSY_MESSAGE)
    return DatabaseError(f"database error: {first_line(exc)}")


def open_transaction(url: str, *, write: bool) -> Transaction | None:
    """A transaction on ``url`` through the bare driver, if this database can be read that
    way: a SQLite file or a PostgreSQL server (psycopg) holding tracker's current schema. A
    write holds the writers' lock (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock)
    as :mod:`tracker.db.engine` takes it; a lock not had within the busy timeout raises the
    driver's error. None otherwise (a URL of another form, a database that cannot be opened
    or does not exist yet, an empty one, an older or newer schema): the caller goes through
    SQLAlchemy, whose checks say what is wrong and which creates a new database."""
    db = _connect(url, write=write)
    if db is None:
        return None
    try:
        begin(db, write=write)
    except BaseException:
        close(db)
        raise  # the lock was not had: the caller says so, or tries again
    try:
        revision = db.scalar("SELECT version_num FROM alembic_version")
    except Exception as exc:
        if is_locked(exc):  # a writer held on for the whole busy timeout: not a schema matter
            close(db)
            raise
        revision = None
    if revision != SCHEMA_REVISION:
        close(db)
        return None
    return Transaction(db, write=write)


def begin(db: Db, *, write: bool) -> None:
    """Start a transaction on a connection outside one: a write holds the writers' lock
    (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock); on PostgreSQL a read sees one
    snapshot of the database, as on SQLite."""
    if db.sqlite:
        db.connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    elif write:
        db.scalar(TAKE_WRITER_LOCK)
    else:
        db.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def is_driver_error(exc: BaseException) -> bool:
    """A failure of the database itself (sqlite3's or psycopg's errors), not of tracker."""
    return isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("psycopg")


def is_locked(exc: BaseException) -> bool:
    """The driver's "database is locked" (SQLite) or lock timeout (PostgreSQL): another
    writer held on."""
    if getattr(exc, "sqlstate", None) == LOCK_NOT_AVAILABLE:
        return True
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower()


def is_out_of_range(exc: BaseException) -> bool:
    """A number beyond what the database stores (an id, a count or a FIDE id typed by hand):
    PostgreSQL's out-of-range error, or sqlite3 refusing to bind an int beyond 64 bits."""
    if isinstance(exc, OverflowError):
        return "SQLite INTEGER" in str(exc)
    return getattr(exc, "sqlstate", None) == NUMBER_OUT_OF_RANGE


def is_integrity_error(exc: BaseException) -> bool:
    """A constraint the change breaks (a unique key, a foreign key, a check)."""
    return any(kind.__name__ == "IntegrityError" for kind in type(exc).__mro__)


def first_line(exc: BaseException) -> str:
    """A driver error in one line, without SQL or parameters."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def close(db: Db) -> None:
    """End the transaction (what was not committed is rolled back) and the connection."""
    try:
        db.connection.rollback()
    finally:
        db.connection.close()


def configure_sqlite(conn: sqlite3.Connection, *, write: bool) -> None:
    """tracker's settings of a SQLite connection: the page cache, and for a writer the
    foreign keys enforced and WAL's usual durability (every connection of SQLAlchemy's engine
    has them too)."""
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    if write:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")


#: What a writer runs first on PostgreSQL: the writers' lock, held to the transaction's end.
TAKE_WRITER_LOCK = f"SELECT pg_advisory_xact_lock({WRITER_LOCK})"


def read_only_file_system(path: Path) -> bool:
    """Whether ``path`` lies on a file system mounted read-only (a CD, a read-only mount)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # not there (yet); no statvfs (Windows)
        return False


def sqlite_uri(path: Path, *, write: bool) -> str:
    """The URI tracker opens a SQLite file by: read-write, never creating it; on a read-only
    file system, where SQLite cannot make the shared-memory file a WAL reader needs, a read
    opens it immutable (nobody can change it there), unless its write-ahead log holds
    changes the file itself has not (an immutable reader would not see them): refused."""
    if read_only_file_system(path):
        if write:
            raise DatabaseError(f"cannot write the database {path}: its file system is read-only")
        wal = Path(f"{path}-wal")
        if wal.is_file() and wal.stat().st_size:
            raise DatabaseError(
                f"cannot read the database {path}: its file system is read-only and {wal} "
                "holds changes not yet in it; copy both files to a writable folder"
            )
        return f"file:{quote(str(path))}?immutable=1"
    return f"file:{quote(str(path))}?mode=rw"


def _connect(url: str, *, write: bool) -> Db | None:
    path = sqlite_path(url)
    if path is not None:
        uri = sqlite_uri(path, write=write)
        try:
            conn = sqlite3.connect(
                uri,  # never creates a file
                uri=True,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # BEGIN, COMMIT and ROLLBACK are ours
                check_same_thread=False,
            )
        except sqlite3.Error:
            return None
        try:
            configure_sqlite(conn, write=write)
        except sqlite3.Error:
            conn.close()  # closed now, not whenever the collector gets to it
            return None
        return Db(conn, "sqlite")
    conninfo = postgresql_conninfo(url)
    if conninfo is None or "options=" in conninfo:
        return None  # options of the URL's own: SQLAlchemy's path adds the lock timeout
    try:
        import psycopg
        from psycopg.conninfo import make_conninfo

        # Any lock (a writer's, the writers' lock) is waited for as long as SQLite's busy
        # timeout, as on SQLAlchemy's path.
        conninfo = make_conninfo(conninfo, options=f"-c lock_timeout={BUSY_TIMEOUT_MS}")
        return Db(psycopg.connect(conninfo), "postgresql")
    except Exception:  # no driver, no server, refused: SQLAlchemy's path says which
        return None


def holds_no_data(path: Path) -> bool:
    """Whether the SQLite file at ``path`` holds no row of data: no table, or tables that are
    empty but for the schema's version. Such is a database a command created and then wrote
    nothing to (it failed, was a dry run, or had nothing to do). False when it cannot tell."""
    try:
        # read-write: the last connection to close removes the WAL files, as a command does
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=rw", uri=True)
    except sqlite3.Error:
        return False
    try:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        return not any(
            conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone()
            for name in tables
            if name != "alembic_version"
        )
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def sqlite_path(url: str) -> Path | None:
    """The file of a plain ``sqlite:///PATH`` URL (None for any other form)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix) :]
            if not rest or "?" in rest or rest == ":memory:":
                return None
            return Path(unquote(rest))  # as SQLAlchemy reads it: %20 is a space
    return None


def shown_url(url: str) -> str:
    """A database URL as a message shows it: every password as ``***``, the user's
    (``user:pw@host``, as SQLAlchemy renders a URL) and any in the query (``?password=pw``,
    ``sslpassword=``), which SQLAlchemy shows. Works on a URL that does not parse (a port
    that is no number, a password with an unencoded ``@``) and without loading SQLAlchemy
    (``tracker status`` on a server)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    user, at, host = rest.rpartition("@")  # the last @: a password may hold one unencoded
    if at and ":" in user:
        rest = f"{user.split(':', 1)[0]}:***@{host}"
    rest, mark, query = rest.partition("?")
    if mark:
        query = "&".join(_masked(item) for item in query.split("&"))
    return f"{scheme}://{rest}{mark}{query}"


def _masked(item: str) -> str:
    """A URL's query item ``key=value``, the value hidden if the key names a password."""
    key, eq, _ = item.partition("=")
    return f"{key}=***" if eq and "password" in unquote(key).casefold() else item


def postgresql_conninfo(url: str) -> str | None:
    """libpq's URI for a ``postgresql+psycopg://`` URL (None for any other form)."""
    prefix = "postgresql+psycopg://"
    if not url.startswith(prefix):
        return None
    return "postgresql://" + url[len(prefix) :]
