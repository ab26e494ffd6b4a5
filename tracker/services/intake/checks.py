"""Checking each game of a file (its people, event, round, date, time control) and finding
the games that share their natural key (same date, players, event and round) within the
file: with two bitmaps, so that a game whose key is alone in the file (nearly all of them)
costs four bytes."""

from __future__ import annotations

import datetime as dt
from array import array
from bisect import bisect_left
from collections.abc import Callable

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.db.queries import lists as list_queries
from tracker.db.queries import periods as period_queries
from tracker.importers.records import Problem
from tracker.months import month_of
from tracker.services.intake import (
    FIRST_RATED_DAY,
    YOUNGEST,
    DateBounds,
    age_problem,
    impossible_rating,
    not_fide_id,
    not_fide_rating,
    round_key,
)
from tracker.services.intake.columns import FORFEIT_CODES, RESULT_CODES, TC_CODES, FileGames
from tracker.services.intake.plan import Plan
from tracker.user_input import today
from tracker.vocabulary import plays_self, plural, round_number


def date_bounds(db: Db, today: dt.date) -> DateBounds:
    """The dates a game may have in this database (:class:`~tracker.services.intake.DateBounds`):
    its records start with its first rating period, else its first game."""
    first = period_queries.first_closed_month(db)
    if first is None:
        first = list_queries.first_game_day(db)
    return DateBounds(today, month_of(first) if first is not None else None)


def set_aside(name: str, games: FileGames) -> list[Problem]:
    """What the intake's rules set aside of the games' values (a rating that is no FIDE
    rating, a number that is no FIDE id), one warning each at its first line."""
    out = []
    for count, first, what, rule in (
        (games.not_fide_ratings, games.first_not_fide_rating, "recorded rating", not_fide_rating),
        (games.not_fide_ids, games.first_not_fide_id, "FIDE id", not_fide_id),
    ):
        if first is not None:
            line, value = first
            more = f" (and {count - 1} more {what}s like it)" if count > 1 else ""
            out.append(Problem(name, line, f"{what} {rule(value)}{more}"))
    return out


def check_games(
    db: Db, name: str, yes: bool, plan: Plan, round_problems: list[list[str]]
) -> dict[int, list[int]]:
    """Check every game (``round_problems``: what is wrong with each round of the file); the
    games sharing their key with another of the file come back as groups (each group's
    games by the first one's number, in the file's order)."""
    check = _Check(db, name, yes, plan, round_problems)
    for game in plan.games.games():
        check.game(game)
    return check.report()


