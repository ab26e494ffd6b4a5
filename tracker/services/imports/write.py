"""Writing one planned file (accepted files only): the new players and events, the
``imports`` row, the games in bulk, and the stale marks of the closed periods they touch."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from itertools import islice
from typing import Final

from tracker.db.driver import Db
from tracker.db.queries import byes as bye_queries
from tracker.db.queries import games as game_queries
from tracker.db.queries import imports as queries
from tracker.db.queries.games import EventRow, GameFields
from tracker.db.queries.imports import NewImport, TcMonth
from tracker.db.queries.periods import time_controls_closed
from tracker.db.queries.players import PlayerRow
from tracker.errors import InvalidInputError
from tracker.months import month_label
from tracker.ratings.fide.events import EventSpan, changed_period
from tracker.services import log
from tracker.services.events import edit as events
from tracker.services.imports.report import CreatedPlayer, ImportOptions, Progress
from tracker.services.intake import natural_key
from tracker.services.intake.columns import RESULT_CODES, TC_CODES
from tracker.services.intake.plan import EventPlan, Identity, Plan, suffixed
from tracker.services.lists.rated_games import event_spans
from tracker.services.lists.stale import changed_month, mark_stale
from tracker.services.players.roster import FEDERATION
from tracker.vocabulary import (
    TIME_CONTROLS,
    TITLES,
    YEAR_MAX,
    YEAR_MIN,
    TimeControl,
    event_key,
    plural,
)

#: Games written per bulk ``INSERT`` (and per progress step).
CHUNK: Final = 1000


class Writer:
    """Writes one planned file in ``db``'s transaction."""

    def __init__(
        self,
        db: Db,
        source: tuple[str, str, str],
        options: ImportOptions,
        progress: Progress | None,
        plan: Plan,
        notes: list[str],
    ) -> None:
        self.db = db
        self.name, self.sha256, self.fmt = source
        self.options = options
        self.progress = progress
        self.plan = plan
        self.notes = notes

    def write(
        self, invalid: int
    ) -> tuple[int, tuple[CreatedPlayer, ...], tuple[str, ...], tuple[TcMonth, ...]]:
        plan, parsed = self.plan, self.plan.games.parsed
        survey = _Survey(plan)
        # Closed periods can turn stale only in the time controls that have some.
        self.closed = time_controls_closed(self.db)
        existing = {
            event_id
            for index in survey.first_day
            if (event_id := plan.events[index].event_id) is not None
        }
        if self.options.rated_in is not None:  # every event of the file may change period
            existing |= {e.event_id for e in plan.events if e.event_id is not None}
        before = self._spans(existing)
        created = self._create_players(survey.new_players)
        events_created, changed_events = self._write_events(survey.first_day)
        added = plan.added
        record = NewImport(
            file_name=self.name[-255:],
            sha256=self.sha256,
            format=self.fmt,
            imported_at=dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0),
            games_added=added,
            games_present=plan.present,
            games_skipped=(
                parsed.skipped_unfinished
                + parsed.skipped_other
                + parsed.skipped_variant
                + plan.games.skipped_unlisted
            ),
            games_invalid=invalid,
            byes=len(parsed.byes),
            players_created=len(created),
        )
        import_id = queries.insert_import(self.db, record)
        self._insert_games(import_id, added)
        self._insert_byes(import_id, survey.event_tc)
        if self.options.rated_in is not None:
            changed_events += self._rate_in(self.options.rated_in)
        events_of_file = [e.event_id for e in plan.events if e.event_id is not None]
        made = f", {len(created)} players created" if created else ""
        log.note(
            self.db,
            "imported",
            f"{self.name} as import #{import_id}: {added} games added{made}",
            players=[p.id for p in created],
            events=events_of_file,
        )
        stale = self._mark_stale(survey.first_day_by_tc, changed_events, before)
        if any(not p.external for p in created):
            self.notes.append(
                "new tracked players start unrated (a game file carries no FIDE state): give "
                "each one a rating with `tracker player seed NAME --rating R --games N` before "
                "closing the period"
            )
        if self.options.create_players in ("auto", "by-rating") and any(
            p.external for p in created
        ):
            self.notes.append(
                "new players with a recorded rating were created external: they are rated "
                "from the rating recorded on each game, as FIDE rates its opponents; to rate "
                "one yourself: `tracker player edit NAME --tracked`, then "
                "`tracker player seed NAME --rating R --games N`"
            )
        return import_id, created, events_created, stale

    def _create_players(self, needed: list[Identity]) -> tuple[CreatedPlayer, ...]:
        """Create the new players (in the order of their first game)."""
        if not needed:
            return ()
        rows = [
            PlayerRow(
                id=0,
                name=i.name,
                fide_id=i.fide_id,
                federation=i.federation
                if i.federation and FEDERATION.match(i.federation)
                else None,
                birth_year=i.birth_year
                if i.birth_year and YEAR_MIN <= i.birth_year <= YEAR_MAX
                else None,
                sex=i.sex if i.sex in ("m", "f") else None,
                title=i.title if i.title in TITLES else None,
                external=i.external,
                lichess=None,
                chesscom=None,
            )
            for i in needed
        ]
        ids = queries.insert_players(self.db, rows)
        for identity, player_id in zip(needed, ids, strict=True):
            identity.player_id = player_id
        dry = self.options.dry_run
        return tuple(
            CreatedPlayer(None if dry else i.player_id, i.name, i.fide_id, i.external)
            for i in needed
        )

    def _write_events(
        self, first_day: dict[int, int]
    ) -> tuple[tuple[str, ...], list[tuple[int, dt.date]]]:
        """Create the new events, and write what the file declares of the existing ones (and
        their start, following their earliest game); returns the names created and (event
        id, earliest day) of the existing events that changed."""
        created: list[str] = []
        changed: list[tuple[int, dt.date]] = []
        new: list[tuple[EventPlan, EventRow]] = []
        for index, day in first_day.items():
            plan = self.plan.events[index]
            event = plan.declaration(dt.date.fromordinal(day))
            if plan.event_id is None:
                new.append((plan, event))  # inserted in this order, after the moves
                created.append(plan.name)
                continue
            stored = plan.stored
            assert stored is not None
            if event != stored:
                game_queries.declare_event(self.db, event)
                changed.append((plan.event_id, min(stored.start_date, event.start_date)))
        for plan, event in new:
            plan.event_id = game_queries.insert_event(self.db, event, event_key(event.name))
        return tuple(created), changed

    def _rate_in(self, month: dt.date) -> list[tuple[int, dt.date]]:
        """``--rated-in``: the file's events (those of its new games and of the games already
        present) are rated in ``month``, checked as ``event edit --rated-in`` checks it; the
        events whose period this changes, as :meth:`_mark_stale` takes them."""
        ids = sorted({e.event_id for e in self.plan.events if e.event_id is not None})
        if not ids:
            raise InvalidInputError(
                f"{self.name}: --rated-in {month_label(month)}: the file's games belong to no event"
            )
        return [(event_id, month) for event_id in ids if events.rate_in(self.db, event_id, month)]

    def _insert_games(self, import_id: int, total: int) -> None:
        """Insert the games a chunk at a time (rows are built per chunk: a federation's file
        would otherwise hold a second copy of every game in memory)."""
        plan = self.plan
        games = plan.games
        player_ids = [identity.player_id for identity in plan.side_identity]  # by side
        event_ids = [event.event_id for event in plan.events]
        rounds, suffix = plan.rounds, plan.suffix
        whites, blacks, days = games.white, games.black, games.day
        event_of, round_of = games.event, games.round
        results, tcs = games.result, games.tc
        white_ratings, black_ratings = games.white_rating, games.black_rating
        on_day: dict[int, dt.date] = {}  # a file holds few distinct days
        if self.progress is not None:
            self.progress(self.name, 0, total)
        done = 0
        writable = plan.writable()
        while chunk := list(islice(writable, CHUNK)):
            rows = []
            for game in chunk:
                white_id = player_ids[whites[game]]
                black_id = player_ids[blacks[game]]
                assert white_id is not None and black_id is not None
                index = event_of[game]
                event_id = event_ids[index] if index >= 0 else None
                index = round_of[game]
                round_ = rounds[index] if index >= 0 else None
                number = days[game]
                played_on = on_day.get(number)
                if played_on is None:
                    played_on = on_day[number] = dt.date.fromordinal(number)
                key = natural_key(played_on, white_id, black_id, event_id, round_)
                if suffix and game in suffix:
                    key = suffixed(key, suffix[game])
                tc = TC_CODES[tcs[game]]
                assert tc is not None, "a game without a time control is refused"
                rows.append(
                    GameFields(
                        white_id,
                        black_id,
                        RESULT_CODES[results[game]],
                        played_on,
                        tc,
                        event_id,
                        round_,
                        white_ratings[game] or None,
                        black_ratings[game] or None,
                        key,
                        import_id,
                    )
                )
            queries.insert_games(self.db, rows)
            done += len(chunk)
            if self.progress is not None:
                self.progress(self.name, done, total)

    def _insert_byes(self, import_id: int, event_tc: dict[int, int]) -> None:
        """Store the file's byes (those planned, in an event with games to write or already
        present, and not stored yet); say how many."""
        plan = self.plan
        stored = bye_queries.byes_present(
            self.db, [e.event_id for e in plan.events if e.event_id is not None]
        )
        rows: list[bye_queries.ByeFields] = []
        for bye in plan.byes:
            event_id = plan.events[bye.event].event_id
            player_id = plan.side_identity[bye.side].player_id
            tc = TC_CODES[event_tc[bye.event]] if bye.event in event_tc else None
            if event_id is None or player_id is None or tc is None:
                plan.unplaced_byes += 1
                continue
            if (event_id, player_id, bye.round) in stored:
                continue
            stored.add((event_id, player_id, bye.round))
            rows.append(
                bye_queries.ByeFields(
                    event_id, player_id, bye.round, bye.played_on, tc, bye.code, import_id
                )
            )
        bye_queries.insert_byes(self.db, rows)
        if rows:
            self.notes.append(f"{plural(len(rows), 'bye')} stored (never rated)")
        if plan.unplaced_byes:
            self.notes.append(
                f"{plural(plan.unplaced_byes, 'bye')} not stored: of a player or event with "
                "no game in the file, or without a date"
            )

    def _spans(self, event_ids: set[int]) -> dict[tuple[str, int], EventSpan]:
        """The spans of ``event_ids`` in every time control with closed periods, by (tc,
        event id)."""
        if not event_ids:
            return {}
        return {
            (tc, event_id): span
            for tc in TIME_CONTROLS
            if tc in self.closed
            for event_id, span in event_spans(self.db, tc, event_ids).items()
        }

    def _mark_stale(
        self,
        first_day: dict[tuple[int, int], int],
        changed_events: Iterable[tuple[int, dt.date]],
        before: dict[tuple[str, int], EventSpan],
    ) -> tuple[TcMonth, ...]:
        """Mark stale, per time control, the closed periods the new games can change: the
        period in which each touched event is rated before and after the import (for a game
        without an event or in a league, its own month; see fide.changed_period), or the
        month of its earliest new game if earlier (the shadow rates a game in the month it
        was played: lists.stale.changed_month). The earliest game of each event and time
        control is the one that counts: a later day never gives an earlier period."""
        if not self.closed:
            return ()
        earliest: dict[tuple[TimeControl, int], int] = {}  # (tc, event id or 0) -> first day
        for (tc_code, index), day in first_day.items():
            tc = TC_CODES[tc_code]
            assert tc is not None
            if tc in self.closed:
                event_id = self.plan.events[index].event_id if index >= 0 else None
                earliest[(tc, event_id or 0)] = day
        touched = {event_id for _, event_id in earliest if event_id}
        touched.update(event_id for event_id, _ in changed_events)
        after = self._spans(touched)
        first: dict[TimeControl, dt.date] = {}
        for key, day in earliest.items():
            played_on = dt.date.fromordinal(day)
            events.earliest(
                first, key[0], changed_month(before.get(key), after.get(key), played_on)
            )
        for event_id, _ in changed_events:
            # The event starts on another day: in every time control it has games in, it is
            # rated with another list.
            for one in TIME_CONTROLS:
                span = after.get((one, event_id))
                if span is not None:
                    events.earliest(
                        first, one, changed_period(before.get((one, event_id)), span, span.end)
                    )
        stale: list[TcMonth] = []
        for tc, month in sorted(first.items()):
            marked = mark_stale(self.db, tc, month)
            if marked:
                stale.append(TcMonth(tc, marked[0]))
        return tuple(stale)


