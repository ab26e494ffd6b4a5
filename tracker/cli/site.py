"""``tracker site build DIR``: a club's rating pages as a static site."""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import AppState, state
from tracker.cli.options import AnyTc, Json, command_group, option
from tracker.cli.render import message, pick, print_json_or, print_table
from tracker.errors import InvalidInputError
from tracker.files import TEMPORARY, kind, lstat, open_input, write_file
from tracker.months import month_label
from tracker.user_input import is_dir, today
from tracker.vocabulary import TimeControl, plural

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.services.site import Site, SiteConfig

app = command_group(
    """Publish the ratings as a static web site.

    \b
    Examples:
      tracker site config --title "Riverside Chess Club" --logo logo.png
      tracker site build public/
    """
)


#: The file in the site's folder that lists what the last build wrote there (its first line
#: is :data:`MANIFEST_HEADER`, then one path a line): the only files a build removes or
#: replaces without --force.
MANIFEST = ".tracker-site"
MANIFEST_HEADER = (
    "# tracker site build wrote these files; the next build removes or replaces only these"
)
#: Every path a file of the site can have under its folder (see site_pages.paths).
PAGE_PATH = re.compile(
    r"^(?:index|lists|compare)\.html$|^site\.(?:css|js)$|^logo\.(?:png|jpeg|gif|webp|svg)$"
    r"|^(?:players|events)/[1-9][0-9]*\.html$"
    r"|^lists/(?:standard|rapid|blitz)-[0-9]{4}-[0-9]{2}-01\.(?:html|csv)$"
)
#: The folders the pages of lists, players and events go in.
PAGE_FOLDERS = ("lists", "players", "events")
#: How many of the files tracker did not write a refusal names.
NAMED = 3


def _mode(path: Path) -> int | None:
    st = lstat(path)
    return None if st is None else st.st_mode


def _previous(folder: Path) -> set[str] | None:
    """The files the last build wrote (its manifest's paths that can be pages), or None if
    the folder holds no manifest of tracker's."""
    path = folder / MANIFEST
    if not stat.S_ISREG(_mode(path) or 0):
        return None
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != MANIFEST_HEADER:
        return None
    return {line for line in lines[1:] if PAGE_PATH.match(line)}


def _check_folder(folder: Path) -> None:
    """The folder (or a link to one, as the user named it) and its page folders must be
    folders; a page folder never a link (it would take the pages out of the folder)."""
    mode = _mode(folder)
    if mode is not None and not is_dir(folder):  # a link to a folder will do
        raise InvalidInputError(f"{folder} is {kind(mode)}: the site needs a folder")
    for sub in PAGE_FOLDERS:
        mode = _mode(folder / sub)
        if mode is not None and stat.S_ISLNK(mode):
            raise InvalidInputError(
                f"{folder / sub} is a symbolic link: the site never writes through a link "
                "(remove it, or build in another folder)"
            )
        if mode is not None and not stat.S_ISDIR(mode):
            raise InvalidInputError(
                f"{folder / sub} is {kind(mode)}: the site needs a folder there"
            )


def _check_page_places(folder: Path) -> None:
    """Where a page can go there is nothing, or a regular file: never a link (the site would
    write through it, out of its folder), a folder or a device (refused with --force too)."""
    for path in [Path(e.path) for rel, e in _entries(folder) if PAGE_PATH.match(rel)]:
        mode = _mode(path)
        if mode is not None and not stat.S_ISREG(mode):
            raise InvalidInputError(
                f"{path} is {kind(mode)} where a page of the site goes: the site writes files "
                "of its own, never through a link (remove it, or build in another folder)"
            )


def _entries(folder: Path) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """What the folder and its page folders (those there) hold, each with its path in the
    folder."""
    for sub in ("", *PAGE_FOLDERS):
        if _mode(folder / sub) is not None:
            with os.scandir(folder / sub) as scan:
                yield from [(f"{sub}/{e.name}" if sub else e.name, e) for e in scan]


def _others(folder: Path, previous: set[str] | None) -> list[str]:
    """Up to :data:`NAMED` + 1 files (or folders, links...) under ``folder`` that are not
    the site's: a page folder, or a regular file that is a temporary file a build left
    (:data:`tracker.files.TEMPORARY`) or, with a manifest of tracker's (``previous``), the
    manifest or a page it lists. Links are not followed."""
    found: list[str] = []
    pending = [""]
    while pending and len(found) <= NAMED:
        where = pending.pop()
        with os.scandir(folder / where) as scan:
            entries = sorted(scan, key=lambda e: e.name)
        for entry in entries:
            rel = f"{where}/{entry.name}" if where else entry.name
            real_dir = entry.is_dir(follow_symlinks=False)
            if not where and entry.name in PAGE_FOLDERS and real_dir:
                pending.append(entry.name)
            elif not (entry.is_file(follow_symlinks=False) and _site_file(rel, previous)):
                found.append(rel + ("/" if real_dir else ""))
    return found