class _Check:
    """The checks of :func:`check_games`, game by game, then each kind of problem reported
    once for all the games it refused (at the first of them)."""

    def __init__(
        self, db: Db, name: str, yes: bool, plan: Plan, round_problems: list[list[str]]
    ) -> None:
        self.name, self.plan, self.round_problems = name, plan, round_problems
        self.games = games = plan.games
        self.reported: set[int] = set()  # people whose problem is reported
        self.no_tc: list[int] = []  # games without a time control
        self.unrated_external = 0
        self.first_unrated: tuple[int, str, str] | None = None  # line, player, opponent
        # Dates the intake's rules refuse (tracker.services.intake.DateBounds), each kind
        # reported once: [games, the first of them].
        self.bounds = date_bounds(db, today())
        self.refused_days: dict[str, list[int]] = {}
        self.today_number = self.bounds.today.toordinal()
        self.first_rated = FIRST_RATED_DAY.toordinal()
        earliest = None if yes else self.bounds.earliest
        self.earliest_number = earliest.toordinal() if earliest is not None else 0
        # Games in a year a player is younger than three: [games, the first] by person.
        self.too_young: dict[int, list[int]] = {}
        identities = self.side_identity = plan.side_identity
        self.born = [identity.born or 0 for identity in identities]
        self.years: dict[int, int] = {}
        self.fits = _Fits(db, plan)
        events = plan.events
        self.event_refs = [
            e.event_id if e.event_id is not None else -1 - n for n, e in enumerate(events)
        ]
        self.round_keys = _numbered([None if r is None else round_key(r) for r in plan.rounds])
        # Keys several games share: a bit per key hash in `seen`, then in `shared`.
        bits = _bitmap_size(games.count)
        self.seen, self.shared = bytearray(bits >> 3), bytearray(bits >> 3)
        self.mask = bits - 1
        self.hashes = array("i", bytes(4 * games.count))
        # Per side of the file (a player as written): his person's key part, and flags.
        self.refs = [identity.ref() for identity in identities]
        self.usable = bytes(identity.problem is None for identity in identities)
        self.external = bytes(identity.external for identity in identities)
        self.event_usable = [event.problem is None for event in events]

    def game(self, game: int) -> None:
        """Check one game: refused (with its reasons, or counted for a report) or keyed."""
        games, plan = self.games, self.plan
        white, black = games.white[game], games.black[game]
        if not self._usable(game, white, black):
            return
        reasons: list[str] = []
        if self.refs[white] == self.refs[black]:  # one person, or two matched to one player
            reasons.append(plays_self(self.side_identity[white].name))
        round_index = games.round[game]
        if round_index >= 0:
            reasons.extend(self.round_problems[round_index])
        if self.external[white] or self.external[black]:
            self._external_ratings(game, white, black)
        day = games.day[game]
        if self._refused_day(game, day) or self._too_young(game, day, white, black):
            return
        tc = games.tc[game]
        event_index = games.event[game]
        if event_index >= 0:
            reasons.extend(self.fits.problems(event_index, game, day, tc))
        if not tc:
            self.no_tc.append(game)  # reported once for all of them
            plan.refuse(self.name, game)
        for reason in reasons:
            plan.refuse(self.name, game, reason)
        if tc and not reasons:
            self._key(game)

    def _usable(self, game: int, white: int, black: int) -> bool:
        """Whether both players and the event of a game could be told (else it is refused
        and each person's problem reported once; an event's is reported with the event)."""
        event_index = self.games.event[game]
        usable_event = event_index < 0 or self.event_usable[event_index]
        if self.usable[white] and self.usable[black] and usable_event:
            return True
        for side in (white, black):
            identity = self.side_identity[side]
            if identity.problem is not None and identity.number not in self.reported:
                self.reported.add(identity.number)
                self.plan.problem(self.name, identity.first_line, identity.problem)
        self.plan.refuse(self.name, game)
        return False

    def _external_ratings(self, game: int, white: int, black: int) -> None:
        """Count a played game against an external player without a recorded rating."""
        games = self.games
        if games.result[game] in FORFEIT_CODES:
            return
        for side, rating in ((white, games.white_rating[game]), (black, games.black_rating[game])):
            if self.external[side] and not rating:
                self.unrated_external += 1
                if self.first_unrated is None:
                    opponent = self.side_identity[black if side == white else white].name
                    self.first_unrated = (games.line[game], self.side_identity[side].name, opponent)

    def _refused_day(self, game: int, day: int) -> bool:
        """Whether a game's date is one the intake refuses (in the future, before this
        database's records, before 1970), counted by kind."""
        if self.earliest_number <= day <= self.today_number and day >= self.first_rated:
            return False
        kind = "future" if day > self.today_number else "old" if day >= self.first_rated else "1970"
        self.refused_days.setdefault(kind, [0, game])[0] += 1
        self.plan.refuse(self.name, game)
        return True

    def _too_young(self, game: int, day: int, white: int, black: int) -> bool:
        """Whether a player of the game is younger than three in its year (counted by
        person)."""
        born = self.born
        if not (born[white] or born[black]):
            return False
        year = self.years.get(day)
        if year is None:
            year = self.years[day] = dt.date.fromordinal(day).year
        for side in (white, black):
            if born[side] and year - born[side] < YOUNGEST:
                person = self.side_identity[side].number
                self.too_young.setdefault(person, [0, game])[0] += 1
                self.plan.refuse(self.name, game)
        return bool(self.plan.state[game])

    def key_of(self, game: int) -> tuple[int, ...]:
        """A game's natural key (its day, its two people, its event and round) as numbers."""
        games = self.games
        event_index, round_index = games.event[game], games.round[game]
        return (
            games.day[game],
            self.refs[games.white[game]],
            self.refs[games.black[game]],
            self.event_refs[event_index] if event_index >= 0 else 0,
            self.round_keys[round_index] if round_index >= 0 else -1,
        )

    def _key(self, game: int) -> None:
        """Mark a good game's natural key in the bitmaps (a second mark: maybe shared)."""
        bit = hash(self.key_of(game)) & self.mask
        self.hashes[game] = bit
        byte, flag = bit >> 3, 1 << (bit & 7)
        if self.seen[byte] & flag:
            self.shared[byte] |= flag
        else:
            self.seen[byte] |= flag

    def report(self) -> dict[int, list[int]]:
        """Report what the games' checks counted; the groups of games sharing a key."""
        name, plan = self.name, self.plan
        del self.seen
        for game in self.games.tc_conflicts:  # reported below
            plan.refuse(name, game)
        self._report_impossible()
        repeats: list[tuple[int, int]] = []  # (line, line of the game it repeats)
        groups = _shared_keys(name, plan, (self.shared, self.hashes), self.key_of, repeats)
        self._report_time_controls()
        self._report_days()
        self._report_too_young()
        self._report_unrated_external()
        _note_games(name, plan, groups, repeats)
        return groups

    def _report_impossible(self) -> None:
        """Ratings no system gives, low and high, each kind once."""
        kinds: dict[bool, list[tuple[int, int, int]]] = {}
        for bad in self.games.impossible:
            kinds.setdefault(bad[2] < 0, []).append(bad)
        for same in kinds.values():
            _, at, value = same[0]
            more = _more(len(same), " with one")
            self.plan.problem(self.name, at, f"{impossible_rating(value)}{more}")
            for game, _, _ in same:
                self.plan.refuse(self.name, game)

    def _report_time_controls(self) -> None:
        """Games without a time control; games whose control contradicts --tc."""
        games, lines = self.games, self.games.line
        if self.no_tc:
            count = len(self.no_tc)
            more = f" (and {count - 1} more)" if count > 1 else ""
            unread = games.unread_tc
            says = (
                "the file does not say"
                if unread is None
                else f"the file's {unread[1]!r} tells none of FIDE's time controls"
            )
            self.plan.problem(
                self.name,
                lines[self.no_tc[0]],
                f"no time control for this game{more}: {says}; give --tc standard|rapid|blitz",
            )
        if games.tc_conflicts:
            count = len(games.tc_conflicts)
            self.plan.problem(
                self.name,
                lines[games.tc_conflicts[0]],
                f"the file says {games.first_conflict}{_more(count)} and --tc says "
                f"{games.given_tc}: drop --tc, or correct the file",
            )

    def _report_days(self) -> None:
        """Dates refused, each kind once."""
        plan, lines = self.plan, self.games.line
        for kind, (count, first) in self.refused_days.items():
            played_on = self.games.played_on(first)
            why = self.bounds.refused(played_on) or self.bounds.unconfirmed(played_on)
            if plan.typed:
                check, yes = "the year", "give --yes if it is right"
            else:
                check, yes = "the file's dates", "import with --yes if they are right"
            advice = f", or {yes}" if kind == "old" else ""
            plan.problem(self.name, lines[first], f"{why}{_more(count)}: check {check}{advice}")

    def _report_too_young(self) -> None:
        """Players younger than three in a game's year, each person once."""
        plan, lines = self.plan, self.games.line
        people = {i.number: i for i in self.side_identity if i.number in self.too_young}
        for person, (count, first) in self.too_young.items():
            identity = people[person]
            why = age_problem(self.games.played_on(first).year, identity.born, identity.name)
            more = _more(count)
            plan.problem(
                self.name,
                lines[first],
                f"{why}{more}" if plan.typed else f"{why}{more}: check the birth year or the dates",
            )

    def _report_unrated_external(self) -> None:
        """Played games against external players without a recorded rating: stored, not
        rated for the opponent (one warning)."""
        count, plan = self.unrated_external, self.plan
        if not count:
            return
        assert self.first_unrated is not None
        line, who, opponent = self.first_unrated
        more = _more(count, " against external players without one")
        source = "game" if plan.typed else "file"
        stored = "it is stored" if plan.typed else "stored"
        plan.warnings.append(
            Problem(
                self.name,
                line,
                f"{who} is an external player and the {source} records no FIDE rating for "
                f"them{more}: {stored if count == 1 else 'each game stored'}, "
                f"not rated for {opponent if plan.typed else 'the opponent'} (FIDE does not "
                "rate games against unrated opponents)",
            )
        )


