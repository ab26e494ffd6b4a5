"""A player's card (``player show``): his published state on the latest list of each time
control, where he stands on it, his peak, his live line, and every system's reading beside
the official list's (:mod:`.registry`: the shadow, and any other registered)."""

import datetime as dt
from collections import Counter
from decimal import Decimal
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import history as queries
from tracker.db.queries.players import PlayerRow
from tracker.months import month_of, next_month
from tracker.ratings.fide.records import PlayerState
from tracker.services import lists
from tracker.services.lists import rated_games
from tracker.services.periods import registry
from tracker.services.periods.standing import ListPlaces, Peak, Standing, peak, rehearsed
from tracker.services.players.refs import PlayerView, find, show_player
from tracker.services.systems import Beside, Reading, Shown
from tracker.vocabulary import TIME_CONTROLS, TimeControl


class Live(NamedTuple):
    """A player's live line: his line on the live list (:mod:`tracker.services.periods.live`),
    and the periods that will make it."""

    months: tuple[dt.date, ...]  # the open months he has games rated in
    games: int
    change_exact: Decimal
    change: int
    rating: int | None
    standing: Standing | None  # on the live list
    list_date: dt.date | None  # the live list's date (None: no open month up to today's)


class RatingStatus(NamedTuple):
    tc: TimeControl
    list_date: dt.date | None
    rating: int | None
    k: int | None
    rated_games: int
    ever_2400: bool
    ever_2300: bool
    pool_games: int
    live: Live
    stale: bool
    standing: Standing | None = None  # on the latest published list
    peak: Peak | None = None  # the highest published rating, and its first list
    games_by_month: tuple[tuple[dt.date, int], ...] = ()  # games played, by month
    # each system's reading beside the official list's, on the latest list (PlayerCard.beside)
    readings: tuple[Reading | None, ...] = ()


def rating_status(
    db: Db, player: PlayerRow, today: dt.date, systems: tuple[Shown, ...] = ()
) -> tuple[RatingStatus, ...]:
    """The player's published state on the latest list of each time control he has, where he
    stands on it, his live line: that of the live list (the open months up to today's closed
    as ``period close`` closes them, then undone), and the readings of ``systems`` there."""
    if player.external:
        return ()
    out = []
    game_days = queries.game_days(db, player.id)
    for tc in TIME_CONTROLS:
        status = _status(db, player, tc, today, systems, game_days.get(tc, {}))
        if status is not None:
            out.append(status)
    return tuple(out)


def _status(
    db: Db,
    player: PlayerRow,
    tc: TimeControl,
    today: dt.date,
    systems: tuple[Shown, ...],
    days: dict[int, dt.date],  # his games of tc: their days by game id
) -> RatingStatus | None:
    closed = lists.closed_months(db, tc)
    seeds = lists.seeds(db, tc, only=[player.id])
    seed = seeds.get(player.id)
    if seed is None and not days:
        return None
    first_games = lists.first_game_month(db, tc)
    state = PlayerState(birth_year=player.birth_year)
    list_date = None
    standing = best = None
    readings: tuple[Reading | None, ...] = tuple(None for _ in systems)
    if closed:
        last_month = closed[-1].month
        readings = tuple(
            s.of_player(db, tc, player.id, [last_month]).get(last_month) for s in systems
        )
        list_date = next_month(last_month)
        listed = lists.states_after(db, tc, last_month, player.id)
        if player.id in listed:
            state = listed[player.id]
        elif seed is not None:
            state = lists.seeded_state(seed, player.birth_year, closed[0].month)
        standing = ListPlaces(db, tc, player.id).place(last_month)
        best = peak(lists.player_lines(db, tc, player.id, closed))
    elif seed is not None:
        state = lists.seeded_state(seed, player.birth_year, first_games or month_of(today))
    by_month = Counter(month_of(d) for d in days.values())
    return RatingStatus(
        tc=tc,
        list_date=list_date,
        rating=state.rating,
        k=state.k if state.rating is not None else None,
        rated_games=state.rated_games,
        ever_2400=state.ever_2400,
        ever_2300=state.ever_2300,
        pool_games=len(state.pool),
        live=_live(db, tc, player.id, today, state.rating, standing),
        stale=any(s for _, _, s in closed),
        standing=standing,
        peak=best,
        games_by_month=tuple(sorted(by_month.items())),
        readings=readings,
    )


def _live(
    db: Db,
    tc: TimeControl,
    player_id: int,
    today: dt.date,
    published: int | None,
    standing: Standing | None,
) -> Live:
    """The player's line on the live list: the close of the open months, undone. When no
    game waits to be rated up to today's month and no period is stale, the close would
    change no rating: his live line is his published one, and nothing is closed."""
    closed = lists.closed_months(db, tc)
    start = next_month(closed[-1].month) if closed else lists.first_game_month(db, tc)
    current = month_of(today)
    waiting = start is not None and any(
        month <= current for month in rated_games.pending(db, tc, start)
    )
    if not waiting and not any(stale for _, _, stale in closed):
        return Live((), 0, Decimal(0), 0, published, standing, None)

    def close_and_read() -> Live:
        from tracker.services.periods.closing import close_live  # only a month waiting

        months = close_live(db, tc, today)
        after = lists.closed_months(db, tc)
        if not months:
            return Live((), 0, Decimal(0), 0, published, standing, None)
        last = months[-1]
        lines = {m: line for m, _, line in lists.player_lines(db, tc, player_id, after)}
        played = [lines[m] for m in months if m in lines and lines[m].stored and lines[m].games]
        line = lines.get(last)
        rating = line.rating if line is not None else None
        return Live(
            months=tuple(m for m in months if m in lines and lines[m].stored and lines[m].games),
            games=sum(x.games for x in played),
            change_exact=sum((lists.from_hundredths(x.change_exact_c) for x in played), Decimal(0)),
            change=sum(x.change for x in played),
            rating=rating,
            standing=ListPlaces(db, tc, player_id).place(last),
            list_date=next_month(last),
        )

    return rehearsed(db, close_and_read)


class PlayerCard(NamedTuple):
    player: PlayerView
    ratings: tuple[RatingStatus, ...]
    beside: Beside = Beside()  # the systems of each rating's readings


def player_card(db: Db, ref: str, today: dt.date) -> PlayerCard:
    """``player show``: the player's details, his rating on each list and where he stands on
    it, and his live line (as of ``today``)."""
    player = find(db, ref)
    beside = Beside.of(db, registry.beside())
    ratings = rating_status(db, player, today, beside.systems)
    return PlayerCard(show_player(db, f"#{player.id}"), ratings, beside)
