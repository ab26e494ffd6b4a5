"""``tracker site build DIR``: a club's rating pages as a static site."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.context import AppState, state
from tracker.cli.options import AnyTc, command_group
from tracker.cli.render import message
from tracker.errors import InvalidInputError
from tracker.user_input import today
from tracker.vocabulary import plural

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.services.site import Site

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


def write_pages(folder: Path, files: Iterable[tuple[str, str]]) -> tuple[int, int, int]:
    """Write each file whose content differs from what is there, and delete the pages of
    :data:`OWNED` folders the site no longer has: the files of the site, written, removed."""
    names: set[str] = set()
    written = 0
    for name, text in files:
        names.add(name)
        path = folder / name
        data = text.encode("utf-8")
        try:
            if path.is_file() and path.read_bytes() == data:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as exc:
            raise InvalidInputError(f"cannot write {path}: {exc.strerror}") from None
        written += 1
    removed = 0
    for sub in OWNED:
        for path in sorted((folder / sub).glob("*.html")):
            if f"{sub}/{path.name}" not in names and path.stem.isdigit() and path.is_file():
                try:
                    path.unlink()
                except OSError as exc:
                    raise InvalidInputError(f"cannot remove {path}: {exc.strerror}") from None
                removed += 1
    return len(names), written, removed


@app.command("build")
def build(
    ctx: typer.Context,
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The folder to write (made if missing); files the site does not change are "
            "left alone, the pages of players and events no longer in the site (removed, or "
            "of another time control than --tc) deleted.",
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
    _check_folder(folder)
    data, (count, written, removed) = build_site(state(ctx), folder, tc, today())
    if not data.lists:
        message("no closed rating period yet: the index says so (see `tracker period close`)")
    message(
        f"site in {folder}: {plural(count, 'page')}, {written} written, "
        f"{count - written} unchanged" + (f", {removed} removed" if removed else "")
    )


def build_site(
    app: AppState, folder: Path, tc: str | None, day: dt.date
) -> tuple[Site, tuple[int, int, int]]:
    """Draw and write the site's pages one at a time, in one read of the database: the
    site's data, and its files, those written, those removed (:func:`write_pages`)."""
    from tracker.cli.site_pages import pages
    from tracker.services.site import SiteReads, site

    def build_in(db: Db) -> tuple[Site, tuple[int, int, int]]:
        data = site(db, tc, day)
        reads = SiteReads(db, data)
        return data, write_pages(folder, pages(data, reads.players(), reads.events(day)))

    return app.read(build_in)
