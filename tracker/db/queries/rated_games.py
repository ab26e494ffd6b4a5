"""The played games a rating period reads: a month's games, an event's span, the games
counted by event and day, a player's games up to a month. A forfeit is no game (FIDE Rating
Regulations §5.1): it is never read here."""

import datetime as dt
from collections.abc import Collection, Iterable
from typing import Any, NamedTuple

from tracker.db.driver import IN_CHUNK, Db, Same, chunks, day, maybe_day
from tracker.db.queries.hints import not_indexed
from tracker.months import next_month
from tracker.ratings.month_games import MonthGame
from tracker.vocabulary import FORFEITS, TIME_CONTROLS, TimeControl, round_number

#: The unplayed results (forfeits) as SQL lists them, and the condition for played games.
UNPLAYED = "({})".format(", ".join(f"'{r}'" for r in sorted(FORFEITS)))
_PLAYED = f"g.result NOT IN {UNPLAYED}"

_MONTH_GAMES = f"""
    SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id,
        coalesce(e.start_date, g.played_on), g.white_rating, g.black_rating,
        w.external, b.external
    FROM games g
    JOIN players w ON w.id = g.white_id
    JOIN players b ON b.id = g.black_id
    LEFT JOIN events e ON e.id = g.event_id
    WHERE {_PLAYED}"""


def month_games(
    db: Db,
    tc: TimeControl,
    month: dt.date,
    players: Collection[int] | None = None,
    *,
    events: Iterable[int] | None = None,
) -> list[MonthGame]:
    """The month's played games of ``tc`` (of ``players`` only, if given: those with one of
    them on a side; at most :data:`IN_CHUNK`) in date order (ties in the order they were
    entered); with ``events``, instead the games of those events played before the month."""
    assert players is None or len(players) <= IN_CHUNK
    params: dict[str, Any] = {"tc": tc, "month": month}
    # by the month's index; by the events' or the players' (player, day) indexes when given
    by_month = events is None and players is None
    tc_, played = ("g.tc", "g.played_on") if by_month else map(not_indexed, ("g.tc", "g.played_on"))
    if events is not None:
        where = f"{tc_} = :tc AND {played} < :month AND g.event_id IN (:events)"
        params["events"] = sorted(set(events))
        if players is not None:
            where += " AND (g.white_id IN (:ids) OR g.black_id IN (:ids))"
    elif players is None:
        where = "g.tc = :tc AND g.played_on >= :month AND g.played_on < :end"
    else:  # each of their games of the month is a range of a player's index
        month_of_side = "g.{}_id IN (:ids) AND g.played_on >= :month AND g.played_on < :end"
        where = (
            f"{tc_} = :tc AND (({month_of_side.format('white')})"
            f" OR ({month_of_side.format('black')}))"
        )
    params["end"] = next_month(month)
    if players is not None:
        params["ids"] = sorted(set(players))
    # streamed: a federation's month is 250,000 games, each held once as a MonthGame
    rows = db.stream(f"{_MONTH_GAMES} AND {where} ORDER BY g.played_on, g.id", params)
    days = _Days()  # a month's games fall on a few dozen days
    # a player, event, rating or result read again is the object read first: the driver
    # makes each anew, and a federation's month holds each thousands of times
    same = Same()
    games = []
    for gid, w, b, result, played, event, start, wr, br, wx, bx in rows:
        game = MonthGame(
            gid, same[w], same[b], same[result], days[played], same[event], days[start],
            same[wr], same[br], bool(wx), bool(bx),
        )  # fmt: skip
        games.append(game)
    return games


class _Days(dict[Any, dt.date]):
    """Each date column value read as a date once (:func:`day`)."""

    def __missing__(self, value: Any) -> dt.date:
        found = self[value] = day(value)
        return found


class EventBounds(NamedTuple):
    """An event's recorded start date, its first and last played game in one time control,
    the rating period stated for it (None: the month it ends in), and what is declared of it
    (its last day, rounds and kind; None: not declared), with ``last_round``: the day its
    declared last round was played (None: not yet, or no rounds declared)."""

    start_date: dt.date
    first: dt.date
    last: dt.date
    rated_in: dt.date | None
    end_date: dt.date | None = None
    rounds: int | None = None
    kind: str | None = None
    last_round: dt.date | None = None
    round_played: int | None = None  # the highest round played so far (rounds declared)


