"""A TRF tournament's dates: its start (042), end (052) and round dates (132), read as the
programs that write them do (several readings where a date is ambiguous), cross-checked
against each other, one problem per contradiction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import product
from typing import Final

from tracker.importers import dates
from tracker.importers.records import Problem

#: The longest a tournament's dates may span (a season-long league fits).
MAX_SPAN_DAYS: Final = 366
#: The most days between the start date and the first round date, and between the last
#: round date and the end date.
ROUND_SLACK_DAYS: Final = 31


@dataclass(frozen=True, slots=True)
class DateField:
    """A date record of the file (042, 052, or one round of 132) and its readings."""

    line: int
    what: str  # "042 start date", "052 end date", "round 3 date (132)"
    value: dates.FileDate


@dataclass(slots=True)
class Tournament:
    name: str | None = None
    city: str | None = None
    start_field: DateField | None = None
    end_field: DateField | None = None
    round_fields: dict[int, DateField] = field(default_factory=dict)
    tc_texts: list[str] = field(default_factory=list)  # 222: encoded controls
    tc_free: str | None = None  # 122: the control as free text
    date_order: str | None = None  # the caller's reading of numeric dates, if insisted on
    kind_text: str | None = None  # 092: the type of tournament, as written
    total_rounds: int | None = None  # XXR: the number of rounds
    # The dates as resolved by resolve_dates
    start: date | None = None
    end: date | None = None
    start_given: bool = False  # by the caller (event_start), not by the file
    round_dates: dict[int, date] = field(default_factory=dict)
    date_problem: bool = False  # the file's dates are unusable, and that was reported


@dataclass(frozen=True, slots=True)
class DatesReading:
    """One way of reading a TRF's dates: its start, end, each round's date, and how unusual
    the reading is."""

    start: date | None
    end: date | None
    rounds: dict[int, date]
    rank: int  # 0: every date read the usual way


def contradiction(reading: DatesReading, tournament: Tournament) -> tuple[int, str] | None:
    """Why a reading of the file's dates cannot be right (line, reason), or None."""
    start, end, rounds = reading.start, reading.end, reading.rounds
    start_line = tournament.start_field.line if tournament.start_field else 0
    the_start = "the given event start" if tournament.start_given else "the start date"
    end_line = tournament.end_field.line if tournament.end_field else start_line
    if start is not None and end is not None:
        if end < start:
            return end_line, f"the end date {end} is before {the_start} {start}"
        if (end - start).days > MAX_SPAN_DAYS:
            return end_line, (
                f"the end date {end} is {(end - start).days} days after {the_start} {start}"
            )
    if rounds:
        first_number, last_number = min(rounds), max(rounds)
        first_day, last_day = rounds[first_number], rounds[last_number]
        if start is not None and (first_day - start).days > ROUND_SLACK_DAYS:
            return tournament.round_fields[first_number].line, (
                f"round {first_number} is dated {first_day}, "
                f"{(first_day - start).days} days after {the_start} {start}"
            )
        if end is not None and (end - last_day).days > ROUND_SLACK_DAYS:
            return end_line, (
                f"the end date {end} is {(end - last_day).days} days after the last round "
                f"({last_day})"
            )
    previous: tuple[int, date] | None = None
    for number in sorted(rounds):
        day = rounds[number]
        line = tournament.round_fields[number].line
        if start is not None and day < start:
            return line, f"round {number} is dated {day}, before {the_start} {start}"
        if end is not None and day > end:
            return line, f"round {number} is dated {day}, after the end date {end}"
        if previous is not None and day < previous[1]:
            return line, (
                f"round {number} is dated {day}, before round {previous[0]} ({previous[1]})"
            )
        previous = (number, day)
    return None


