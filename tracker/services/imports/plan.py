"""Planning one file's import (reads only): match every player of the file to the
database, decide about the rest, match events, check each game and find those present."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from typing import Final, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tracker.db.models import Event, Player
from tracker.errors import InvalidInputError
from tracker.importers.records import GameRecord, ParseResult, PlayerInfo
from tracker.services.games import clean_round, natural_key
from tracker.services.imports.planned import EventPlan, Identity, Plan, Planned, chunks
from tracker.services.imports.present import LOOKUP_CHUNK, find_present
from tracker.services.imports.report import ImportOptions, plural
from tracker.services.players import clean_name
from tracker.user_input import today
from tracker.vocabulary import FORFEITS


class _Known(NamedTuple):
    """A stored player, as matching needs him."""

    id: int
    name: str
    fide_id: int | None
    external: bool


_KNOWN: Final = select(Player.id, Player.name, Player.fide_id, Player.external)


def _label(player: _Known) -> str:
    fide = f", FIDE {player.fide_id}" if player.fide_id else ""
    return f"#{player.id} {player.name}{fide}"


def _has_control(text: str) -> bool:
    """Control characters (NUL, escape codes...): never part of a name; PostgreSQL refuses
    NUL in text."""
    return any(unicodedata.category(char) == "Cc" for char in text)


def _clean_round(value: str | None) -> tuple[str | None, list[str]]:
    """A game's round as stored, and what is wrong with it."""
    problems = []
    try:
        round_ = clean_round(value)
    except InvalidInputError as exc:
        problems.append(str(exc))
        round_ = None
    if round_ is not None and _has_control(round_):
        problems.append(f"round {round_!r} contains control characters")
    return round_, problems


