"""Finding the file's games among the stored ones: a game already stored drops out (present),
one stored with another result is refused. Duplicates are judged by content: the file's
games sharing one natural key are matched with the stored games of that key (the key, then
``key|#2``, ``key|#3``...) by result and time control. The file is looked up a slice at a
time (:data:`PRESENT_CHUNK` keys)."""

import datetime as dt
from collections import defaultdict
from typing import Final, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import games as game_queries
from tracker.db.queries import imports as queries
from tracker.services.intake import Twin
from tracker.services.intake.columns import RESULT_CODES, TC_CODES
from tracker.services.intake.plan import Plan, suffixed
from tracker.vocabulary import TimeControl, plural

#: Keys per round of looking the file's games up among the stored ones.
PRESENT_CHUNK: Final = 20_000

_Found = int | list[int]  # the file's game of a key, or its games


class _StoredGame(NamedTuple):
    """A stored game of a key: the key's level (1 for the key itself, n for ``key|#n``)."""

    level: int
    game_id: int
    result: str
    tc: TimeControl


def find_present(db: Db, name: str, plan: Plan, groups: dict[int, list[int]]) -> None:
    """Mark the games already stored present, and refuse those stored with another result
    (``groups``: the games of the file sharing a key, by the first one's number)."""
    _Present(db, name, plan).find(groups)


class _Present:
    def __init__(self, db: Db, name: str, plan: Plan) -> None:
        self.db = db
        self.name = name
        self.plan = plan
        self.games = plan.games

    def find(self, groups: dict[int, list[int]]) -> None:
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

    def _result_tc(self, game: int) -> tuple[str, TimeControl]:
        tc = TC_CODES[self.games.tc[game]]
        assert tc is not None, "a game without a time control is refused"
        return RESULT_CODES[self.games.result[game]], tc

    def _contradiction(self, game: int, stored: _StoredGame) -> str:
        says, says_tc = self._result_tc(game)
        game_id, result, tc = stored.game_id, stored.result, stored.tc
        return (
            f"this game is already recorded as game {game_id} with result {result} "
            f"({tc}); the file says {says} ({says_tc}): if the file "
            f"is right, remove game {game_id} first (`tracker game remove {game_id}`)"
        )

    def _needs_more(self, found: _Found, stored: list[_StoredGame]) -> bool:
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

    def _stored(self, finals: dict[str, _Found]) -> dict[str, list[_StoredGame]]:
        """The stored games of each key: (suffix, game id, result, tc), level by level. The
        next level is looked up only for the keys that need it: more file games than stored
        ones so far, or a file game no stored one matches (a re-import of a federation's
        file, one game per key, takes one lookup per game)."""
        stored: dict[str, list[_StoredGame]] = defaultdict(list)
        wanted: dict[str, str] = {key: key for key in finals}  # stored key -> the file's key
        level = 1
        while wanted:
            found: list[str] = []
            for game in queries.games_by_natural_key(self.db, sorted(wanted)):
                base = wanted[game.natural_key]
                stored[base].append(_StoredGame(level, game.id, game.result, game.tc))
                found.append(base)
            level += 1
            more = [base for base in found if self._needs_more(finals[base], stored[base])]
            wanted = {suffixed(base, level): base for base in more}
        return dict(stored)


def find_twins(db: Db, name: str, plan: Plan) -> None:
    """Refuse the file's new games that look like stored games (the same two players on the
    same day in one time control: :class:`tracker.services.intake.Twin`), whichever event
    name or round either carries: most often a file of games already typed in, its event
    spelt another way. One problem per stored event they match."""
    games = plan.games
    candidates = [
        game
        for game in plan.writable()
        if plan.white(game).player_id is not None and plan.black(game).player_id is not None
    ]
    if not candidates:
        return
    players = {
        pid
        for game in candidates
        for pid in (plan.white(game).player_id, plan.black(game).player_id)
        if pid is not None
    }
    stored: dict[tuple[dt.date, frozenset[int], str], list[Twin]] = defaultdict(list)
    for g in game_queries.games_on_days(db, sorted({plan.day(g) for g in candidates}), players):
        twin = Twin(g.id, g.white, g.black, g.played_on, g.tc, g.event, g.round)
        stored[(g.played_on, frozenset((g.white_id, g.black_id)), g.tc)].append(twin)
    if not stored:
        return
    matched: dict[str | None, list[tuple[int, Twin]]] = defaultdict(list)
    for game in candidates:
        pair = frozenset((plan.white(game).player_id or 0, plan.black(game).player_id or 0))
        tc = TC_CODES[games.tc[game]] or ""
        event = plan.event(game)
        for twin in stored.get((plan.day(game), pair, tc), ()):
            if twin.is_twin_of(event.name if event else None):
                matched[twin.event].append((game, twin))
                break
    for where, found in matched.items():
        first, twin = found[0]
        others = len(found) - 1
        verb = "is" if others == 1 else "are"
        more = f", and so {verb} {plural(others, 'more game')} of the file" if others else ""
        hint = (
            f"the same event under another name? write it {where!r} in the file"
            if where is not None
            else "games entered without an event? remove them, or import with another date"
        )
        plan.refuse(
            name,
            first,
            f"this looks like {twin} again (the same players on the same day, {twin.tc})"
            f"{more}: {hint}",
        )
        for game, _ in found[1:]:
            plan.refuse(name, game)
