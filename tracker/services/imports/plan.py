"""Planning one file's import (reads only): match every player of the file to the
database, decide about the rest, match events, check each game and find those present.

The file's games are :class:`~tracker.services.imports.columns.FileGames` (compact columns);
the plan gives each game a state (to write, refused, present) in :attr:`Plan.state`. Work
that is file-wide in nature stays file-wide but small: the games sharing a natural key are
found with two bitmaps (a game whose key is alone in the file, nearly all of them, costs
four bytes), and the stored games are looked up a slice of the file at a time."""

from __future__ import annotations

import datetime as dt
from array import array
from collections import defaultdict
from typing import Final, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import imports as queries
from tracker.db.queries.imports import KnownPlayer
from tracker.errors import InvalidInputError
from tracker.importers.records import Problem
from tracker.services.games import date_bounds
from tracker.services.imports.columns import (
    FORFEIT_CODES,
    RESULT_CODES,
    TC_CODES,
    Side,
)
from tracker.services.imports.planned import EventPlan, Identity, Plan, suffixed
from tracker.services.imports.report import ImportOptions, plural
from tracker.services.intake import (
    FIRST_RATED_DAY,
    YOUNGEST,
    age_problem,
    clean_event_name,
    clean_round,
    event_key,
    has_control,
    round_key,
)
from tracker.services.players import clean_name
from tracker.user_input import today

#: Keys per round of looking the file's games up among the stored ones.
PRESENT_CHUNK: Final = 20_000

_Found = int | list[int]  # the file's game of a key, or its games


class _Stored(NamedTuple):
    """A stored game of a key: the key's level (1 for the key itself, n for ``key|#n``)."""

    level: int
    game_id: int
    result: str
    tc: str


def _label(player: KnownPlayer) -> str:
    fide = f", FIDE {player.fide_id}" if player.fide_id else ""
    return f"#{player.id} {player.name}{fide}"


def _clean_round(value: str | None) -> tuple[str | None, list[str]]:
    """A game's round as stored (:func:`tracker.services.intake.clean_round`), and what is
    wrong with it."""
    try:
        return clean_round(value), []
    except InvalidInputError as exc:
        return None, [str(exc)]


def _bitmap_size(count: int) -> int:
    """Bits of the bitmaps that find the keys several games share: some 64 a game (one game
    in 64 then falsely looks shared, and is checked for nothing), at most 2**27 (16 MiB)."""
    bits = 1 << 16
    while bits < 64 * count and bits < 1 << 27:
        bits <<= 1
    return bits