class Planner:
    """Plans one file: fills ``plan`` with the games to write and the problems found."""

    def __init__(self, session: Session, name: str, options: ImportOptions, plan: Plan) -> None:
        self.session = session
        self.name = name
        self.options = options
        self.plan = plan
        # Each record's white and black person, in the order of the records.
        self.sides: tuple[Sequence[GameRecord], list[Identity], list[Identity]] = ((), [], [])

    def plan_file(self, parsed: ParseResult) -> None:
        records = parsed.games
        if not records:
            return
        identities = self._identities(records)
        self._match_players(identities)
        self._decide_new_players(identities)
        events = self._events(records)
        self._check_games(records, events)
        find_present(self.session, self.plan)

    def _identities(self, records: Sequence[GameRecord]) -> dict[tuple[str, object], Identity]:
        """The file's people: keyed by FIDE id, or by name when the file gives none."""
        ids_by_name: dict[str, set[int]] = defaultdict(set)
        for record in records:
            for info in (record.white, record.black):
                if info.fide_id is not None:
                    ids_by_name[info.name.casefold()].add(info.fide_id)
        identities: dict[tuple[str, object], Identity] = {}
        # (name, FIDE id) as written -> the person: _key worked out once per person
        seen: dict[tuple[str, int | None], Identity] = {}
        whites: list[Identity] = []
        blacks: list[Identity] = []
        self.sides = (records, whites, blacks)
        absorb = Identity.absorb
        for record in records:
            for sides, info in ((whites, record.white), (blacks, record.black)):
                identity = seen.get((info.name, info.fide_id))
                if identity is None:
                    key = self._key(info, ids_by_name)
                    identity = identities.get(key)
                    if identity is None:
                        fide_id = key[1] if key[0] == "id" else None
                        identity = Identity(
                            name=info.name,
                            fide_id=fide_id,  # type: ignore[arg-type]
                            first_line=info.line or record.line,  # his own record, if any
                        )
                        if _has_control(info.name):  # checked before it reaches a query
                            identity.problem = (
                                f"player name {info.name!r} contains control characters"
                            )
                        identities[key] = identity
                    seen[(info.name, info.fide_id)] = identity
                sides.append(identity)
                absorb(identity, info)
        return identities

    @staticmethod
    def _key(info: PlayerInfo, ids_by_name: dict[str, set[int]]) -> tuple[str, object]:
        if info.fide_id is not None:
            return ("id", info.fide_id)
        ids = ids_by_name.get(info.name.casefold(), set())
        if len(ids) == 1:
            return ("id", next(iter(ids)))  # the same name is given a FIDE id elsewhere
        return ("name", info.name.casefold())

    def _match_players(self, identities: dict[tuple[str, object], Identity]) -> None:
        usable = [i for i in identities.values() if i.problem is None]
        fide_ids = sorted(i.fide_id for i in usable if i.fide_id is not None)
        by_fide: dict[int, _Known] = {}
        for id_chunk in chunks(fide_ids, LOOKUP_CHUNK):
            query = _KNOWN.where(Player.fide_id.in_(id_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                assert player.fide_id is not None
                by_fide[player.fide_id] = player
        unmatched = [i for i in usable if i.fide_id is None or i.fide_id not in by_fide]
        names = sorted({i.name for i in unmatched})
        by_name: dict[str, list[_Known]] = defaultdict(list)
        for name_chunk in chunks(names, LOOKUP_CHUNK):
            query = _KNOWN.where(Player.name.in_(name_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                by_name[player.name].append(player)
        folded = sorted({i.name.lower() for i in unmatched if i.name not in by_name})
        by_lower: dict[str, list[_Known]] = defaultdict(list)
        for folded_chunk in chunks(folded, LOOKUP_CHUNK):
            query = _KNOWN.where(func.lower(Player.name).in_(folded_chunk))
            for player in map(_Known._make, self.session.execute(query)):
                by_lower[player.name.lower()].append(player)
        for identity in usable:
            if identity.fide_id is not None and identity.fide_id in by_fide:
                self._use(identity, by_fide[identity.fide_id])
                continue
            candidates = by_name.get(identity.name) or by_lower.get(identity.name.lower(), [])
            if identity.fide_id is not None:
                # Players with another FIDE id are other people of the same name.
                candidates = [p for p in candidates if p.fide_id is None]
            if len(candidates) == 1:
                self._use(identity, candidates[0])
            elif len(candidates) > 1:
                listed = ", ".join(_label(p) for p in sorted(candidates, key=lambda p: p.id))
                identity.problem = (
                    f"player {identity.name!r} matches {len(candidates)} players ({listed}); "
                    "give FIDE ids in the file, or rename one of them"
                )
            else:
                identity.new = True

    @staticmethod
    def _use(identity: Identity, player: _Known) -> None:
        identity.player_id = player.id
        identity.external = player.external

    def _decide_new_players(self, identities: dict[tuple[str, object], Identity]) -> None:
        policy = self.options.create_players
        for identity in identities.values():
            if not identity.new:
                continue
            try:
                identity.name = clean_name(identity.name)
            except InvalidInputError as exc:
                identity.problem = str(exc)
                continue
            in_games = f"(in {plural(identity.games, 'game')})"
            if policy == "no":
                identity.problem = (
                    f"unknown player {identity.name!r} {in_games}: add them first "
                    "(`tracker player add`) or use --create-players tracked|external"
                )
            elif policy == "auto" and identity.fide_id is None and not identity.rating_seen:
                identity.problem = (
                    f"unknown player {identity.name!r} {in_games} and the file gives no FIDE "
                    "id or rating for them: add them first (`tracker player add`) or use "
                    "--create-players tracked|external"
                )
            elif policy == "auto":
                # An opponent with a recorded rating is rated from it, as FIDE rates him;
                # one with only a FIDE id is unrated and earns their rating with us.
                identity.external = identity.rating_seen
            else:
                identity.external = policy == "external"

    def _events(self, records: Sequence[GameRecord]) -> dict[str, EventPlan]:
        events: dict[str, EventPlan] = {}
        normal: dict[str, str] = {}  # as written -> as stored
        for record in records:
            if record.event is None:
                continue
            name = normal.get(record.event)
            if name is None:
                name = normal[record.event] = " ".join(record.event.split())
            if not name:
                continue
            plan = events.get(name)
            if plan is None:
                plan = events[name] = EventPlan(name=name, first_line=record.line)
                if len(name) > 200:
                    plan.problem = "an event name is limited to 200 characters"
                elif _has_control(name):
                    plan.problem = f"event name {name!r} contains control characters"
            if record.event_start is not None and (
                plan.file_start is None or record.event_start < plan.file_start
            ):
                plan.file_start = record.event_start
            if record.site and not _has_control(record.site):
                plan.site = plan.site or " ".join(record.site.split())[:200] or None
        names = sorted(n for n, p in events.items() if p.problem is None)
        for chunk in chunks(names, LOOKUP_CHUNK):
            for event in self.session.scalars(select(Event).where(Event.name.in_(chunk))):
                plan = events[event.name]
                plan.event_id = event.id
                plan.db_start = event.start_date
                plan.db_fixed = event.start_fixed
                if (
                    plan.file_start is not None
                    and event.start_fixed
                    and plan.file_start != event.start_date
                ):
                    plan.problem = (
                        f"event {event.name!r} starts on {event.start_date} in the database; "
                        f"the file says {plan.file_start}"
                    )
                elif plan.file_start is not None and plan.file_start > event.start_date:
                    # not fixed: the start is its earliest stored game, which the file's
                    # start would leave outside the event
                    plan.problem = (
                        f"event {event.name!r} has games from {event.start_date} in the "
                        f"database; the file says it starts on {plan.file_start}"
                    )
        for plan in events.values():
            if plan.problem is not None:
                self.plan.problem(self.name, plan.first_line, plan.problem)
        return events

    def _check_games(
        self,
        records: Sequence[GameRecord],
        events: dict[str, EventPlan],
    ) -> None:
        reported: set[int] = set()
        no_tc: list[GameRecord] = []
        future: list[GameRecord] = []
        now = today()
        # Each key's first game; the keys several games share get all theirs in `shared`
        # (a list per game would cost a federation's import a hundred megabytes).
        first_of: dict[str | tuple[object, ...], Planned] = {}
        shared: dict[str | tuple[object, ...], list[Planned]] = {}
        repeats: list[tuple[int, int]] = []  # (line, line of the game it repeats)
        unrated_external: list[tuple[GameRecord, str]] = []
        plan = self.plan
        sided, whites, blacks = self.sides
        assert sided is records, "the sides were found for these records"
        event_names: dict[str, str] = {}  # as written -> as stored
        rounds: dict[str | None, tuple[str | None, list[str]]] = {}  # as written -> cleaned
        fixed_starts: dict[str, dt.date | None] = {}  # event name -> its fixed_start
        for record, white, black in zip(records, whites, blacks, strict=True):
            bad = False
            for identity in (white, black):
                if identity.problem is not None:
                    bad = True
                    if id(identity) not in reported:
                        reported.add(id(identity))
                        plan.problem(self.name, identity.first_line, identity.problem)
            event = None
            if record.event is not None:
                event_name = event_names.get(record.event)
                if event_name is None:
                    event_name = event_names[record.event] = " ".join(record.event.split())
                if event_name:
                    event = events[event_name]
                    bad = bad or event.problem is not None  # reported once, with the event
            if bad:
                plan.refuse(record)
                continue
            reasons: list[str] = []
            if white is black or (
                white.player_id is not None and white.player_id == black.player_id
            ):
                reasons.append(f"white and black are the same player ({white.name})")
            cleaned = rounds.get(record.round)
            if cleaned is None:
                cleaned = rounds[record.round] = _clean_round(record.round)
            round_ = cleaned[0]
            reasons.extend(cleaned[1])
            if (white.external or black.external) and record.result not in FORFEITS:
                for identity, info in ((white, record.white), (black, record.black)):
                    if identity.external and info.rating is None:
                        unrated_external.append((record, identity.name))
            if record.played_on > now:
                future.append(record)
                plan.refuse(record)
                continue
            if event is not None:
                if event.name in fixed_starts:
                    fixed = fixed_starts[event.name]
                else:
                    fixed = fixed_starts[event.name] = event.fixed_start
                if fixed is not None and record.played_on < fixed:
                    reasons.append(
                        f"the game's date {record.played_on} is before {event.name!r} starts "
                        f"({fixed})"
                    )
            if record.tc is None:
                no_tc.append(record)  # reported once for all of them, below
                plan.refuse(record)
            for reason in reasons:
                plan.refuse(record, reason)
            if record.tc is None or reasons:
                continue
            assert record.tc is not None
            planned = Planned(record, white, black, event, round_, record.tc)
            planned.key, planned.final = self._key_of(planned)
            earlier = first_of.get(planned.key)
            group = [] if earlier is None else shared.get(planned.key, [earlier])
            repeat = self._repeat_of(planned, group)
            if repeat is not None:
                if repeat.record.result == record.result:
                    repeats.append((record.line, repeat.record.line))
                    plan.present += 1
                else:
                    plan.refuse(
                        record,
                        f"the same moves as the game of line {repeat.record.line} with another "
                        f"result ({repeat.record.result}); which one is right?",
                    )
                continue
            if earlier is None:
                first_of[planned.key] = planned
            else:
                group.append(planned)
                shared[planned.key] = group
                planned.suffix = len(group)
            plan.games.append(planned)
        if no_tc:
            first = no_tc[0]
            more = f" (and {len(no_tc) - 1} more)" if len(no_tc) > 1 else ""
            plan.problem(
                self.name,
                first.line,
                f"no time control for this game{more}: the file does not say; "
                "give --tc standard|rapid|blitz",
            )
        if future:
            first = future[0]
            more = f" (and {plural(len(future) - 1, 'more game')})" if len(future) > 1 else ""
            plan.problem(
                self.name,
                first.line,
                f"dated {first.played_on}, after today ({now}){more}: check the file's dates",
            )
        self._note_games(shared, repeats, unrated_external)

    @staticmethod
    def _repeat_of(planned: Planned, group: list[Planned]) -> Planned | None:
        """An earlier game of the file with the same key and the same moves: the same game
        written twice. Without moves two such records are two games."""
        digest = planned.record.moves_digest
        if digest is None:
            return None
        return next((p for p in group if p.record.moves_digest == digest), None)

    def _note_games(
        self,
        shared_keys: dict[str | tuple[object, ...], list[Planned]],
        repeats: list[tuple[int, int]],
        unrated_external: list[tuple[GameRecord, str]],
    ) -> None:
        notes = self.plan.notes
        shared = list(shared_keys.values())
        if shared:
            count = sum(len(g) for g in shared)
            first = shared[0]
            lines = ", ".join(str(p.record.line) for p in first[:5])
            notes.append(
                f"{count} games share their date, players, event and round with another game "
                f"of the file (lines {lines}{', ...' if len(first) > 5 or len(shared) > 1 else ''}"
                "): kept as distinct games (games with the same moves would be one)"
            )
        if repeats:
            line, earlier = repeats[0]
            more = f" (and {plural(len(repeats) - 1, 'more')})" if len(repeats) > 1 else ""
            notes.append(
                f"{self.name}:{line} repeats the game of line {earlier} (same players, day, "
                f"round and moves): counted once, as already present{more}"
            )
        if unrated_external:
            record, name = unrated_external[0]
            more = f", and {len(unrated_external) - 1} more" if len(unrated_external) > 1 else ""
            notes.append(
                f"{plural(len(unrated_external), 'game')} against external players with no "
                f"recorded rating ({self.name}:{record.line}: {name}{more}): stored, not rated "
                "for their opponents (FIDE does not rate games against unrated opponents)"
            )

    @staticmethod
    def _key_of(planned: Planned) -> tuple[str | tuple[object, ...], bool]:
        """The natural key, and whether it is final: players and events not created yet get
        stand-ins (which cannot match a stored game)."""
        white, black, event = planned.white.player_id, planned.black.player_id, planned.event
        event_id = event.event_id if event is not None else None
        if white is not None and black is not None and (event is None or event_id is not None):
            return natural_key(
                planned.record.played_on, white, black, event_id, planned.round
            ), True
        # A tuple can never equal a stored key (a string); equal stand-ins are the same game.
        stand_in = (
            planned.record.played_on,
            white or ("new", id(planned.white)),
            black or ("new", id(planned.black)),
            event_id or (("new", event.name) if event is not None else ""),
            planned.round or "",
        )
        return stand_in, False
