"""Seeding and refreshing players from FIDE's rating list downloads
(``tracker player import-fide-list FILE``).

The list is streamed (see :mod:`tracker.importers.fidelist`) and only its lines for
players already in the database (by FIDE id) are read, or, with ``federation``, also those
of that federation's players, who are added. For each of them:

* federation, birth year, sex and title take the list's values when it gives them;
* a tracked player rated on the list gets his seed for the list's time control: the rating,
  and what the list's K says about his state: K 10 means a published rating once reached
  2400, K 20 for a junior that one reached 2300, and K 20 or 10 at least 30 rated games.
  The list does not publish a career game count (its games column counts the period's
  games): a player with K 40 keeps the count of his earlier seed, or starts at 0 (a note
  says so). A rating at 2400 (2300) or above sets the flag by itself, and flags never go
  back: they are sticky, as FIDE's are;
* a player who already has games of that time control rated before the list keeps his seed:
  the list counts those games, and seeding from it would count them twice (a note names how
  many; compare with ``tracker list --against FILE``). A game dated before the list whose
  event is rated on it or later (an event ending in the list's month, or stated to be rated
  later: ``event edit --rated-in``) is not counted by it. The list's month comes from the
  text file's header (``NOV26``) or from ``list_month``; without either, any game before
  keeps the seed;
* several monthly lists may be imported: each tracked, seeded player's rating on a list of a
  known month that tracker did not publish itself is kept as his rating on that list (an
  earlier list, ``player seed --list``: it rates the events that started while it was in
  force). The latest list imported is the seed: an older one imported after it leaves the
  seed alone;
* an external player gets the fields only (his rating comes from each game).

A new player of ``federation`` whose exact name belongs to one player without a FIDE id is
that player (he gets the id); otherwise he is added, tracked. Changing a seed or a birth
year of a player with games marks every closed period stale, as ``tracker player edit``
does (a seed changes only for a player without games, who is in no closed period).

Nothing is written if the file has a problem (an unreadable line of a wanted player, a list
month that disagrees with ``list_month``, a file named for another time control).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import IO, Any

from tracker.db.driver import Db
from tracker.db.queries import fide_list as q
from tracker.db.queries import lists as list_queries
from tracker.db.queries import players as player_queries
from tracker.db.queries.players import PlayerRow, SeedRow
from tracker.errors import InvalidInputError
from tracker.importers.fidelist import FideListEntry, FideListReader, tc_from_name
from tracker.importers.records import Problem
from tracker.months import month_label
from tracker.ratings.fide.records import Seed
from tracker.services import lists, log
from tracker.services.intake import has_control
from tracker.services.lists import rated_games
from tracker.services.lists.stale import mark_all_stale
from tracker.services.players.refs import seed_of, stored_seed
from tracker.services.players.roster import FEDERATION, seed_row
from tracker.user_input import today
from tracker.vocabulary import TimeControl, plural

#: A junior is under 18 at the end of the year (FIDE Rating Regulations 2024, 8.3.3).
JUNIOR_AGE = 18

#: The savepoint the list's changes are made under (a dry run rolls back to it).
_SAVEPOINT = "fide_list"


@dataclass(frozen=True)
class FideListChange:
    player_id: int | None  # None in a dry run for a new player
    name: str
    fide_id: int
    fields: tuple[str, ...]  # the fields that changed (federation, birth_year, sex, title)
    seed_before: int | None  # the seed's rating before (None: none)
    seed_after: int | None  # after (None: the seed was not touched)


@dataclass(frozen=True)
class FideListReport:
    file: str
    format: str  # txt or xml
    tc: TimeControl
    list_month: dt.date | None
    players_read: int
    matched: int
    created: tuple[FideListChange, ...]
    updated: tuple[FideListChange, ...]
    unchanged: int
    notes: tuple[str, ...]
    problems: tuple[str, ...]
    dry_run: bool


@dataclass
class _Player:
    """A player as the list's lines change him: his row (a new one's ``id`` 0 until he is
    stored) and his seeds by time control."""

    row: PlayerRow
    seeds: dict[str, SeedRow] = field(default_factory=dict)

    @property
    def id(self) -> int | None:
        """His id (None: a new player, not stored yet)."""
        return self.row.id or None


#: A player the list adds, before his fields and seed are set (not stored yet: id 0).
_NEW_PLAYER = PlayerRow(0, "", None, None, None, None, None, False, None, None)


def _players(db: Db, rows: list[PlayerRow]) -> list[_Player]:
    """The players of ``rows`` with their seeds."""
    seeds: dict[int, dict[str, SeedRow]] = {}
    for seed in player_queries.all_seeds(db, [r.id for r in rows]):
        seeds.setdefault(seed.player_id, {})[seed.tc] = seed
    return [_Player(r, seeds.get(r.id, {})) for r in rows]


@dataclass
class _Counts:
    kept_for_games: list[str] = field(default_factory=list)
    unrated: list[str] = field(default_factory=list)
    unknown_games: list[str] = field(default_factory=list)
    kept_for_later: list[str] = field(default_factory=list)
    lists_kept: int = 0  # ratings kept as an earlier list's (new or changed; not the seed's)
    attached: list[str] = field(default_factory=list)
    attached_ids: set[int] = field(default_factory=set)
    # players whose rating inputs changed (a birth year, an earlier list's rating): closed
    # periods go stale if any of them has games (a player without games is in none)
    changed: set[int] = field(default_factory=set)


def _junior(birth_year: int | None, year: int) -> bool:
    return birth_year is not None and year - birth_year <= JUNIOR_AGE


def seed_from_list(
    entry: FideListEntry, tc: TimeControl, old: SeedRow | None, junior: bool
) -> tuple[Seed, bool]:
    """The seed a list line gives, and whether its game count is a guess (see the module
    docstring)."""
    assert entry.rating is not None
    k = entry.k
    old_games = old.games if old is not None else None
    guessed = False
    if k == 40:
        if old_games is not None and (junior or old_games < 30):
            games = old_games
        else:
            games, guessed = 0, True
    else:  # K 20 or 10 (or not given): an established player
        games = max(old_games or 0, 30)
    ever_2400 = bool(old and old.ever_2400) or entry.rating >= 2400 or k == 10
    ever_2300 = (
        bool(old and old.ever_2300)
        or ever_2400
        or entry.rating >= 2300
        or (junior and k in (10, 20))
    )
    return Seed(entry.rating, games, ever_2400, ever_2300, tc), guessed


def import_fide_list(
    db: Db,
    stream: IO[bytes],
    source: str,
    *,
    tc: TimeControl | None = None,
    federation: str | None = None,
    list_month: dt.date | None = None,
    dry_run: bool = False,
) -> FideListReport:
    """Seed or refresh players from a FIDE list file (see the module docstring)."""
    named = tc_from_name(source)
    chosen: TimeControl = tc if tc is not None else (named or "standard")
    if federation is not None:
        federation = federation.strip().upper()
        if not FEDERATION.match(federation):
            raise InvalidInputError(f"invalid federation {federation!r}: three letters")
    known = q.fide_ids(db)

    def wanted(fide_id: int, fed: str | None) -> bool:
        return fide_id in known or (federation is not None and fed == federation)

    reader = FideListReader(stream, source, chosen, wanted)
    entries = list(reader.entries())
    problems = [str(p) for p in reader.problems]
    if not reader.combined and named is not None and named != chosen and reader.lines:
        problems.append(
            f"{source}: the file is named as FIDE's {named} list; it holds no {chosen} "
            f"ratings (give --tc {named}, or rename it if it is the {chosen} list)"
        )
    month = reader.list_month
    if list_month is not None and month is not None and list_month != month:
        problems.append(
            f"{source}: the file is FIDE's list of {month_label(month)}, not "
            f"{month_label(list_month)} as --month says"
        )
    month = month or list_month
    if month is not None and (problem := lists.fide_list_problem(month, today())) is not None:
        problems.append(f"{source}: {problem}")
    problems += [
        str(
            Problem(
                source, e.line, f"player {e.fide_id}: name {e.name!r} contains control characters"
            )
        )
        for e in entries
        if has_control(e.name)
    ]
    report = _Apply(db, chosen, month, dry_run)
    if not problems:
        savepoint = db.savepoint(_SAVEPOINT)
        try:
            report.apply(entries, known)
        except BaseException:
            with contextlib.suppress(Exception):  # the error raised says what went wrong
                savepoint.undo()
            raise
        if dry_run:
            savepoint.undo()
        else:
            savepoint.keep()
    notes = report.notes(reader.recoded)
    return FideListReport(
        file=source,
        format=reader.format,
        tc=chosen,
        list_month=month,
        players_read=reader.lines,
        matched=len(entries),
        created=tuple(report.created),
        updated=tuple(report.updated),
        unchanged=report.unchanged,
        notes=tuple(notes),
        problems=tuple(problems),
        dry_run=dry_run,
    )


class _Apply:
    """Applies the list's lines to the players (inside the caller's savepoint)."""

    def __init__(self, db: Db, tc: TimeControl, month: dt.date | None, dry_run: bool) -> None:
        self.db = db
        self.tc = tc
        self.month = month
        self.dry_run = dry_run
        self.year = (month or today()).year
        self.created: list[FideListChange] = []
        self.updated: list[FideListChange] = []
        self.unchanged = 0
        self.counts = _Counts()
        self.new: list[_Player] = []  # the players the list adds, stored together

    def apply(self, entries: Iterable[FideListEntry], known: dict[int, int]) -> None:
        entries = list(entries)
        ids = sorted({known[e.fide_id] for e in entries if e.fide_id in known})
        players = {p.id: p for p in _players(self.db, player_queries.players_by_ids(self.db, ids))}
        by_name = self._unnumbered([e for e in entries if e.fide_id not in known])
        everyone = ids + [p.id for p in by_name.values() if p.id is not None]
        played = self._rated_before(everyone)
        self.later_lists = q.latest_official(self.db, everyone, self.tc)
        new: list[tuple[_Player, FideListEntry]] = []
        resolved: list[tuple[_Player, FideListEntry]] = []
        seen: list[FideListChange] = []
        earlier: set[int] = set()  # players whose seed is not this list's rating
        for entry in entries:
            stored = players.get(known[entry.fide_id]) if entry.fide_id in known else None
            player = stored or self._attached(by_name.get(entry.name), entry)
            if player is None:
                player = _Player(_NEW_PLAYER._replace(name=entry.name, fide_id=entry.fide_id))
                new.append((player, entry))
                self._fields(player, entry)
                self._seed(player, entry, 0)
                self.new.append(player)
            else:
                assert player.id is not None  # a stored player
                seen.append(self._update(player, entry, played.get(player.id, 0)))
                seed = player.seeds.get(self.tc)
                if seed is None or seed.rating != entry.rating:  # this list is an earlier one
                    earlier.add(player.id)
            resolved.append((player, entry))
        self._store_new()
        listed = self._record_list(resolved) & earlier
        self.counts.lists_kept = len(listed)
        self._report(seen, new, listed)
        changed = [c.player_id for c in (*self.created, *self.updated) if c.player_id]
        if changed:
            lists.restore_players(self.db, changed)  # seeded lines on the stored lists
        if self.counts.changed and q.any_games(self.db, sorted(self.counts.changed)):
            mark_all_stale(self.db)

    def _attached(self, player: _Player | None, entry: FideListEntry) -> _Player | None:
        """A stored player without a FIDE id whom the list names: he takes the entry's id."""
        if player is not None and player.id is not None:
            player.row = player.row._replace(fide_id=entry.fide_id)
            q.update_player(self.db, player.id, {"fide_id": entry.fide_id})
            self.counts.attached.append(player.row.name)
            self.counts.attached_ids.add(player.id)
        return player

    def _update(self, player: _Player, entry: FideListEntry, played: int) -> FideListChange:
        """A stored player's fields and seed from his entry: what changed."""
        assert player.id is not None
        fields = self._fields(player, entry)
        old = player.seeds.get(self.tc)
        before = old.rating if old is not None else None
        after = self._seed(player, entry, played)
        if player.id in self.counts.attached_ids:
            fields = ("fide_id", *fields)
        return FideListChange(player.id, player.row.name, entry.fide_id, fields, before, after)

    def _report(
        self,
        seen: list[FideListChange],
        new: list[tuple[_Player, FideListEntry]],
        listed: set[int],
    ) -> None:
        """The players updated (or unchanged) and added, and the log's line."""
        for change in seen:
            fields = change.fields
            if change.player_id in listed:
                fields = (*fields, f"the {month_label(self.month or today())} list")
            if fields or change.seed_after is not None:
                self.updated.append(replace(change, fields=fields))
            else:
                self.unchanged += 1
        for player, entry in new:
            pid = None if self.dry_run else player.id
            after = seed.rating if (seed := player.seeds.get(self.tc)) is not None else None
            self.created.append(
                FideListChange(pid, player.row.name, entry.fide_id, (), None, after)
            )
        if self.created or self.updated:
            log.note(
                self.db,
                "imported",
                f"FIDE {self.tc} list"
                + (f" of {month_label(self.month)}" if self.month else "")
                + f": {len(self.created)} players added, {len(self.updated)} updated",
                players=[c.player_id for c in (*self.created, *self.updated)],
            )

    def _rated_before(self, players: list[int]) -> dict[int, int]:
        """How many games of ``tc`` each player has that the list counts: rated in a period
        before it (a game of an event FIDE rates after the list is not in it)."""
        games = q.games_before(self.db, players, self.tc, self.month)
        month = self.month
        spans = rated_games.event_spans(
            self.db, self.tc, {g.event_id for g in games if g.event_id is not None}
        )
        wanted = set(players)
        counts: dict[int, int] = {}
        for g in games:
            event = spans.get(g.event_id) if g.event_id is not None else None
            if month is not None and event is not None and event.rated_in(g.played_on) >= month:
                continue  # rated on this list or a later one
            for pid in (g.white_id, g.black_id):
                if pid in wanted:
                    counts[pid] = counts.get(pid, 0) + 1
        return counts

    def _record_list(self, resolved: list[tuple[_Player, FideListEntry]]) -> set[int]:
        """Keep each tracked, seeded player's rating on this list (an earlier list: it rates
        the events that started while it was in force, where tracker has no list of its
        own; see ``player seed --list``), for a list of a known month that can be one
        (:func:`tracker.services.lists.earlier_list_problem`). The players whose rating on it
        is new or changed."""
        month = self.month
        if month is None or lists.earlier_list_problem(self.db, self.tc, month, today()):
            return set()
        rated = {
            player.id: entry.rating
            for player, entry in resolved
            if player.id is not None
            and not player.row.external
            and entry.rating is not None
            and self.tc in player.seeds
        }
        given = list_queries.official_ratings(self.db, self.tc, month)
        changed = {pid for pid, rating in rated.items() if given.get(pid) != rating}
        player_queries.put_earlier_lists(
            self.db, self.tc, month, {pid: rated[pid] for pid in sorted(changed)}
        )
        self.counts.changed |= changed
        return changed

    def _store_new(self) -> None:
        """Store the players the list adds, and their seeds: in a few driver calls (a
        federation's list adds 600,000), each new player found again by his FIDE id."""
        if not self.new:
            return
        player_queries.insert_players(self.db, [player.row for player in self.new])
        ids = q.fide_ids(self.db)
        seeds: list[SeedRow] = []
        for player in self.new:
            assert player.row.fide_id is not None  # a list's line has its FIDE id
            pid = ids[player.row.fide_id]
            player.row = player.row._replace(id=pid)
            player.seeds = {tc: s._replace(player_id=pid) for tc, s in player.seeds.items()}
            seeds.extend(player.seeds.values())
        player_queries.insert_seeds(self.db, seeds)
        self.new.clear()

    def _unnumbered(self, entries: list[FideListEntry]) -> dict[str, _Player]:
        """Players without a FIDE id who are the only one of their name: new list players of
        that name are them."""
        found: dict[str, list[PlayerRow]] = {}
        for row in player_queries.players_in(self.db, "name", {e.name for e in entries}):
            found.setdefault(row.name, []).append(row)
        listed: dict[str, int] = {}
        for e in entries:
            listed[e.name] = listed.get(e.name, 0) + 1
        alone = [
            rows[0]
            for name, rows in found.items()
            if len(rows) == 1 and rows[0].fide_id is None and listed[name] == 1
        ]
        return {p.row.name: p for p in _players(self.db, alone)}

    def _fields(self, player: _Player, entry: FideListEntry) -> tuple[str, ...]:
        changes: dict[str, Any] = {}
        for column in ("federation", "birth_year", "sex", "title"):
            value = getattr(entry, column)
            if value is not None and getattr(player.row, column) != value:
                changes[column] = value
        player.row = player.row._replace(**changes)
        if player.id is not None:  # a new player is stored with them
            q.update_player(self.db, player.id, changes)
            if "birth_year" in changes:
                self.counts.changed.add(player.id)  # the junior K depends on it
        return tuple(changes)

    def _seed(self, player: _Player, entry: FideListEntry, played: int) -> int | None:
        """Set the player's seed from the list; the new seed's rating, or None if untouched."""
        if player.row.external:
            return None
        if entry.rating is None:
            if player.id is not None:
                self.counts.unrated.append(player.row.name)
            return None
        old = player.seeds.get(self.tc)
        seed, guessed = seed_from_list(
            entry, self.tc, old, _junior(player.row.birth_year, self.year)
        )
        if old is not None and seed_of(old) == seed:
            return None
        if played:
            self.counts.kept_for_games.append(f"{player.row.name} ({plural(played, 'game')})")
            return None
        later = self.later_lists.get(player.id) if player.id is not None else None
        if later is not None and self.month is not None and later > self.month:
            self.counts.kept_for_later.append(f"{player.row.name} ({month_label(later)})")
            return None  # a later list seeded him: this one is an earlier list
        if guessed:
            self.counts.unknown_games.append(player.row.name)
        # a seeded rating sets the sticky 2400 / 2300 flags too; a new player's id: when stored
        stored = stored_seed(player.id or 0, seed_row(seed))
        player.seeds[self.tc] = stored
        if player.id is not None:
            if old is not None:
                player_queries.delete_seed(self.db, player.id, self.tc)
            player_queries.insert_seed(self.db, stored)
        return seed.rating  # a player with games keeps his seed (above): nothing goes stale

    def notes(self, recoded: int) -> list[str]:
        c = self.counts
        out = []

        def names(items: list[str]) -> str:
            shown = "; ".join(items[:5])
            return shown + (f"; and {len(items) - 5} more" if len(items) > 5 else "")

        if c.kept_for_games:
            when = (
                f"dated before the list ({month_label(self.month)})"
                if self.month is not None
                else "in the database (the file does not say its month: give --month)"
            )
            out.append(
                f"{plural(len(c.kept_for_games), 'player')} kept their seed: they have "
                f"{self.tc} games {when}, which the list already counts "
                f"({names(c.kept_for_games)}); compare with `tracker list --against FILE`"
            )
        if c.lists_kept and self.month is not None:
            out.append(
                f"{plural(c.lists_kept, 'rating')} kept as the players' on the "
                f"{month_label(self.month)} list: it rates the events that started while it "
                "was in force (see `tracker player show`)"
            )
        if c.kept_for_later:
            out.append(
                f"{plural(len(c.kept_for_later), 'player')} kept the seed of a later list "
                f"imported before; this one is kept as an earlier list "
                f"({names(c.kept_for_later)})"
            )
        if c.unknown_games:
            out.append(
                f"{plural(len(c.unknown_games), 'player')} with K 40 and fewer than 30 games: "
                "the list does not give their rated games, seeded with 0 "
                f"({names(c.unknown_games)}); correct with "
                "`tracker player seed NAME --rating R --games N`"
            )
        if c.unrated:
            out.append(
                f"{plural(len(c.unrated), 'player')} not rated on this list: no seed "
                f"({names(c.unrated)})"
            )
        if c.attached:
            out.append(
                f"{plural(len(c.attached), 'player')} without a FIDE id matched by name and "
                f"given the list's id ({names(c.attached)})"
            )
        if recoded:
            out.append(f"{plural(recoded, 'name')} not in UTF-8, read as Windows-1252")
        return out
