"""The file's events and rounds: each event matched to a stored one by name (as every door
compares names), its start checked against the stored and the file's, its time controls
(an event is rated on one list); each round as it is stored."""

from __future__ import annotations

from collections import defaultdict

from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.db.queries.games import EventRow
from tracker.errors import InvalidInputError
from tracker.importers.records import Problem
from tracker.services.intake import check_event_start, clean_event_name, clean_round
from tracker.services.intake.columns import TC_CODES
from tracker.services.intake.plan import EventPlan, Plan, PlannedBye
from tracker.vocabulary import event_key


def match_events(db: Db, name: str, plan: Plan) -> None:
    """Fill ``plan.events``: the file's events, matched to the stored ones, with their
    problems; the games of an event of several time controls are refused."""
    _events(db, name, plan)
    _event_time_controls(db, name, plan)


def clean_rounds(plan: Plan) -> list[list[str]]:
    """Fill ``plan.rounds`` (each round of the file as stored); what is wrong with each."""
    problems: list[list[str]] = []
    for written in plan.games.rounds:
        cleaned, wrong = _clean_round(written)
        plan.rounds.append(cleaned)
        problems.append(wrong)
    return problems


def _events(db: Db, name: str, file_plan: Plan) -> None:
    events = file_plan.events
    declared = {event_key(e.name): e for e in file_plan.games.parsed.events}
    for seen in file_plan.games.events:
        plan = EventPlan(name=seen.name, first_line=seen.first_line, file_start=seen.file_start)
        plan.site = seen.site
        plan.declared = declared.get(event_key(seen.name))
        if seen.file_start is not None:
            try:
                check_event_start(seen.file_start)
            except InvalidInputError as exc:
                plan.problem = str(exc)
        if seen.site_note is not None:
            file_plan.warnings.append(Problem(name, *seen.site_note))
        try:
            clean_event_name(seen.name)
        except InvalidInputError as exc:
            plan.problem = str(exc)
        events.append(plan)
    # Stored events by the file's names as every door compares them (case and blanks do
    # not count); of two stored spellings of one key, the exact name picks one.
    by_key = {event_key(p.name): p for p in events}
    keys = sorted(key for key, p in by_key.items() if p.problem is None)
    stored: dict[str, list[EventRow]] = defaultdict(list)
    for key, event in queries.events_by_key(db, keys):
        stored[key].append(event)
    for key, candidates in stored.items():
        plan = by_key[key]
        exact = [e for e in candidates if e.name == plan.name]
        if len(candidates) > 1 and not exact:
            listed = ", ".join(repr(e.name) for e in sorted(candidates, key=lambda e: e.id))
            plan.problem = (
                f"event {plan.name!r} matches {len(candidates)} events ({listed}): write "
                "its exact name in the file"
            )
            continue
        event = exact[0] if exact else candidates[0]
        plan.event_id = event.id
        plan.stored = event
        plan.problem = _against_stored(plan, event)
    for plan in events:
        if plan.problem is not None:
            file_plan.problem(name, plan.first_line, plan.problem)


def _against_stored(plan: EventPlan, event: EventRow) -> str | None:
    """What the file says of a stored event that contradicts it: its start, or what its
    officer declared of it."""
    if plan.file_start is not None and event.start_fixed and plan.file_start != event.start_date:
        return (
            f"event {event.name!r} starts on {event.start_date} in the database; "
            f"the file says {plan.file_start}"
        )
    if plan.file_start is not None and not event.start_fixed and plan.file_start > event.start_date:
        # not fixed: the start is its earliest stored game, which the file's
        # start would leave outside the event
        return (
            f"event {event.name!r} has games from {event.start_date} in the "
            f"database; the file says it starts on {plan.file_start}"
        )
    said = plan.declared
    if said is None or event.declared != "user":
        return None
    for what, ours, theirs in (
        ("ends on", event.end_date, said.end),
        ("has rounds:", event.rounds, said.rounds),
    ):
        if ours is not None and theirs is not None and ours != theirs:
            return (
                f"event {event.name!r} {what} {ours} as declared; the file says {theirs}: "
                f"correct the file, or the event (`tracker event edit {event.name!r}`)"
            )
    return None


def _event_time_controls(db: Db, name: str, plan: Plan) -> None:
    """An event is rated on one list: one whose games (in the file, and stored) are of
    several time controls is refused whole, in one line."""
    games, events = plan.games, plan.events
    if not events:
        return
    seen: list[set[int]] = [set() for _ in events]
    event_of, tcs = games.event, games.tc
    for game in games.games():
        index = event_of[game]
        if index >= 0 and tcs[game]:
            seen[index].add(tcs[game])
    stored: dict[int, set[str]] = defaultdict(set)
    ids = sorted(e.event_id for e in events if e.event_id is not None)
    for row in queries.event_time_controls(db, ids):
        stored[row.event_id].add(row.tc)
    troubled: dict[int, str] = {}
    for index, event in enumerate(events):
        in_file = {str(TC_CODES[code]) for code in seen[index]}
        held = stored[event.event_id] if event.event_id is not None else set()
        every = sorted(in_file | held)
        if len(every) < 2:
            continue
        if held and len(in_file) == 1:
            why = (
                f"is a {', '.join(sorted(held))} event in the database and the file's "
                f"games are {next(iter(in_file))}"
            )
        else:
            why = f"has games of several time controls ({', '.join(every)})"
        troubled[index] = (
            f"event {event.name!r} {why}: an event is rated on one list; give each time "
            "control its own event"
        )
        plan.problem(name, event.first_line, troubled[index])
    if troubled:
        for game in games.games():
            if event_of[game] in troubled:
                plan.refuse(name, game)


def _clean_round(value: str | None) -> tuple[str | None, list[str]]:
    """A game's round as stored (:func:`tracker.services.intake.clean_round`), and what is
    wrong with it."""
    try:
        return clean_round(value), []
    except InvalidInputError as exc:
        return None, [str(exc)]


def plan_byes(plan: Plan) -> None:
    """Fill ``plan.byes``: the file's byes to store, each of a player its games name, in one
    of their events (a bye is part of an event's round), on its round's day; the others are
    counted (``plan.unplaced_byes``)."""
    games = plan.games
    by_key = {event_key(e.name): i for i, e in enumerate(plan.events)}
    for bye in games.parsed.byes:
        info = bye.player
        side = games.side_index.get((info.name, info.fide_id))
        if side is None and info.fide_id is not None:  # an id the intake set aside
            side = games.side_index.get((info.name, None))
        index = by_key.get(event_key(bye.event)) if bye.event else None
        round_ = _clean_round(bye.round)[0]
        if (
            side is None
            or index is None
            or round_ is None
            or bye.played_on is None
            or plan.events[index].problem is not None
        ):
            plan.unplaced_byes += 1
            continue
        plan.byes.append(PlannedBye(side, index, round_, bye.played_on, bye.kind))
