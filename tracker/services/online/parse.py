"""Online platforms' rating histories, as their public APIs send them, turned into points:
(perf, day, rating). Pure: no network, no database; never raises on bad input.

Formats (the public, unauthenticated APIs):

* Lichess, ``GET https://lichess.org/api/user/{username}/rating-history``: a JSON list with
  one entry per perf, ``{"name": "Classical", "points": [[2026, 0, 31, 2043], ...]}``, each
  point ``[year, month, day, rating]`` with the month **0-based** (January is 0): the rating
  at the end of that day. The response does not name the user.
* Chess.com, ``GET https://api.chess.com/pub/player/{username}/games/archives``:
  ``{"archives": [".../games/2026/01", ...]}``, one URL per month with games; and each
  monthly archive ``{"games": [{"time_class": "rapid", "rules": "chess", "rated": true,
  "end_time": 1767300000, "white": {"username": "...", "rating": 1480, ...},
  "black": {...}}, ...]}``. A game carries both players' ratings after it; a day's rating
  is the one after the player's last rated game of standard chess that day (UTC).

Only the perfs of :data:`tracker.vocabulary.ONLINE_PLATFORMS` are kept (standard chess: no
variants, no puzzles, no ultrabullet). A point that cannot be read is left out with a note.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal

from tracker.vocabulary import CHESSCOM, LICHESS, RATING_MAX, RATING_MIN

Kind = Literal["lichess-history", "chesscom-games", "chesscom-archives"]

_ARCHIVE_URL: Final = re.compile(r"/games/(\d{4})/(\d{2})/?$")


@dataclass(frozen=True, slots=True)
class OnlinePoint:
    """A player's rating in one perf (the platform's rating category) at the end of a day."""

    perf: str
    day: dt.date
    rating: int


@dataclass(frozen=True, slots=True)
class OnlineParse:
    """What a response held: the points, and one note per thing left out."""

    points: tuple[OnlinePoint, ...]
    problems: tuple[str, ...] = ()
    ignored_perfs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Archive:
    """One month of a Chess.com player's games, by its URL."""

    year: int
    month: int
    url: str

    @property
    def first_day(self) -> dt.date:
        return dt.date(self.year, self.month, 1)


def read_json(data: bytes) -> tuple[Any, str | None]:
    """The decoded JSON, or None and why not."""
    try:
        return json.loads(data.decode("utf-8-sig")), None
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg} at line {exc.lineno})"
    except RecursionError:  # [[[[... 100,000 deep: no platform answers so
        return None, "not JSON tracker reads (arrays or objects nested too deeply)"


def kind_of(payload: Any) -> Kind | None:
    """Which response ``payload`` is, or None for none of the three."""
    if isinstance(payload, list) and all(
        isinstance(e, dict) and "name" in e and "points" in e for e in payload
    ):
        return "lichess-history"
    if isinstance(payload, dict) and isinstance(payload.get("games"), list):
        return "chesscom-games"
    if isinstance(payload, dict) and isinstance(payload.get("archives"), list):
        return "chesscom-archives"
    return None


