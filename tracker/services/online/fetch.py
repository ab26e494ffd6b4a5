"""Real online ratings: fetched from Lichess and Chess.com, or imported from a saved response,
stored per player, platform, perf and day (:mod:`tracker.services.online.reads` reads them
back).

Fetching is split in three so that no transaction stays open while the network is slow:
:func:`plan_fetch` (a read: who is linked, what is stored already), :func:`download` (the
network only, through an injected :data:`~tracker.services.online.http.Fetch`; no database) and
:func:`store_downloads` (one write). A failed download raises before anything is written.

Re-fetching adds only new points: a day already stored keeps its row (its rating is updated
if the platform now reports another one, e.g. a day that was still being played), and
Chess.com's monthly archives are fetched from the month of the last stored point on.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tracker.db.driver import Db
from tracker.db.queries import online as q
from tracker.db.queries.players import PlayerRow, player_by_id
from tracker.errors import InvalidInputError, NotFoundError
from tracker.files import open_input
from tracker.services import log
from tracker.services.online import parse
from tracker.services.online.parse import OnlineParse, OnlinePoint
from tracker.services.players.refs import find
from tracker.vocabulary import CHESSCOM, LICHESS, ONLINE_PLATFORMS, PLATFORM_WORDS, PLATFORMS

if TYPE_CHECKING:  # the network's module is imported by the command that fetches only
    from tracker.services.online.http import Fetch

LICHESS_HISTORY = "https://lichess.org/api/user/{user}/rating-history"
CHESSCOM_ARCHIVES = "https://api.chess.com/pub/player/{user}/games/archives"


def lichess_url(user: str) -> str:
    return LICHESS_HISTORY.format(user=quote(user, safe=""))


def chesscom_archives_url(user: str) -> str:
    # Chess.com's API wants the user name in lower case.
    return CHESSCOM_ARCHIVES.format(user=quote(user.lower(), safe=""))


def check_platform(platform: str) -> str:
    word = platform.strip().lower().replace(".", "")
    if word not in PLATFORMS:
        raise InvalidInputError(f"unknown platform {platform!r}: use {PLATFORM_WORDS}")
    return word


# ------------------------------------------------------------------------------ storing


@dataclass(frozen=True)
class Stored:
    """What storing one player's points on one platform did, per perf."""

    player_id: int
    name: str
    platform: str
    user: str
    added: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    unchanged: dict[str, int] = field(default_factory=dict)
    latest: dict[str, tuple[dt.date, int]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def total_added(self) -> int:
        return sum(self.added.values())


def store_points(
    db: Db,
    player: PlayerRow,
    platform: str,
    points: Iterable[OnlinePoint],
    notes: Sequence[str] = (),
) -> Stored:
    """Add the points not stored yet; update a stored day whose rating changed."""
    existing = {(p.perf, p.day): p for p in q.stored_points(db, player.id, platform)}
    added: dict[str, int] = {}
    updated: dict[str, int] = {}
    unchanged: dict[str, int] = {}
    latest: dict[str, tuple[dt.date, int]] = {}
    new_points: list[q.PerfPoint] = []
    new_ratings: dict[int, int] = {}  # stored point id: its new rating
    for p in points:
        if p.perf not in latest or p.day >= latest[p.perf][0]:
            latest[p.perf] = (p.day, p.rating)
        stored = existing.get((p.perf, p.day))
        if stored is None:
            new_points.append(q.PerfPoint(player.id, platform, p.perf, p.day, p.rating))
            added[p.perf] = added.get(p.perf, 0) + 1
        elif stored.rating != p.rating:
            new_ratings[stored.id] = p.rating
            updated[p.perf] = updated.get(p.perf, 0) + 1
        else:
            unchanged[p.perf] = unchanged.get(p.perf, 0) + 1
    for point_id, rating in new_ratings.items():
        q.set_rating(db, point_id, rating)
    q.add_points(db, new_points)
    user = player.user(platform) or ""
    if new_points or new_ratings:
        log.note(
            db,
            "imported",
            f"{ONLINE_PLATFORMS[platform].label} ratings of #{player.id} {player.name}: "
            f"{len(new_points)} points added, {len(new_ratings)} changed",
            players=[player.id],
        )
    return Stored(
        player.id, player.name, platform, user, added, updated, unchanged, latest, tuple(notes)
    )


def _notes(result: OnlineParse, where: str) -> list[str]:
    notes = [f"{where}: {p}" for p in result.problems[:5]]
    if len(result.problems) > 5:
        notes.append(f"{where}: {len(result.problems) - 5} more points could not be read")
    return notes


# ------------------------------------------------------------------------------ import


def import_file(db: Db, path: Path, player_ref: str | None) -> list[Stored]:
    """A saved API response: a Lichess rating history (``player_ref`` names the player, whose
    Lichess account must be linked: the response does not say whose it is) or a Chess.com
    monthly archive (its games name the players: every tracked player linked to one of them
    gets his points, or only ``player_ref``)."""
    with open_input(path) as file:
        data = file.read()
    return import_data(db, data, path, player_ref)


def import_data(db: Db, data: bytes, path: Path, player_ref: str | None) -> list[Stored]:
    """:func:`import_file` of bytes already read (``path`` names them in messages)."""
    payload, why = parse.read_json(data)
    if why is not None:
        raise InvalidInputError(f"{path}: {why}")
    kind = parse.kind_of(payload)
    player = find(db, player_ref) if player_ref is not None else None
    if kind == "lichess-history":
        if player is None:
            raise InvalidInputError(
                f"{path}: a Lichess rating history does not say whose it is: give --player"
            )
        if player.lichess is None:
            raise InvalidInputError(
                f"{player.name} has no linked Lichess account: "
                f'tracker player edit "{player.name}" --lichess USER'
            )
        result = parse.lichess_history(payload)
        return [store_points(db, player, LICHESS.key, result.points, _notes(result, path.name))]
    if kind == "chesscom-games":
        names = parse.chesscom_players(payload)
        if player is not None:
            if player.chesscom is None:
                raise InvalidInputError(
                    f"{player.name} has no linked Chess.com account: "
                    f'tracker player edit "{player.name}" --chesscom USER'
                )
            if player.chesscom.lower() not in names:
                raise InvalidInputError(
                    f"{path}: no game of {player.chesscom}, {player.name}'s Chess.com account"
                )
            players = [player]
        else:
            players = q.chesscom_accounts(db, sorted(names))
            if not players:
                raise NotFoundError(
                    f"{path}: none of its players is linked to a tracked player "
                    "(link one with `tracker player edit NAME --chesscom USER`)"
                )
        out = []
        for p in players:
            assert p.chesscom is not None
            result = parse.chesscom_games(payload, p.chesscom)
            out.append(store_points(db, p, CHESSCOM.key, result.points, _notes(result, path.name)))
        return out
    if kind == "chesscom-archives":
        raise InvalidInputError(
            f"{path}: a Chess.com archive list holds no ratings; import the monthly archives "
            "it lists, or use `tracker online fetch`"
        )
    raise InvalidInputError(
        f"{path}: neither a Lichess rating history nor a Chess.com monthly archive"
    )


# ------------------------------------------------------------------------------- fetch


@dataclass(frozen=True)
class FetchTarget:
    player_id: int
    name: str
    platform: str
    user: str
    since: dt.date | None  # the last stored day (Chess.com: fetch from its month on)


def plan_fetch(db: Db, ref: str | None, platform: str | None) -> list[FetchTarget]:
    """Who to fetch: ``ref`` (his linked accounts) or every tracked player with a linked
    account; only ``platform`` if given."""
    platforms = [check_platform(platform)] if platform is not None else list(PLATFORMS)
    which = " or ".join(ONLINE_PLATFORMS[p].label for p in platforms)  # for the messages
    if ref is not None:
        player = find(db, ref)
        if not any(player.user(p) for p in platforms):
            raise NotFoundError(
                f"{player.name} has no linked {which} account "
                f'(tracker player edit "{player.name}" --lichess USER --chesscom USER)'
            )
        players = [player]
    else:
        players = q.linked_accounts(db)
        if not players:
            raise NotFoundError(
                "no player has a linked online account "
                "(tracker player edit NAME --lichess USER --chesscom USER)"
            )
    last = q.last_days(db, [p.id for p in players])
    targets = [
        FetchTarget(p.id, p.name, plat, user, last.get((p.id, plat)))
        for p in players
        for plat in platforms
        if (user := p.user(plat))
    ]
    if not targets:  # --platform names one nobody is linked to
        raise NotFoundError(f"no player has a linked {which} account")
    return targets


@dataclass(frozen=True)
class Downloaded:
    target: FetchTarget
    points: tuple[OnlinePoint, ...]
    notes: tuple[str, ...]


def _json(fetch: Fetch, url: str) -> Any:
    payload, why = parse.read_json(fetch(url))
    if why is not None:
        raise InvalidInputError(f"{url}: the answer is {why}")
    return payload


def download(targets: Sequence[FetchTarget], fetch: Fetch, say: Any = None) -> list[Downloaded]:
    """Every target's points, one request after another (``say(text)`` reports progress).
    Raises at the first failure: nothing is stored then."""
    out = []
    for t in targets:
        try:
            out.append(_download(t, fetch, say))
        except NotFoundError:
            platform = ONLINE_PLATFORMS[t.platform].label
            raise NotFoundError(
                f"{platform} has no user {t.user} (linked to {t.name}); correct it with "
                f'`tracker player edit "{t.name}" --{t.platform} USER`'
            ) from None
    return out


def _download(t: FetchTarget, fetch: Fetch, say: Any) -> Downloaded:
    """One target's points: Lichess in one request, Chess.com in one per monthly archive
    (from the month of the last stored point on)."""
    if t.platform == LICHESS.key:
        url = lichess_url(t.user)
        if say is not None:
            say(f"fetching {t.name}'s Lichess rating history ({t.user})")
        result = parse.lichess_history(_json(fetch, url))
        return Downloaded(t, result.points, tuple(_notes(result, url)))
    listing = _json(fetch, chesscom_archives_url(t.user))
    archives, problems = parse.chesscom_archives(listing)
    since = t.since.replace(day=1) if t.since is not None else None
    wanted = [a for a in archives if since is None or a.first_day >= since]
    if say is not None:
        months = f"{len(wanted)} monthly archive(s)"
        new = " (from the month of the last stored point)" if since is not None else ""
        say(f"fetching {t.name}'s Chess.com games ({t.user}): {months}{new}")
    points: list[OnlinePoint] = []
    notes = [f"{chesscom_archives_url(t.user)}: {p}" for p in problems]
    for archive in wanted:
        result = parse.chesscom_games(_json(fetch, archive.url), t.user)
        points.extend(result.points)
        notes.extend(_notes(result, archive.url))
    return Downloaded(t, tuple(points), tuple(notes))


def store_downloads(db: Db, downloads: Sequence[Downloaded]) -> list[Stored]:
    out = []
    for d in downloads:
        player = player_by_id(db, d.target.player_id)
        if player is None or player.user(d.target.platform) != d.target.user:
            raise InvalidInputError(
                f"{d.target.name}'s {ONLINE_PLATFORMS[d.target.platform].label} account changed "
                "while fetching; fetch again"
            )
        out.append(store_points(db, player, d.target.platform, d.points, d.notes))
    return out
