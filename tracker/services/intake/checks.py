"""Checking each game of a file (its people, event, round, date, time control) and finding
the games that share their natural key (same date, players, event and round) within the
file: with two bitmaps, so that a game whose key is alone in the file (nearly all of them)
costs four bytes."""

from __future__ import annotations

import datetime as dt
from array import array
from bisect import bisect_left
from dataclasses import replace

from tracker.db.driver import Db
from tracker.db.queries import events as event_queries
from tracker.db.queries import games as game_queries
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
    first = game_queries.first_period_month(db)
    if first is None:
        first = game_queries.first_game_date(db)
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
    games = plan.games
    reported: set[int] = set()  # people whose problem is reported
    no_tc = 0
    first_no_tc = -1
    unrated_external = 0
    first_unrated: tuple[int, str, str] | None = None  # line, the player, his opponent
    # Dates the intake's rules refuse (tracker.services.intake.DateBounds), each kind
    # reported once: [games, the first of them].
    bounds = date_bounds(db, today())
    refused_days: dict[str, list[int]] = {}
    today_number = bounds.today.toordinal()
    first_rated = FIRST_RATED_DAY.toordinal()
    earliest = None if yes or bounds.earliest is None else bounds.earliest
    earliest_number = earliest.toordinal() if earliest is not None else 0
    # Games in a year a player is younger than three: [games, the first] by person.
    too_young: dict[int, list[int]] = {}
    born = [identity.born or 0 for identity in plan.side_identity]
    years: dict[int, int] = {}
    side_identity, events = plan.side_identity, plan.events
    fits = _Fits(db, plan)
    event_refs = [e.event_id if e.event_id is not None else -1 - n for n, e in enumerate(events)]
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
            reasons.append(plays_self(side_identity[white].name))
        round_index = round_of[game]
        if round_index >= 0 and round_problems[round_index]:
            reasons.extend(round_problems[round_index])
        if (external[white] or external[black]) and results[game] not in FORFEIT_CODES:
            for side, rating in ((white, white_ratings[game]), (black, black_ratings[game])):
                if external[side] and not rating:
                    unrated_external += 1
                    if first_unrated is None:
                        opponent = side_identity[black if side == white else white].name
                        first_unrated = (lines[game], side_identity[side].name, opponent)
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
        tc = tcs[game]
        if event_index >= 0:
            reasons.extend(fits.problems(event_index, game, day, tc))
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
    kinds: dict[bool, list[tuple[int, int, int]]] = {}  # ratings no system gives: low, high
    for bad in games.impossible:
        kinds.setdefault(bad[2] < 0, []).append(bad)
    for same in kinds.values():
        _, at, value = same[0]
        others = len(same) - 1
        more = f" (and {plural(others, 'more game')} with one)" if others else ""
        plan.problem(name, at, f"{impossible_rating(value)}{more}")
        for game, _, _ in same:
            plan.refuse(name, game)
    repeats: list[tuple[int, int]] = []  # (line, line of the game it repeats)
    groups = _shared_keys(name, plan, (shared, hashes), event_refs, round_keys, repeats)
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
        if plan.typed:
            advice = ", or give --yes if it is right" if kind == "old" else ""
            plan.problem(name, lines[first], f"{why}{more}: check the year{advice}")
        else:
            advice = ", or import with --yes if they are right" if kind == "old" else ""
            plan.problem(name, lines[first], f"{why}{more}: check the file's dates{advice}")
    people = {i.number: i for i in side_identity if i.number in too_young}
    for person, (count, first) in too_young.items():
        identity = people[person]
        why = age_problem(games.played_on(first).year, identity.born, identity.name)
        more = f" (and {plural(count - 1, 'more game')})" if count > 1 else ""
        plan.problem(
            name,
            lines[first],
            f"{why}{more}" if plan.typed else f"{why}{more}: check the birth year or the dates",
        )
    if unrated_external:
        assert first_unrated is not None
        line, who, opponent = first_unrated
        more = (
            f" (and {plural(unrated_external - 1, 'more game')} against external players "
            "without one)"
            if unrated_external > 1
            else ""
        )
        source = "game" if plan.typed else "file"
        stored = "it is stored" if plan.typed else "stored"
        plan.warnings.append(
            Problem(
                name,
                line,
                f"{who} is an external player and the {source} records no FIDE rating for "
                f"them{more}: {stored if unrated_external == 1 else 'each game stored'}, "
                f"not rated for {opponent if plan.typed else 'the opponent'} (FIDE does not "
                "rate games against unrated opponents)",
            )
        )
    _note_games(name, plan, groups, repeats)
    return groups


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
        fit = replace(
            self.fits[index],
            before=None if before is None else dt.date.fromordinal(before),
            after=None if after is None else dt.date.fromordinal(after),
        )
        return fit.problems(
            dt.date.fromordinal(day), self.plan.round(game), TC_CODES[tc] or fit.tc or ""
        )

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
    event_refs: list[int],
    round_keys: list[int],
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
        more = f" (and {plural(len(repeats) - 1, 'more')})" if len(repeats) > 1 else ""
        notes.append(
            f"{name}:{line} repeats the game of line {earlier} (same players, day, "
            f"round and moves): counted once, as already present{more}"
        )


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