def _rating(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != int(value) or not RATING_MIN < value <= RATING_MAX:
        return None
    return int(value)


def _last_per_day(points: Iterable[tuple[str, dt.date, int]]) -> tuple[OnlinePoint, ...]:
    """One point per perf and day, the last one given; sorted by perf and day."""
    latest: dict[tuple[str, dt.date], int] = {}
    for perf, day, rating in points:
        latest[(perf, day)] = rating
    return tuple(OnlinePoint(p, d, r) for (p, d), r in sorted(latest.items()))


def lichess_history(payload: Any) -> OnlineParse:
    """Points from Lichess's rating-history response (see the module docstring)."""
    if kind_of(payload) != "lichess-history":
        return OnlineParse((), ("not a Lichess rating history (a list of {name, points})",))
    wanted = LICHESS.perfs
    problems: list[str] = []
    ignored: list[str] = []
    found: list[tuple[str, dt.date, int]] = []
    for entry in payload:
        name = entry["name"]
        perf = name.strip().lower() if isinstance(name, str) else None
        if perf not in wanted:
            ignored.append(str(name))
            continue
        points = entry["points"]
        if not isinstance(points, list):
            problems.append(f"{name}: points is not a list")
            continue
        for i, point in enumerate(points, start=1):
            if not (
                isinstance(point, list)
                and len(point) == 4
                and all(isinstance(v, int) and not isinstance(v, bool) for v in point[:3])
            ):
                problems.append(f"{name} point {i}: not [year, month, day, rating]")
                continue
            year, month0, day, value = point
            try:
                when = dt.date(year, month0 + 1, day)  # the month is 0-based
            except (ValueError, OverflowError):
                problems.append(f"{name} point {i}: no such day {year}/{month0}/{day}")
                continue
            rating = _rating(value)
            if rating is None:
                problems.append(f"{name} point {i}: implausible rating {value!r}")
                continue
            found.append((perf, when, rating))
    return OnlineParse(_last_per_day(found), tuple(problems), tuple(ignored))


def _username(side: Any) -> str | None:
    """A Chess.com game side's user name: ``username``, else the end of its ``@id`` URL."""
    if not isinstance(side, dict):
        return None
    name = side.get("username")
    if isinstance(name, str) and name:
        return name
    ident = side.get("@id")
    if isinstance(ident, str) and "/player/" in ident:
        return ident.rstrip("/").rsplit("/", 1)[-1]
    return None


def chesscom_players(payload: Any) -> set[str]:
    """Every user name (lower case) in a monthly archive."""
    if kind_of(payload) != "chesscom-games":
        return set()
    names = set()
    for game in payload["games"]:
        if isinstance(game, dict):
            for colour in ("white", "black"):
                name = _username(game.get(colour))
                if name:
                    names.add(name.lower())
    return names


def chesscom_games(payload: Any, username: str) -> OnlineParse:
    """``username``'s points from one Chess.com monthly archive: per perf (time class) and UTC
    day, their rating after their last rated game of standard chess that day."""
    if kind_of(payload) != "chesscom-games":
        return OnlineParse((), ("not a Chess.com monthly archive (an object with games)",))
    wanted = CHESSCOM.perfs
    me = username.lower()
    problems: list[str] = []
    ignored: set[str] = set()
    dated: list[tuple[int, str, dt.date, int]] = []
    for i, game in enumerate(payload["games"], start=1):
        if not isinstance(game, dict):
            problems.append(f"game {i}: not an object")
            continue
        side = next(
            (
                game.get(colour)
                for colour in ("white", "black")
                if (_username(game.get(colour)) or "").lower() == me
            ),
            None,
        )
        if side is None:
            continue  # a game of someone else (a club's or a tournament's file)
        rules = game.get("rules", "chess")
        perf = game.get("time_class")
        if rules != "chess" or perf not in wanted:
            ignored.add(f"{rules} {perf}" if rules != "chess" else str(perf))
            continue
        if game.get("rated") is False:
            continue
        end = game.get("end_time")
        if isinstance(end, bool) or not isinstance(end, int):
            problems.append(f"game {i}: no end_time")
            continue
        rating = _rating(side.get("rating"))
        if rating is None:
            problems.append(f"game {i}: implausible rating {side.get('rating')!r}")
            continue
        try:
            day = dt.datetime.fromtimestamp(end, dt.UTC).date()
        except (ValueError, OverflowError, OSError):
            problems.append(f"game {i}: impossible end_time {end}")
            continue
        dated.append((end, perf, day, rating))
    dated.sort(key=lambda t: t[0])
    points = _last_per_day((perf, day, rating) for _, perf, day, rating in dated)
    return OnlineParse(points, tuple(problems), tuple(sorted(ignored)))


def chesscom_archives(payload: Any) -> tuple[tuple[Archive, ...], tuple[str, ...]]:
    """The monthly archives listed by Chess.com's archives response, oldest first."""
    if kind_of(payload) != "chesscom-archives":
        return (), ("not a Chess.com archive list (an object with archives)",)
    found: list[Archive] = []
    problems: list[str] = []
    for url in payload["archives"]:
        match = _ARCHIVE_URL.search(url) if isinstance(url, str) else None
        if match is None or not url.startswith("https://"):
            problems.append(f"not a monthly archive URL: {url!r}")
            continue
        year, month = int(match.group(1)), int(match.group(2))
        if not 1 <= month <= 12:
            problems.append(f"not a monthly archive URL: {url!r}")
            continue
        found.append(Archive(year, month, url))
    return tuple(sorted(found, key=lambda a: (a.year, a.month))), tuple(problems)
