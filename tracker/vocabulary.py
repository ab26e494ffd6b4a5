"""The words every layer shares: time controls, results, and the bounds of plausible values.

One definition each, used by the rating math, the importers, the database schema, the
services and the command line alike. Standard library only, no I/O.
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Final, Literal, get_args

TimeControl = Literal["standard", "rapid", "blitz"]
"""The three separate FIDE rating lists (standard, rapid, blitz)."""
TIME_CONTROLS: Final[tuple[TimeControl, ...]] = get_args(TimeControl)
TC_WORDS: Final = "standard, rapid or blitz"
"""The time controls as a sentence says them (help texts, messages)."""

#: The canonical results. The last two are forfeits: stored, never rated (FIDE Rating
#: Regulations 2024 §5.1: unplayed games are not counted).
RESULTS: Final[tuple[str, ...]] = ("1-0", "0-1", "1/2-1/2", "+-", "-+")
FORFEITS: Final[tuple[str, ...]] = ("+-", "-+")

#: White's and Black's score in a played game, exact.
SCORES: Final[dict[str, tuple[Decimal, Decimal]]] = {
    "1-0": (Decimal(1), Decimal(0)),
    "0-1": (Decimal(0), Decimal(1)),
    "1/2-1/2": (Decimal("0.5"), Decimal("0.5")),
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
}
RESULT_HELP: Final = (
    "1-0, 0-1, 1/2-1/2 (also 1:0, 0:1, 1/2:1/2, 0.5-0.5, ½-½, =, draw), or +- / -+ for a forfeit"
)


def canonical_result(text: str) -> str | None:
    """The canonical form of a result as written, or None if it is not one."""
    value = text.strip()
    return RESULT_ALIASES.get(value) or RESULT_ALIASES.get(value.casefold())


Platform = Literal["lichess", "chesscom"]
"""The online platforms whose real ratings tracker can bring in."""
PLATFORMS: Final[tuple[Platform, ...]] = get_args(Platform)
PLATFORM_NAMES: Final[dict[str, str]] = {"lichess": "Lichess", "chesscom": "Chess.com"}

#: Each platform's rating categories ("perfs") of standard chess that tracker stores, and the
#: FIDE time control each stands beside (None: none does). Lichess classical (a game of 25
#: minutes or more, by its estimate of 40 moves) is the nearest to FIDE standard; Chess.com
#: has no classical category (its rapid runs from 10 minutes up), so nothing of Chess.com
#: stands beside the standard list; daily and correspondence games are not over-the-board
#: games of any FIDE list.
ONLINE_PERFS: Final[dict[str, dict[str, TimeControl | None]]] = {
    "lichess": {
        "classical": "standard",
        "rapid": "rapid",
        "blitz": "blitz",
        "bullet": None,
        "correspondence": None,
    },
    "chesscom": {"rapid": "rapid", "blitz": "blitz", "bullet": None, "daily": None},
}


def online_perf(platform: str, tc: str) -> str | None:
    """The ``platform`` perf that stands beside the FIDE list ``tc`` (None: none does)."""
    for perf, mapped in ONLINE_PERFS.get(platform, {}).items():
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
