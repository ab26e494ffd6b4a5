"""Elo beside the shadow: one player month by month, everyone at once, and which system
predicted the games better."""

import datetime as dt
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import history as queries
from tracker.db.queries.history import plays_external
from tracker.months import next_month
from tracker.ratings.glicko.api import display, is_provisional
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState
from tracker.ratings.shadow import ShadowPlayer, as_of
from tracker.services import lists
from tracker.services.online.reads import OnlineSeries, series_for
from tracker.services.periods import registry
from tracker.services.periods.history import not_rated_here
from tracker.services.players.refs import find
from tracker.services.shadow import reads as shadow_reads
from tracker.services.shadow.config import check_preset, get_config
from tracker.services.systems import Beside, Reading
from tracker.vocabulary import TimeControl


class ComparePoint(NamedTuple):
    """The shadow right after one game (for plots)."""

    played_on: dt.date
    rating: float
    rd: float
    provisional: bool


class OnlineAt(NamedTuple):
    """A real online rating on a list date: the latest point on or before it."""

    platform: str
    day: dt.date
    rating: int


class CompareRow(NamedTuple):
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


class Comparison(NamedTuple):
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
    beside: Beside = Beside()

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
        display=display(state, preset),
        rd=state.rd,
        volatility=state.volatility if preset.system == "glicko2" else None,
        provisional=is_provisional(state, preset),
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
                provisional = is_provisional(state, preset)
                points.append(ComparePoint(row.played_on, row.rating, row.rd, provisional))
        # idle months: the latest earlier month-end row (shadow_reads.month_end_players)
        month_states = shadow_reads.fill_months(month_states, months)
    else:
        dates = queries.game_days(db, player.id).get(tc, {})
        for replayed in shadow_reads.replay(db, tc, config, name):
            if player.id in replayed.players:
                month_states[replayed.month] = replayed.players[player.id]
            for u in replayed.updates:
                if u.player_id == player.id and preset.period == "game":
                    s = u.after.state
                    points.append(
                        ComparePoint(dates[u.game_id], s.rating, s.rd, is_provisional(s, preset))
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
