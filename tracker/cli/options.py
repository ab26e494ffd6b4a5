"""Options and arguments shared by several commands: one name, one help text, one metavar.

Metavars are UPPERCASE words (PLAYER, MONTH, TC, FILE, N...); the help text says what the
word stands for. A month is always written YYYY-MM and parsed here, before any work starts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer

from tracker.user_input import check_tc, parse_date, parse_month
from tracker.vocabulary import TC_WORDS, TimeControl


def command_group(help: str, **settings: Any) -> typer.Typer:
    """A group of commands. Help is click's plain text, not rich's boxes: rendering it with
    rich costs more start-up time than the rest of `tracker --help` put together."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None, **settings)


def whole(text: str) -> int:
    """A whole number as every option and argument takes it: digits 0-9 (and a sign), as a
    file's cells are read; not fullwidth digits (U+FF10..U+FF19) nor Python's grouping
    (2_400), which int() would take."""
    value = text.strip()
    if not _WHOLE.fullmatch(value):
        raise typer.BadParameter(f"{text!r} is not a whole number (digits 0-9)")
    return int(value)


_WHOLE = re.compile(r"[+-]?[0-9]+")


def option(name: str, metavar: str, help: str) -> Any:
    """``name METAVAR``: an option that takes a value, its help saying what the METAVAR word
    stands for."""
    return typer.Option(name, metavar=metavar, help=help)


def whole_option(name: str, metavar: str, help: str) -> Any:
    """``name N``: a whole number, read as :func:`whole` reads it."""
    return typer.Option(name, metavar=metavar, help=help, parser=whole)


Json = Annotated[bool, typer.Option("--json", help="Print JSON (stable keys) instead of a table.")]

PLAYER_WORDS = (
    "name (a surname or the start of a name does if only one player has it), FIDE id, or "
    "id:ID (also '#ID', quoted: a shell drops an unquoted #)"
)
"""The ways to name a player (help texts)."""
Player = Annotated[str, typer.Argument(metavar="PLAYER", help=f"The player: {PLAYER_WORDS}.")]


def player_option(what: str) -> Any:
    """``--player PLAYER``; ``what`` says what the player is for."""
    return option("--player", "PLAYER", f"{what} ({PLAYER_WORDS}).")


def tc_option(default: str = "standard") -> Any:
    """``--tc TC``; ``default`` says what leaving it out means."""
    return typer.Option(
        "--tc",
        metavar="TC",
        help=f"Time control: {TC_WORDS}. Default: {default}.",
        parser=check_tc,
        show_default=False,
    )


Tc = Annotated[TimeControl, tc_option()]
"""``--tc``, standard unless given."""
AnyTc = Annotated[TimeControl | None, tc_option("all")]
"""``--tc`` as a filter: every time control unless given."""
GameTc = Annotated[TimeControl | None, tc_option("the event's (as declared), else standard")]
"""``--tc`` of a new game: its event's time control unless given."""


def date_option(name: str, help: str) -> Any:
    """A ``name DATE`` option, YYYY-MM-DD, parsed to a date (a bad one is said by its
    option's name)."""
    return typer.Option(name, metavar="DATE", parser=lambda text: parse_date(text, name), help=help)


def _month_help(what: str, default: str) -> str:
    return f"{what}, YYYY-MM. Default: {default}."


def month_argument(what: str, default: str) -> Any:
    """An optional MONTH argument, parsed to the first day of the month."""
    return typer.Argument(metavar="MONTH", help=_month_help(what, default), parser=parse_month)


def month_option(name: str, what: str, default: str) -> Any:
    """A ``name MONTH`` option, parsed to the first day of the month."""
    return typer.Option(name, metavar="MONTH", help=_month_help(what, default), parser=parse_month)


Plot = Annotated[
    Path | None,
    option(
        "--plot", "FILE", "Also draw the ratings to this file: PNG, SVG or PDF by its extension."
    ),
]

PRESET_WORDS = "lichess, glickman or chesscom"
"""The shadow presets as a sentence says them (tracker.ratings.glicko.presets.PRESETS)."""


Yes = Annotated[
    bool,
    typer.Option(
        "--yes",
        help="Accept dates more than a year before the month this database's records start "
        "(refused otherwise: most often a mistyped year).",
    ),
]


Again = Annotated[
    bool,
    typer.Option(
        "--again",
        help="It is another game of the same two players that day, not the stored one again "
        "(refused otherwise: the same players on the same day in one time control are most "
        "often one game entered twice, under another event name or round).",
    ),
]
