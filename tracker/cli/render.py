"""Turning service results into tables, JSON and messages. Data to stdout, messages to stderr."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import typer


def message(text: str) -> None:
    """A message for the user (stderr), never data."""
    typer.echo(text, err=True)


def _default(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"cannot render {type(value).__name__} as JSON")


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, default=_default, ensure_ascii=False, indent=2) + "\n")


def print_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str | None = None,
    right: Iterable[str] = (),
    empty: str = "nothing to show",
) -> None:
    """A rich table on stdout; an empty result says so on stderr instead."""
    from rich.console import Console
    from rich.table import Table

    materialised = [["" if cell is None else str(cell) for cell in row] for row in rows]
    if not materialised:
        message(empty)
        return
    right_set = set(right)
    table = Table(title=title, title_justify="left", header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column, justify="right" if column in right_set else "left", no_wrap=True)
    for row in materialised:
        table.add_row(*row)
    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 200, soft_wrap=True)
    console.print(table)


def yes_no(value: bool) -> str:
    return "yes" if value else "no"
