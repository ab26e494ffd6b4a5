"""Options shared by several commands."""

from __future__ import annotations

from typing import Annotated

import typer

Json = Annotated[bool, typer.Option("--json", help="Print JSON (stable keys) instead of a table.")]
Tc = Annotated[
    str,
    typer.Option(
        "--tc", help="Time control: standard, rapid or blitz.", metavar="standard|rapid|blitz"
    ),
]
