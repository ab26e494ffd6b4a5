"""Every floor runs as a typer command, as every tracker command does (issue 26): typer's
start-up and the parsing of the command's arguments are part of any typer CLI, so they are
part of the floor: measured, not dodged."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import typer


def run(name: str, command: Callable[..., Any], args: Sequence[str]) -> int:
    """A typer app holding the one ``command``, run on ``args`` (a whole process's)."""
    app = typer.Typer(add_completion=False)
    app.command(name)(command)
    app(args=list(args), prog_name="floor", standalone_mode=False)
    return 0