def _site_file(rel: str, previous: set[str] | None) -> bool:
    if TEMPORARY.match(rel.rpartition("/")[2]):
        return True
    return previous is not None and (rel == MANIFEST or rel in previous)


def check_site_folder(folder: Path, *, force: bool) -> set[str]:
    """Refuse a folder the site cannot be built in: one holding files tracker did not write
    (unless ``force``), a link where a page or a page folder goes (always). The files the
    last build wrote (which this one may replace or remove)."""
    _check_folder(folder)
    if _mode(folder) is None:
        return set()
    try:
        _check_page_places(folder)
        previous = _previous(folder)
        others = _others(folder, previous)
    except OSError as exc:
        raise InvalidInputError(f"cannot read {exc.filename}: {exc.strerror}") from None
    if others and not force:
        named = ", ".join(others[:NAMED]) + (", ..." if len(others) > NAMED else "")
        raise InvalidInputError(
            f"{folder} holds files tracker did not write ({named}): build the site in a new "
            "or empty folder, or give --force to build beside them (tracker never removes "
            "them; one where a page goes is replaced)"
        )
    return previous or set()


def _write_manifest(folder: Path, names: Iterable[str]) -> None:
    """The manifest listing ``names`` (written only if it lists other files)."""
    data = "\n".join([MANIFEST_HEADER, *sorted(set(names))]).encode("utf-8") + b"\n"
    path = folder / MANIFEST
    if stat.S_ISREG(_mode(path) or 0) and path.read_bytes() == data:
        return
    write_file(path, data, force=True)


def _clear_temporaries(folder: Path) -> None:
    """Remove the temporary files an interrupted build left (only tracker names files so)."""
    for _, entry in _entries(folder):
        if TEMPORARY.match(entry.name) and entry.is_file(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)


