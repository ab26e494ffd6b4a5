"""The root command: global options, error handling, and the command groups."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from tracker import __version__
from tracker.cli import calc as calc_cli
from tracker.cli import db as db_cli
from tracker.cli import demo as demo_cli
from tracker.cli import exporting as exporting_cli
from tracker.cli import game as game_cli
from tracker.cli import history as history_cli
from tracker.cli import importing as importing_cli
from tracker.cli import period as period_cli
from tracker.cli import player as player_cli
from tracker.cli import shadow as shadow_cli
from tracker.cli.context import AppState, close_all
from tracker.errors import InvalidInputError, TrackerError


class TrackerGroup(TyperGroup):
    """Maps every error a user can cause to one line on stderr and an exit code.

    1 is a user error (``TrackerError``), 2 a usage error (bad options or arguments),
    130 an interrupt. Anything else escaping is a bug and keeps its traceback.
    """

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if args is None:
            args = sys.argv[1:]
        try:
            _check_text(args)
            code = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except TrackerError as exc:
            code = _fail(str(exc), exc.exit_code)
        except typer.TyperException as exc:
            text = exc.format_message()
            # A bare group name prints its help and exits 2 with no message of its own.
            code = _fail(text, exc.exit_code) if text.strip() else exc.exit_code
        except typer.Abort:
            code = _fail("aborted", 1)
        except BrokenPipeError:
            code = 1
        finally:
            close_all()
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _check_text(args: Sequence[str]) -> None:
    """Refuse an argument with bytes that are not UTF-8 (Python hands them over as lone
    surrogates): it could be neither stored, nor looked up, nor printed."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInputError(
                f"argument {arg!r} is not valid UTF-8 text (check the terminal's encoding)"
            ) from None


def _fail(text: str, code: int) -> int:
    line = " ".join(text.split())
    typer.echo(f"error: {line}", err=True)
    return code


app = typer.Typer(
    cls=TrackerGroup,
    name="tracker",
    help="Chess rating history: FIDE Elo month by month, with a Glicko-2 shadow rating.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tracker {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database: a SQLite file path or a URL such as "
            "postgresql+psycopg://user@host/name. Default: $TRACKER_DB, else tracker.db "
            "in your user data folder.",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Chess rating history: FIDE Elo month by month, with a Glicko-2 shadow rating."""
    ctx.obj = AppState(db_option=db)


app.add_typer(player_cli.app, name="player")
app.add_typer(game_cli.app, name="game")
app.add_typer(period_cli.app, name="period")
app.command("rerate")(period_cli.rerate)
app.command("history")(history_cli.history)
app.command("list")(history_cli.rating_list)
app.add_typer(importing_cli.app, name="import")
app.command("export")(exporting_cli.export)
app.command("compare")(shadow_cli.compare)
app.command("evaluate")(shadow_cli.evaluate)
app.add_typer(shadow_cli.app, name="shadow")
app.add_typer(db_cli.app, name="db")
app.add_typer(calc_cli.app, name="calc")
app.command("demo")(demo_cli.demo)
