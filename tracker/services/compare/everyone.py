"""Elo beside the shadow for everyone at once (``compare --all``): every tracked player's
current rating in both systems, with both ranks, and who they rank most differently."""

import datetime as dt
from typing import NamedTuple

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries.history import plays_external
from tracker.db.queries.players import all_names
from tracker.months import next_month
from tracker.services import lists
from tracker.services.periods import registry
from tracker.services.shadow.config import get_config
from tracker.services.systems import OnList
from tracker.vocabulary import TimeControl


class StandingRow(NamedTuple):  # one per player: hundreds of thousands
    player_id: int
    name: str
    elo: int | None
    glicko: float | None
    display: str | None
    rd: float | None
    provisional: bool | None
    difference: float | None
    elo_rank: int | None
    glicko_rank: int | None
    flagged: bool


class Standings(NamedTuple):
    tc: TimeControl
    preset: str
    list_date: dt.date | None
    rows: tuple[StandingRow, ...]
    stale: bool
    external_rd: float = 60.0
    assumption_summary: str = ""
    external_opponents: bool = False
    provisional_rd: float | None = None
    others: OnList = OnList()  # the other systems' readings


def _ranks(values: dict[int, float]) -> dict[int, int]:
    """Each player's rank by his value, highest first (equal values share the first rank)."""
    first: dict[float, int] = {}
    for position, value in enumerate(sorted(values.values(), reverse=True), start=1):
        first.setdefault(value, position)
    return {pid: first[value] for pid, value in values.items()}


def _whole(rating: float | None) -> int | None:
    """A rating of the official list (whole numbers)."""
    return None if rating is None else int(rating)


def _difference(shadow: float | None, elo: int | None) -> float | None:
    return shadow - elo if shadow is not None and elo is not None else None


def compare_all(db: Db, tc: TimeControl) -> Standings:
    """Every tracked player's current Elo and shadow with both ranks, sorted by Elo.

    Flagged: the players whose two ranks differ the most (when they differ at all).
    """
    with without_gc():  # a row per player, hundreds of thousands: see without_gc
        return _compare_all(db, tc)


def _compare_all(db: Db, tc: TimeControl) -> Standings:
    config = get_config(db)
    preset = config.glicko_preset()
    closed = lists.closed_months(db, tc)
    if not closed:
        return Standings(
            tc, config.preset, None, (), False, config.external_rd, preset.assumption_summary
        )
    month, _, _ = closed[-1]
    list_date = next_month(month)
    # the registered systems' readings: the official list's and the shadow's
    elo = {p: _whole(r.rating) for p, r in registry.OFFICIAL.on_list(db, tc, month).items()}
    shadows = registry.system("shadow").on_list(db, tc, month)
    names = dict(all_names(db))
    elo_rated = {p: float(r) for p, r in elo.items() if r is not None}
    elo_ranks = _ranks(elo_rated)
    glicko_ranks = _ranks({p: s.rating for p, s in shadows.items() if s.rating is not None})
    gaps = {p: abs(elo_ranks[p] - glicko_ranks[p]) for p in elo_ranks if p in glicko_ranks}
    widest = max(gaps.values(), default=0)
    rows = []
    for p in set(elo) | set(shadows):
        s = shadows.get(p)
        e = elo.get(p)
        glicko = s.rating if s else None
        rows.append(
            StandingRow(  # by position (a keyword call costs twice as much): the fields in order
                p,  # player_id
                names[p],
                e,  # elo
                glicko,
                s.shown if s else None,  # display
                s.rd if s else None,
                s.provisional if s else None,
                _difference(glicko, e),
                elo_ranks.get(p),
                glicko_ranks.get(p),
                widest > 0 and gaps.get(p) == widest,  # flagged
            )
        )
    rows.sort(key=lambda r: (r.elo is None, -(r.elo or 0), r.name))
    return Standings(
        tc,
        config.preset,
        list_date,
        tuple(rows),
        any(s for _, _, s in closed),
        config.external_rd,
        preset.assumption_summary,
        plays_external(db, tc, list_date),
        preset.provisional_rd,
        OnList.read(db, registry.others(), tc, month),
    )
