"""Elo beside the shadow: one player month by month, everyone at once, and which system
predicted the games better."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import history as queries
from tracker.months import next_month
from tracker.ratings import glicko
from tracker.ratings.glicko import GlickoPreset, GlickoState
from tracker.ratings.shadow import ShadowPlayer, as_of
from tracker.services import lists
from tracker.services import periods as registry
from tracker.services.online.reads import OnlineSeries, series_for
from tracker.services.periods.history import not_rated_here, plays_external
from tracker.services.players.refs import find
from tracker.services.shadow import reads as shadow_reads
from tracker.services.shadow.config import check_preset, get_config
from tracker.services.systems import Beside, OnList, Reading
from tracker.vocabulary import TimeControl


@dataclass(frozen=True)
class ComparePoint:
    """The shadow right after one game (for plots)."""

    played_on: dt.date
    rating: float
    rd: float
    provisional: bool


@dataclass(frozen=True)
class OnlineAt:
    """A real online rating on a list date: the latest point on or before it."""

    platform: str
    day: dt.date
    rating: int


@dataclass(frozen=True)
class CompareRow:
    month: dt.date
    list_date: dt.date
    elo: int | None
    glicko: float | None
    display: str | None
    rd: float | None
    volatility: float | None  # None for Glicko-1 (``chesscom``), which has none
    provisional: bool | None
    difference: float | None
    online: tuple[OnlineAt, ...] = ()
    readings: tuple[Reading | None, ...] = ()  # the other systems' (Comparison.beside)

    def online_on(self, platform: str) -> OnlineAt | None:
        return next((o for o in self.online if o.platform == platform), None)


@dataclass(frozen=True)
class Comparison:
    player_id: int
    name: str
    tc: TimeControl
    preset: str
    stored: bool
    external_rd: float
    assumptions: tuple[str, ...]
    rows: tuple[CompareRow, ...]
    points: tuple[ComparePoint, ...]
    stale_months: tuple[dt.date, ...]
    # The Elo in force when the first compared month began (a seed or an earlier list).
    elo_start: tuple[dt.date, int] | None = None
    system: str = "glicko2"
    assumption_summary: str = ""
    # The player's real online ratings in the perf beside ``tc``, per linked platform.
    online: tuple[OnlineSeries, ...] = ()
    # The registered systems beside the Elo but the shadow (each row's ``readings``).
    beside: Beside = field(default_factory=Beside)

    @property
    def has_volatility(self) -> bool:
        return self.system == "glicko2"

    def online_series(self, platform: str) -> OnlineSeries | None:
        return next((o for o in self.online if o.platform == platform), None)

    # Whether the months compared hold games against external opponents; the RD from which
    # the preset marks a rating provisional.
    external_opponents: bool = False
    provisional_rd: float | None = None


def _row(
    month: dt.date,
    elo: int | None,
    player: ShadowPlayer | None,
    preset: GlickoPreset,
    series: list[OnlineSeries],
    readings: tuple[Reading | None, ...],
) -> CompareRow:
    list_date = next_month(month)
    real = tuple(
        OnlineAt(s.platform, *point) for s in series if (point := s.on(list_date)) is not None
    )
    if player is None:
        return CompareRow(month, list_date, elo, None, None, None, None, None, None, real, readings)
    state = as_of(player, list_date, preset)
    return CompareRow(
        month=month,
        list_date=list_date,
        elo=elo,
        glicko=state.rating,
        display=glicko.display(state, preset),
        rd=state.rd,
        volatility=state.volatility if preset.system == "glicko2" else None,
        provisional=glicko.is_provisional(state, preset),
        difference=None if elo is None else state.rating - elo,
        online=real,
        readings=readings,
    )


def compare(db: Db, ref: str, tc: TimeControl, preset_name: str | None) -> Comparison:
    """Per closed month: the published Elo and the shadow at the list date."""
    player = find(db, ref)
    if player.external:
        raise not_rated_here(player)
    config = get_config(db)
    name = check_preset(preset_name) if preset_name else config.preset
    preset = config.glicko_preset(name)
    closed = lists.closed_months(db, tc)
    months = [m for m, _, _ in closed]
    lines = lists.player_lines(db, tc, player.id, closed)
    elo = {month: line.rating for month, _, line in lines}
    stored = name == config.preset
    month_states: dict[dt.date, ShadowPlayer] = {}
    points: list[ComparePoint] = []
    if stored:
        for row in queries.stored_shadow(db, tc, player.id):
            state = GlickoState(row.rating, row.rd, row.volatility)
            if row.game_id is None:
                month_states[row.month] = ShadowPlayer(state, row.last_played, row.games)
            else:
                assert row.played_on is not None
                provisional = glicko.is_provisional(state, preset)
                points.append(ComparePoint(row.played_on, row.rating, row.rd, provisional))
        # idle months: the latest earlier month-end row (shadow_reads.month_end_players)
        month_states = shadow_reads.fill_months(month_states, months)
    else:
        dates = queries.game_days(db, tc, player.id)
        for replayed in shadow_reads.replay(db, tc, config, name):
            if player.id in replayed.players:
                month_states[replayed.month] = replayed.players[player.id]
            for u in replayed.updates:
                if u.player_id == player.id and preset.period == "game":
                    s = u.after.state
                    points.append(
                        ComparePoint(
                            dates[u.game_id], s.rating, s.rd, glicko.is_provisional(s, preset)
                        )
                    )
    elo_start = None  # the rating he was first listed with, on the list before his first
    if lines:
        first_month, _, first_line = lines[0]
        if first_line.rating_before is not None:
            elo_start = (first_month, first_line.rating_before)
    series = series_for(db, [player.id], tc).get(player.id, [])
    beside = Beside.of(db, registry.others())
    others = [s.of_player(db, tc, player.id, months) for s in beside.systems]
    out = [
        _row(
            month,
            elo.get(month),
            month_states.get(month),
            preset,
            series,
            tuple(by_month.get(month) for by_month in others),
        )
        for month in months
        if month in month_states or elo.get(month) is not None
    ]
    return Comparison(
        player_id=player.id,
        name=player.name,
        tc=tc,
        preset=name,
        stored=stored,
        external_rd=config.external_rd,
        assumptions=preset.assumptions,
        rows=tuple(out),
        points=tuple(points),
        stale_months=tuple(m for m, _, s in closed if s),
        elo_start=elo_start,
        system=preset.system,
        assumption_summary=preset.assumption_summary,
        online=tuple(series),
        external_opponents=plays_external(db, tc, out[-1].list_date if out else None, player.id),
        provisional_rd=preset.provisional_rd,
        beside=beside,
    )


@dataclass(frozen=True, slots=True)  # one per player: hundreds of thousands
class StandingRow:
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


@dataclass(frozen=True)
class Standings:
    tc: TimeControl
    preset: str
    list_date: dt.date | None
    rows: tuple[StandingRow, ...]
    stale: bool
    external_rd: float = 60.0
    assumption_summary: str = ""
    external_opponents: bool = False
    provisional_rd: float | None = None
    others: OnList = field(default_factory=OnList)  # the other systems' readings


def _ranks(values: dict[int, float]) -> dict[int, int]:
    ordered = sorted(values.items(), key=lambda kv: -kv[1])
    ranks: dict[int, int] = {}
    previous: float | None = None
    rank = 0
    for position, (pid, value) in enumerate(ordered, start=1):
        if value != previous:
            rank, previous = position, value
        ranks[pid] = rank
    return ranks


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
    names = queries.all_player_names(db)
    elo_rated = {p: float(r) for p, r in elo.items() if r is not None}
    elo_ranks = _ranks(elo_rated)
    glicko_ranks = _ranks({p: s.rating for p, s in shadows.items() if s.rating is not None})
    gaps = {p: abs(elo_ranks[p] - glicko_ranks[p]) for p in elo_ranks if p in glicko_ranks}
    widest = max(gaps.values(), default=0)
    rows = []
    for p in set(elo) | set(shadows):
        s = shadows.get(p)
        e = elo.get(p)
        rows.append(
            StandingRow(
                player_id=p,
                name=names[p],
                elo=e,
                glicko=s.rating if s else None,
                display=s.shown if s else None,
                rd=s.rd if s else None,
                provisional=s.provisional if s else None,
                difference=_difference(s.rating if s else None, e),
                elo_rank=elo_ranks.get(p),
                glicko_rank=glicko_ranks.get(p),
                flagged=widest > 0 and gaps.get(p) == widest,
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
