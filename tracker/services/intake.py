"""One intake: the rule for each value that comes in, whatever the door.

Every way a game or a player comes in -- ``game add``, ``game edit``, ``game add-round``,
``player add``/``edit``, each file format of ``tracker import`` and players files -- goes
parse -> normalise -> check -> plan -> write, and the normalising and checking are the
functions here: a value is refused, stored with a warning, or accepted the same way at every
door. Pure functions of the value (and, for dates, of what the database already holds);
standard library only, no database.

The rules (docs/rules.md's table says the same):

==================  =====================================================================
value               rule
==================  =====================================================================
game date           refused after today or before 1970 (FIDE's first list rated the
                    games of 1970); more than a year before the database's records start
                    (its first rating period, else its first game): refused unless
                    ``--yes`` (a mistyped year would open a rating period for every month
                    in between)
date and birth      a game (or a seed) in a year the player is younger than 3 is refused
                    (a game before his birth above all)
recorded rating     1000..3000 is stored; any other whole number is not a FIDE rating (a
                    national rating such as 471): stored as no rating, with a warning
FIDE id             100000..99999999999 (six to eleven digits: a federation's code and five
                    digits); another number is a national id, not FIDE's: not stored as
                    a FIDE id, with a warning (the player is matched by name); 0 is none
event name          blanks collapsed; compared without case or spacing (``autumn  cup``
                    is ``Autumn Cup``): the first spelling is kept
round               blanks collapsed, numbers without leading zeros (``01`` is ``1``,
                    ``1.01`` is ``1.1``, ``Round 3`` is ``3``), compared without case
==================  =====================================================================
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from tracker.errors import InvalidInputError
from tracker.vocabulary import name_form

#: FIDE's first rating list (1971) rated the games of 1970: nothing earlier can be on a list.
FIRST_RATED_DAY: Final = dt.date(1970, 1, 1)
#: The youngest age (in years, by the year of play) at which a game or a rating is plausible:
#: FIDE has rated players of three.
YOUNGEST: Final = 3
#: A recorded rating that can be FIDE's: FIDE's lowest published rating was ever 1000, and
#: nobody has been rated near 3000.
FIDE_RATING_MIN: Final = 1000
FIDE_RATING_MAX: Final = 3000
#: A FIDE id is a federation's code (one to three digits) and five digits of its own.
FIDE_ID_MIN: Final = 100_000
FIDE_ID_MAX: Final = 99_999_999_999  # the TRF column holds 11 digits


# -- dates -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DateBounds:
    """The dates a game may have: not after ``today`` and not before 1970 (refused); not more
    than a year before ``start``, the month the database's records start (its first rating
    period, else its first game; None in a database without games), unless confirmed: such
    a date is most often a mistyped year, which would make closing open a rating period
    for every month in between."""

    today: dt.date
    start: dt.date | None

    @property
    def earliest(self) -> dt.date | None:
        """The first day accepted without confirmation (None: any day from 1970)."""
        if self.start is None:
            return None
        return dt.date(self.start.year - 1, self.start.month, 1)

    def refused(self, played_on: dt.date) -> str | None:
        """Why ``played_on`` cannot be a game's date, or None."""
        if played_on > self.today:
            return f"the date {played_on} is in the future (today is {self.today})"
        if played_on < FIRST_RATED_DAY:
            return (
                f"the date {played_on} is before {FIRST_RATED_DAY.year}: FIDE's first list "
                f"rated the games of {FIRST_RATED_DAY.year}"
            )
        return None

    def unconfirmed(self, played_on: dt.date) -> str | None:
        """Why ``played_on`` needs a confirmation (``--yes``), or None."""
        earliest = self.earliest
        if self.start is None or earliest is None or played_on >= earliest:
            return None
        return (
            f"the date {played_on} is more than a year before this database's records start "
            f"({self.start:%Y-%m})"
        )

    def check(self, played_on: dt.date, *, yes: bool) -> None:
        """Refuse a date that cannot be right, and one unconfirmed unless ``yes``."""
        refused = self.refused(played_on)
        if refused is not None:
            raise InvalidInputError(f"{refused}: check the year")
        unconfirmed = None if yes else self.unconfirmed(played_on)
        if unconfirmed is not None:
            raise InvalidInputError(f"{unconfirmed}: check the year, or give --yes if it is right")


def check_event_start(start: dt.date) -> None:
    """An event's start date, like a game's date, is not before 1970 (its games, which it
    does not follow, are not after today)."""
    if start < FIRST_RATED_DAY:
        raise InvalidInputError(
            f"the event start {start} is before {FIRST_RATED_DAY.year}: FIDE's first list "
            f"rated the games of {FIRST_RATED_DAY.year}: check the year"
        )


