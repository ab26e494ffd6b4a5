"""The words every layer shares: time controls, results, and the bounds of plausible values.

One definition each, used by the rating math, the importers, the database schema, the
services and the command line alike. Standard library only, no I/O.
"""

import re
import unicodedata
from decimal import Decimal
from typing import Final, Literal, NamedTuple, get_args

TimeControl = Literal["standard", "rapid", "blitz"]
"""The three separate FIDE rating lists (standard, rapid, blitz)."""
TIME_CONTROLS: Final[tuple[TimeControl, ...]] = get_args(TimeControl)
TC_WORDS: Final = "standard, rapid or blitz"
"""The time controls as a sentence says them (help texts, messages)."""

#: The canonical results. The last three are unplayed: a forfeit won by White or by Black,
#: and a double forfeit (both absent, neither scores). Stored, counted in standings, never
#: rated (FIDE Rating Regulations 2024 §5.1: unplayed games are not counted).
RESULTS: Final[tuple[str, ...]] = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "0-0")
FORFEITS: Final[tuple[str, ...]] = ("+-", "-+", "0-0")

#: White's and Black's points in the standings for each result, played or not (a forfeit
#: counts as won and lost; a double forfeit scores nothing for either).
POINTS: Final[dict[str, tuple[Decimal, Decimal]]] = {
    "1-0": (Decimal(1), Decimal(0)),
    "0-1": (Decimal(0), Decimal(1)),
    "1/2-1/2": (Decimal("0.5"), Decimal("0.5")),
    "+-": (Decimal(1), Decimal(0)),
    "-+": (Decimal(0), Decimal(1)),
    "0-0": (Decimal(0), Decimal(0)),
}

#: The kinds of bye (a round a player has no opponent in), as FIDE's TRF writes them, and
#: the points each scores: F a full-point bye, H a half-point bye, Z a zero-point bye, U a
#: pairing-allocated bye (the odd player out of a round; a full point). Never rated.
BYE_POINTS: Final[dict[str, Decimal]] = {
    "F": Decimal(1),
    "H": Decimal("0.5"),
    "Z": Decimal(0),
    "U": Decimal(1),
}
BYE_WORDS: Final[dict[str, str]] = {
    "F": "full-point bye",
    "H": "half-point bye",
    "Z": "zero-point bye",
    "U": "pairing-allocated bye",
}

#: How a bye is typed (``Smith bye``, ``Smith bye 1/2``, ``Smith bye 0``): the points after
#: the word ``bye``, to its code. ``bye`` alone is the odd player's bye of a round (a full
#: point, pairing-allocated); ``bye 1`` a full-point bye asked for.
BYE_SPELLINGS: Final[dict[str, str]] = {
    "": "U",
    "1": "F",
    "1/2": "H",
    "½": "H",
    "0.5": "H",
    "=": "H",
    "0": "Z",
}
BYE_HELP: Final = "PLAYER bye (a full point), bye 1/2 or bye 0"


def bye_code(points: str) -> str | None:
    """The code of a bye typed with ``points`` after the word (None: no bye's points)."""
    return BYE_SPELLINGS.get(points.strip())


#: FIDE's titles as stored (read from TRF files and FIDE's lists, given to `player add`).
TITLES: Final[tuple[str, ...]] = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
#: The kinds of image a club's logo may be (``tracker site config --logo``), by file suffix.
LOGO_TYPES: Final[tuple[str, ...]] = ("png", "jpeg", "gif", "webp", "svg")
#: The kinds of event an officer declares (FIDE's registration; TRF's 092 type).
EVENT_KINDS: Final[tuple[str, ...]] = ("swiss", "round-robin", "league", "team", "match", "other")

#: White's and Black's score in a played game, exact.
SCORES: Final[dict[str, tuple[Decimal, Decimal]]] = {
    result: points for result, points in POINTS.items() if result not in FORFEITS
}

#: Every way of writing a result that tracker accepts (CSV cells, ``game add``), each mapped
#: to its canonical form. Case does not matter for the words.
RESULT_ALIASES: Final[dict[str, str]] = {
    "1-0": "1-0",
    "1:0": "1-0",
    "0-1": "0-1",
    "0:1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "1/2:1/2": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "0.5:0.5": "1/2-1/2",
    "½-½": "1/2-1/2",
    "½:½": "1/2-1/2",
    "=": "1/2-1/2",
    "draw": "1/2-1/2",
    "+-": "+-",
    "+:-": "+-",
    "-+": "-+",
    "-:+": "-+",
    "0-0": "0-0",
    "0:0": "0-0",
    "1/2": "1/2-1/2",
    "½": "1/2-1/2",
}
RESULT_HELP: Final = (
    "1-0, 0-1, 1/2-1/2 (also 1:0, 0:1, 1/2:1/2, 0.5-0.5, ½-½, =, draw), +- / -+ for a forfeit, "
    "or 0-0 for a double forfeit"
)


