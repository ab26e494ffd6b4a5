"""The game file formats, registered once (:data:`FORMATS`: each its name, suffixes, reader
and writer), and choosing one for a file: by its name (and, for ``.txt``, its content).

* each format's suffixes (``.pgn``; ``.csv``; ``.trf``, ``.trfx``), case-insensitive;
* ``.txt`` -> ``trf`` when the text looks like a TRF (a line starting with ``001`` or
  ``012`` followed by a blank), otherwise an error;
* anything else is an error.

A new format is a reader (a ``read_*`` generator: the file's
:class:`~tracker.importers.records.TextStream` -> its games, then its result), a writer
(records -> text the reader reads back as the same games, :mod:`tracker.importers.writers`)
and one entry here; nothing else lists them (the database keeps an import's format as text;
``import`` and ``export`` take their names from here, a folder's files their suffixes).

Errors are :class:`UnknownFormatError` (a ``ValueError``); the caller turns it into its own
user-facing error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath
from typing import Final

from tracker.importers.csvfile import read_csv
from tracker.importers.pgn import read_pgn
from tracker.importers.records import GameRecord, GameStream, ParseResult, TextStream
from tracker.importers.trf import read_trf
from tracker.importers.writers import write_csv, write_pgn, write_trf


@dataclass(frozen=True)
class Format:
    """A game file format: its name, its files' suffixes, its reader and writer, and whether
    the reader takes the order of a file's numeric dates (``--date-order``: PGN and CSV
    write the year first) or the unit of its controls written as numbers (``--tc-minutes``:
    a TRF's 222 record is seconds by definition, its 122 free text)."""

    name: str
    suffixes: tuple[str, ...]
    read: Callable[..., Generator[GameRecord, None, ParseResult]]
    write: Callable[[Sequence[GameRecord]], str]
    date_order: bool = False
    tc_minutes: bool = False


FORMATS: Final[dict[str, Format]] = {
    f.name: f
    for f in (
        Format("pgn", (".pgn",), read_pgn, write_pgn, tc_minutes=True),
        Format("csv", (".csv",), read_csv, write_csv, tc_minutes=True),
        Format("trf", (".trf", ".trfx"), read_trf, write_trf, date_order=True),
    )
}
_BY_EXTENSION: Final[dict[str, str]] = {
    suffix: f.name for f in FORMATS.values() for suffix in f.suffixes
}
#: The suffixes of the files a folder brings to an import: every format's, and ``.txt`` (read
#: when it holds a TRF).
FILE_SUFFIXES: Final[tuple[str, ...]] = (*_BY_EXTENSION, ".txt")
_TRF_LINE: Final = re.compile(rb"^(?:\xef\xbb\xbf)?(?:001|012) ", re.MULTILINE)
_SNIFF_BYTES: Final = 1 << 20


class UnknownFormatError(ValueError):
    """The import format cannot be told or is not supported."""


def looks_like_trf(data: bytes) -> bool:
    """Whether the start of a file has a TRF player (001) or tournament-name (012) record."""
    return _TRF_LINE.search(data[:_SNIFF_BYTES].replace(b"\r", b"\n")) is not None


def detect_format(path_name: str, data: bytes) -> str:
    """``pgn``, ``csv`` or ``trf`` for a file, or :class:`UnknownFormatError`."""
    suffix = PurePath(path_name).suffix.casefold()
    fmt = _BY_EXTENSION.get(suffix)
    if fmt is not None:
        return fmt
    if suffix == ".txt":
        if looks_like_trf(data):
            return "trf"
        if data.lstrip(b"\xef\xbb\xbf \r\n").upper().startswith(b"ID NUMBER"):
            raise UnknownFormatError(
                f"{path_name}: this is a FIDE rating list, not games: read it with "
                "`tracker player import-fide-list`"
            )
        raise UnknownFormatError(
            f"{path_name}: a .txt file is read as a FIDE TRF, but this one has no TRF "
            "records (001/012 lines); give the format explicitly"
        )
    shown = f"extension {suffix!r}" if suffix else "no extension"
    suffixes = ", ".join(s for f in FORMATS.values() for s in f.suffixes[:1])
    raise UnknownFormatError(
        f"{path_name}: cannot tell the format from {shown}; "
        f"use {suffixes} (or .txt for a TRF) or give one of {', '.join(FORMATS)}"
    )


def stream(
    blocks: Iterable[bytes],
    source: str,
    fmt: str,
    *,
    encoding: str = "utf-8",
    event_start: date | None = None,
    date_order: str | None = None,
    tc_minutes: bool = False,
) -> GameStream:
    """A file's games one at a time, from its bytes in blocks (see
    :class:`tracker.importers.records.GameStream`); ``fmt`` names one of :data:`FORMATS`.
    ``event_start`` dates what the file leaves undated (see each reader); ``date_order`` and
    ``tc_minutes`` are for the formats that take them (a TRF's numeric dates; controls
    written as numbers of minutes in a PGN or CSV)."""
    chosen = FORMATS.get(fmt.strip().casefold())
    if chosen is None:
        raise UnknownFormatError(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")
    options: dict[str, object] = {}  # each by its name, to the formats that take it
    if chosen.date_order:
        options["date_order"] = date_order
    if chosen.tc_minutes:
        options["tc_minutes"] = tc_minutes
    text = TextStream(blocks, source, encoding)
    return GameStream(chosen.name, chosen.read(text, source, event_start, **options), text)
