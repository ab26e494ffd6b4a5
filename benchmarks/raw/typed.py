"""The floors of tracker's everyday commands as typer commands: ``typed.py COMMAND ARGS``
defines a typer app holding that one command (its arguments and ``--db`` declared as
tracker's are), and runs it: typer's start-up and parsing are part of the floor, as of any
typer CLI (issue 26); the command runs the query work of :mod:`reads` through the bare
driver and prints its text.

    python run.py typed history NAME --db TARGET
    python run.py typed status --db TARGET --today YYYY-MM-DD
    python run.py typed list --live --db TARGET --today YYYY-MM-DD
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Annotated, Any

import reads
import typer
from command import run

Db = Annotated[str, typer.Option("--db", help="the database (sqlite:PATH or a libpq URL)")]
Today = Annotated[str, typer.Option("--today", help="today, YYYY-MM-DD")]


def _on(target: str, work: Callable[[Any], None]) -> None:
    db = reads.connect(target)
    work(db)
    db.close()


def history(name: str, db: Db) -> None:
    _on(db, lambda d: reads.history(d, name))


def player_show(name: str, db: Db) -> None:
    _on(db, lambda d: reads.show(d, name))


def compare(name: str, db: Db) -> None:
    _on(db, lambda d: reads.compare(d, name))


def game_add(
    white: str, black: str, result: str, db: Db, date: Annotated[str, typer.Option("--date")]
) -> None:
    _on(db, lambda d: reads.add(d, white, black, result, date))


def rating_list(
    db: Db,
    live: Annotated[bool, typer.Option("--live")] = False,
    sparse: Annotated[bool, typer.Option("--sparse")] = False,
    today: Today = "",
) -> None:
    if live:
        _on(db, lambda d: reads.live_list(d, dt.date.fromisoformat(today)))
    else:
        _on(db, lambda d: reads.rating_list(d, sparse))


def status(db: Db, today: Today) -> None:
    _on(db, lambda d: reads.status(d, dt.date.fromisoformat(today)))


def event_show(name: str, db: Db) -> None:
    _on(db, lambda d: reads.event_show(d, name))


def log(db: Db) -> None:
    _on(db, reads.log)


COMMANDS: dict[str, Callable[..., None]] = {
    "history": history,
    "player_show": player_show,
    "compare": compare,
    "game_add": game_add,
    "list": rating_list,
    "status": status,
    "event_show": event_show,
    "log": log,
}


def main(command: str, *args: str) -> int:
    return run(command, COMMANDS[command], args)
