"""``tracker db ...``: schema upgrades, checks and backups."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.context import state
from tracker.cli.options import Json, command_group
from tracker.cli.render import message, pick, print_json, print_table
from tracker.errors import DatabaseError
from tracker.user_input import exists

if TYPE_CHECKING:
    from tracker.db.connect import Engine

app = command_group(
    """Upgrade, check and back up the database.

    \b
    Example: tracker --db club.db db check
    """
)


def _existing_engine(ctx: typer.Context) -> Engine:
    from tracker.db.connect import file_of

    app_state = state(ctx)
    path = file_of(app_state.url)
    if path is not None and not exists(path):
        raise DatabaseError(
            f"no database at {path} (one is created by the first command that uses it, "
            "or by `tracker db upgrade`)"
        )
    return app_state.engine(check_schema=False)


@app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Upgrade the database schema to this tracker's version.

    A database that does not exist yet is created. Take a backup first.

    \b
    Example: tracker --db club.db db upgrade
    """
    from tracker.db.connect import opening
    from tracker.db.housekeeping import upgrade as do_upgrade

    app_state = state(ctx)
    app_state.keep_new = True  # a new database, created empty at head, is what was asked
    with opening():
        before, after = do_upgrade(app_state.engine(check_schema=False))
    if before == after:
        message(f"the database is already at revision {after}")
    else:
        message(f"upgraded the database from revision {before or 'empty'} to {after}")


@app.command("current")
def current(ctx: typer.Context, json: Json = False) -> None:
    """Show the database's schema revision and this tracker's.

    \b
    Example: tracker db current --json
    """
    from tracker.db.connect import opening
    from tracker.db.housekeeping import status

    with opening():
        st = status(_existing_engine(ctx))
    if json:
        print_json(pick(st, "url backend revision head up_to_date"))
        return
    print_table(
        ["field", "value"],
        [
            ("database", st.url),
            ("backend", st.backend),
            ("revision", st.revision or "empty"),
            ("head", st.head),
            ("up to date", "yes" if st.up_to_date else "no"),
        ],
        wrap=("value",),
    )


@app.command("check")
def check(ctx: typer.Context, json: Json = False) -> None:
    """Check the database's revision, schema and integrity.

    The revision must be this tracker's and the schema must match its models; a SQLite
    file also gets SQLite's integrity check.

    \b
    Example: tracker db check --json
    """
    from tracker.db.connect import opening
    from tracker.db.housekeeping import check as do_check

    with opening():
        result = do_check(_existing_engine(ctx))
    if json:
        print_json(
            pick(
                result, "ok revision=status.revision head=status.head schema_differences integrity"
            )
        )
    else:
        message(f"revision {result.status.revision or 'empty'} (head {result.status.head})")
        for diff in result.schema_differences:
            message(f"schema differs from the models: {diff}")
        if result.integrity is not None:
            message(f"integrity check: {result.integrity}")
    if not result.ok:
        if not result.status.known:
            raise DatabaseError(
                "the database is at a revision a newer tracker wrote: upgrade tracker"
            )
        if not result.status.up_to_date:
            raise DatabaseError(
                "the database is not at this tracker's revision: run `tracker db upgrade`"
            )
        raise DatabaseError("the database failed its check (see above)")
    if not json:
        message("database ok")


@app.command("backup")
def backup(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Where to write the copy.")],
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
    json: Json = False,
) -> None:
    """Copy a SQLite database safely, even while in use.

    The copy is consistent even while another process writes to the database (SQLite's
    online backup). For PostgreSQL use pg_dump.

    \b
    Example: tracker db backup club-backup.db
    """
    from tracker.db.housekeeping import backup as do_backup

    result = do_backup(_existing_engine(ctx), file, overwrite=force)
    if json:
        print_json(pick(result, "source backup bytes=size integrity", backup=str(result.target)))
    message(f"backed up {result.source} to {result.target} (integrity check: {result.integrity})")
