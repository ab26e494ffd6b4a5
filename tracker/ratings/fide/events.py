"""When an event is rated, and which list its games are rated with.

- FIDE Rating Regulations 2024 §7.1: "On the first day of each month, FIDE shall prepare a
  list which incorporates all rated play during the rating period into the previous list";
  §7.1.3: "tournaments ending before or on that day [the closing date] may be rated on the
  list", and §9.1 has the report uploaded "in time for the tournament to be rated in the
  monthly list in which the tournament is registered". A tournament is rated as a whole, in
  the rating period in which it ends, with the ratings of the list in force when it started
  (Title Regulations §1.4.6a: "The Rating List in effect at the start of the tournament
  shall be used"; FIDE's published calculations F-P02/F-P03: an event from 31 October to
  2 November 2025 was rated on the December list with the October ratings).
- An event lasting longer than 90 days (a league) is reported and rated month by month:
  each month's games are rated in that month's period with the list in force that month,
  by the rules in force when it began. The line of 90 days is tracker's reading, not a
  quotation: the regulations' section on the duration of a tournament (§4) could not be
  found in any stored copy (searched in issue 23, point 7d). What was found, all second
  hand: the 2002 Handbook's table of contents names the section "4.0. Duration of the
  event" (http://arbitri.lombardiascacchi.com/handbook/handbook.asp-level=B02.htm, heading
  only); a 2009 club guide says "A league can be carried over a 90 days maximum period."
  (http://sifumycatur.blogspot.com/2009/01/fide-rated-tournaments.html); and
  https://github.com/Sharly-Chess/sharly-chess/issues/1514 quotes FIDE's TEC manual: the
  reference list is "the list valid for the month in which the tournament started, for
  tournaments lasting 30 days or less; the list valid for the current month, otherwise"
  (the Title Regulations §1.1.4 also speak of tournaments longer than 30 days). If §4 of
  the current text says 30 days, :data:`LEAGUE_DAYS` is the one line to change.
- An event ends when its officer says it does, not when its games so far stop: on its
  declared last day, or the day its declared last round is played, whichever comes first
  (:func:`event_span`). A close of a month in which a declared event is still running holds
  its games back. An event with nothing declared is taken to end at its last game so far
  (an assumption the close states), and a league is one declared so, or whose declared
  dates span more than 90 days; of an undeclared event, whose games so far span more.
- Events without a name count as one event per day.
- Since 1 March 2024 no rating below 1400 is published (§7.1.2, §7.2.1): a rating below
  1400 recorded for an opponent in a game rated from then on is no FIDE rating, and the
  opponent counts as unrated (§8.3.1 rates games "against a rated player" only).

An event FIDE rated in a later period than the month it ended in (one ending after the
month's closing date, §7.1.3, or reported late) says so: its ``rated_in`` month
(``tracker event edit NAME --rated-in MONTH``), never earlier than the month it ends in. A
league is rated month by month and has none.
"""

from datetime import date, timedelta
from typing import Final, NamedTuple

from tracker.months import month_of

LEAGUE_DAYS: Final = 90
"""An event lasting longer than this many days (first to last day, inclusive) is a league,
rated month by month (tracker's reading: the text of §4 was not found; see above)."""

RATING_FLOOR: Final = 1400
"""§7.1.4 / §7.2.1: lowest published rating; a player who drops below it becomes unrated."""

FLOOR_FROM: Final = date(2024, 3, 1)
"""From the list of this date on, no rating below :data:`RATING_FLOOR` exists."""


def is_league(start: date, end: date) -> bool:
    """Whether an event from ``start`` to ``end`` (both days played) lasts over 90 days."""
    return (end - start) + timedelta(days=1) > timedelta(days=LEAGUE_DAYS)


def rated_in(start: date, end: date, played_on: date, stated: date | None = None) -> date:
    """The rating period (its month) in which a game of an event from ``start`` to ``end``
    (nothing else declared) played on ``played_on`` is rated: the month the event ends in,
    or the later month ``stated`` for it (§7.1.3), or for a league the month of the game."""
    return event_span(start, end, stated=stated).rated_in(played_on)


def rating_from(span: "EventSpan", period: date) -> date:
    """The day whose list rates the event's games in ``period``: the event's start, or for a
    league the first day of the period (the month's part is rated with that month's list).
    The rule set is still the one of the event's start (``MonthGame.rules_from``)."""
    return period if span.league else span.start


