"""Writing one planned file (accepted files only): the new players and events, the
``imports`` row, the games in bulk, and the stale marks of the closed periods they touch."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from sqlalchemy import insert
from sqlalchemy.orm import Session

from tracker.db.bulk import bulk_insert, stored_date
from tracker.db.models import Event, Game, Import, Player, table
from tracker.importers.records import ParseResult
from tracker.ratings.fide import changed_period
from tracker.services.games import natural_key
from tracker.services.imports.planned import EventPlan, Identity, Plan, Planned, chunks, suffixed
from tracker.services.imports.report import CreatedPlayer, ImportOptions, Progress, StaleFrom
from tracker.services.lists import mark_stale
from tracker.services.players import FEDERATION, TITLES
from tracker.services.rated_games import EventSpan, event_spans
from tracker.vocabulary import TIME_CONTROLS, YEAR_MAX, YEAR_MIN

#: Games written per bulk ``INSERT`` (and per progress step).
CHUNK: Final = 1000
_GAMES: Final = table(Game)
_GAME_COLUMNS: Final = (
    "white_id",
    "black_id",
    "result",
    "played_on",
    "tc",
    "event_id",
    "round",
    "white_rating",
    "black_rating",
    "natural_key",
    "import_id",
)


def game_row(
    planned: Planned, import_id: int, stored: Callable[[dt.date], object]
) -> tuple[object, ...]:
    """A ``games`` row in the order of ``_GAME_COLUMNS``."""
    record = planned.record
    white_id, black_id = planned.white.player_id, planned.black.player_id
    assert white_id is not None and black_id is not None
    event_id = planned.event.event_id if planned.event is not None else None
    return (
        white_id,
        black_id,
        record.result,
        stored(record.played_on),
        planned.tc,
        event_id,
        planned.round,
        record.white.rating,
        record.black.rating,
        suffixed(
            natural_key(record.played_on, white_id, black_id, event_id, planned.round),
            planned.suffix,
        ),
        import_id,
    )


class Writer:
    """Writes one planned file in the session's transaction."""

    def __init__(
        self,
        session: Session,
        source: tuple[str, str, str],
        options: ImportOptions,
        progress: Progress | None,
        plan: Plan,
        notes: list[str],
    ) -> None:
        self.session = session
        self.name, self.sha256, self.fmt = source
        self.options = options
        self.progress = progress
        self.plan = plan
        self.notes = notes

    def write(
        self, parsed: ParseResult, invalid: int
    ) -> tuple[int, tuple[CreatedPlayer, ...], tuple[str, ...], tuple[StaleFrom, ...]]:
        games = self.plan.games
        existing = {g.event.event_id for g in games if g.event and g.event.event_id is not None}
        before = self._spans(existing)
        created = self._create_players(games)
        events_created, changed_events = self._write_events(games)
        record = Import(
            file_name=self.name[-255:],
            sha256=self.sha256,
            format=self.fmt,
            imported_at=dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0),
            games_added=len(games),
            games_present=self.plan.present,
            games_skipped=parsed.skipped_unfinished + parsed.skipped_other + parsed.skipped_variant,
            games_invalid=invalid,
            byes=len(parsed.byes),
            players_created=len(created),
        )
        self.session.add(record)
        self.session.flush()
        self._insert_games(games, record.id)
        stale = self._mark_stale(games, changed_events, before)
        if any(not p.external for p in created):
            self.notes.append(
                "new tracked players start unrated (a game file carries no FIDE state): give "
                "each one a rating with `tracker player edit NAME --rating R --games N` before "
                "closing the period"
            )
        if self.options.create_players == "auto" and any(p.external for p in created):
            self.notes.append(
                "new players with a recorded rating were created external: they are rated "
                "from the rating recorded on each game, as FIDE rates its opponents; to rate "
                "one yourself: `tracker player edit NAME --tracked --rating R --games N`"
            )
        return record.id, created, events_created, stale

    def _create_players(self, games: Sequence[Planned]) -> tuple[CreatedPlayer, ...]:
        needed: list[Identity] = []
        seen: set[int] = set()
        for planned in games:
            for identity in (planned.white, planned.black):
                if identity.new and identity.player_id is None and id(identity) not in seen:
                    seen.add(id(identity))
                    needed.append(identity)
        if not needed:
            return ()
        rows = [
            {
                "name": i.name,
                "fide_id": i.fide_id,
                "federation": i.federation
                if i.federation and FEDERATION.match(i.federation)
                else None,
                "birth_year": i.birth_year
                if i.birth_year and YEAR_MIN <= i.birth_year <= YEAR_MAX
                else None,
                "sex": i.sex if i.sex in ("m", "f") else None,
                "title": i.title if i.title in TITLES else None,
                "external": i.external,
            }
            for i in needed
        ]
        players = table(Player)  # a Core insert: one statement for all rows
        ids = self.session.scalars(
            insert(players).returning(players.c.id, sort_by_parameter_order=True), rows
        ).all()
        for identity, player_id in zip(needed, ids, strict=True):
            identity.player_id = player_id
        dry = self.options.dry_run
        return tuple(
            CreatedPlayer(None if dry else i.player_id, i.name, i.fide_id, i.external)
            for i in needed
        )

    def _write_events(
        self, games: Sequence[Planned]
    ) -> tuple[tuple[str, ...], list[tuple[int, dt.date]]]:
        """Create the new events, move existing start dates; returns the names created and
        (event id, earliest affected day) of existing events whose start moved."""
        earliest: dict[str, dt.date] = {}
        plans: dict[str, EventPlan] = {}
        for planned in games:
            if planned.event is None:
                continue
            name = planned.event.name
            plans[name] = planned.event
            day = planned.record.played_on
            if name not in earliest or day < earliest[name]:
                earliest[name] = day
        created: list[str] = []
        changed: list[tuple[int, dt.date]] = []
        new: list[tuple[EventPlan, Event]] = []
        for name, plan in plans.items():
            first_game = earliest[name]
            if plan.event_id is None:
                event = Event(
                    name=name,
                    site=plan.site,
                    start_date=plan.file_start or first_game,
                    start_fixed=plan.file_start is not None,
                )
                self.session.add(event)  # inserted in this order, all in one flush
                new.append((plan, event))
                created.append(name)
                continue
            existing = self.session.get(Event, plan.event_id)
            assert existing is not None
            old = existing.start_date
            if plan.file_start is not None and not existing.start_fixed:
                existing.start_date = plan.file_start
                existing.start_fixed = True
            elif not existing.start_fixed and first_game < existing.start_date:
                existing.start_date = first_game
            if existing.start_date != old:
                changed.append((existing.id, min(old, existing.start_date)))
        self.session.flush()
        for plan, event in new:
            plan.event_id = event.id
        return tuple(created), changed

    def _insert_games(self, games: Sequence[Planned], import_id: int) -> None:
        """Insert the games a chunk at a time (rows are built per chunk: a federation's file
        would otherwise hold a second copy of every game in memory)."""
        stored = stored_date(self.session)
        total = len(games)
        if self.progress is not None:
            self.progress(self.name, 0, total)
        done = 0
        for chunk in chunks(games, CHUNK):
            rows = [game_row(planned, import_id, stored) for planned in chunk]
            bulk_insert(self.session, _GAMES, _GAME_COLUMNS, rows, dates_stored=True)
            done += len(chunk)
            if self.progress is not None:
                self.progress(self.name, done, total)

    def _spans(self, event_ids: set[int]) -> dict[tuple[str, int], EventSpan]:
        """The spans of ``event_ids`` in every time control, by (tc, event id)."""
        if not event_ids:
            return {}
        return {
            (tc, event_id): span
            for tc in TIME_CONTROLS
            for event_id, span in event_spans(self.session, tc, event_ids).items()
        }

    def _mark_stale(
        self,
        games: Sequence[Planned],
        changed_events: Iterable[tuple[int, dt.date]],
        before: dict[tuple[str, int], EventSpan],
    ) -> tuple[StaleFrom, ...]:
        """Mark stale, per time control, the closed periods the new games can change: the
        period in which each touched event is rated before and after the import (for a game
        without an event or in a league, its own month; see fide.changed_period)."""
        touched = {g.event.event_id for g in games if g.event and g.event.event_id is not None}
        touched.update(event_id for event_id, _ in changed_events)
        after = self._spans(touched)
        first: dict[str, dt.date] = {}

        def touch(tc: str, month: dt.date) -> None:
            if tc not in first or month < first[tc]:
                first[tc] = month

        for planned in games:
            event_id = planned.event.event_id if planned.event is not None else None
            key = (planned.tc, event_id or 0)
            day = planned.record.played_on
            touch(planned.tc, changed_period(before.get(key), after.get(key), day))
        for event_id, _ in changed_events:
            # The event starts on another day: in every time control it has games in, it is
            # rated with another list.
            for one in TIME_CONTROLS:
                span = after.get((one, event_id))
                if span is not None:
                    touch(one, changed_period(before.get((one, event_id)), span, span.end))
        stale: list[StaleFrom] = []
        for tc, month in sorted(first.items()):
            marked = mark_stale(self.session, tc, month)
            if marked:
                stale.append(StaleFrom(tc, marked[0]))
        return tuple(stale)
