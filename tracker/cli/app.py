"""The root command: global options, error handling, and the command groups."""

from __future__ import annotations

import copy
import importlib
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from tracker import __version__
from tracker.cli.context import AppState, close_all
from tracker.errors import InvalidInputError, TrackerError, UsageError
from tracker.vocabulary import RESULT_ALIASES

if TYPE_CHECKING:
    from typer._click import Command as ClickCommand
    from typer._click import Context as ClickContext


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
        args = _results_as_arguments(args)
        succeeded = False  # a new database is kept only if its command succeeded
        try:
            _check_text(args)
            code = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            succeeded = code in (None, 0)
        except TrackerError as exc:
            for problem in exc.problems:
                typer.echo(problem, err=True)
            code = _fail(str(exc), exc.exit_code)
        except typer.TyperException as exc:
            text = exc.format_message()
            if type(exc).__name__ == "NoArgsIsHelpError":
                # A bare group name (or `tracker` alone): its help on stdout, exit 2. Matched by
                # name as typer itself does: the class lives in typer's private click copy.
                code = _show_help(text, exc.exit_code)
            else:
                text = _did_you_mean(exc, text)
                code = _fail(text, exc.exit_code) if text.strip() else exc.exit_code
        except typer.Abort:
            code = _fail("aborted", 1)
        except BrokenPipeError:
            code = 1
        finally:
            failure = close_all(succeeded=succeeded)
        code = code if isinstance(code, int) else 0
        if failure is not None:
            code = _fail(failure, 1)
        if standalone_mode:
            sys.exit(code)
        return code

    def list_commands(self, ctx: ClickContext) -> list[str]:
        """The commands in the order of :data:`COMMANDS`, not typer's (commands before groups);
        every command's name when none is loaded (the root's help, see :func:`make_app`)."""
        order = {name: i for i, (name, *_) in enumerate(COMMANDS)}
        if not self.commands:
            return list(order)
        return sorted(super().list_commands(ctx), key=lambda name: order.get(name, len(order)))

    def get_command(self, ctx: ClickContext, cmd_name: str) -> ClickCommand | None:
        """A loaded command; with none loaded, a stand-in that only has the command's help
        (the root's help lists them), typer's analysis of every signature left undone."""
        if self.commands:
            return super().get_command(ctx, cmd_name)
        return _stand_in(cmd_name)


def _stand_in(name: str) -> ClickCommand | None:
    """The command ``name`` as the root's help lists it: its name and its help, which typer
    takes from the group's ``help`` or the function's docstring."""
    import inspect

    from typer.core import TyperCommand

    for command, module_name, attribute, is_group in COMMANDS:
        if command == name:
            target = getattr(importlib.import_module(f"tracker.cli.{module_name}"), attribute)
            text = target.info.help if is_group else inspect.getdoc(target)
            return TyperCommand(name, help=text, rich_markup_mode=None)
    return None


#: Results that look like options to click (``-+``, black wins by forfeit).
DASHED_RESULTS = frozenset(word for word in RESULT_ALIASES if word.startswith("-"))


def _results_as_arguments(args: Sequence[str]) -> list[str]:
    """``-+`` typed as a result would be taken for an unknown option: hand it over with a
    leading space, which no option has and the result parser strips. No tracker option or
    other value is spelled ``-+``."""
    return [f" {arg}" if arg in DASHED_RESULTS else arg for arg in args]


def _check_text(args: Sequence[str]) -> None:
    """Refuse an argument with bytes that are not UTF-8 (Python hands them over as lone
    surrogates): it could be neither stored, nor looked up, nor printed."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            from tracker.db.driver import shown_url  # the argument may be --db's URL

            raise InvalidInputError(
                f"argument {shown_url(arg)!r} is not valid UTF-8 text (check the terminal's "
                "encoding)"
            ) from None


def _show_help(text: str, code: int) -> int:
    try:
        typer.echo(text)
    except BrokenPipeError:  # `tracker player | head -1`
        return 1
    return code


def _did_you_mean(exc: Exception, text: str) -> str:
    """An unknown command's message with the commands it may have meant (``tracker hist``:
    history)."""
    found = re.match(r"No such command '(.+?)'\.", text.strip())  # click's own guess or none
    ctx = getattr(exc, "ctx", None)
    if found is None or ctx is None:
        return text
    import difflib  # only for a mistyped command

    typed, names = found[1], ctx.command.list_commands(ctx)
    close = [n for n in names if n.startswith(typed)] or difflib.get_close_matches(
        typed, names, n=3, cutoff=0.6
    )
    if not close:
        return text
    return f"No such command '{typed}'. Did you mean {' or '.join(map(repr, close[:3]))}?"


def _fail(text: str, code: int) -> int:
    line = " ".join(text.split())
    typer.echo(f"error: {line}", err=True)
    return code


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tracker {__version__}")
        raise typer.Exit()


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
            metavar="FILE|URL",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Chess rating history: FIDE Elo month by month, with a Glicko-2 shadow rating."""
    if db is not None and not db.strip():
        raise UsageError("--db needs a database: a SQLite file path or a URL")
    ctx.obj = AppState(db_option=db)


