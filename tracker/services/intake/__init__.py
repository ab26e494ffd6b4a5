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
recorded rating     1000..3000 is stored; 1..999 is not a FIDE rating (a national rating
                    such as 471): stored as no rating, with a warning; below 0 or above
                    3000 (and 0 typed; a file's 0 is no rating) is no rating at all:
                    refused
FIDE id             100000..99999999999 (six to eleven digits: a federation's code and five
                    digits); another number is a national id, not FIDE's: not stored as
                    a FIDE id, with a warning (the player is matched by name); 0 is none
event name          blanks collapsed; compared without case or spacing (``autumn  cup``
                    is ``Autumn Cup``): the first spelling is kept
round               blanks collapsed, numbers without leading zeros (``01`` is ``1``,
                    ``1.01`` is ``1.1``, ``Round 3`` is ``3``), compared without case
==================  =====================================================================
"""

import datetime as dt
import re
import unicodedata
from typing import Final, NamedTuple

from tracker.errors import InvalidInputError
from tracker.months import a_month_after, a_month_before
from tracker.vocabulary import TimeControl, event_key, name_form, round_number

#: FIDE's first rating list (1971) rated the games of 1970: nothing earlier can be on a list.
FIRST_RATED_DAY: Final = dt.date(1970, 1, 1)
_BEFORE_LISTS: Final = (  # what is said of a day before it
    f"is before {FIRST_RATED_DAY.year}: FIDE's first list rated the games of {FIRST_RATED_DAY.year}"
)
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


class DateBounds(NamedTuple):
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
            return f"the date {played_on} {_BEFORE_LISTS}"
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


def check_event_start(start: dt.date, what: str = "start") -> None:
    """An event's start date (or end: ``what``), like a game's date, is not before 1970
    (its games, which it does not follow, are not after today)."""
    if start < FIRST_RATED_DAY:
        raise InvalidInputError(f"the event {what} {start} {_BEFORE_LISTS}: check the year")


def age_problem(year: int, born: int | None, name: str, what: str = "a game") -> str | None:
    """Why ``name`` (born in ``born``) cannot have ``what`` in ``year``, or None."""
    if born is None or year - born >= YOUNGEST:
        return None
    if year < born:
        return f"{name} was born in {born}: {what} in {year} is before their birth"
    return f"{name} was born in {born}: {what} in {year} is at the age of {year - born}"


# -- ratings and FIDE ids ----------------------------------------------------------------


def impossible_rating(value: int) -> str | None:
    """Why a recorded rating no rating system gives (below 0, above 3000) is refused, at
    every door; None for one that may be a rating (FIDE's, or a national one such as 471,
    stored as no rating). A file's 0 is no rating; typed, 0 is refused
    (:func:`typed_rating`)."""
    if value < 0:
        return f"a recorded rating of {value}: no rating is below 0"
    if value > FIDE_RATING_MAX:
        return f"a recorded rating of {value}: no rating system gives one above {FIDE_RATING_MAX}"
    return None


def typed_rating(value: int, what: str) -> None:
    """Refuse a rating typed for a game (``--white-rating``...) that no rating system gives:
    0 too (an unrated player's is left out)."""
    why = impossible_rating(value)
    if why is None and value == 0:
        why = "a recorded rating of 0: for an unrated player leave it out"
    if why is not None:
        raise InvalidInputError(f"{what}: {why}")


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
    """What the warning says of a number given as a FIDE id that is none (a negative one: a
    value that is no number at all, as a file's reader gives it)."""
    shown = "a value that is no number" if value < 0 else str(value)
    return (
        f"{shown} is not a FIDE id (FIDE's have six to eleven digits; a national id?): not "
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


#: The longest site stored (the column's width).
SITE_MAX = 200


def site_form(written: str) -> tuple[str | None, str | None]:
    """An event's site as stored (:func:`tracker.vocabulary.name_form`, at most
    :data:`SITE_MAX` characters; none if it holds control characters), and what the
    warning says when it is not stored as written."""
    site = name_form(written)
    if has_control(site):
        return None, f"site {site[:40]!r} contains control characters: not stored"
    if len(site) > SITE_MAX:
        return site[:SITE_MAX], f"site {site[:40]!r}... is cut to {SITE_MAX} characters"
    return site or None, None


def clean_event_name(name: str) -> str:
    """An event's name as stored: Unicode-composed, blanks collapsed."""
    cleaned = name_form(name)
    if not cleaned:
        raise InvalidInputError("an event needs a name")
    if len(cleaned) > EVENT_NAME_MAX:
        raise InvalidInputError(f"an event name is limited to {EVENT_NAME_MAX} characters")
    return check_text(cleaned, "event name")


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


# -- a game in its event ---------------------------------------------------------------


class EventFit(NamedTuple):
    """What a game of an event must fit: the event's declared start, end, rounds (``strict``:
    declared by the user; a file's rounds grow with a later round) and time control, and
    whether it is a declared league; for an event without a declared end, the days of its
    other games nearest to the game's (``before``, ``after``: None where there is none)."""

    name: str
    start: dt.date | None = None
    end: dt.date | None = None
    rounds: int | None = None
    strict: bool = False
    tc: TimeControl | None = None
    tc_from: str = "declared"  # or "its games so far"
    league: bool = False
    before: dt.date | None = None
    after: dt.date | None = None
    stored: bool = True  # the event is stored already (else a file brings it)

    def problems(self, played_on: dt.date, round_: str | None, tc: TimeControl | None) -> list[str]:
        """Why a game of ``tc`` on ``played_on`` in round ``round_`` does not fit the
        event (one line each)."""
        out = []
        name = self.name
        if self.tc is not None and tc != self.tc:
            out.append(
                f"{name!r} is a {self.tc} event ({self.tc_from}) and this game is {tc}: an "
                "event is rated on one list; give each time control its own event"
            )
        if self.start is not None and played_on < self.start:
            out.append(f"the game's date {played_on} is before {name!r} starts ({self.start})")
        if self.end is not None and played_on > self.end:
            out.append(
                f"the game's date {played_on} is after {name!r} ends ({self.end}, as "
                f"declared): check the date, or `tracker event edit {name!r} --end "
                f"{played_on}` if it goes on"
            )
        number = round_number(round_)
        if self.strict and self.rounds is not None and number is not None and number > self.rounds:
            out.append(
                f"round {round_} of {name!r}, which has {self.rounds} rounds (declared): check "
                f"the round, or `tracker event edit {name!r} --rounds {number}`"
            )
        if self.end is None and not self.league:
            out.extend(self._apart(played_on))
        return out

    def _apart(self, played_on: dt.date) -> list[str]:
        """A game a month or more away from the rest of an event without declared dates: most
        often a mistyped year, which would make it a league of empty months."""
        before, after = self.before, self.after
        if before is None and after is None:
            return []
        if before is not None and a_month_after(before) > played_on:
            return []
        if after is not None and a_month_before(after) < played_on:
            return []
        if before is None or (after is not None and after - played_on < played_on - before):
            near, side = after, "before"
        else:
            near, side = before, "after"
        if self.stored:
            declare = f"`tracker event edit {self.name!r} --end DATE`"
        else:
            first = min(d for d in (before, after, played_on) if d is not None)
            declare = f"first: `tracker event add {self.name!r} --start {first} --end DATE`"
        return [
            f"the game's date {played_on} is a month or more {side} the nearest game of "
            f"{self.name!r} ({near}): check the date (the year?); if the event goes on so "
            f"long, declare its dates ({declare}) or that it is a league (`--type league`)"
        ]


# -- duplicates --------------------------------------------------------------------------


class Twin(NamedTuple):
    """A stored game of the same two players on the same day, in the same time control, as a
    game coming in: most often the same game, typed or imported again under another event
    name (or none) or round."""

    game_id: int
    white: str
    black: str
    played_on: dt.date
    tc: TimeControl
    event: str | None
    round: str | None

    def is_twin_of(self, event: str | None) -> bool:
        """Whether a new game of that event is suspected to be this one: of another event
        name, or one of them of none. (Two games of one event are told apart by their
        rounds; of one round they share a natural key, which is the same game unless
        said otherwise.)"""
        return event_key(event or "") != event_key(self.event or "")

    def __str__(self) -> str:
        where = self.event or "no event"
        if self.event and self.round:
            where += f" round {self.round}"
        return (
            f"game {self.game_id} ({self.white} - {self.black}, {self.played_on.isoformat()}, "
            f"{self.tc}, {where})"
        )


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
