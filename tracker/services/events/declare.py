"""Declaring an event (``tracker event add``, ``event edit``, an imported file's header): what
its officer knows before it is played, as FIDE's registration of a tournament has it: its
dates, rounds, kind, time control and site.

What is declared decides when the event is rated (:func:`tracker.ratings.fide.event_span`:
once it has ended, on its declared last day or the day its declared last round is played),
and what its games may be: none outside its dates, none of a round past its last, none of
another time control. A declaration the games already entered contradict is refused, one
line per problem; one that moves a closed period's list (an event taken to have ended that
is now declared to go on) marks that period stale.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields, replace

from tracker.db.driver import Db
from tracker.db.queries import events as queries
from tracker.db.queries import games as game_queries
from tracker.db.queries.games import EventRow
from tracker.errors import ConflictError, InvalidInputError
from tracker.services import log
from tracker.services.intake import SITE_MAX, check_event_start, check_text, clean_event_name
from tracker.vocabulary import EVENT_KINDS, TimeControl, event_key, name_form, plural, round_number

#: The most rounds an event may declare (a season's league of weekly rounds fits).
ROUNDS_MAX = 999


@dataclass(frozen=True)
class Declaration:
    """What is declared of an event (None: not given here)."""

    start: dt.date | None = None
    end: dt.date | None = None
    rounds: int | None = None
    kind: str | None = None
    tc: TimeControl | None = None
    site: str | None = None

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))

    def checked(self) -> Declaration:
        """The declaration with its values checked on their own (a kind tracker knows, a
        number of rounds, a time control, an end not before the start)."""
        if self.kind is not None and self.kind not in EVENT_KINDS:
            raise InvalidInputError(
                f"invalid event type {self.kind!r}: use one of {', '.join(EVENT_KINDS)}"
            )
        if self.rounds is not None and not 1 <= self.rounds <= ROUNDS_MAX:
            raise InvalidInputError(f"--rounds {self.rounds}: give 1 to {ROUNDS_MAX} rounds")
        for day, what in ((self.start, "start"), (self.end, "end")):
            if day is not None:
                check_event_start(day, what)  # not before 1970, as a game's date
        if self.start is not None and self.end is not None and self.end < self.start:
            raise InvalidInputError(
                f"the end {self.end.isoformat()} is before the start {self.start.isoformat()}"
            )
        site = None if self.site is None else check_text(name_form(self.site), "site") or None
        if site is not None and len(site) > SITE_MAX:  # a file's is cut, with a warning
            raise InvalidInputError(f"a site is limited to {SITE_MAX} characters")
        return replace(self, site=site)


def describe(event: EventRow) -> str:
    """What is declared of an event, in words: ``swiss, 5 rounds, 2026-09-05 to
    2026-10-04, standard, Riverside``."""
    parts = [event.kind] if event.kind else []
    if event.rounds is not None:
        parts.append(plural(event.rounds, "round"))
    dates = event.start_date.isoformat() if event.start_fixed else None
    if dates is not None and event.end_date is not None and event.end_date != event.start_date:
        dates += f" to {event.end_date.isoformat()}"
    elif dates is None and event.end_date is not None:
        dates = f"ends {event.end_date.isoformat()}"
    if dates is not None:
        parts.append(dates)
    parts += [v for v in (event.tc, event.site) if v]
    return ", ".join(parts)


def add_event(db: Db, name: str, declaration: Declaration) -> EventRow:
    """Register an event before (or while) it is played: its start at least."""
    declared = declaration.checked()
    if declared.start is None:
        raise InvalidInputError("an event needs its start: --start YYYY-MM-DD")
    clean = clean_event_name(name)
    found = game_queries.events_with_key(db, event_key(clean))
    if found:
        raise ConflictError(
            f"there is already an event {found[0].name!r}: `tracker event edit "
            f"{found[0].name!r}` changes what is declared of it"
        )
    event = EventRow(
        0,
        clean,
        declared.start,
        True,
        declared.end,
        declared.rounds,
        declared.kind,
        declared.tc,
        declared.site,
        "user" if declared.end or declared.rounds or declared.kind else None,
    )
    event = event._replace(id=game_queries.insert_event(db, event, event_key(clean)))
    log.note(db, "added", f"event {event.name}: {describe(event)}", events=[event.id])
    return event


def declare(
    db: Db, event: EventRow, declaration: Declaration, by: str = "user"
) -> tuple[EventRow, tuple[str, ...]]:
    """Declare more of ``event`` (``by`` the user, or by a file): the event as it is then,
    and one line per change (none: nothing differed). Refused where a game already entered
    contradicts it (the error's ``problems``: one line each). The caller marks
    stale what the change moves."""
    declared = declaration.checked()
    new = event._replace(
        start_date=declared.start if declared.start is not None else event.start_date,
        start_fixed=event.start_fixed or declared.start is not None,
        end_date=declared.end if declared.end is not None else event.end_date,
        rounds=declared.rounds if declared.rounds is not None else event.rounds,
        kind=declared.kind if declared.kind is not None else event.kind,
        tc=declared.tc if declared.tc is not None else event.tc,
        site=declared.site if declared.site is not None else event.site,
    )
    if new.end_date is not None and new.end_date < new.start_date:
        raise InvalidInputError(
            f"{event.name} would end on {new.end_date.isoformat()}, before it starts "
            f"({new.start_date.isoformat()})"
        )
    changes = _changes(event, new)
    if not changes:
        return event, ()
    if declared.end is not None or declared.rounds is not None or declared.kind is not None:
        # who declared when it ends: a user's declaration stands, a file's is one a later
        # file renews (its start, time control and site are facts of their own)
        new = new._replace(declared="user" if by == "user" or event.declared == "user" else by)
    problems = _contradictions(db, new, strict=new.declared == "user")
    if problems:
        raise ConflictError(
            f"cannot declare that of {event.name}: "
            + (problems[0] if len(problems) == 1 else f"{len(problems)} problems (above)"),
            problems if len(problems) > 1 else (),
        )
    game_queries.declare_event(db, new)
    for change in changes:
        log.note(db, "changed", f"event {event.name}: {change}", events=[event.id])
    return new, changes


def _changes(old: EventRow, new: EventRow) -> tuple[str, ...]:
    out = []
    if new.start_date != old.start_date or new.start_fixed != old.start_fixed:
        out.append(f"starts on {new.start_date.isoformat()}")
    if new.end_date != old.end_date and new.end_date is not None:
        out.append(f"ends on {new.end_date.isoformat()}")
    if new.rounds != old.rounds and new.rounds is not None:
        out.append(f"has {plural(new.rounds, 'round')}")
    if new.kind != old.kind and new.kind is not None:
        out.append(f"is a {new.kind}" if new.kind != "other" else "is of another kind")
    if new.tc != old.tc and new.tc is not None:
        out.append(f"is {new.tc}")
    if new.site != old.site and new.site is not None:
        out.append(f"is played at {new.site}")
    return tuple(out)


def _contradictions(db: Db, event: EventRow, *, strict: bool) -> list[str]:
    """What the event's games (and byes) already entered say against its declaration: a game
    before its start or after its end, and (``strict``: the user declared it) a round past
    its last. The time control is the caller's (``event edit --tc`` moves the games)."""
    facts = queries.event_extent(db, event.id)
    problems = []
    if facts.first is not None and event.start_fixed and facts.first < event.start_date:
        problems.append(
            f"it has a game on {facts.first.isoformat()}, before its start "
            f"{event.start_date.isoformat()}"
        )
    if facts.last is not None and event.end_date is not None and facts.last > event.end_date:
        problems.append(
            f"it has a game on {facts.last.isoformat()}, after its end {event.end_date.isoformat()}"
        )
    played = [n for n in (round_number(r) for r in facts.rounds) if n is not None]
    if strict and event.rounds is not None and played and max(played) > event.rounds:
        problems.append(
            f"it has games of round {max(played)}: more than {plural(event.rounds, 'round')}"
        )
    return problems
