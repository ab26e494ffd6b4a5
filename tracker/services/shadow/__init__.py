"""The Glicko shadow rating in the database: configuration, month closing, recomputation.

The configured preset's shadow is stored in ``glicko_history``: a row per tracked side of
every played game (per-game presets) and a month-end row per player for every closed
period in which his shadow moved (per-game presets: the players who played; per-period
presets: everyone); an idle player's month-end shadow is his latest earlier one, derived when
read (:func:`month_end_players`). Rows belong to a period, so rerating a period replaces them
with it. The reads (the stored shadow read back, the folds' inputs, the in-memory replays
behind ``compare --preset`` and ``evaluate``) are :mod:`tracker.services.shadow.reads`, the
settings :mod:`tracker.services.shadow.config`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from tracker.db.collector import without_gc
from tracker.db.driver import Db
from tracker.db.queries import periods
from tracker.db.rows import GlickoRow
from tracker.errors import InvalidInputError
from tracker.months import month_end, next_month
from tracker.services import lists
from tracker.services.systems import Reading
from tracker.vocabulary import TIME_CONTROLS, TimeControl

# The Glicko modules (the presets, the engine, the shadow's queries, settings and reads) load
# with the methods that use them: the registry makes a GlickoShadow for every reader of the
# lists, and `list` and `status` never ask it for a rating.
if TYPE_CHECKING:
    from tracker.ratings.glicko.presets import GlickoPreset, GlickoState
    from tracker.ratings.shadow import GameUpdate, ShadowPlayer
    from tracker.services.shadow.config import ShadowConfig
    from tracker.services.shadow.reads import ShadowMonth
    from tracker.services.systems import Month, Periods


def write_month(
    db: Db,
    period: int,
    month: ShadowMonth,
    after: dict[int, ShadowPlayer],
    updates: list[GameUpdate],
) -> None:
    """Store the month's snapshots: a row per tracked side of every game and a month-end row
    per player who played (per-game presets: an idle shadow does not move, see
    :func:`month_end_players`), or a month-end row per player (per-period presets)."""
    day_end = month_end(month.month)
    name = month.preset.name

    def rows() -> Iterator[GlickoRow]:  # made as they are stored
        if month.preset.period == "game":
            for game_id, pid, rating, rd, volatility, day, games, _ in updates:
                yield GlickoRow(  # by position (a keyword call costs twice as much)
                    pid, name, game_id, period, day, rating, rd, volatility, day, games
                )
        moved: Iterable[int] = (
            dict.fromkeys(u.player_id for u in updates) if month.movers_only else after
        )
        for pid in moved:
            p = after[pid]
            s = p.state
            yield GlickoRow(  # the month's end (no game), by position as above
                pid, name, None, period, day_end, s.rating, s.rd, s.volatility, p.last_played,
                p.games,
            )  # fmt: skip

    db.store(rows())


class GlickoShadow:
    """The Glicko shadow as a rating system of the month's close (``glicko_history``), for
    the configured preset."""

    name = "shadow"

    def read(self, month: Month, carry: dict[int, ShadowPlayer] | None) -> ShadowMonth:
        from tracker.services.shadow.reads import read_month  # a close's (see above)

        return read_month(
            month.db,
            month.tc,
            month.month,
            games=month.played,
            ratings=month.ratings,
            players=carry,
            keep=month.keep,
        )

    def fold(self, read: ShadowMonth) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
        from tracker.services.shadow.reads import fold_month  # a close's (see above)

        return fold_month(read)

    def write(
        self,
        month: Month,
        period: int,
        read: ShadowMonth,
        folded: tuple[dict[int, ShadowPlayer], list[GameUpdate]],
    ) -> dict[int, ShadowPlayer] | None:
        after, updates = folded
        write_month(month.db, period, read, after, updates)
        return after if month.keep else None

    def delete(self, db: Db, which: Periods) -> None:
        periods.delete_history(
            db, "glicko_history", which.tc, since=which.since, before=which.before
        )

    def on_list(self, db: Db, tc: TimeControl, month: dt.date) -> dict[int, Reading]:
        """Every player's shadow on the list dated the first of the next month (the
        configured preset; a per-game preset's idle RD grown to that day)."""
        from tracker.db.queries import shadow as queries  # a reading's (see above)
        from tracker.ratings.glicko.api import GameRater, provisional, shown
        from tracker.ratings.shadow import idle_days
        from tracker.services.shadow.config import get_config

        preset = get_config(db).glicko_preset()
        list_date = next_month(month)
        # as_of on plain floats (a list is a row a player): no state object a player
        grow = GameRater(preset).grown_rd if preset.period == "game" else None
        out = {}
        for pid, rating, rd, vol, last, _ in queries.latest_month_end_rows(db, tc, month):
            days = idle_days(last, list_date, preset)
            if grow is not None and days is not None:
                rd = grow(rd, vol, days)
            out[pid] = Reading(rating, rd, vol, shown(rating, rd, preset), provisional(rd, preset))
        return out

    def of_player(
        self, db: Db, tc: TimeControl, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]:
        """The player's shadow on the list after each of ``months`` he has one by then."""
        from tracker.db.queries import shadow as queries  # a reading's (see above)
        from tracker.ratings.shadow import as_of
        from tracker.services.shadow.config import get_config
        from tracker.services.shadow.reads import fill_months

        preset = get_config(db).glicko_preset()
        # idle months: the latest earlier month-end row
        by_month = fill_months(queries.player_month_ends(db, tc, player_id), months)
        return {
            month: _reading(as_of(player, next_month(month), preset), preset)
            for month, player in by_month.items()
        }

    def columns(self, db: Db) -> tuple[str, ...]:
        from tracker.services.shadow.config import get_config  # a reading's (see above)

        return (get_config(db).preset, "RD")

    def cells(self, reading: Reading | None) -> tuple[str, ...]:
        """The rating as the preset shows it (``1834?``: provisional), the RD whole."""
        if reading is None:
            return ("", "")
        return (reading.shown or "", "" if reading.rd is None else f"{reading.rd:.0f}")

    def fields(self, reading: Reading | None) -> dict[str, Any]:
        r = reading or Reading(None)
        return {
            "glicko": r.rating,
            "rd": r.rd,
            "volatility": r.volatility,
            "provisional": r.provisional,
        }


