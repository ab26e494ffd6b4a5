"""The README's tour and every page of docs/ are replayed command by command and must print
what they show; their relative links must lead somewhere."""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tracker.cli.app import app, make_app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
# Import times are the moment the test runs: compare them as a placeholder.
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}(?::\d{2})?")
# A page whose examples go on where another page's left the folder says so in a comment,
# `<!-- continues: commands.md -->` (a path from the page's own folder); the others start in
# an empty folder.
CONTINUES = re.compile(r"<!-- continues: (\S+) -->")


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


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def continues(page: Path) -> Path | None:
    found = CONTINUES.findall(page.read_text("utf-8"))
    assert len(found) <= 1, f"{name(page)}: continues more than one page"
    return (page.parent / found[0]).resolve() if found else None


def replay(page: Path, folder: Path) -> None:
    """Run the page's console blocks in ``folder`` (its database ``club.db``), in order."""
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.setenv("TRACKER_DB", "club.db")
        patch.setenv("COLUMNS", "80")  # the pages show what an 80-column terminal prints
        for block in console_blocks(page.read_text("utf-8")):
            for command, stdin, expected in block:
                where = f"{name(page)}: {command}"
                argv = shlex.split(command)
                assert argv[0] == "tracker", where
                result = runner.invoke(app, argv[1:], input=stdin)
                raw = result.stdout + result.stderr
                printed = raw.replace(str(folder), "~/club")
                printed = "\n".join(line.rstrip() for line in printed.splitlines()).strip("\n")
                if str(folder) in raw:  # a message wraps where this machine's path makes it
                    printed, expected = (" ".join(t.split()) for t in (printed, expected))
                assert normalise(printed) == normalise(expected), where
                failed = expected.startswith("error:") or "\nerror:" in expected
                assert (result.exit_code != 0) == failed, where


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """The folder a page's examples leave behind, replayed once per test module: a page that
    continues another starts from a copy of that page's folder."""
    done: dict[Path, Path] = {}

    def folder_after(page: Path, chain: tuple[Path, ...] = ()) -> Path:
        assert page not in chain, f"pages continue each other in a circle: {chain}"
        if page not in done:
            folder = tmp_path_factory.mktemp(page.stem) / "club"
            before = continues(page)
            if before is None:
                folder.mkdir()
            else:
                assert before.is_file(), f"{name(page)} continues a missing page {before}"
                shutil.copytree(folder_after(before, (*chain, page)), folder)
            replay(page, folder)
            done[page] = folder
        return done[page]

    return folder_after


def test_the_readme_has_its_tour() -> None:
    assert len(console_blocks(README.read_text("utf-8"))) >= 4
    assert continues(README) is None


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_each_page_prints_what_it_shows(page: Path, replayed: Callable[[Path], Path]) -> None:
    replayed(page)


def shown_commands(text: str) -> list[str]:
    """The ``tracker`` command lines of the blocks that are not replayed (```sh, ```text):
    commands that need the network or a file the page does not make."""
    found = []
    for body in re.findall(r"```(?:sh|text)\n(.*?)```", text, flags=re.S):
        for line in body.splitlines():
            line = line.removeprefix("$ ").split(" # ", 1)[0].strip()
            if line.startswith("tracker "):
                found.append(line)
    return found


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_commands_shown_but_not_replayed_parse(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each names a real command, with options and arguments it accepts."""
    monkeypatch.chdir(tmp_path)
    for shown in shown_commands(page.read_text("utf-8")):
        argv = shlex.split(shown)
        for word in argv:  # the files it reads
            if re.fullmatch(r"[\w-]+\.(pgn|csv|trf|txt|xml|json)", word):
                (tmp_path / word).touch()
        command: typer.core.TyperCommand | typer.core.TyperGroup
        command = typer.main.get_command(make_app())  # type: ignore[assignment]
        word, args, ctx = "tracker", argv[1:], None
        while isinstance(command, typer.core.TyperGroup):
            ctx = command.make_context(word, args, parent=ctx)
            rest = [*ctx._protected_args, *ctx.args]  # what the group left for its command
            assert rest, f"{name(page)}: {shown}: names a group, not a command"
            word, sub, args = command.resolve_command(ctx, rest)
            assert sub is not None, shown
            command = sub  # type: ignore[assignment]
        assert not command.make_context(word, args, parent=ctx).args, shown


FENCED = re.compile(r"^```.*?^```", flags=re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces
    as hyphens, a repeated heading numbered."""
    text = FENCED.sub("", page.read_text("utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_relative_links_lead_somewhere(page: Path) -> None:
    text = FENCED.sub("", page.read_text("utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # a link in inline code is no link
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{name(page)}: {broken}"


def test_every_page_is_linked_from_the_readme() -> None:
    targets = LINK.findall(README.read_text("utf-8"))
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in targets}
    assert set(PAGES[1:]) <= linked
