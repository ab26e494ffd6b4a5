"""The help every command prints: order, metavars, one-liners and a working example each."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tracker.cli.app import make_app

runner = CliRunner()

#: The root help's commands, in the order a user thinks of them.
ROOT_ORDER = [
    "player",
    "game",
    "event",
    "import",
    "export",
    "site",
    "period",
    "rerate",
    "history",
    "list",
    "status",
    "forecast",
    "log",
    "compare",
    "evaluate",
    "h2h",
    "shadow",
    "online",
    "calc",
    "db",
    "demo",
]


def walk(command: typer.core.TyperGroup, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command path under ``command``: (), ("player",), ("player", "add"), ..."""
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from walk(sub, (*path, name))


def tree() -> typer.core.TyperGroup:
    return typer.main.get_command(make_app())  # type: ignore[return-value]


PATHS = list(walk(tree()))


def lookup(path: tuple[str, ...]) -> typer.core.TyperCommand:
    command = tree()
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return command  # type: ignore[return-value]


def help_text(*path: str) -> str:
    r = runner.invoke(make_app(), [*path, "--help"])
    assert r.exit_code == 0, r.stderr
    return r.stdout


def commands_section(text: str) -> list[str]:
    """The lines of a group's "Commands:" list."""
    return text.split("\nCommands:\n", 1)[1].splitlines()


def examples(text: str) -> list[str]:
    """The command lines of a help's "Example: ..." line or "Examples:" paragraph."""
    found = []
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        if line.startswith("Example: "):
            found.append(line.removeprefix("Example: "))
        elif line == "Examples:":
            for more in lines[i + 1 :]:
                if not more:
                    break
                found.append(more)
    return found


def test_the_tree_is_walked() -> None:
    assert ("player", "add") in PATHS and ("period", "rerate") in PATHS and () in PATHS
    assert len(PATHS) > 30


def test_root_help_lists_commands_in_a_users_order() -> None:
    names = [line.split()[0] for line in commands_section(help_text()) if line.strip()]
    assert names == ROOT_ORDER


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "tracker")
def test_help_has_an_example_uppercase_metavars_and_fits_80_columns(path: tuple[str, ...]) -> None:
    text = help_text(*path)
    assert examples(text), text
    assert not re.search(r"<[a-z_]+>", text), text
    for param in lookup(path).params:
        if getattr(param, "is_flag", False) or param.name == "help":
            continue
        assert param.metavar, (path, param.name)
        assert param.metavar == param.metavar.upper(), (path, param.name, param.metavar)
    assert max(len(line) for line in text.splitlines()) <= 80, text


@pytest.mark.parametrize(
    "path",
    # (`tracker import --help` is the help of its default command, files)
    [p for p in PATHS if hasattr(lookup(p), "commands") and p != ("import",)],
    ids=lambda p: " ".join(p),
)
def test_command_lists_are_not_cut_short(path: tuple[str, ...]) -> None:
    lines = commands_section(help_text(*path))
    assert lines and not any("..." in line for line in lines), lines


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "tracker")
def test_examples_are_command_lines_that_parse(
    path: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each example names a real command, with options and arguments it accepts (values
    such as months parsed too). Running them all would need their data: the tours of
    README.md and docs/*.md (tests/test_readme.py) show the commands at work."""
    monkeypatch.chdir(tmp_path)
    found = examples(help_text(*path))
    assert found, path
    for example in found:
        argv = shlex.split(example)
        assert argv[0] == "tracker", example
        for word in argv:  # the files an import example reads
            if re.fullmatch(r"[\w-]+\.(pgn|csv|trf|txt|xml)", word):
                (tmp_path / word).touch()
        command: typer.core.TyperCommand | typer.core.TyperGroup = tree()
        name, args, ctx = "tracker", argv[1:], None
        while isinstance(command, typer.core.TyperGroup):
            ctx = command.make_context(name, args, parent=ctx)
            # What the group left for its subcommand (click keeps the command word apart).
            rest = [*ctx._protected_args, *ctx.args]
            assert rest, f"{example}: names a group, not a command"
            name, sub, args = command.resolve_command(ctx, rest)
            assert sub is not None, example
            command = sub  # type: ignore[assignment]
        ctx = command.make_context(name, args, parent=ctx)
        assert not ctx.args, (example, ctx.args)


def test_import_help_shows_the_options_of_import_files() -> None:
    text = help_text("import")
    assert text.startswith("Usage: tracker import files [OPTIONS]")
    for option in ("--tc", "--create-players", "--skip-invalid", "--dry-run", "--yes"):
        assert option in text
    assert "`tracker import list` lists past imports." in text


def test_the_preset_words_name_the_registrys_presets() -> None:
    """The help's preset names are written out (the registry, tracker.ratings.glicko, is not
    loaded at a command's start): they are the registry's, in its order."""
    from tracker.cli.options import PRESET_WORDS
    from tracker.ratings.glicko.presets import PRESETS
    from tracker.vocabulary import DEFAULT_PRESET

    *first, last = PRESETS
    assert f"{', '.join(first)} or {last}" == PRESET_WORDS
    shadow_help = runner.invoke(make_app(), ["shadow", "set", "--help"]).output
    marked = PRESET_WORDS.replace(DEFAULT_PRESET, f"{DEFAULT_PRESET} (default)", 1)
    assert marked in " ".join(shadow_help.split())
