"""``compare --all --online PLATFORM``: the least-squares line between FIDE and a platform's
rating across the players linked to it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries.online import tracked_on
from tracker.months import next_month
from tracker.ratings.fit import LineFit, fit_line
from tracker.services import lists
from tracker.services.online.fetch import check_platform
from tracker.services.online.reads import series_for
from tracker.user_input import today
from tracker.vocabulary import ONLINE_PLATFORMS, TimeControl, online_perf

# --------------------------------------------------------------------------------------
# FIDE beside a platform: the least-squares line across the linked players

ONLINE_MAX_AGE = dt.timedelta(days=365)
"""An online rating older than this on the list date is left out of the fit: it says how
strong the player was then, not now."""


@dataclass(frozen=True)
class FitRow:
    player_id: int
    name: str
    elo: int
    online: int
    online_day: dt.date
    fitted: float | None
    residual: float | None


@dataclass(frozen=True)
class OnlineFit:
    tc: TimeControl
    platform: str
    perf: str | None  # None: the platform has no perf beside this list
    list_date: dt.date
    from_list: bool  # False: no closed period yet, the seeds and today's date stand in
    rows: tuple[FitRow, ...]
    left_out: tuple[tuple[str, str], ...]  # (name, why)
    fit: LineFit | None
    stale: bool


def online_fit(db: Db, tc: TimeControl, platform: str) -> OnlineFit:
    """Every player linked to ``platform``: his Elo on the latest list and his real rating in
    the perf beside ``tc`` (the latest point on or before the list date, at most a year old),
    and the least-squares line of the online rating on the Elo."""
    platform = check_platform(platform)
    perf = online_perf(platform, tc)
    closed = lists.closed_months(db, tc)
    if closed:
        month, _period, _ = closed[-1]
        list_date = next_month(month)
        elo: dict[int, int | None] = lists.ratings_at(db, tc, month)
    else:
        list_date = today()
        elo = {pid: s.rating for pid, s in lists.seeds(db, tc).items()}
    linked = tracked_on(db, platform)
    series = series_for(db, [p.id for p in linked], tc) if perf else {}
    pairs: list[tuple[int, str, int, dt.date, int]] = []  # id, name, Elo, day, online
    left_out: list[tuple[str, str]] = []
    for pid, name in linked:
        rating = elo.get(pid)
        mine = next((s for s in series.get(pid, []) if s.platform == platform), None)
        point = mine.on(list_date) if mine is not None else None
        if rating is None:
            left_out.append((name, "no Elo on the list"))
        elif point is None:
            left_out.append((name, f"no {ONLINE_PLATFORMS[platform].label} {perf} rating by then"))
        else:
            on, online = point
            if list_date - on > ONLINE_MAX_AGE:
                left_out.append((name, f"last {ONLINE_PLATFORMS[platform].label} rating on {on}"))
            else:
                pairs.append((pid, name, rating, on, online))
    fit = fit_line([float(e) for _, _, e, _, _ in pairs], [float(o) for *_, o in pairs])
    rows = tuple(
        FitRow(
            pid,
            name,
            rating,
            online,
            on,
            fit.predict(rating) if fit is not None else None,
            online - fit.predict(rating) if fit is not None else None,
        )
        for pid, name, rating, on, online in pairs
    )
    return OnlineFit(
        tc=tc,
        platform=platform,
        perf=perf,
        list_date=list_date,
        from_list=bool(closed),
        rows=tuple(sorted(rows, key=lambda r: (-r.elo, r.name))),
        left_out=tuple(left_out),
        fit=fit,
        stale=any(s for _, _, s in closed),
    )