def _reading(state: GlickoState, preset: GlickoPreset) -> Reading:
    """A state as read on a list (:meth:`GlickoShadow.on_list` makes a list's the same way
    from its rows, on plain floats)."""
    from tracker.ratings.glicko.api import provisional, shown  # a reading's (see above)

    rating, rd = state.rating, state.rd
    return Reading(rating, rd, state.volatility, shown(rating, rd, preset), provisional(rd, preset))


def recompute(db: Db, tc: TimeControl, config: ShadowConfig) -> None:
    """Replace the stored shadow of every closed period of ``tc`` (by ``config``)."""
    from tracker.db.queries import shadow as queries  # a recomputation's (see above)
    from tracker.services.shadow.reads import fold_month, read_month

    closed = lists.closed_months(db, tc)
    queries.delete_shadow(db, tc)
    players: dict[int, ShadowPlayer] | None = None  # every shadow at the previous month's end
    with without_gc():
        for month, pid, _ in closed:
            read = read_month(db, tc, month, config, players=players)
            players, updates = fold_month(read)
            write_month(db, pid, read, players, updates)


def set_config(
    db: Db,
    *,
    preset: str | None = None,
    seed: str | None = None,
    external_rd: float | None = None,
    chesscom_start: float | None = None,
    chesscom_c: float | None = None,
    chesscom_rd_min: float | None = None,
    chesscom_rd_max: float | None = None,
    seed_rd: str | None = None,
) -> tuple[ShadowConfig, bool]:
    """Check and store a new configuration, and recompute every stored shadow if it changed;
    the configuration and whether it changed.

    ``seed_rd``: ``"auto"`` or a number (see :func:`parse_seed_rd`); None leaves it as is."""
    from tracker.db.queries import shadow as queries  # only when the settings change
    from tracker.services import log
    from tracker.services.shadow.config import (
        SEEDS,
        ShadowConfig,
        check_preset,
        get_config,
        parse_seed_rd,
    )

    current = get_config(db)
    if preset is not None:
        check_preset(preset)
    if seed is not None and seed not in SEEDS:
        raise InvalidInputError(f"unknown seeding {seed!r}: use elo or fresh")
    if external_rd is not None and not 10 <= external_rd <= 500:
        raise InvalidInputError(f"external RD {external_rd:g} is outside 10..500")
    if chesscom_start is not None and not 100 <= chesscom_start <= 3000:
        raise InvalidInputError(f"start rating {chesscom_start:g} is outside 100..3000")
    if chesscom_c is not None and not 0 <= chesscom_c <= 100:
        raise InvalidInputError(f"RD growth c {chesscom_c:g} is outside 0..100")
    new = ShadowConfig(
        preset or current.preset,
        seed or current.seed,
        current.external_rd if external_rd is None else external_rd,
        current.chesscom_start if chesscom_start is None else chesscom_start,
        current.chesscom_c if chesscom_c is None else chesscom_c,
        current.chesscom_rd_min if chesscom_rd_min is None else chesscom_rd_min,
        current.chesscom_rd_max if chesscom_rd_max is None else chesscom_rd_max,
        current.seed_rd if seed_rd is None else parse_seed_rd(seed_rd),
    )
    if not 1 <= new.chesscom_rd_min < new.chesscom_rd_max <= 1000:
        raise InvalidInputError(
            f"RD bounds {new.chesscom_rd_min:g}..{new.chesscom_rd_max:g} must satisfy "
            "1 <= minimum < maximum <= 1000"
        )
    if new == current:
        return current, False
    values = new._asdict()
    queries.save_settings(db, values)
    shown = ", ".join(
        f"{k.replace('_', ' ')} {v}" for k, v in values.items() if v != getattr(current, k)
    )
    log.note(db, "changed", f"shadow settings: {shown}; the shadow recomputed")
    for tc in TIME_CONTROLS:
        recompute(db, tc, new)
    return new, True
