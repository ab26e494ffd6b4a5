"""Standard / rapid / blitz from a time control, by FIDE's definitions.

FIDE Laws of Chess, Appendix A (rapid) and B (blitz): the time that counts is the allotted
time for each player plus 60 times any increment.

* blitz: 10 minutes or less;
* rapid: more than 10 and less than 60 minutes;
* standard: 60 minutes or more.

PGN ``TimeControl`` values (PGN standard, section 9.6.1) are fields separated by ``:``:
``?`` unknown, ``-`` no time control, ``N/S`` N moves in S seconds, ``S`` sudden death in
S seconds, ``S+I`` sudden death with an increment of I seconds per move, ``*S`` sandclock.
``N/S+I`` (an increment on a move period) is accepted as well. A game is assumed to last
60 moves, as in FIDE's rating regulations; a moves period that is the last field repeats.

TRF-2026 record ``222`` ("encoded time control") uses the same descriptors, in seconds, and
may give each colour its own control: ``W300-B240`` (an Armageddon game). Such a game is
classed only if both sides fall in the same class.

Unknown, absent, malformed, "no time control" and correspondence-like controls (more
than a day for 60 moves) all give ``None``: the caller must then supply the time control.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from tracker.vocabulary import TimeControl

BLITZ_MAX_SECONDS: Final = 10 * 60
RAPID_BELOW_SECONDS: Final = 60 * 60
ASSUMED_MOVES: Final = 60
_OVER_THE_BOARD_MAX_SECONDS: Final = 24 * 60 * 60

_FIELD = re.compile(
    r"^(?:(?P<moves>\d{1,4})/)?(?P<sand>\*)?(?P<secs>\d{1,7})(?:\+(?P<inc>\d{1,5}))?$"
)

_NAMES: Final[dict[str, TimeControl]] = {
    "standard": "standard",
    "classical": "standard",
    "rapid": "rapid",
    "blitz": "blitz",
}


@dataclass(frozen=True, slots=True)
class _Period:
    moves: int | None  # None: sudden death (the rest of the game)
    seconds: int
    increment: int


def classify(base_seconds: float, increment_seconds: float = 0) -> TimeControl:
    """FIDE's class for a time control of ``base + increment`` per player."""
    total = base_seconds + ASSUMED_MOVES * increment_seconds
    if total <= BLITZ_MAX_SECONDS:
        return "blitz"
    if total < RAPID_BELOW_SECONDS:
        return "rapid"
    return "standard"


def _periods(text: str) -> list[_Period] | None:
    periods: list[_Period] = []
    fields = text.split(":")
    for index, field in enumerate(fields):
        match = _FIELD.match(field.strip())
        if match is None:
            return None
        moves = int(match["moves"]) if match["moves"] else None
        if moves == 0 or (moves is not None and match["sand"]):
            return None
        if moves is None and index != len(fields) - 1:
            return None  # sudden death must be the last period
        periods.append(_Period(moves, int(match["secs"]), int(match["inc"] or 0)))
    return periods


def seconds_for_game(text: str) -> int | None:
    """Time per player for a 60-move game under a PGN ``TimeControl``; None if unknown."""
    value = text.strip()
    if not value or value in {"?", "-"}:
        return None
    periods = _periods(value)
    if not periods:
        return None
    total = 0
    moves_left = ASSUMED_MOVES
    index = 0
    while moves_left > 0:
        period = periods[min(index, len(periods) - 1)]
        total += period.seconds
        played = moves_left if period.moves is None else min(period.moves, moves_left)
        total += period.increment * played
        moves_left -= played
        if period.moves is None:
            break
        index += 1
    return total


def from_pgn(text: str | None) -> TimeControl | None:
    """Class of a PGN ``TimeControl`` value, or None when it cannot be told."""
    if text is None:
        return None
    seconds = seconds_for_game(text)
    if seconds is None or seconds > _OVER_THE_BOARD_MAX_SECONDS:
        return None
    return classify(seconds)


_PER_COLOUR = re.compile(r"^W(?P<white>[^-]+)-B(?P<black>.+)$")


def from_trf(text: str | None) -> TimeControl | None:
    """Class of a TRF-2026 ``222`` value (PGN-style, optionally ``W...-B...``), or None."""
    if text is None:
        return None
    match = _PER_COLOUR.match(text.strip())
    if match is None:
        return from_pgn(text)
    white, black = from_pgn(match["white"]), from_pgn(match["black"])
    return white if white == black else None


def from_name(text: str) -> TimeControl | None:
    """``standard`` (or ``classical``), ``rapid`` or ``blitz``, any case; else None."""
    return _NAMES.get(text.strip().casefold())


def is_unknown_marker(text: str) -> bool:
    """Whether a value explicitly says "unknown" (blank, ``?``) or "no control" (``-``)."""
    return text.strip() in {"", "?", "-"}
