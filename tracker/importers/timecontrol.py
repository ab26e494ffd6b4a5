"""Standard / rapid / blitz (or bullet) from a time control, by FIDE's definitions.

FIDE Laws of Chess, Appendix A (rapid) and B (blitz): the time that counts is the allotted
time for each player plus 60 times any increment.

* blitz: 10 minutes or less;
* rapid: more than 10 and less than 60 minutes;
* standard: 60 minutes or more.

Bullet: under 3 minutes for 60 moves (a one-minute game, ``1+1``). No FIDE list rates it:
FIDE's blitz list opened in 2012 with a minimum of five minutes per player (3 + 2 being the
fastest control its announcement allows), and tracker reads "blitz" as 3 minutes or more, so
that every control of a FIDE-rated blitz event is blitz and a bullet game is never one.

Three ways files write a control:

* PGN ``TimeControl`` values (PGN standard, section 9.6.1) are fields separated by ``:``:
  ``?`` unknown, ``-`` no time control, ``N/S`` N moves in S seconds, ``S`` sudden death in
  S seconds, ``S+I`` sudden death with an increment of I seconds per move, ``*S`` sandclock.
  ``N/S+I`` (an increment on a move period) is accepted as well. A game is assumed to last
  60 moves, as in FIDE's rating regulations; a moves period that is the last field repeats.
* TRF-2026 record ``222`` ("encoded time control") uses the same descriptors, in seconds,
  and may give each colour its own control: ``W300-B240`` (an Armageddon game). Such a game
  is classed only if both sides fall in the same class.
  A CSV ``tc`` cell is read the same way (one reading for every file: ``60+0`` is a
  one-minute game in a CSV as in a PGN); ``import --tc-minutes`` reads such values of a
  file that means minutes (``90+30``, ``3+2``) as free text instead.
* Free text, as people write it (TRF ``122``, a PGN ``TimeControl`` or CSV cell that is no
  PGN value): ``90 min + 30 s``, ``G/90+30``, ``90'+30''``, ``1h30 + 30 sec/move``,
  ``90 min/40 moves + 30 min, 30 s/move``, ``15 min. + 10 s. per move``, ``3+2``, or a
  class's name (``rapid``). A number without a unit is minutes, and the number after a
  ``+`` is the increment in seconds; every period's minutes add up (a game lasts 60 moves:
  a first period of 40 moves leaves the second to be played).

Correspondence: a control giving more than a day for 60 moves (Chess.com's daily games,
``1/259200``: a move in three days), or named so (``correspondence``, ``daily``). No FIDE
list rates it (FIDE rates over-the-board chess): like bullet, such games are skipped and
counted, whatever ``--tc`` says.

Unknown, absent, malformed and "no time control" controls all give ``None``: the caller
must then supply the time control.
"""

import re
from typing import Final, Literal, NamedTuple

from tracker.vocabulary import TimeControl

TimeClass = TimeControl | Literal["bullet", "correspondence"]
"""A control's class: one of FIDE's three lists, or bullet or correspondence (which none
rates)."""
UNLISTED: Final = frozenset({"bullet", "correspondence"})
"""The classes no FIDE list rates: their games are skipped and counted."""

BULLET_BELOW_SECONDS: Final = 3 * 60
BLITZ_MAX_SECONDS: Final = 10 * 60
RAPID_BELOW_SECONDS: Final = 60 * 60
ASSUMED_MOVES: Final = 60
_OVER_THE_BOARD_MAX_SECONDS: Final = 24 * 60 * 60

_FIELD = re.compile(
    r"^(?:(?P<moves>[0-9]{1,4})/)?(?P<sand>\*)?(?P<secs>[0-9]{1,7})(?:\+(?P<inc>[0-9]{1,5}))?$"
)

_NAMES: Final[dict[str, TimeClass]] = {
    "standard": "standard",
    "classical": "standard",
    "classic": "standard",
    "rapid": "rapid",
    "rapidplay": "rapid",
    "blitz": "blitz",
    "bullet": "bullet",
    "correspondence": "correspondence",
    "daily": "correspondence",
}


class _Period(NamedTuple):
    moves: int | None  # None: sudden death (the rest of the game)
    seconds: int
    increment: int


def _class_of(total: float) -> TimeClass:
    """The class of a game of ``total`` seconds per player for 60 moves."""
    if total > _OVER_THE_BOARD_MAX_SECONDS:
        return "correspondence"
    if total < BULLET_BELOW_SECONDS:
        return "bullet"
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


def from_pgn(text: str | None, *, minutes: bool = False) -> TimeClass | None:
    """Class of a PGN ``TimeControl`` value or a CSV ``tc`` cell (free text when it is no PGN
    value; a class's name), or None when it cannot be told. A value in PGN's signs is read
    as PGN reads it, in seconds (``5400+30``, ``180+2``; ``60+0`` is a one-minute game);
    with ``minutes`` (``import --tc-minutes``), as people write controls: minutes, then
    the increment in seconds (``90+30``, ``3+2``; ``60+0`` is an hour), as
    :func:`from_text` reads them."""
    if text is None:
        return None
    if minutes and _PGN_SIGNS.match(text):
        return None if is_unknown_marker(text) else from_text(text)
    seconds = seconds_for_game(text)
    if seconds is None:  # free text, unless it is written in PGN's own signs (then malformed)
        return None if _PGN_SIGNS.match(text) else from_text(text)
    return _class_of(seconds)


