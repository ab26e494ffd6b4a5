"""Choosing a parser: the format from the file name (and, for ``.txt``, the content).

* ``.pgn`` -> ``pgn``; ``.csv`` -> ``csv``; ``.trf`` / ``.trfx`` -> ``trf``;
* ``.txt`` -> ``trf`` when the text looks like a TRF (a line starting with ``001`` or
  ``012`` followed by a blank), otherwise an error;
* anything else is an error. Extensions are case-insensitive.

Errors are :class:`UnknownFormatError` (a ``ValueError``); the caller turns it into its own
user-facing error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from pathlib import PurePath
from typing import Final

from tracker.importers.csvfile import parse_csv, stream_csv
from tracker.importers.pgn import parse_pgn, stream_pgn
from tracker.importers.records import GameStream, ParseResult
from tracker.importers.trf import parse_trf, stream_trf

FORMATS: Final[tuple[str, ...]] = ("pgn", "csv", "trf")
_BY_EXTENSION: Final[dict[str, str]] = {".pgn": "pgn", ".csv": "csv", ".trf": "trf", ".trfx": "trf"}
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
    raise UnknownFormatError(
        f"{path_name}: cannot tell the format from {shown}; "
        f"use .pgn, .csv, .trf (or .txt for a TRF) or give one of {', '.join(FORMATS)}"
    )


def parse(
    data: bytes,
    source: str,
    fmt: str | None = None,
    *,
    encoding: str = "utf-8",
    event_start: date | None = None,
) -> ParseResult:
    """Parse with the given format, or the one :func:`detect_format` finds from ``source``.
    ``event_start`` dates what the file leaves undated (see each parser)."""
    chosen = detect_format(source, data) if fmt is None else fmt.strip().casefold()
    if chosen == "pgn":
        return parse_pgn(data, source, encoding=encoding, event_start=event_start)
    if chosen == "csv":
        return parse_csv(data, source, encoding=encoding, event_start=event_start)
    if chosen == "trf":
        return parse_trf(data, source, encoding=encoding, event_start=event_start)
    raise UnknownFormatError(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")


def stream(
    blocks: Iterable[bytes],
    source: str,
    fmt: str,
    *,
    encoding: str = "utf-8",
    event_start: date | None = None,
    date_order: str | None = None,
) -> GameStream:
    """:func:`parse` a game at a time, from a file's bytes in blocks (see
    :class:`tracker.importers.records.GameStream`); ``fmt`` is one of :data:`FORMATS`.
    ``date_order`` is for a TRF's numeric dates (PGN and CSV write the year first)."""
    chosen = fmt.strip().casefold()
    if chosen == "trf":
        return stream_trf(
            blocks, source, encoding=encoding, event_start=event_start, date_order=date_order
        )
    streams = {"pgn": stream_pgn, "csv": stream_csv}
    if chosen not in streams:
        raise UnknownFormatError(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")
    return streams[chosen](blocks, source, encoding=encoding, event_start=event_start)
