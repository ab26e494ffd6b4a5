"""Which of a file's games are stored already (an import of the same file, or of an
overlapping one, adds nothing): matched by natural key and judged by content."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from tracker.db.models import Game
from tracker.services.imports.planned import Plan, Planned, chunks, suffixed

#: Values per ``IN (...)`` list when looking rows up.
LOOKUP_CHUNK = 500


_Stored = tuple[int, int, str, str]  # a stored game of a key: suffix, id, result, tc


def _needs_more(found: Planned | list[Planned], stored: list[_Stored]) -> bool:
    """Whether a key's stored games found so far may not be all that matter: the file has
    more games of that key, or one of them matches none of those stored."""
    if not isinstance(found, list):  # the usual case: one game of that key, one stored
        return all((s[2], s[3]) != (found.record.result, found.tc) for s in stored)
    group = found
    if len(group) > len(stored):
        return True
    left = [(result, tc) for _, _, result, tc in stored]
    for planned in group:
        wanted = (planned.record.result, planned.tc)
        if wanted not in left:
            return True
        left.remove(wanted)
    return False


def find_present(session: Session, plan: Plan) -> None:
    """Games already stored drop out; one stored with another result is a problem.

    Duplicates are judged by content: the file's games sharing one natural key (same
    date, players, event and round) are matched with the stored games of that key (the
    key, then ``key|#2``, ``key|#3``...) by result and time control. A file game that
    matches none is new while the file has more such games than the database; beyond
    that it contradicts a stored game."""
    finals: dict[str, Planned | list[Planned]] = {}
    for planned in plan.games:
        if planned.final:
            assert isinstance(planned.key, str)
            found = finals.get(planned.key)
            if found is None:
                finals[planned.key] = planned
            elif isinstance(found, list):
                found.append(planned)
            else:
                finals[planned.key] = [found, planned]
    stored = _stored(session, finals)
    if not stored:
        return
    drop: set[int] = set()  # id() of the games present or refused
    for key, candidates in stored.items():
        found = finals[key]
        if not isinstance(found, list) and len(candidates) == 1:  # the usual case
            _, game_id, result, tc = candidates[0]
            drop.add(id(found))
            if (result, tc) == (found.record.result, found.tc):
                plan.present += 1
                continue
            plan.refuse(
                found.record,
                f"this game is already recorded as game {game_id} with result {result} "
                f"({tc}); the file says {found.record.result} ({found.tc}): if the file "
                f"is right, remove game {game_id} first (`tracker game remove {game_id}`)",
            )
            continue
        group = found if isinstance(found, list) else [found]
        unmatched = list(candidates)
        new: list[Planned] = []
        for planned in group:
            match = next(
                (c for c in unmatched if (c[2], c[3]) == (planned.record.result, planned.tc)),
                None,
            )
            if match is None:
                new.append(planned)
            else:
                unmatched.remove(match)
                plan.present += 1
                drop.add(id(planned))
        room = max(0, len(group) - len(candidates))
        for planned, other in zip(new[: len(new) - room], unmatched, strict=False):
            _, game_id, result, tc = other
            drop.add(id(planned))
            plan.refuse(
                planned.record,
                f"this game is already recorded as game {game_id} with result {result} "
                f"({tc}); the file says {planned.record.result} ({planned.tc}): if the file "
                f"is right, remove game {game_id} first (`tracker game remove {game_id}`)",
            )
        used = {c[0] for c in candidates}
        free = (n for n in range(1, len(group) + len(candidates) + 1) if n not in used)
        for planned in new[len(new) - room :] if room else []:
            planned.suffix = next(free)
    if drop:
        plan.games = [p for p in plan.games if id(p) not in drop]  # the file's order


def _stored(
    session: Session, finals: dict[str, Planned | list[Planned]]
) -> dict[str, list[_Stored]]:
    """The stored games of each key: (suffix, game id, result, tc), level by level. The
    next level is looked up only for the keys that need it: more file games than stored
    ones so far, or a file game no stored one matches (a re-import of a federation's
    file, one game per key, takes one lookup per game)."""
    stored: dict[str, list[_Stored]] = defaultdict(list)
    wanted: dict[str, str] = {key: key for key in finals}  # stored key -> the file's key
    level = 1
    while wanted:
        found: list[str] = []
        for chunk in chunks(sorted(wanted), LOOKUP_CHUNK):
            query = select(Game.natural_key, Game.id, Game.result, Game.tc).where(
                Game.natural_key.in_(chunk)
            )
            for stored_key, game_id, result, tc in session.execute(query):
                base = wanted[stored_key]
                stored[base].append((level, game_id, result, tc))
                found.append(base)
        level += 1
        more = [base for base in found if _needs_more(finals[base], stored[base])]
        wanted = {suffixed(base, level): base for base in more}
    return dict(stored)
