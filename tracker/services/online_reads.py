"""A player's stored online ratings, read beside FIDE Elo and the shadow (plain reads, for
``compare``; fetching and storing them is :mod:`tracker.services.online`)."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tracker.db.driver import Db, chunks, day
from tracker.vocabulary import PLATFORM_NAMES, PLATFORMS, online_perf

if TYPE_CHECKING:
    from tracker.db.driver import Source


@dataclass(frozen=True)
class OnlineSeries:
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
        return f"{PLATFORM_NAMES[self.platform]} {self.perf}"


def series_for(source: Source, player_ids: Iterable[int], tc: str) -> dict[int, list[OnlineSeries]]:
    """Per player, his series for ``tc`` on each linked platform (those with a perf for it)."""
    ids = list(player_ids)
    if not ids:
        return {}
    db = Db.of(source)
    perfs: dict[str, str | None] = {p: online_perf(p, tc) for p in PLATFORMS}
    wanted = [(platform, perf) for platform, perf in perfs.items() if perf is not None]
    params: dict[str, Any] = {}
    for i, (name, wanted_perf) in enumerate(wanted):
        params[f"platform{i}"], params[f"perf{i}"] = name, wanted_perf
    perf_test = " OR ".join(
        f"(platform = :platform{i} AND perf = :perf{i})" for i in range(len(wanted))
    )
    users: dict[int, tuple[str | None, str | None]] = {}
    points: dict[tuple[int, str], list[tuple[dt.date, int]]] = {}
    for chunk in chunks(sorted(set(ids))):
        for pid, lichess, chesscom in db.all(
            "SELECT id, lichess, chesscom FROM players WHERE id IN (:ids)", {"ids": chunk}
        ):
            users[pid] = (lichess, chesscom)
        if not wanted:
            continue
        rows = db.all(
            f"""
            SELECT player_id, platform, day, rating FROM online_ratings
            WHERE player_id IN (:ids) AND ({perf_test})
            ORDER BY player_id, platform, day""",
            {**params, "ids": chunk},
        )
        for pid, platform, when, rating in rows:
            points.setdefault((pid, platform), []).append((day(when), rating))
    out: dict[int, list[OnlineSeries]] = {}
    for pid in ids:
        lichess, chesscom = users.get(pid, (None, None))
        for platform, user in (("lichess", lichess), ("chesscom", chesscom)):
            perf = perfs[platform]
            if user is None or perf is None:
                continue
            out.setdefault(pid, []).append(
                OnlineSeries(platform, user, perf, tuple(points.get((pid, platform), ())))
            )
    return out