def age_problem(year: int, born: int | None, name: str, what: str = "a game") -> str | None:
    """Why ``name`` (born in ``born``) cannot have ``what`` in ``year``, or None."""
    if born is None or year - born >= YOUNGEST:
        return None
    if year < born:
        return f"{name} was born in {born}: {what} in {year} is before their birth"
    return f"{name} was born in {born}: {what} in {year} is at the age of {year - born}"


# -- ratings and FIDE ids ----------------------------------------------------------------


def is_fide_rating(value: int) -> bool:
    """Whether a recorded rating can be a FIDE rating (see the module's table)."""
    return FIDE_RATING_MIN <= value <= FIDE_RATING_MAX


def not_fide_rating(value: int) -> str:
    """What the warning says of a recorded rating that is no FIDE rating."""
    return (
        f"{value} is not a FIDE rating (FIDE's lie within {FIDE_RATING_MIN}..{FIDE_RATING_MAX}; "
        "a national rating?): stored as no rating"
    )


def is_fide_id(value: int) -> bool:
    """Whether a number can be a FIDE id (see the module's table)."""
    return FIDE_ID_MIN <= value <= FIDE_ID_MAX


def not_fide_id(value: int) -> str:
    """What the warning says of a number given as a FIDE id that is none."""
    return (
        f"{value} is not a FIDE id (FIDE's have six to eleven digits; a national id?): not "
        "stored as one"
    )


# -- events and rounds -------------------------------------------------------------------

EVENT_NAME_MAX: Final = 200
ROUND_MAX: Final = 16


def has_control(text: str) -> bool:
    """Control characters (NUL, escape codes...): never part of a name, an event or a round,
    at any door (PostgreSQL refuses NUL in text; a terminal obeys the escapes)."""
    return not text.isprintable() and any(unicodedata.category(char) == "Cc" for char in text)


def check_text(text: str, what: str) -> str:
    """``text`` itself, if it holds no control character."""
    if has_control(text):
        raise InvalidInputError(f"{what} {text!r} contains control characters")
    return text


def clean_event_name(name: str) -> str:
    """An event's name as stored: Unicode-composed, blanks collapsed."""
    cleaned = name_form(name)
    if not cleaned:
        raise InvalidInputError("an event needs a name")
    if len(cleaned) > EVENT_NAME_MAX:
        raise InvalidInputError(f"an event name is limited to {EVENT_NAME_MAX} characters")
    return check_text(cleaned, "event name")


def event_key(name: str) -> str:
    """What two spellings of one event share: the name without case or extra blanks."""
    return name_form(name).casefold()


_ROUND_WORD = re.compile(r"^(?:round|rnd|rd|r)\.?\s*(?=\d)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")


def clean_round(value: str | None) -> str | None:
    """A round as stored: blanks collapsed, a leading ``Round``/``Rd.``/``R`` dropped before
    its number, numbers without leading zeros; None for no round (blank, ``?``, ``-``)."""
    if value is None:
        return None
    if value.isdigit() and value.isascii() and value[0] != "0" and len(value) <= ROUND_MAX:
        return value  # the usual round, kept as it is (a federation's file: no new string)
    text = " ".join(value.split())
    if not text or text in ("?", "-"):
        return None
    if len(text) > 4 * ROUND_MAX:  # no round is written so long, even with leading zeros
        raise InvalidInputError(f"round {value[:20]!r}... is longer than {ROUND_MAX} characters")
    text = _NUMBER.sub(lambda m: str(int(m[0])), _ROUND_WORD.sub("", text))
    if len(text) > ROUND_MAX:
        raise InvalidInputError(f"round {value!r} is longer than {ROUND_MAX} characters")
    return check_text(text, "round")


def round_key(value: str | None) -> str:
    """A stored round as the natural key compares it (without case; '' for none)."""
    if value is None:
        return ""
    key = value.casefold()
    return value if key == value else key  # the same string where nothing changes


# -- duplicates --------------------------------------------------------------------------


def natural_key(
    played_on: dt.date, white_id: int, black_id: int, event_id: int | None, round_: str | None
) -> str:
    """Same date, same players (as coloured), same event and round (as people mean them):
    the same game. Several distinct games of one key (a blitz night's double rounds) are
    stored under ``KEY|#2``, ``KEY|#3``..."""
    return f"{played_on.isoformat()}|{white_id}|{black_id}|{event_id or ''}|{round_key(round_)}"


#: What an online account name looks like (``player add --lichess/--chesscom``).
LICHESS_USER: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,28}[A-Za-z0-9]$")
"""Lichess user names: 2 to 30 letters, digits, '_' or '-', starting and ending with a letter
or digit."""
CHESSCOM_USER: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{1,48}$")
"""Chess.com user names: letters, digits, '_' or '-' (3 to 25 by the site's rules; up to 50
accepted here)."""