#: A value written only in PGN's signs (digits, ``/``, ``+``, ``:``, ``*``, ``?``, ``-``).
_PGN_SIGNS = re.compile(r"^[0-9/+:*?\s-]*$")
_PER_COLOUR = re.compile(r"^W(?P<white>[^-]+)-B(?P<black>.+)$")


def from_trf(text: str | None) -> TimeClass | None:
    """Class of a TRF-2026 ``222`` value (PGN-style, optionally ``W...-B...``), or None."""
    if text is None:
        return None
    match = _PER_COLOUR.match(text.strip())
    if match is None:
        seconds = seconds_for_game(text)
        return None if seconds is None else _class_of(seconds)
    white, black = from_trf(match["white"]), from_trf(match["black"])
    return white if white == black else None


def from_name(text: str) -> TimeClass | None:
    """``standard`` (or ``classical``), ``rapid``, ``blitz`` or ``bullet``, any case; else
    None."""
    return _NAMES.get(text.strip().casefold())


#: A number and its unit, as people write controls: hours, minutes (``'``), seconds
#: (``''``, ``"``), moves; or none.
_TERM = re.compile(
    r"(?P<number>[0-9]+(?:[.,][0-9]+)?)\s*"
    r"(?P<unit>hours?|hrs?|h(?![a-z])|minutes?|mins?\.?|m(?![a-z])|''|\"|'|seconds?|secs?\.?|"
    r"s(?![a-z])|moves?|mv)?",
    re.IGNORECASE,
)
#: Words that say the seconds before them are an increment (or a delay) per move.
_PER_MOVE = re.compile(
    r"^\s*(?:/\s*)?(?:per\s+|each\s+|a\s+|/\s*)?(?:move|mv|inc|incr|increment|bonus|delay|from)",
    re.IGNORECASE,
)


_AFTER_MOVE = re.compile(r"(?:move|mv)\.?\s*(?:no\.?|number)?\s*$", re.IGNORECASE)
#: ``1:30``: hours and minutes.
_HOURS_MINUTES = re.compile(r"(?<![0-9:])([0-9]{1,2}):([0-9]{2})(?![0-9:])")


def from_text(text: str | None) -> TimeClass | None:
    """Class of a control written as free text (see the module docstring), or None."""
    if text is None:
        return None
    value = text.strip().replace("\u2019", "'").replace("\u2032", "'").replace("\u2033", '"')
    value = value.replace("\u201d", '"').replace("\u00bd", ".5")
    if not value or is_unknown_marker(value):
        return None
    seconds = _free_text_seconds(_HOURS_MINUTES.sub(r"\1h\2m", value))
    if seconds is not None:
        return None if seconds <= 0 else _class_of(seconds)
    words = re.findall(r"[a-z]+", value.casefold())
    named = {_NAMES[w] for w in words if w in _NAMES}
    return named.pop() if len(named) == 1 else None


def _free_text_seconds(text: str) -> float | None:
    """Seconds per player for 60 moves of a free-text control, or None if it gives none."""
    base = 0.0  # seconds of the periods
    increment: float | None = None
    found = False
    terms = list(_TERM.finditer(text))
    for index, term in enumerate(terms):
        if text[term.end() : term.end() + 1].isalpha():
            return None  # a number run into a word ("1apid"): no control anybody wrote
        kind = _term_kind(text, terms, index)
        if kind == "moves":
            continue
        number = float(term["number"].replace(",", "."))
        if kind in ("increment", "plus") and increment is None:
            increment = number
            if kind == "plus":
                continue  # 90+30: minutes, then the increment in seconds
        elif kind == "hours":
            base += number * 3600
        elif kind in ("increment", "seconds"):
            base += number
        else:
            base += number * 60
        found = True
    if not found or base <= 0:
        return None
    return base + ASSUMED_MOVES * (increment or 0)


def _term_kind(text: str, terms: list[re.Match[str]], index: int) -> str:
    """What a number of a free-text control counts: ``moves`` (a period's: no time),
    ``hours``, ``minutes``, ``seconds``, ``increment`` (seconds a move, the first such) or
    ``plus`` (a bare number after a ``+``: the increment, the first time)."""
    term = terms[index]
    unit = (term["unit"] or "").casefold().rstrip(".")
    before = text[terms[index - 1].end() if index else 0 : term.start()]
    after = text[term.end() : terms[index + 1].start() if index + 1 < len(terms) else None]
    if unit.startswith(("move", "mv")) or _AFTER_MOVE.search(before):
        return "moves"  # "40 moves", "from move 1"
    if not unit and after.lstrip().startswith("/") and index + 1 < len(terms):
        return "moves"  # "40/90": 40 moves in 90 minutes
    if unit.startswith("h"):
        return "hours"
    if unit in ("''", '"') or unit.startswith("s"):
        return "increment" if _PER_MOVE.match(after) or "+" in before or index else "seconds"
    if unit:
        return "minutes"
    previous = terms[index - 1]["unit"] if index else None
    if previous and previous.casefold().startswith("h"):
        return "minutes"  # 1h30
    return "plus" if "+" in before else "minutes"


def is_unknown_marker(text: str) -> bool:
    """Whether a value explicitly says "unknown" (blank, ``?``) or "no control" (``-``)."""
    return text.strip() in {"", "?", "-"}