ROOT_HELP = """Chess rating history: FIDE Elo month by month, with a Glicko-2 shadow rating.

Every command has --help with an example; data goes to stdout, messages to stderr.

\b
Example: tracker --db club.db history "Hart, Daniel"
"""

# Every command: (name, module under tracker.cli, attribute, is a group of commands), in the
# order `tracker --help` lists them: the data in and out, the periods, the ratings, then
# the tools. A command's module is imported only when it is run, so `tracker calc ...` does not
# pay for the database commands' imports and typer's analysis of their signatures.
HELP_OPTIONS = ("-h", "--help")
COMMANDS: tuple[tuple[str, str, str, bool], ...] = (
    ("player", "player", "app", True),
    ("game", "game", "app", True),
    ("event", "event", "app", True),
    ("import", "importing", "app", True),
    ("export", "exporting", "export", False),
    ("site", "site", "app", True),
    ("period", "period", "app", True),
    ("rerate", "period", "rerate", False),  # = `period rerate`; stale warnings name this
    ("history", "history", "history", False),
    ("list", "history", "rating_list", False),
    ("status", "status", "status", False),
    ("forecast", "forecast", "forecast", False),
    ("log", "log", "log", False),
    ("compare", "compare", "compare", False),
    ("evaluate", "compare", "evaluate", False),
    ("h2h", "h2h", "h2h", False),
    ("shadow", "shadow", "app", True),
    ("online", "online", "app", True),
    ("calc", "calc", "app", True),
    ("db", "db", "app", True),
    ("demo", "demo", "demo", False),
)


def make_app(only: str | None = None, sub: str | None = None) -> typer.Typer:
    """The ``tracker`` command with every subcommand, or with just ``only`` (the one a
    command line runs; see :func:`command_words`), or with none (``only=""``: the root's help
    and errors, which list each command by its help alone, see :class:`TrackerGroup`). ``sub``:
    of the group ``only``, the one command the line runs (see :func:`_with_only`)."""
    app = typer.Typer(
        cls=TrackerGroup,
        name="tracker",
        help=ROOT_HELP,
        no_args_is_help=True,
        rich_markup_mode=None,  # plain help text: see tracker.cli.options.command_group
        add_completion=True,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": list(HELP_OPTIONS)},
    )
    app.callback()(root)
    for name, module_name, attribute, is_group in COMMANDS:
        if only is not None and name != only:
            continue
        module = importlib.import_module(f"tracker.cli.{module_name}")
        target = getattr(module, attribute)
        if is_group:
            app.add_typer(_with_only(target, sub), name=name)
        else:
            app.command(name)(target)
    return app


def _with_only(group: typer.Typer, sub: str | None) -> typer.Typer:
    """``group`` with its command ``sub`` alone, when it has one of that name: typer reads the
    signature of every command of a group to build it, so ``player show`` would pay for the
    seven other ``player`` commands. Otherwise (no ``sub``, or one it does not know: a typo,
    to be told the group's commands) the whole group."""
    from typer.main import get_command_name

    chosen = [
        c
        for c in group.registered_commands
        if c.callback is not None and (c.name or get_command_name(c.callback.__name__)) == sub
    ]
    if not chosen:
        return group
    lean = copy.copy(group)
    lean.registered_commands = chosen
    return lean


def command_words(args: Sequence[str]) -> tuple[str | None, str | None]:
    """The subcommand an argument list runs, if it names one, and the word after it (of a
    group: its command); None otherwise (no command, an unknown one, or only root options
    such as --help), which needs every command."""
    names = {name for name, *_ in COMMANDS}
    words: list[str] = []
    skip_value = False
    for arg in args:
        if skip_value:
            skip_value = False
        elif arg == "--db" and not words:
            skip_value = True
        elif arg in HELP_OPTIONS and not words:
            return None, None  # `tracker -h calc` is the root's help, which lists every command
        elif not arg.startswith("-"):
            if not words and arg not in names:
                return None, None
            words.append(arg)
            if len(words) == 2:
                break
    return (words[0], words[1]) if len(words) == 2 else (words[0] if words else None, None)


def __getattr__(name: str) -> Any:
    # `from tracker.cli.app import app` gives the whole command (tests, embedding).
    if name == "app":
        return make_app()
    raise AttributeError(name)