#: Dashes people type for the hyphen of a result (an en dash, as a word processor writes it).
_DASHES: Final = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-"})


def canonical_result(text: str) -> str | None:
    """The canonical form of a result as written (any dash for the hyphen), or None if it is
    not one."""
    value = text.strip().translate(_DASHES)
    return RESULT_ALIASES.get(value) or RESULT_ALIASES.get(value.casefold())


_ROUND_NUMBER: Final = re.compile(r"\d+")


def round_number(text: str | None) -> int | None:
    """The number of a round as stored (``5``; a team match's board ``5.1`` is round 5),
    or None for a round without one."""
    if text is None:
        return None
    found = _ROUND_NUMBER.match(text)
    return int(found[0]) if found else None


def round_order(text: str | None) -> tuple[int, ...]:
    """A round as a number to sort by (``2.1``: round 2, board 1); none or other words
    first."""
    parts = (text or "").split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else ()


DEFAULT_PRESET: Final = "lichess"
"""The shadow's Glicko flavour unless a database chose another (its parameters:
:data:`tracker.ratings.glicko.presets.PRESETS`)."""

Platform = Literal["lichess", "chesscom"]
"""The online platforms whose real ratings tracker can bring in (:data:`ONLINE_PLATFORMS`)."""


class OnlinePlatform(NamedTuple):
    """An online platform: its key (in commands, files, JSON, and the players' column of
    its account), its name, its host (a table's column header), and its rating categories
    ("perfs") of standard chess that tracker stores, with the FIDE time control each stands
    beside (None: none does)."""

    key: Platform
    label: str
    host: str
    perfs: dict[str, TimeControl | None]


#: Lichess classical (a game of 25 minutes or more, by its estimate of 40 moves) is the
#: nearest to FIDE standard; Chess.com has no classical category (its rapid runs from 10
#: minutes up), so nothing of Chess.com stands beside the standard list; daily and
#: correspondence games are not over-the-board games of any FIDE list.
LICHESS: Final = OnlinePlatform(
    "lichess",
    "Lichess",
    "lichess.org",
    {
        "classical": "standard",
        "rapid": "rapid",
        "blitz": "blitz",
        "bullet": None,
        "correspondence": None,
    },
)
CHESSCOM: Final = OnlinePlatform(
    "chesscom",
    "Chess.com",
    "chess.com",
    {"rapid": "rapid", "blitz": "blitz", "bullet": None, "daily": None},
)
ONLINE_PLATFORMS: Final[dict[str, OnlinePlatform]] = {p.key: p for p in (LICHESS, CHESSCOM)}
PLATFORMS: Final[tuple[Platform, ...]] = get_args(Platform)
PLATFORM_WORDS: Final = " or ".join(PLATFORMS)
"""The platforms as a sentence says them (help texts, messages)."""
assert tuple(ONLINE_PLATFORMS) == PLATFORMS


def online_perf(platform: str, tc: TimeControl) -> str | None:
    """The ``platform`` perf that stands beside the FIDE list ``tc`` (None: none does)."""
    found = ONLINE_PLATFORMS.get(platform)
    for perf, mapped in (found.perfs if found else {}).items():
        if mapped == tc:
            return perf
    return None


#: A recorded or seeded rating must lie in this range (0 or blank means unrated in files).
RATING_MIN: Final = 0
RATING_MAX: Final = 4000

#: A rating typed by hand (a seed, a game's recorded rating) must lie in this range: FIDE's
#: lowest published rating was ever 1000, and nobody has been rated near 3000.
PLAUSIBLE_RATING_MIN: Final = 1000
PLAUSIBLE_RATING_MAX: Final = 3000

#: Calendar years tracker stores: chess ratings began long after 1850, and the calendar
#: stays well inside what Python and both databases handle. Dates and birth years alike.
YEAR_MIN: Final = 1850
YEAR_MAX: Final = 2200


def plays_self(name: str) -> str:
    """Why a game of a player against himself is refused, at every door."""
    return f"{name} cannot play themselves: white and black are one player"


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``: a count as messages say it."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def name_form(text: str) -> str:
    """A name (a player's, an event's) as it is stored and compared, at every door: composed
    (NFC: "ü" typed as "u" and a combining diaeresis is "ü"), without invisible format
    characters (a zero-width space or joiner, a soft hyphen, a direction mark: two names
    that look alike are one), blanks collapsed to one space and trimmed."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
        text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return " ".join(text.split())


def event_key(name: str) -> str:
    """What two spellings of one event share: the name without case or extra blanks."""
    return name_form(name).casefold()