class _Fits:
    """Whether each game fits its event (:class:`tracker.services.intake.EventFit`: its
    declared dates, rounds and time control; an event without a declared end: a month or more
    away from the rest of its games, in the file and stored). A cheap test of each game on
    day numbers; the rule itself, and its words, for the few that may not fit."""

    def __init__(self, db: Db, plan: Plan) -> None:
        self.plan = plan
        self.fits = [e.fit() for e in plan.events]
        games = plan.games
        # Each event's days and how many of its games fall on each (a federation's file
        # holds many games and few days of each event: a count a day, not a day a game).
        self.counts: list[dict[int, int]] = [{} for _ in plan.events]
        self.numbers = [round_number(r) for r in plan.rounds]
        open_ended = [f.end is None and not f.league for f in self.fits]
        for game in games.games():
            index = games.event[game]
            if index >= 0 and open_ended[index]:
                counts = self.counts[index]
                counts[games.day[game]] = counts.get(games.day[game], 0) + 1
        for index, event in enumerate(plan.events):
            if event.event_id is not None and open_ended[index]:
                counts = self.counts[index]
                for d in event_queries.event_days(db, event.event_id, plan.but_game):
                    counts[d.toordinal()] = counts.get(d.toordinal(), 0) + 1
        self.days = [sorted(counts) for counts in self.counts]
        self.bounds = [
            (
                f.start.toordinal() if f.start else 0,
                f.end.toordinal() if f.end else 1 << 30,
                f.rounds if f.strict and f.rounds is not None else 1 << 30,
                TC_CODES.index(f.tc) if f.tc in TC_CODES else 0,
            )
            for f in self.fits
        ]

    def problems(self, index: int, game: int, day: int, tc: int) -> list[str]:
        first, last, rounds, wanted = self.bounds[index]
        games = self.plan.games
        round_index = games.round[game]
        number = self.numbers[round_index] if round_index >= 0 else None
        before, after = self._neighbours(index, day)
        near = (before is None or day - before >= 28) and (after is None or after - day >= 28)
        lonely = bool(self.days[index]) and (before is not None or after is not None) and near
        if first <= day <= last and (number or 0) <= rounds and wanted in (0, tc) and not lonely:
            return []
        fit = self.fits[index]._replace(
            before=None if before is None else dt.date.fromordinal(before),
            after=None if after is None else dt.date.fromordinal(after),
        )
        return fit.problems(dt.date.fromordinal(day), self.plan.round(game), TC_CODES[tc] or fit.tc)

    def _neighbours(self, index: int, day: int) -> tuple[int | None, int | None]:
        """The days of the event's other games nearest to ``day`` (``day`` itself where
        another game is on it)."""
        days = self.days[index]
        if not days:
            return None, None
        if self.counts[index].get(day, 0) > 1:
            return day, day
        at = bisect_left(days, day)
        before = days[at - 1] if at > 0 else None
        after_at = at + 1 if at < len(days) and days[at] == day else at
        after = days[after_at] if after_at < len(days) else None
        return before, after


