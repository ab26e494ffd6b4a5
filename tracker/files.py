"""Files tracker reads and writes for the user.

Read (``import``, ``game add-round --file``, ``online import``...): only a regular file
(:func:`open_input`), never a device such as ``/dev/zero`` or a pipe, whose reading might
never end.

Written (``export --out``, ``db backup``, ``site build``): made whole or not at all,
replacing only what may be replaced.

A file is written as a temporary file of its own beside the target (a unique name that only
tracker makes, :data:`TEMPORARY`, created exclusively: never a file that exists), then renamed
over it. A failure (a full disk) removes the temporary file and leaves the target as it was.
Only a regular file is ever replaced: a folder, a device such as ``/dev/null``, a pipe or a
symbolic link is refused, ``--force`` or not. Standard library only.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from tracker.errors import InvalidInputError
from tracker.user_input import is_dir

#: The name of a temporary file: ``.NAME.<8 hex digits>.tracker-tmp``, beside the file NAME.
TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tracker-tmp$")
#: What SQLite makes beside a database file (its journal, its write-ahead log).
SQLITE_SIDECARS = ("-journal", "-wal", "-shm")


def kind(mode: int) -> str:
    """What a file is, in a message: a file, a folder, a symbolic link, a device..."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "no regular file"


def lstat(path: Path) -> os.stat_result | None:
    """``path``'s own status (a link's, not its target's); None if nothing is there. A path
    the system cannot look up (a name too long) is one line."""
    try:
        return path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise InvalidInputError(f"cannot use {path}: {exc.strerror or exc}") from None


def open_input(path: Path) -> BinaryIO:
    """``path`` opened to read its bytes, if it is a regular file (or a link to one): a
    device, a pipe or a folder is refused, and so is a file that cannot be read, in one
    line."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise InvalidInputError(
                f"{path} is {kind(mode)}: tracker reads only regular files (a device or a pipe "
                "might never end)"
            )
        return path.open("rb")
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None


def check_target(path: Path, *, force: bool) -> None:
    """Refuse to write ``path`` unless it is new, or a regular file and ``force`` says to
    replace it; its folder must exist."""
    st = lstat(path)
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise InvalidInputError(
                f"{path} is {kind(st.st_mode)}: tracker replaces only regular files"
            )
        if not force:
            raise InvalidInputError(f"{path} already exists (use --force to replace it)")
    if not is_dir(path.parent):  # a link to a folder will do
        raise InvalidInputError(f"folder {path.parent} does not exist")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temporary(path: Path) -> Path:
    """A new, empty temporary file beside ``path`` (see :data:`TEMPORARY`), with the
    permissions any new file of the user gets (the umask), not a private 0600."""
    while True:
        temp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tracker-tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask())
        except FileExistsError:
            continue
        os.close(fd)
        return temp


@contextmanager
def replacing(path: Path, *, force: bool, sidecars: tuple[str, ...] = ()) -> Iterator[Path]:
    """A temporary file beside ``path`` for the block to write (by its path: SQLite's backup
    writes one), renamed over ``path`` when the block succeeds; removed, with the ``sidecars``
    a writer made beside it (SQLite's journal), whatever happens. ``path`` is checked first
    (:func:`check_target`) and again just before the rename: a regular file is replaced
    only with ``force``, anything else never."""
    check_target(path, force=force)
    try:
        temp = _temporary(path)
    except OSError as exc:
        raise InvalidInputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        yield temp
        check_target(path, force=force)  # nothing took its place meanwhile
        os.replace(temp, path)
    except OSError as exc:
        raise InvalidInputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        for suffix in ("", *sidecars):
            Path(f"{temp}{suffix}").unlink(missing_ok=True)


def write_file(path: Path, data: bytes, *, force: bool) -> None:
    """Write ``data`` to ``path`` whole or not at all (see :func:`replacing`)."""
    with replacing(path, force=force) as temp:
        temp.write_bytes(data)