class Planner:
    """Plans one file: fills ``plan`` with the state of every game and the problems found."""

    def __init__(self, db: Db, name: str, options: ImportOptions, plan: Plan) -> None:
        self.db = db
        self.name = name
        self.options = options
        self.plan = plan
        self.games = plan.games
        self.round_problems: list[list[str]] = []  # by round of the file
        self.repeats: list[tuple[int, int]] = []  # (line, line of the game it repeats)

    def plan_file(self) -> None:
        if not self.games.count:
            return
        identities = self._identities()
        self._match_players(identities)
        self._decide_new_players(identities)
        self._events()
        self._event_time_controls()
        self._rounds()
        groups = self._check_games()
        self._find_present(groups)

    # -- people ---------------------------------------------------------------------------

    def _identities(self) -> list[Identity]:
        """The file's people: keyed by FIDE id, or by name when the file gives none (a name
        given a FIDE id elsewhere in the file is that person)."""
        sides = self.games.sides
        ids_by_name: dict[str, set[int]] = defaultdict(set)
        for side in sides:
            if side.fide_id is not None:
                ids_by_name[side.name.casefold()].add(side.fide_id)
        by_key: dict[tuple[str, object], Identity] = {}
        identities: list[Identity] = []
        merged: dict[int, list[Side]] = defaultdict(list)  # person -> his sides, if several
        side_identity = self.plan.side_identity
        for side in sides:  # in the order of their first game: the people's order
            key = self._key(side, ids_by_name)
            identity = by_key.get(key)
            if identity is None:
                fide_id = key[1] if key[0] == "id" else None
                identity = by_key[key] = Identity(
                    name=side.name,
                    fide_id=fide_id,  # type: ignore[arg-type]
                    first_line=side.first_line,
                    number=len(identities),
                )
                identities.append(identity)
                if has_control(side.name):  # checked before it reaches a query
                    identity.problem = f"player name {side.name!r} contains control characters"
            side_identity.append(identity)
            merged[identity.number].append(side)
            identity.games += side.games
            identity.rating_seen = identity.rating_seen or side.rating_seen
        for number, its_sides in merged.items():
            _take_details(identities[number], its_sides)
        return identities

    @staticmethod
    def _key(side: Side, ids_by_name: dict[str, set[int]]) -> tuple[str, object]:
        if side.fide_id is not None:
            return ("id", side.fide_id)
        ids = ids_by_name.get(side.name.casefold(), set())
        if len(ids) == 1:
            return ("id", next(iter(ids)))  # the same name is given a FIDE id elsewhere
        return ("name", side.name.casefold())

    def _match_players(self, identities: list[Identity]) -> None:
        usable = [i for i in identities if i.problem is None]
        fide_ids = sorted(i.fide_id for i in usable if i.fide_id is not None)
        by_fide: dict[int, KnownPlayer] = {}
        for player in queries.players_by_fide_id(self.db, fide_ids):
            assert player.fide_id is not None
            by_fide[player.fide_id] = player
        unmatched = [i for i in usable if i.fide_id is None or i.fide_id not in by_fide]
        names = sorted({i.name for i in unmatched})
        by_name: dict[str, list[KnownPlayer]] = defaultdict(list)
        for player in queries.players_by_name(self.db, names):
            by_name[player.name].append(player)
        folded = sorted({i.name.lower() for i in unmatched if i.name not in by_name})
        by_lower: dict[str, list[KnownPlayer]] = defaultdict(list)
        for player in queries.players_by_lower_name(self.db, folded):
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
    def _use(identity: Identity, player: KnownPlayer) -> None:
        identity.player_id = player.id
        identity.external = player.external
        identity.stored_birth_year = player.birth_year

    def _decide_new_players(self, identities: list[Identity]) -> None:
        policy = self.options.create_players
        for identity in identities:
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
                    "--create-players by-rating|tracked|external"
                )
            elif policy in ("auto", "by-rating"):
                # An opponent with a recorded rating is rated from it, as FIDE rates him;
                # one without (only a FIDE id, or by-rating: nothing) is unrated and earns
                # their rating with us.
                identity.external = identity.rating_seen
            else:
                identity.external = policy == "external"

    # -- events and rounds ----------------------------------------------------------------

    def _events(self) -> None:
        events = self.plan.events
        for seen in self.games.events:
            plan = EventPlan(name=seen.name, first_line=seen.first_line, file_start=seen.file_start)
            plan.site = seen.site
            try:
                clean_event_name(seen.name)
            except InvalidInputError as exc:
                plan.problem = str(exc)
            events.append(plan)
        # Stored events by the file's names as every door compares them (case and blanks do
        # not count); of two stored spellings of one key, the exact name picks one.
        by_key = {event_key(p.name): p for p in events}
        keys = sorted(key for key, p in by_key.items() if p.problem is None)
        stored: dict[str, list[queries.StoredEvent]] = defaultdict(list)
        for event in queries.events_by_key(self.db, keys):
            stored[event.name_key].append(event)
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
        for plan in events:
            if plan.problem is not None:
                self.plan.problem(self.name, plan.first_line, plan.problem)

    def _event_time_controls(self) -> None:
        """An event is rated on one list: one whose games (in the file, and stored) are of
        several time controls is refused whole, in one line."""
        games, plan, events = self.games, self.plan, self.plan.events
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
        for row in queries.event_time_controls(self.db, ids):
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
            plan.problem(self.name, event.first_line, troubled[index])
        if troubled:
            for game in games.games():
                if event_of[game] in troubled:
                    plan.refuse(self.name, game)

    def _rounds(self) -> None:
        for written in self.games.rounds:
            cleaned, problems = _clean_round(written)
            self.plan.rounds.append(cleaned)
            self.round_problems.append(problems)

    # -- games ----------------------------------------------------------------------------

    def _check_games(self) -> dict[int, list[int]]:
        """Check every game; the games sharing their key with another of the file come back
        as groups (each group's games by the first one's number, in the file's order)."""
        plan, games, name = self.plan, self.games, self.name
        reported: set[int] = set()  # people whose problem is reported
        no_tc = 0
        first_no_tc = -1
        unrated_external = 0
        first_unrated: tuple[int, str] | None = None
        # Dates the intake's rules refuse (tracker.services.intake.DateBounds), each kind
        # reported once: [games, the first of them].
        bounds = date_bounds(self.db, today())
        refused_days: dict[str, list[int]] = {}
        today_number = bounds.today.toordinal()
        first_rated = FIRST_RATED_DAY.toordinal()
        earliest = None if self.options.yes or bounds.earliest is None else bounds.earliest
        earliest_number = earliest.toordinal() if earliest is not None else 0
        # Games in a year a player is younger than three: [games, the first] by person.
        too_young: dict[int, list[int]] = {}
        born = [identity.born or 0 for identity in plan.side_identity]
        years: dict[int, int] = {}
        side_identity, events = plan.side_identity, plan.events
        fixed_starts = [
            None if (start := e.fixed_start) is None else start.toordinal() for e in events
        ]
        event_refs = [
            e.event_id if e.event_id is not None else -1 - n for n, e in enumerate(events)
        ]
        round_problems = self.round_problems
        cleaned_rounds = plan.rounds
        round_keys = _numbered([None if r is None else round_key(r) for r in cleaned_rounds])
        lines, days, whites, blacks = games.line, games.day, games.white, games.black
        white_ratings, black_ratings = games.white_rating, games.black_rating
        results, tcs, event_of, round_of = games.result, games.tc, games.event, games.round
        # Keys several games share: a bit per key hash in `seen`, then in `shared`.
        bits = _bitmap_size(games.count)
        seen, shared = bytearray(bits >> 3), bytearray(bits >> 3)
        mask = bits - 1
        hashes = array("i", bytes(4 * games.count))
        # Per side of the file (a player as written): his person's key part, and flags.
        refs = [identity.ref() for identity in side_identity]
        usable = bytes(identity.problem is None for identity in side_identity)
        external = bytes(identity.external for identity in side_identity)
        event_usable = [event.problem is None for event in events]
        for game in games.games():
            white, black = whites[game], blacks[game]
            event_index = event_of[game]
            if not (usable[white] and usable[black]) or (
                event_index >= 0 and not event_usable[event_index]
            ):
                for side in (white, black):
                    identity = side_identity[side]
                    if identity.problem is not None and identity.number not in reported:
                        reported.add(identity.number)
                        plan.problem(name, identity.first_line, identity.problem)
                plan.refuse(name, game)  # an event's problem is reported once, with it
                continue
            reasons: list[str] = []
            white_ref, black_ref = refs[white], refs[black]
            if white_ref == black_ref:  # one person, or two matched to one player
                reasons.append(f"white and black are the same player ({side_identity[white].name})")
            round_index = round_of[game]
            if round_index >= 0 and round_problems[round_index]:
                reasons.extend(round_problems[round_index])
            if (external[white] or external[black]) and results[game] not in FORFEIT_CODES:
                for side, rating in ((white, white_ratings[game]), (black, black_ratings[game])):
                    if external[side] and not rating:
                        unrated_external += 1
                        if first_unrated is None:
                            first_unrated = (lines[game], side_identity[side].name)
            day = days[game]
            if day > today_number or day < earliest_number or day < first_rated:
                kind = "future" if day > today_number else "old" if day >= first_rated else "1970"
                tally = refused_days.setdefault(kind, [0, game])
                tally[0] += 1
                plan.refuse(name, game)
                continue
            if born[white] or born[black]:
                year = years.get(day)
                if year is None:
                    year = years[day] = dt.date.fromordinal(day).year
                for side in (white, black):
                    if born[side] and year - born[side] < YOUNGEST:
                        person = side_identity[side].number
                        tally = too_young.setdefault(person, [0, game])
                        tally[0] += 1
                        plan.refuse(name, game)
                if plan.state[game]:
                    continue
            if event_index >= 0:
                fixed = fixed_starts[event_index]
                if fixed is not None and day < fixed:
                    reasons.append(
                        f"the game's date {games.played_on(game)} is before "
                        f"{events[event_index].name!r} starts ({dt.date.fromordinal(fixed)})"
                    )
            tc = tcs[game]
            if not tc:
                no_tc += 1  # reported once for all of them, below
                if first_no_tc < 0:
                    first_no_tc = game
                plan.refuse(name, game)
            if reasons:
                for reason in reasons:
                    plan.refuse(name, game, reason)
                continue
            if not tc:
                continue
            key = (
                day,
                white_ref,
                black_ref,
                event_refs[event_index] if event_index >= 0 else 0,
                round_keys[round_index] if round_index >= 0 else -1,
            )
            bit = hash(key) & mask
            hashes[game] = bit
            if seen[bit >> 3] & (1 << (bit & 7)):
                shared[bit >> 3] |= 1 << (bit & 7)
            else:
                seen[bit >> 3] |= 1 << (bit & 7)
        del seen
        for game in games.tc_conflicts:  # reported below
            plan.refuse(name, game)
        groups = self._shared_keys(shared, hashes, event_refs, round_keys)
        if no_tc:
            more = f" (and {no_tc - 1} more)" if no_tc > 1 else ""
            unread = games.unread_tc
            says = (
                "the file does not say"
                if unread is None
                else f"the file's {unread[1]!r} tells none of FIDE's time controls"
            )
            plan.problem(
                name,
                lines[first_no_tc],
                f"no time control for this game{more}: {says}; give --tc standard|rapid|blitz",
            )
        if games.tc_conflicts:
            count = len(games.tc_conflicts)
            more = f" (and {plural(count - 1, 'more game')})" if count > 1 else ""
            plan.problem(
                name,
                lines[games.tc_conflicts[0]],
                f"the file says {games.first_conflict}{more} and --tc says "
                f"{games.given_tc}: drop --tc, or correct the file",
            )
        for kind, (count, first) in refused_days.items():
            played_on = games.played_on(first)
            why = bounds.refused(played_on) or bounds.unconfirmed(played_on)
            more = f" (and {plural(count - 1, 'more game')})" if count > 1 else ""
            advice = ", or import with --yes if they are right" if kind == "old" else ""
            plan.problem(name, lines[first], f"{why}{more}: check the file's dates{advice}")
        people = {i.number: i for i in side_identity if i.number in too_young}
        for person, (count, first) in too_young.items():
            identity = people[person]
            why = age_problem(games.played_on(first).year, identity.born, identity.name)
            more = f" (and {plural(count - 1, 'more game')})" if count > 1 else ""
            plan.problem(name, lines[first], f"{why}{more}: check the birth year or the dates")
        if unrated_external:
            assert first_unrated is not None
            line, who = first_unrated
            more = (
                f" (and {plural(unrated_external - 1, 'more game')} against external players "
                "without one)"
                if unrated_external > 1
                else ""
            )
            plan.warnings.append(
                Problem(
                    name,
                    line,
                    f"{who} is an external player and the file records no FIDE rating for "
                    f"them{more}: {'stored' if unrated_external == 1 else 'each game stored'}, "
                    "not rated for the opponent (FIDE does not rate games against unrated "
                    "opponents)",
                )
            )
        self._note_games(groups)
        return groups

    def _shared_keys(
        self,
        shared: bytearray,
        hashes: array[int],
        event_refs: list[int],
        round_keys: list[int],
    ) -> dict[int, list[int]]:
        """The games whose key the bitmap says may be shared, checked exactly, in the file's
        order: a game with the same key and moves as an earlier one is that game again
        (present, or refused with another result); the others sharing a key are distinct
        games, numbered (their key suffixed) from the second on."""
        plan, games = self.plan, self.games
        first_of: dict[tuple[int, ...], int] = {}
        groups: dict[tuple[int, ...], list[int]] = {}  # keys of several games, in order
        results = games.result
        for game in plan.writable():
            bit = hashes[game]
            if not shared[bit >> 3] & (1 << (bit & 7)):
                continue  # the only game of its key
            event_index, round_index = games.event[game], games.round[game]
            key = (
                games.day[game],
                plan.white(game).ref(),
                plan.black(game).ref(),
                event_refs[event_index] if event_index >= 0 else 0,
                round_keys[round_index] if round_index >= 0 else -1,
            )
            earlier = first_of.get(key)
            group = [] if earlier is None else groups.get(key, [earlier])
            repeat = self._repeat_of(game, group)
            if repeat is not None:
                if results[repeat] == results[game]:
                    self.repeats.append((games.line[game], games.line[repeat]))
                    plan.mark_present(game)
                else:
                    plan.refuse(
                        self.name,
                        game,
                        f"the same moves as the game of line {games.line[repeat]} with another "
                        f"result ({RESULT_CODES[results[repeat]]}); which one is right?",
                    )
                continue
            if earlier is None:
                first_of[key] = game
            else:
                group.append(game)
                groups[key] = group
                plan.suffix[game] = len(group)
        return {group[0]: group for group in groups.values()}

    def _repeat_of(self, game: int, group: list[int]) -> int | None:
        """An earlier game of the file with the same key and the same moves: the same game
        written twice. Without moves two such records are two games."""
        digest = self.games.moves_digest(game)
        if digest is None:
            return None
        return next((g for g in group if self.games.moves_digest(g) == digest), None)

    def _note_games(self, groups: dict[int, list[int]]) -> None:
        notes, lines = self.plan.notes, self.games.line
        if groups:
            count = sum(len(g) for g in groups.values())
            first = next(iter(groups.values()))
            shown = ", ".join(str(lines[g]) for g in first[:5])
            more = ", ..." if len(first) > 5 or len(groups) > 1 else ""
            notes.append(
                f"{count} games share their date, players, event and round with another game "
                f"of the file (lines {shown}{more}): kept as distinct games (games with the "
                "same moves would be one)"
            )
        if self.repeats:
            line, earlier = self.repeats[0]
            more = (
                f" (and {plural(len(self.repeats) - 1, 'more')})" if len(self.repeats) > 1 else ""
            )
            notes.append(
                f"{self.name}:{line} repeats the game of line {earlier} (same players, day, "
                f"round and moves): counted once, as already present{more}"
            )

    # -- games already stored -------------------------------------------------------------

    def _find_present(self, groups: dict[int, list[int]]) -> None:
        """Games already stored drop out; one stored with another result is a problem.

        Duplicates are judged by content: the file's games sharing one natural key (same
        date, players, event and round) are matched with the stored games of that key (the
        key, then ``key|#2``, ``key|#3``...) by result and time control. A file game that
        matches none is new while the file has more such games than the database; beyond
        that it contradicts a stored game. The file is looked up a slice at a time."""
        plan = self.plan
        in_group = {game for group in groups.values() for game in group[1:]}
        finals: dict[str, _Found] = {}
        # Looking a slice up changes the states of its games, never those of games ahead
        # (but those of the groups, whose later games are skipped).
        for game in plan.writable():
            if in_group and game in in_group:
                continue
            key = plan.key(game)
            if key is None:
                continue  # a new player or event: nothing of it can be stored
            group = groups.get(game)
            finals[key] = game if group is None else list(group)
            if len(finals) >= PRESENT_CHUNK:
                self._match_stored(finals)
                finals = {}
        if finals:
            self._match_stored(finals)

    def _match_stored(self, finals: dict[str, _Found]) -> None:
        plan = self.plan
        stored = self._stored(finals)
        for key, candidates in stored.items():
            found = finals[key]
            if not isinstance(found, list) and len(candidates) == 1:  # the usual case
                (only,) = candidates
                if (only.result, only.tc) == self._result_tc(found):
                    plan.mark_present(found)
                    continue
                plan.refuse(self.name, found, self._contradiction(found, only))
                continue
            group = found if isinstance(found, list) else [found]
            unmatched = list(candidates)
            new: list[int] = []
            for game in group:
                wanted = self._result_tc(game)
                match = next((c for c in unmatched if (c.result, c.tc) == wanted), None)
                if match is None:
                    new.append(game)
                else:
                    unmatched.remove(match)
                    plan.mark_present(game)
            room = max(0, len(group) - len(candidates))
            for game, other in zip(new[: len(new) - room], unmatched, strict=False):
                plan.refuse(self.name, game, self._contradiction(game, other))
            used = {c.level for c in candidates}
            free = (n for n in range(1, len(group) + len(candidates) + 1) if n not in used)
            for game in new[len(new) - room :] if room else []:
                plan.suffix[game] = next(free)

    def _result_tc(self, game: int) -> tuple[str, str]:
        tc = TC_CODES[self.games.tc[game]]
        assert tc is not None, "a game without a time control is refused"
        return RESULT_CODES[self.games.result[game]], tc

    def _contradiction(self, game: int, stored: _Stored) -> str:
        says, says_tc = self._result_tc(game)
        game_id, result, tc = stored.game_id, stored.result, stored.tc
        return (
            f"this game is already recorded as game {game_id} with result {result} "
            f"({tc}); the file says {says} ({says_tc}): if the file "
            f"is right, remove game {game_id} first (`tracker game remove {game_id}`)"
        )

    def _needs_more(self, found: _Found, stored: list[_Stored]) -> bool:
        """Whether a key's stored games found so far may not be all that matter: the file has
        more games of that key, or one of them matches none of those stored."""
        if not isinstance(found, list):  # the usual case: one game of that key, one stored
            wanted = self._result_tc(found)
            return all((s.result, s.tc) != wanted for s in stored)
        group = found
        if len(group) > len(stored):
            return True
        left = [(s.result, s.tc) for s in stored]
        for game in group:
            wanted = self._result_tc(game)
            if wanted not in left:
                return True
            left.remove(wanted)
        return False

    def _stored(self, finals: dict[str, _Found]) -> dict[str, list[_Stored]]:
        """The stored games of each key: (suffix, game id, result, tc), level by level. The
        next level is looked up only for the keys that need it: more file games than stored
        ones so far, or a file game no stored one matches (a re-import of a federation's
        file, one game per key, takes one lookup per game)."""
        stored: dict[str, list[_Stored]] = defaultdict(list)
        wanted: dict[str, str] = {key: key for key in finals}  # stored key -> the file's key
        level = 1
        while wanted:
            found: list[str] = []
            for game in queries.games_by_natural_key(self.db, sorted(wanted)):
                base = wanted[game.natural_key]
                stored[base].append(_Stored(level, game.id, game.result, game.tc))
                found.append(base)
            level += 1
            more = [base for base in found if self._needs_more(finals[base], stored[base])]
            wanted = {suffixed(base, level): base for base in more}
        return dict(stored)


def _numbered(values: list[str | None]) -> list[int]:
    """For each value, the number of its first occurrence among the distinct values (-1 for
    None): equal values, equal numbers."""
    numbers: dict[str, int] = {}
    return [-1 if v is None else numbers.setdefault(v, len(numbers)) for v in values]


def _take_details(identity: Identity, sides: list[Side]) -> None:
    """A person's federation, birth year, sex and title: the first the file gives, whichever
    way it writes him."""
    for attribute in ("federation", "birth_year", "sex", "title"):
        given = [value for side in sides if (value := getattr(side, attribute)) is not None]
        if given:
            setattr(identity, attribute, min(given)[1])
