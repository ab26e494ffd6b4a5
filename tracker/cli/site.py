"""``tracker site build DIR``: a club's rating pages as a static site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tracker.cli.context import state
from tracker.cli.options import AnyTc, command_group
from tracker.cli.render import message
from tracker.errors import InvalidInputError
from tracker.user_input import today
from tracker.vocabulary import plural

app = command_group(
    """Publish the ratings as a static web site.

    \b
    Example: tracker site build public/
    """
)


def _check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"{folder} is a file: the site needs a folder")
    for sub in ("players", "events"):
        if (folder / sub).exists() and not (folder / sub).is_dir():
            raise InvalidInputError(f"{folder / sub} is a file: the site needs a folder there")


#: The folders whose pages (``ID.html``) the site owns: such a page that the database no
#: longer gives (a removed player or event) is deleted; other files there are left alone.
OWNED = ("players", "events")


def write_pages(folder: Path, files: dict[str, str]) -> tuple[list[str], list[str]]:
    """Write each file whose content differs from what is there, and delete the pages of
    :data:`OWNED` folders the site no longer has; the paths written and removed."""
    written = []
    for name in sorted(files):
        path = folder / name
        data = files[name].encode("utf-8")
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(name)
    removed = []
    for sub in OWNED:
        for path in sorted((folder / sub).glob("*.html")):
            name = f"{sub}/{path.name}"
            if name not in files and path.stem.isdigit() and path.is_file():
                path.unlink()
                removed.append(name)
    return written, removed


@app.command("build")
def build(
    ctx: typer.Context,
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The folder to write (made if missing); files the site does not change are "
            "left alone, the pages of removed players and events deleted.",
            show_default=False,
        ),
    ],
    tc: AnyTc = None,
) -> None:
    """Write the rating pages: index.html, players/ID.html, events/ID.html.

    The index holds the latest list of each time control (rank, name, title, federation,
    rating, the change of the last period, games, and the shadow rating beside it); each
    tracked player's page his history as a chart (Elo, the shadow with its band, his online
    rating) and a table, each period's games and his score against each opponent; each
    event's page its
    standings and crosstable. Plain HTML and inline SVG: no script, nothing from the network.
    The same database gives the same files, byte for byte; a file whose content has not
    changed is not rewritten, and the page of a player or event no longer in the database is
    removed.

    \b
    Example: tracker site build public/ --tc standard
    """
    from tracker.cli.site_pages import pages
    from tracker.services.site import site

    _check_folder(folder)
    data = state(ctx).read(lambda db: site(db, tc, today()))
    files = pages(data)
    written, removed = write_pages(folder, files)
    unchanged = len(files) - len(written)
    if not data.lists:
        message("no closed rating period yet: the index says so (see `tracker period close`)")
    message(
        f"site in {folder}: {plural(len(files), 'page')}, {len(written)} written, "
        f"{unchanged} unchanged" + (f", {len(removed)} removed" if removed else "")
    )
