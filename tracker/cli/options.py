"""Options shared by several commands."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def command_group(help: str, **settings: Any) -> typer.Typer:
    """A group of commands. Help is click's plain text, not rich's boxes: rendering it with
    rich costs more start-up time than the rest of `tracker --help` put together."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None, **settings)


Json = Annotated[bool, typer.Option("--json", help="Print JSON (stable keys) instead of a table.")]
Tc = Annotated[
    str,
    typer.Option(
        "--tc", help="Time control: standard, rapid or blitz.", metavar="standard|rapid|blitz"
    ),
]