def event_bounds(db: Db, tc: TimeControl, event_ids: Iterable[int]) -> dict[int, EventBounds]:
    """The bounds of ``event_ids`` (those with played games in ``tc``), by event id."""
    out: dict[int, EventBounds] = {}
    # An event's first or last played game of tc: its (event, day) index read in order from
    # one end, to the first game that counts. (A min() here read every game of the event on
    # PostgreSQL, whose estimate of the tc test made the whole event look like one row: 47
    # ms against 11 for the 332 events of a federation's busiest player.)
    edge = (
        "SELECT g.played_on FROM games g WHERE g.event_id = e.id"
        f" AND {not_indexed('g.tc')} = :tc AND {_PLAYED} ORDER BY g.played_on {{}} LIMIT 1"
    )
    for chunk in chunks(sorted(set(event_ids))):
        events = [
            row
            for row in db.all(
                f"""
                SELECT e.id, e.start_date, e.rated_in, e.end_date, e.rounds, e.kind,
                    ({edge.format("ASC")}), ({edge.format("DESC")})
                FROM events e WHERE e.id IN (:ids)""",
                {"ids": chunk, "tc": tc},
            )
            if row[6] is not None  # no played game of tc
        ]
        finals = _last_rounds(db, tc, {row[0]: int(row[4]) for row in events if row[4] is not None})
        for event_id, start, rated_in, end, rounds, kind, first, last in events:
            final, played = finals.get(event_id, (None, None))
            out[event_id] = EventBounds(
                day(start),
                day(first),
                day(last),
                maybe_day(rated_in),
                maybe_day(end),
                rounds,
                kind,
                final,
                played,
            )
    return out


def _last_rounds(
    db: Db, tc: TimeControl, rounds: dict[Any, int]
) -> dict[Any, tuple[dt.date | None, int | None]]:
    """For each event with declared rounds (``rounds``: by event), the day its last round
    was played (None: not yet; a forfeit too: the round took place) and the highest round
    played so far."""
    if not rounds:
        return {}
    out: dict[Any, tuple[dt.date | None, int | None]] = {}
    for event_id, round_, last in db.all(
        f"""
        SELECT g.event_id, g.round, max(g.played_on) FROM games g
        WHERE g.event_id IN (:ids) AND {not_indexed("g.tc")} = :tc AND g.round IS NOT NULL
        GROUP BY g.event_id, g.round""",
        {"ids": sorted(rounds), "tc": tc},
    ):
        number = round_number(round_)
        if number is None:
            continue
        final, played = out.get(event_id, (None, None))
        if number == rounds[event_id]:
            on = day(last)
            final = on if final is None else max(final, on)
        out[event_id] = (final, number if played is None else max(played, number))
    return out


def events_rated_from(db: Db, since: dt.date, until: dt.date | None = None) -> list[int]:
    """The events stated to be rated in a period from ``since`` on (up to ``until``, if
    given): a few, the events FIDE rated after the month they ended in."""
    where = "rated_in >= :since" if until is None else "rated_in >= :since AND rated_in <= :until"
    rows = db.scalars(f"SELECT id FROM events WHERE {where}", {"since": since, "until": until})
    return sorted(int(r) for r in rows)


def events_declared_past(db: Db, since: dt.date) -> list[int]:
    """The events declared to end on ``since`` or later, or with rounds declared and no end
    that began in the year before it: those that may be running then."""
    rows = db.scalars(
        "SELECT id FROM events WHERE end_date >= :since OR (end_date IS NULL AND rounds IS NOT "
        "NULL AND start_date >= :year_before AND start_date < :since)",
        {"since": since, "year_before": since - dt.timedelta(days=366)},
    )
    return sorted(int(r) for r in rows)