def _shared_keys(
    name: str,
    plan: Plan,
    bitmap: tuple[bytearray, array[int]],
    key_of: Callable[[int], tuple[int, ...]],
    repeats: list[tuple[int, int]],
) -> dict[int, list[int]]:
    """The games whose key the bitmap says may be shared, checked exactly, in the file's
    order: a game with the same key and moves as an earlier one is that game again
    (present, or refused with another result); the others sharing a key are distinct
    games, numbered (their key suffixed) from the second on."""
    shared, hashes = bitmap  # the keys that may be shared; each game's key's bit
    games = plan.games
    first_of: dict[tuple[int, ...], int] = {}
    groups: dict[tuple[int, ...], list[int]] = {}  # keys of several games, in order
    results = games.result
    for game in plan.writable():
        bit = hashes[game]
        if not shared[bit >> 3] & (1 << (bit & 7)):
            continue  # the only game of its key
        key = key_of(game)
        earlier = first_of.get(key)
        group = [] if earlier is None else groups.get(key, [earlier])
        repeat = _repeat_of(games, game, group)
        if repeat is not None:
            if results[repeat] == results[game]:
                repeats.append((games.line[game], games.line[repeat]))
                plan.mark_present(game)
            else:
                plan.refuse(
                    name,
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


def _repeat_of(games: FileGames, game: int, group: list[int]) -> int | None:
    """An earlier game of the file with the same key and the same moves: the same game
    written twice. Without moves two such records are two games."""
    digest = games.moves_digest(game)
    if digest is None:
        return None
    return next((g for g in group if games.moves_digest(g) == digest), None)


def _note_games(
    name: str, plan: Plan, groups: dict[int, list[int]], repeats: list[tuple[int, int]]
) -> None:
    notes, lines = plan.notes, plan.games.line
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
    if repeats:
        line, earlier = repeats[0]
        more = _more(len(repeats))
        notes.append(
            f"{name}:{line} repeats the game of line {earlier} (same players, day, "
            f"round and moves): counted once, as already present{more}"
        )


def _more(count: int, tail: str = "") -> str:
    """What a problem reported once for ``count`` games says of the others."""
    return f" (and {plural(count - 1, 'more game')}{tail})" if count > 1 else ""


def _numbered(values: list[str | None]) -> list[int]:
    """For each value, the number of its first occurrence among the distinct values (-1 for
    None): equal values, equal numbers."""
    numbers: dict[str, int] = {}
    return [-1 if v is None else numbers.setdefault(v, len(numbers)) for v in values]


def _bitmap_size(count: int) -> int:
    """Bits of the bitmaps that find the keys several games share: some 64 a game (one game
    in 64 then falsely looks shared, and is checked for nothing), at most 2**27 (16 MiB)."""
    bits = 1 << 16
    while bits < 64 * count and bits < 1 << 27:
        bits <<= 1
    return bits