OLD_FLOOR: Final = 1000
"""The lowest published rating before the March 2024 period (from July 2012; FIDE's notice
of 1 March 2024, https://qc.fide.com/2024/03/01/new-rating-regulations-come-into-force/:
"the new rating floor will be set at 1400"; the proposal: "An increase in the rating floor
from 1000 to 1400")."""


def rated_floor(period: date) -> int:
    """The lowest rating a rated player keeps in the period ``period`` (§7.2.1): 1400 from
    the March 2024 period, 1000 before, in every time control."""
    return RATING_FLOOR if period >= FLOOR_FROM else OLD_FLOOR


def recorded_rating(rating: int | None, period: date) -> int | None:
    """A rating recorded on a game (an external opponent's), as the period ``period`` counts
    it: None (unrated) for a rating below 1400 from March 2024 on."""
    if rating is not None and rating < RATING_FLOOR and period >= FLOOR_FROM:
        return None
    return rating


OPEN_END: Final = date.max
"""The end of an event that has not ended and whose end is not known: its declared rounds
are still to be played and no last day is declared. It is rated once its last round is
played (or its end is declared)."""


OPEN_MONTH: Final = date(OPEN_END.year, OPEN_END.month, 1)
"""The period :meth:`EventSpan.rated_in` gives an event that has not ended (no period yet)."""


class EventSpan(NamedTuple):
    """An event in one time control, as a close rates it: its start (its declared start, or
    its first game), the day it ends (:func:`event_span`), the rating period stated for it
    (None: the month it ends in), whether it is a league (rated month by month), and whether
    its end is assumed (nothing declared: its last game so far stands for it)."""

    start: date
    end: date
    stated: date | None = None
    league: bool = False
    assumed: bool = False

    def rated_in(self, played_on: date) -> date:
        """The period a game of the event played on ``played_on`` is rated in: for a league
        the game's month; else the month the event ends in, or the later one stated."""
        if self.league:
            return month_of(played_on)
        ends = month_of(self.end)
        return ends if self.stated is None or self.stated < ends else self.stated

    @property
    def ended(self) -> bool:
        """Whether the day it ends is known (it may still lie ahead)."""
        return self.end != OPEN_END


def event_span(
    start: date,
    last: date,
    *,
    end: date | None = None,
    rounds: int | None = None,
    last_round: date | None = None,
    kind: str | None = None,
    stated: date | None = None,
) -> EventSpan:
    """The span of an event from ``start`` (its declared start, or its first game) whose last
    played game is on ``last``, given what is declared of it: its last day ``end``, its
    number of ``rounds`` (``last_round``: the day the last of them was played, if it was),
    its ``kind``.

    - It ends on the day its declared last round is played, or on its declared last day,
      whichever comes first (a tournament is rated once it has ended, FIDE Rating
      Regulations 2024 §7.1.3); never before a game of it (the doors refuse a game after
      a declared end, but a file's rounds may not be in order), so that every game is rated.
    - With neither declared it ends on its last game so far: an assumption (``assumed``),
      which a later game moves. With rounds declared and still to come, and no last day,
      it has not ended (:data:`OPEN_END`).
    - A league is rated month by month: one declared so (``kind`` league), or whose declared
      dates last longer than :data:`LEAGUE_DAYS`; of an event that declares neither end nor
      rounds nor kind, its games so far decide, as before anything could be declared.
    """
    declared = end is not None or rounds is not None or kind is not None
    if last_round is not None and (end is None or last_round < end):
        ends = max(last_round, last)  # never before a game of it: each is rated
    elif end is not None:
        ends = max(end, last)
    elif rounds is not None:
        ends = OPEN_END
    else:
        ends = last
    if kind == "league":
        league = True
    elif end is not None:
        league = is_league(start, end)
    elif declared:
        league = False
    else:
        league = is_league(start, last)
    if league and ends == OPEN_END:
        ends = last  # a league's months are rated as they are played
    return EventSpan(start, ends, stated, league, not declared)


def changed_period(before: EventSpan | None, after: EventSpan | None, played_on: date) -> date:
    """The first rating period whose numbers a game on ``played_on`` can change when it is
    added to, edited in or removed from an event spanning ``before`` and then ``after``
    (None: the event has no games, or the game belongs to no event).

    A game without an event, or in a league, changes its own month; otherwise the period in
    which the event is rated (the month it ends in or the one stated for it, before and after
    the change). An event that becomes or stops being a league moves every game's period:
    from its first month.
    """
    months = [
        month_of(played_on) if span is None else span.rated_in(played_on)
        for span in (before, after)
    ]
    if before is not None and after is not None and before.league != after.league:
        months.append(month_of(min(before.start, after.start)))
    return min(months)
