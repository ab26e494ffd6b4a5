"""A player's stored online ratings read back: what ``online show`` lists, and the series
``compare`` draws beside FIDE Elo and the shadow. Fetching and importing them is
:mod:`tracker.services.online.fetch`."""

import bisect
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import online as q
from tracker.db.queries.players import players_by_ids
from tracker.services.players.refs import find
from tracker.vocabulary import ONLINE_PLATFORMS, PLATFORMS, TimeControl, online_perf


class OnlineSeries(NamedTuple):
    """A player's stored points in the perf of one platform that stands beside a FIDE list."""

    platform: str
    user: str
    perf: str
    points: tuple[tuple[dt.date, int], ...]

    def on(self, day: dt.date) -> tuple[dt.date, int] | None:
        """The latest point on or before ``day``."""
        days = [d for d, _ in self.points]
        i = bisect.bisect_right(days, day)
        return self.points[i - 1] if i else None

    @property
    def label(self) -> str:
        return f"{ONLINE_PLATFORMS[self.platform].label} {self.perf}"


def series_for(db: Db, player_ids: Iterable[int], tc: TimeControl) -> dict[int, list[OnlineSeries]]:
    """Per player, his series for ``tc`` on each linked platform (those with a perf for it)."""
    ids = list(player_ids)
    if not ids:
        return {}
    perfs: dict[str, str | None] = {p: online_perf(p, tc) for p in PLATFORMS}
    wanted = [(platform, perf) for platform, perf in perfs.items() if perf is not None]
    found = {p.id: p for p in players_by_ids(db, ids)}
    points: dict[tuple[int, str], list[tuple[dt.date, int]]] = {}
    for p in q.perf_points(db, ids, wanted):
        points.setdefault((p.player_id, p.platform), []).append((p.day, p.rating))
    out: dict[int, list[OnlineSeries]] = {}
    for pid in ids:
        account = found.get(pid)
        for platform in PLATFORMS:
            user = account.user(platform) if account is not None else None
            perf = perfs[platform]
            if user is None or perf is None:
                continue
            out.setdefault(pid, []).append(
                OnlineSeries(platform, user, perf, tuple(points.get((pid, platform), ())))
            )
    return out


@dataclass(frozen=True)
class PerfSummary:
    platform: str
    perf: str
    tc: TimeControl | None
    points: int
    first: dt.date
    last: dt.date
    rating: int


@dataclass(frozen=True)
class OnlineView:
    player_id: int
    name: str
    lichess: str | None
    chesscom: str | None
    perfs: tuple[PerfSummary, ...]


def show(db: Db, ref: str) -> OnlineView:
    """A player's linked accounts and what is stored of each perf."""
    player = find(db, ref)
    grouped: dict[tuple[str, str], list[q.PerfPoint]] = {}
    for p in q.player_points(db, player.id):  # by platform, perf and day
        grouped.setdefault((p.platform, p.perf), []).append(p)
    order: dict[str, int] = {p: i for i, p in enumerate(PLATFORMS)}

    def rank(key: tuple[str, str]) -> tuple[int, int]:
        platform, perf = key
        return order[platform], list(ONLINE_PLATFORMS[platform].perfs).index(perf)

    perfs = tuple(
        PerfSummary(
            platform=platform,
            perf=perf,
            tc=ONLINE_PLATFORMS[platform].perfs.get(perf),
            points=len(pts),
            first=pts[0].day,
            last=pts[-1].day,
            rating=pts[-1].rating,
        )
        for (platform, perf), pts in sorted(grouped.items(), key=lambda kv: rank(kv[0]))
    )
    return OnlineView(player.id, player.name, player.lichess, player.chesscom, perfs)