def events_going_on(db: Db, tc: TimeControl, month: dt.date, players: Collection[int]) -> list[int]:
    """The events of ``tc`` the players (at most :data:`IN_CHUNK`) played in before
    ``month`` that have games (theirs or others') in ``month``: those that may end, and be
    rated, in that period.

    Two exact ways, the one that reads fewer rows: the players' earlier games (a range of
    each player's index), each of their events probed once for a game in the month; or the
    month's games (the month's index), those of the players' events kept. Which is fewer is
    counted first in the indexes alone, the month's count stopping at the players': a
    federation's month has 250,000 games, a player of a long history hundreds."""
    values = {"tc": tc, "month": month, "next": next_month(month), "ids": sorted(set(players))}
    earlier = db.scalar(
        "SELECT (SELECT count(*) FROM games WHERE white_id IN (:ids) AND played_on < :month)"
        " + (SELECT count(*) FROM games WHERE black_id IN (:ids) AND played_on < :month)",
        values,
    )
    in_month = db.scalar(
        "SELECT count(*) FROM (SELECT 1 FROM games WHERE tc IN (:tcs) AND played_on >= :month"
        " AND played_on < :next LIMIT :most) AS m",
        {**values, "tcs": list(TIME_CONTROLS), "most": earlier},
    )
    theirs = f"""
        SELECT DISTINCT g.event_id FROM games g
        WHERE {not_indexed("g.tc")} = :tc AND g.event_id IS NOT NULL
            AND (g.white_id IN (:ids) AND g.played_on < :month
                OR g.black_id IN (:ids) AND g.played_on < :month)"""
    if in_month < earlier:
        sql = f"""{theirs} AND g.event_id IN (SELECT h.event_id FROM games h
            WHERE h.tc IN (:tcs) AND h.played_on >= :month AND h.played_on < :next)"""
    else:
        sql = f"""SELECT e.event_id FROM ({theirs}) e WHERE EXISTS (SELECT 1 FROM games h
            WHERE h.event_id = e.event_id AND h.played_on >= :month AND h.played_on < :next)"""
    rows = db.scalars(sql, {**values, "tcs": list(TIME_CONTROLS)})
    return sorted(int(r) for r in rows)


class DayCount(NamedTuple):
    """The played games of one day of one event (``event_id`` None: games without one)."""

    event_id: int | None
    played_on: dt.date
    games: int


def played_by_event_day(
    db: Db, tc: TimeControl, since: dt.date | None = None, before: dt.date | None = None
) -> list[DayCount]:
    """The played games of ``tc`` (from ``since`` on, and before ``before``, if given),
    counted by event and day."""
    where = "g.tc = :tc"
    where += "" if since is None else " AND g.played_on >= :since"
    where += "" if before is None else " AND g.played_on < :before"
    return db.rows(
        DayCount,
        f"SELECT g.event_id, g.played_on, count(*) FROM games g WHERE {where} AND {_PLAYED}"
        " GROUP BY g.event_id, g.played_on",
        {"tc": tc, "since": since, "before": before},
    )


def events_played(db: Db, tc: TimeControl, since: dt.date, before: dt.date) -> list[int]:
    """The events with played games of ``tc`` from ``since`` on and before ``before``."""
    rows = db.scalars(
        "SELECT DISTINCT g.event_id FROM games g WHERE g.tc = :tc AND g.played_on >= :since"
        f" AND g.played_on < :before AND g.event_id IS NOT NULL AND {_PLAYED}",
        {"tc": tc, "since": since, "before": before},
    )
    return [int(r) for r in rows]


def played_before_by_event_day(
    db: Db, tc: TimeControl, events: list[int], before: dt.date
) -> list[DayCount]:
    """The played games of ``events`` in ``tc`` dated before ``before``, counted by event
    and day."""
    sql = f"""
        SELECT g.event_id, g.played_on, count(*) FROM games g
        WHERE g.event_id IN (:ids) AND {not_indexed("g.tc")} = :tc
            AND {not_indexed("g.played_on")} < :before AND {_PLAYED}
        GROUP BY g.event_id, g.played_on"""
    return db.rows_in(DayCount, sql, events, {"tc": tc, "before": before})


class PlayedGame(NamedTuple):
    """A played game: who played it, its result, day and event."""

    id: int
    white_id: int
    black_id: int
    result: str
    played_on: dt.date
    event_id: int | None


def games_of_players(
    db: Db, tc: TimeControl, players: list[int], before: dt.date
) -> list[PlayedGame]:
    """Every played game of ``tc`` dated before ``before`` in which one of ``players`` played
    (each once), in no particular order."""
    out: list[PlayedGame] = []
    seen: set[int] = set()
    for chunk in chunks(players):
        for side in ("g.white_id", "g.black_id"):  # each by its own index (not an OR)
            rows = db.all(
                f"""
                SELECT g.id, g.white_id, g.black_id, g.result, g.played_on, g.event_id
                FROM games g
                WHERE {side} IN (:ids) AND {not_indexed("g.tc")} = :tc
                    AND {not_indexed("g.played_on")} < :before AND {_PLAYED}""",
                {"ids": chunk, "tc": tc, "before": before},
            )
            for gid, white, black, result, played, event_id in rows:
                if gid not in seen:  # two players of one game: found from both sides
                    seen.add(gid)
                    out.append(PlayedGame(gid, white, black, result, day(played), event_id))
    return out