def readings_of(tournament: Tournament) -> list[DatesReading]:
    """Every way of reading the file's dates, the usual one first."""
    start_field, end_field = tournament.start_field, tournament.end_field
    readable = {n: f for n, f in tournament.round_fields.items() if f.value.ok}
    insisted = tournament.date_order
    if insisted is not None:  # the caller's order, for every date that has numbers only
        rounds = {n: f.value.reading(insisted) for n, f in readable.items()}
        kept = {n: d for n, d in rounds.items() if d is not None}
        return [DatesReading(_as(start_field, insisted), _as(end_field, insisted), kept, 0)]
    starts = _ranked(start_field)
    ends = _ranked(end_field)
    no_end = end_field is None or not end_field.value.ok
    if no_end and start_field is not None and start_field.value.end is not None:
        ends = [(0, start_field.value.end)]  # a range in 042
    return sorted(
        (
            DatesReading(s, e, rounds, rank_s + rank_e + rank_r)
            for (rank_s, s), (rank_e, e), (rank_r, rounds) in product(
                starts, ends, _round_readings(readable)
            )
        ),
        key=lambda r: r.rank,
    )


def _ranked(field: DateField | None) -> list[tuple[int, date | None]]:
    """The readings of a date record, the usual first (none: one unknown date)."""
    if field is None or not field.value.ok:
        return [(0, None)]
    return list(enumerate(field.value.readings))


def _round_readings(readable: dict[int, DateField]) -> list[tuple[int, dict[int, date]]]:
    """The ways of reading every round date in one order, ranked by the order; mixed
    layouts: each date its usual way."""
    if not readable:
        return [(0, {})]
    options: list[tuple[int, dict[int, date]]] = []
    for rank, order in enumerate(dates.ORDERS):
        rounds = {n: f.value.reading(order) for n, f in readable.items()}
        if all(day is not None for day in rounds.values()):
            options.append((rank, {n: d for n, d in rounds.items() if d is not None}))
    if not options:
        first = {n: f.value.first for n, f in readable.items()}
        options.append((4, {n: d for n, d in first.items() if d is not None}))
    return options


def _as(field: DateField | None, order: str) -> date | None:
    """A date record read in the caller's order (a date with the month's name as it is)."""
    if field is None or not field.value.ok:
        return None
    named = field.value.reading("named")
    return named if named is not None else field.value.reading(order)


def resolve_dates(
    tournament: Tournament,
    event_start: date | None,
    source: str,
    problems: list[Problem],
    warnings: list[Problem],
) -> None:
    """Choose the reading of the file's dates (see the module docstring) and set the
    tournament's start and round dates; report unreadable or contradictory dates once."""
    _unreadable(tournament, event_start, source, problems, warnings)
    if _outside_order(tournament, source, problems):
        return
    start_field = tournament.start_field
    given = event_start if start_field is None or not start_field.value.ok else None
    readings, usable = _usable_readings(tournament, given, source, problems)
    if not usable:
        line, reason = contradiction(readings[0], tournament) or (0, "")
        problems.append(
            Problem(source, line, f"the file's dates disagree: {reason}; no game is dated")
        )
        tournament.date_problem = True
        return
    chosen = usable[0]
    tournament.start = chosen.start
    tournament.end = chosen.end
    tournament.round_dates = dict(chosen.rounds)
    note_readings(tournament, chosen, usable, readings[0], source, warnings)
    if start_field is not None and not start_field.value.ok and event_start is None:
        tournament.date_problem = True  # the invalid 042, reported above


def _unreadable(
    tournament: Tournament,
    event_start: date | None,
    source: str,
    problems: list[Problem],
    warnings: list[Problem],
) -> None:
    """Report the date records that are no date: a start (a problem, unless the caller gave
    one), an end (ignored), a round's (a problem)."""
    start_field, end_field = tournament.start_field, tournament.end_field
    if start_field is not None and not start_field.value.ok:
        text = start_field.value.text
        if event_start is None:
            problems.append(
                Problem(
                    source,
                    start_field.line,
                    f"invalid start date {text!r} (042): write it "
                    "YYYY/MM/DD, or give the event's start with --event-start",
                )
            )
        else:
            warnings.append(
                Problem(
                    source,
                    start_field.line,
                    f"unreadable start date {text!r} (042); the given event start "
                    f"{event_start} used",
                )
            )
    if end_field is not None and not end_field.value.ok:
        warnings.append(
            Problem(
                source,
                end_field.line,
                f"unreadable end date {end_field.value.text!r} (052) ignored",
            )
        )
    for number, round_field in tournament.round_fields.items():
        if not round_field.value.ok:
            _invalid_round(tournament, number, round_field, source, problems)


