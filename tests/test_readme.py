"""The README's tour is replayed command by command and must print what it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.app import app

README = Path(__file__).resolve().parents[1] / "README.md"
# Import times are the moment the test runs: compare them as a placeholder.
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}(?::\d{2})?")


def normalise(text: str) -> str:
    return TIMESTAMP.sub("<time>", text)


HEREDOC = " <<'END'"


def console_blocks(text: str) -> list[list[tuple[str, str | None, str]]]:
    """Each ```console block as (command, its stdin, expected output) steps. A command ending
    in ``<<'END'`` reads the lines up to ``END`` (a shell here-document)."""
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        steps: list[tuple[str, list[str] | None, list[str]]] = []
        reading = False
        for line in body.splitlines():
            if reading:
                if line == "END":
                    reading = False
                else:
                    stdin = steps[-1][1]
                    assert stdin is not None
                    stdin.append(line)
            elif line.startswith("$ "):
                command = line[2:]
                reading = command.endswith(HEREDOC)
                if reading:
                    command = command.removesuffix(HEREDOC)
                steps.append((command, [] if reading else None, []))
            else:
                steps[-1][2].append(line.rstrip())
        blocks.append(
            [
                (
                    cmd,
                    None if stdin is None else "".join(f"{s}\n" for s in stdin),
                    "\n".join(out).strip("\n"),
                )
                for cmd, stdin, out in steps
            ]
        )
    return blocks


def test_readme_tour_prints_what_it_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TRACKER_DB", "club.db")
    monkeypatch.setenv("COLUMNS", "80")  # the README shows what an 80-column terminal prints
    runner = CliRunner()
    blocks = console_blocks(README.read_text("utf-8"))
    assert len(blocks) >= 4
    for block in blocks:
        for command, stdin, expected in block:
            argv = shlex.split(command)
            assert argv[0] == "tracker", command
            result = runner.invoke(app, argv[1:], input=stdin)
            raw = result.stdout + result.stderr
            printed = raw.replace(str(folder), "~/club")
            printed = "\n".join(line.rstrip() for line in printed.splitlines()).strip("\n")
            if str(folder) in raw:  # a message wraps where this machine's path makes it
                printed, expected = (" ".join(t.split()) for t in (printed, expected))
            assert normalise(printed) == normalise(expected), f"README command: {command}"
            failed = expected.startswith("error:") or "\nerror:" in expected
            assert (result.exit_code != 0) == failed, command