def write_pages(
    folder: Path, names: Sequence[str], files: Iterable[tuple[str, str | bytes]], ours: set[str]
) -> tuple[int, int, int]:
    """Write the site's files (``names``, in the order ``files`` gives their texts) into
    ``folder``, checked by :func:`check_site_folder`; ``ours`` are the files the last build
    wrote. Each file is written whole (a temporary file beside it, then a rename), and only
    if its content differs; then the files of the last build this one does not have are
    removed. The manifest lists every file of both builds while the build runs: a build
    interrupted at any point leaves no file unlisted, and the next one carries on. The
    files of the site, written, removed."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _clear_temporaries(folder)
        _write_manifest(folder, ours | set(names))
        written = 0
        for name, content in files:
            path = folder / name
            data = content.encode("utf-8") if isinstance(content, str) else content
            if stat.S_ISREG(_mode(path) or 0) and path.read_bytes() == data:
                continue
            path.parent.mkdir(exist_ok=True)
            write_file(path, data, force=True)
            written += 1
        removed = 0
        for name in sorted(ours - set(names)):
            path = folder / name
            if stat.S_ISREG(_mode(path) or 0):
                path.unlink()
                removed += 1
        _write_manifest(folder, names)
    except OSError as exc:
        raise InvalidInputError(
            f"cannot write {exc.filename or folder}: {exc.strerror or exc}"
        ) from None
    return len(names), written, removed


@app.command("build")
def build(
    ctx: typer.Context,
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The folder to write (made if missing): a new or empty one, or one of an "
            "earlier build. Files the site does not change are left alone; the pages of "
            "players and events no longer in the site (removed, or of another time control "
            "than --tc) are deleted.",
        ),
    ],
    tc: AnyTc = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Build in a folder that holds files tracker did not write: they are left "
            "alone, but one where a page goes is replaced.",
        ),
    ] = False,
) -> None:
    """Write the rating pages: lists, players, events, each list as CSV.

    Every page shows the club's title and logo (`site config`) and the date of the data.
    lists.html names every published list, each with its page (who moved most) and CSV
    under lists/. The index holds the latest list of each time control (rank, name,
    title, federation, rating, the change of the last period, games, and the shadow rating
    beside it); each tracked player's page his history as a chart (Elo, the shadow with its
    band, his online rating) and a table, each period's games and his score against each
    opponent; each event's page its standings and crosstable. Plain HTML and inline SVG:
    nothing from the network.
    The same database gives the same files, byte for byte; a file whose content has not
    changed is not rewritten, and the page of a player or event no longer in the database is
    removed.

    The folder's .tracker-site lists the files the build wrote: the next build replaces or
    removes only those. A folder holding any other file is refused unless --force is given
    (its files are never removed); a symbolic link where a page or the players/ or events/
    folder goes is always refused. Each page is written whole or not at all.

    \b
    Example: tracker site build public/ --tc standard
    """
    data, (count, written, removed) = build_site(state(ctx), folder, tc, today(), force=force)
    if not data.lists:
        message("no closed rating period yet: the index says so (see `tracker period close`)")
    for warning in site_warnings(data):
        message(warning)
    message(
        f"site in {folder}: {plural(count, 'file')}, {written} written, "
        f"{count - written} unchanged" + (f", {removed} removed" if removed else "")
    )


def site_warnings(data: Site) -> list[str]:
    """What the pages say is not final, as warnings: stale periods (a rerate is due) and
    games waiting in an open period, per time control."""
    from tracker.cli.status import waiting_words

    out = []
    for sl in data.lists:
        s = sl.pending
        if s is None:
            continue
        if s.stale_months:
            months = ", ".join(month_label(m) for m in s.stale_months)
            out.append(
                f"warning: {sl.tc} {months}: stale (games changed after closing), as the "
                "pages say; run `tracker rerate`"
            )
        if s.waiting_games:
            out.append(
                f"warning: {sl.tc} {month_label(s.open_month)} is open, {waiting_words(s)}: "
                f"the pages' list is of {sl.rating_list.list_date.isoformat()} (see `tracker "
                "period close`)"
            )
    return out


def build_site(
    app: AppState, folder: Path, tc: TimeControl | None, day: dt.date, *, force: bool = False
) -> tuple[Site, tuple[int, int, int]]:
    """Check the folder (:func:`check_site_folder`), then draw and write the site's pages one
    at a time, in one read of the database: the site's data, and its files, those written,
    those removed (:func:`write_pages`)."""
    from tracker.cli.site_pages import pages, paths
    from tracker.services.site import SiteReads, site

    ours = check_site_folder(folder, force=force)

    def build_in(db: Db) -> tuple[Site, tuple[int, int, int]]:
        data = site(db, tc, day)
        reads = SiteReads(db, data)
        files = pages(data, reads.lists(), reads.players(), reads.events(day))
        return data, write_pages(folder, paths(data), files, ours)

    return app.read(build_in)


def config_json(c: SiteConfig) -> dict[str, Any]:
    return pick(c, "title about url logo=logo_type")


def _print_config(c: SiteConfig) -> None:
    logo = f"{c.logo_type}, {len(c.logo)} bytes" if c.logo is not None else None
    rows = [("title", c.title), ("about", c.about), ("url", c.url), ("logo", logo)]
    print_table(["setting", "value"], [(k, v or "none") for k, v in rows], wrap=("value",))


@app.command("config")
def config(
    ctx: typer.Context,
    title: Annotated[
        str | None, option("--title", "TEXT", "The club's name, on every page.")
    ] = None,
    about: Annotated[
        str | None,
        option("--about", "TEXT", "A paragraph about the club, on the index ('' removes it)."),
    ] = None,
    url: Annotated[
        str | None,
        option("--url", "URL", "Where the site is published, https://... ('' removes it)."),
    ] = None,
    logo: Annotated[
        Path | None,
        option(
            "--logo",
            "FILE",
            "The club's logo (PNG, JPEG, GIF, WebP or SVG, at most 256 KB), kept in the "
            "database and written beside the pages.",
        ),
    ] = None,
    no_logo: Annotated[bool, typer.Option("--no-logo", help="Remove the logo.")] = False,
    json: Json = False,
) -> None:
    """Show or set the site's title, about text, address and logo.

    Stored in the database, so every later `site build` keeps them. Without options: what
    is set.

    \b
    Example: tracker site config --title "Riverside Chess Club"
    """
    from tracker.services.site import set_site_config, site_config

    if title is None and about is None and url is None and logo is None and not no_logo:
        c = state(ctx).read(site_config)
        changed = None
    else:
        image = None
        if logo is not None:
            with open_input(logo) as f:
                image = (f.read(), str(logo))
        c, changed = state(ctx).write(
            lambda db: set_site_config(
                db, title=title, about=about, url=url, logo=image, no_logo=no_logo
            )
        )
    print_json_or(json, c, config_json, _print_config)
    if changed is not None:
        message(
            "site settings changed: the next `site build` shows them"
            if changed
            else "nothing changed"
        )