def _invalid_round(
    tournament: Tournament, number: int, f: DateField, source: str, problems: list[Problem]
) -> None:
    """Report round ``number``'s date record ``f``, which is no date."""
    problems.append(Problem(source, f.line, f"invalid date {f.value.text!r} for round {number}"))
    tournament.date_problem = True


def _outside_order(tournament: Tournament, source: str, problems: list[Problem]) -> bool:
    """Whether a numeric date is no date in the caller's order (``--date-order``, which
    must read every one of them): reported, the first."""
    order = tournament.date_order
    if order is None:
        return False
    fields = [tournament.start_field, tournament.end_field, *tournament.round_fields.values()]
    for f in fields:
        if f is not None and f.value.ok and _as(f, order) is None:
            problems.append(
                Problem(
                    source,
                    f.line,
                    f"{f.what} {f.value.text!r} is no date in the order {order} (--date-order)",
                )
            )
            tournament.date_problem = True
            return True
    return False


def _usable_readings(
    tournament: Tournament, given: date | None, source: str, problems: list[Problem]
) -> tuple[list[DatesReading], list[DatesReading]]:
    """Every reading of the file's dates (``given``: the caller's start, where the file has
    none), and those that contradict nothing. Where none does, round dates that are no date
    in TRF's own YY/MM/DD (26/02/30) are the problem, not the order of the others: they are
    reported and the rest read again."""

    def readings() -> list[DatesReading]:
        found = readings_of(tournament)
        if given is None:
            return found
        tournament.start_given = True
        return [DatesReading(given, r.end, r.rounds, r.rank) for r in found]

    every = readings()
    usable = [r for r in every if contradiction(r, tournament) is None]
    if usable:
        return every, usable
    misfits = [
        n
        for n, f in tournament.round_fields.items()
        if f.value.ok and f.value.two_digit_year and f.value.reading("ymd") is None
    ]
    if not misfits or len(misfits) == len(tournament.round_fields):
        return every, usable
    for number in misfits:
        _invalid_round(tournament, number, tournament.round_fields.pop(number), source, problems)
    every = readings()
    return every, [r for r in every if contradiction(r, tournament) is None]


def note_readings(
    tournament: Tournament,
    chosen: DatesReading,
    usable: list[DatesReading],
    usual: DatesReading,
    source: str,
    warnings: list[Problem],
) -> None:
    """Say how a date that can be read several ways was read. TRF's own 132 layout
    (``YY/MM/DD``) read as specified needs no word."""
    first_round = min(tournament.round_fields) if tournament.round_fields else None

    def value(f: DateField, r: DatesReading) -> date | None:
        if f is tournament.start_field:
            return r.start
        if f is tournament.end_field:
            return r.end
        return r.rounds.get(first_round) if first_round is not None else None

    fields = [tournament.start_field, tournament.end_field]
    if first_round is not None:
        fields.append(tournament.round_fields[first_round])
    for f in fields:
        if f is None or not f.value.ok or not (f.value.ambiguous or f.value.two_digit_year):
            continue
        day = value(f, chosen)
        if day is None:
            continue
        is_round = f not in (tournament.start_field, tournament.end_field)
        others = sorted({value(f, r) for r in usable} - {day, None})  # type: ignore[type-var]
        label = "the 132 round dates, from" if is_round else f.what
        if others:
            shown = ", ".join(str(d) for d in others)
            why = f"also readable as {shown}: check the file"
        elif day != value(f, usual):
            why = "the only reading that agrees with the file's other dates"
        elif is_round and f.value.by_order[0][0] == "ymd":
            continue  # as the TRF specification lays 132 out
        else:
            why = "a two-digit year" if f.value.two_digit_year else "the usual reading"
        warnings.append(Problem(source, f.line, f"{label} {f.value.text!r} read as {day} ({why})"))
