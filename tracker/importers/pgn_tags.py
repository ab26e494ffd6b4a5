"""A PGN game's tags read as tracker reads them: a tag's value (unknown values as None), the
event (an ``Event`` that names a kind of game is none), and the game's date (Date, else
UTCDate, else the EventDate or the given event start standing in for an incomplete one; PGN
Standard §8.1.1.3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Final

from tracker.importers.dates import make_date

_PGN_DATE = re.compile(r"^([0-9]{4}|\?{4})(?:([.\-/])([0-9]{2}|\?{2})(?:\2([0-9]{2}|\?{2}))?)?$")

#: A tag value that says nothing.
UNKNOWN = {"", "?", "-"}

GIVEN_START: Final = "the given event start"


_ESCAPE = re.compile(r'\\(["\\])')


def unescaped(value: str) -> str:
    """A tag's value as written in the file, its escapes read (PGN standard 7: ``\\"`` is a
    quote, ``\\\\`` a backslash)."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def escaped(value: str) -> str:
    """A tag's value as a PGN file writes it: :func:`unescaped` reads it back."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def tag(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        return None
    value = value.strip()
    return None if value in UNKNOWN else value


#: An ``Event`` that names the kind of game, not a tournament: Lichess's games outside a
#: tournament (``Rated Classical game``, ``Casual Correspondence game``: rated or casual, the
#: speed or variant, "game"; a tournament's games name it, ``Hourly Blitz Arena``, or in
#: Lichess's database ``Rated Blitz tournament https://lichess.org/tournament/...``), and
#: Chess.com's live games (``Live Chess``).
_GAME_KIND = re.compile(r"^(?:(?:rated|casual)\s+(?P<kind>\S.*?)\s+game|live\s+chess)$", re.I)


def event_of(headers: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The game's event (None: none, or an ``Event`` that only names the kind of game) and
    that kind, lowercased (``classical``, ``correspondence``; ``live`` for Chess.com's live
    games; None when the Event names a tournament)."""
    event = tag(headers, "Event")
    match = _GAME_KIND.match(event or "")
    if match is None:
        return event, None
    return None, (match["kind"] or "live").casefold()


def date_parts(value: str) -> tuple[int | None, int | None, int | None] | None:
    """Year, month, day of a PGN date (None for ``??`` or absent parts), or None if
    malformed. A bare year (``2026``) or year and month (``2026.09``) are partial dates."""
    match = _PGN_DATE.match(value.strip())
    if match is None:
        return None
    parts = (match.group(1), match.group(3), match.group(4))
    year, month, day = (None if part is None or "?" in part else int(part) for part in parts)
    return year, month, day


def _shown(parts: tuple[int | None, int | None, int | None]) -> str:
    """A partial date as PGN writes it: ``2026.??.??``."""
    year, month, day = parts
    return ".".join(
        (
            "????" if year is None else f"{year:04d}",
            *("??" if v is None else f"{v:02d}" for v in (month, day)),
        )
    )


def full_date(value: str | None) -> date | None:
    if value is None:
        return None
    parts = date_parts(value)
    if parts is None or None in parts:
        return None
    year, month, day = parts
    assert year is not None and month is not None and day is not None
    return make_date(year, month, day)


def game_date(
    headers: Mapping[str, str], event_start: date | None
) -> tuple[date | None, str | None, str | None]:
    """``(date, note, None)`` or ``(None, None, reason)``."""
    raw = headers.get("Date", "").strip()
    parts = date_parts(raw) if raw else (None, None, None)
    if parts is None:
        return None, None, f"invalid Date {raw!r}: use YYYY.MM.DD"
    year, month, day = parts
    if year is not None and month is not None and day is not None:
        played = make_date(year, month, day)
        if played is None:
            return None, None, f"impossible Date {raw!r}: no such day"
        return played, None, None
    utc = full_date(headers.get("UTCDate", "").strip())
    if (
        utc is not None
        and (year is None or year == utc.year)
        and (month is None or month == utc.month)
    ):
        return utc, None, None  # the day the game began, in UTC (Lichess's own date)
    if year is not None and month is not None and not 1 <= month <= 12:
        return None, None, f"impossible Date {raw!r}: no such month"
    shown = f"Date {_shown(parts)!r}" if raw else "missing Date"
    event_date = full_date(headers.get("EventDate", "").strip())
    return _stand_in(shown, year, month, event_date, event_start)


def _stand_in(
    shown: str,
    year: int | None,
    month: int | None,
    event_date: date | None,
    event_start: date | None,
) -> tuple[date | None, str | None, str | None]:
    """The date of a game whose Date is incomplete: the stand-ins, best first (the
    EventDate, the caller's event start), else the first of its month; or why none is."""
    for stand_in, whose in ((event_date, "EventDate"), (event_start, GIVEN_START)):
        if stand_in is None:
            continue
        if (year is None or year == stand_in.year) and (month is None or month == stand_in.month):
            return stand_in, f"{shown} is incomplete; {whose} {stand_in.isoformat()} used", None
    if year is not None and month is not None:
        first = date(year, month, 1)
        return first, f"{shown} has no day; dated {first.isoformat()}, the first of the month", None
    if year is None:
        return (
            None,
            None,
            f"{shown} and no complete EventDate to stand in for it: give the date with "
            "--event-start",
        )
    advice = "give the date with --event-start"
    if event_start is not None:  # given, in another year than the game's
        advice = (
            f"--event-start {event_start.isoformat()} is not in {year}: give a day of "
            f"{year} with --event-start"
        )
    return (
        None,
        None,
        f"{shown} gives no month (a monthly rating period needs it) and no EventDate in "
        f"{year} stands in: {advice}",
    )