class _Survey:
    """What writing needs to know of the games to write, found in one pass over them: the
    new players in the order of their first game, each event's first day (events in the
    order met), and each (time control, event)'s first day."""

    def __init__(self, plan: Plan) -> None:
        games = plan.games
        side_identity, whites, blacks = plan.side_identity, games.white, games.black
        event_of, days, tcs = games.event, games.day, games.tc
        self.new_players: list[Identity] = []
        self.first_day: dict[int, int] = {}  # event -> day
        self.first_day_by_tc: dict[tuple[int, int], int] = {}  # (tc, event or -1) -> day
        self.event_tc: dict[int, int] = {}  # event -> its games' time control (a code)
        met = bytearray(max((i.number for i in side_identity), default=-1) + 1)  # people seen
        first_day, first_day_by_tc = self.first_day, self.first_day_by_tc
        for game in plan.writable():
            for side in (whites[game], blacks[game]):
                identity = side_identity[side]
                if identity.new and not met[identity.number]:
                    met[identity.number] = 1
                    if identity.player_id is None:
                        self.new_players.append(identity)
            index, day = event_of[game], days[game]
            if index >= 0 and day < first_day.get(index, day + 1):
                first_day[index] = day
            key = (tcs[game], index)
            if day < first_day_by_tc.get(key, day + 1):
                first_day_by_tc[key] = day
            if index >= 0 and tcs[game]:
                self.event_tc.setdefault(index, tcs[game])
