"""Players with their seeds out to a file and back in (``tracker export players``, and a
players CSV given to ``tracker import``): with the games, everything a database needs to be
rebuilt from files alone.

Reading a players file: each row is matched like a game file's players -- by FIDE id, then by
exact name (a name shared by several players is a problem) -- and then

* a new player is added as ``tracker player add`` would add them, with their seeds;
* a known one gets the fields the row gives (a blank cell changes nothing) and the seeds it
  gives, as ``tracker player edit`` would; changing a seed, a birth year or the kind marks
  the closed periods stale, as an edit does;
* a row that changes nothing is counted as unchanged.

Every row is checked as the commands check their options; one problem per bad row, with its
line. The caller decides what a problem means (the import: the whole command is refused).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from tracker.db.models import Player
from tracker.errors import TrackerError
from tracker.importers.players import PlayerRow, SeedRow
from tracker.importers.records import Problem
from tracker.services.intake import is_fide_id, not_fide_id
from tracker.services.players import (
    SeedInput,
    add_player,
    edit_player,
    list_players,
)
from tracker.vocabulary import TIME_CONTROLS


@dataclass(frozen=True)
class PlayersRead:
    """What one players file did."""

    created: tuple[tuple[int, str, int | None, bool], ...]  # id, name, FIDE id, external
    updated: tuple[str, ...]
    unchanged: int
    problems: tuple[Problem, ...]
    seeds_changed: bool
    warnings: tuple[Problem, ...] = ()  # what the intake's rules set aside


def _seed_input(seed: SeedRow) -> SeedInput:
    return SeedInput(
        rating=seed.rating,
        games=seed.games,
        ever_2400=seed.ever_2400,
        ever_2300=seed.ever_2300,
        tc=seed.tc,
    )


def _match(session: Session, row: PlayerRow) -> Player | str | None:
    """The stored player of a row, None for a new one, or why it cannot be told."""
    if row.fide_id is not None:
        by_id = session.scalar(
            select(Player).where(Player.fide_id == row.fide_id).options(selectinload(Player.seeds))
        )
        if by_id is not None:
            return by_id
    named = list(
        session.scalars(
            select(Player).where(Player.name == row.name).options(selectinload(Player.seeds))
        )
    )
    if row.fide_id is not None:
        named = [p for p in named if p.fide_id is None]  # another id: another person
    if len(named) > 1:
        ids = ", ".join(f"#{p.id}" for p in named)
        return f"{row.name!r} matches {len(named)} players ({ids}); give their FIDE id"
    return named[0] if named else None


def _changes(player: Player, row: PlayerRow) -> dict[str, Any]:
    given = {
        "name": row.name,
        "fide_id": row.fide_id,
        "federation": row.federation.upper() if row.federation else None,
        "birth_year": row.birth_year,
        "sex": {"w": "f"}.get((row.sex or "").lower(), (row.sex or "").lower()) or None,
        "title": row.title.upper() if row.title else None,
        "external": row.external,
    }
    return {
        name: value
        for name, value in given.items()
        if value is not None and getattr(player, name) != value
    }


def _seed_changes(player: Player, row: PlayerRow) -> list[SeedRow]:
    stored = {s.tc: s for s in player.seeds}
    changed = []
    for seed in row.seeds:
        old = stored.get(seed.tc)
        wanted = (
            seed.rating,
            seed.games,
            seed.ever_2400 or seed.rating >= 2400,
            seed.ever_2300 or seed.rating >= 2300,
        )
        if old is None or (old.rating, old.games, old.ever_2400, old.ever_2300) != wanted:
            changed.append(seed)
    return changed


def read_players(session: Session, source: str, rows: tuple[PlayerRow, ...]) -> PlayersRead:
    """Add or update the players of a file (see the module docstring)."""
    created: list[tuple[int, str, int | None, bool]] = []
    updated: list[str] = []
    unchanged = 0
    problems: list[Problem] = []
    seeds_changed = False
    seen_ids: dict[int, int] = {}
    seen_names: dict[str, int] = {}
    warnings: list[Problem] = []
    for row in rows:
        if row.fide_id is not None and not is_fide_id(row.fide_id):
            warnings.append(Problem(source, row.line, f"fide_id {not_fide_id(row.fide_id)}"))
            row = replace(row, fide_id=None)
        earlier = (seen_ids.get(row.fide_id) if row.fide_id is not None else None) or (
            seen_names.get(row.name) if row.fide_id is None else None
        )
        if earlier is not None:
            problems.append(Problem(source, row.line, f"the same player as line {earlier}"))
            continue
        if row.fide_id is not None:
            seen_ids[row.fide_id] = row.line
        else:
            seen_names[row.name] = row.line
        found = _match(session, row)
        if isinstance(found, str):
            problems.append(Problem(source, row.line, found))
            continue
        savepoint = session.begin_nested()
        try:
            if found is None:
                seeds = list(row.seeds)
                view = add_player(
                    session,
                    name=row.name,
                    fide_id=row.fide_id,
                    birth_year=row.birth_year,
                    federation=row.federation,
                    sex=row.sex,
                    title=row.title,
                    external=bool(row.external),
                    seed=_seed_input(seeds[0]) if seeds else None,
                )
                for seed in seeds[1:]:
                    edit_player(session, f"#{view.id}", changes={}, seed=_seed_input(seed))
                created.append((view.id, view.name, view.fide_id, view.external))
                seeds_changed = seeds_changed or bool(seeds)
            else:
                changes = _changes(found, row)
                seeds = _seed_changes(found, row)
                if not changes and not seeds:
                    unchanged += 1
                    savepoint.commit()
                    continue
                ref = f"#{found.id}"
                edit_player(
                    session, ref, changes=changes, seed=_seed_input(seeds[0]) if seeds else None
                )
                for seed in seeds[1:]:
                    edit_player(session, ref, changes={}, seed=_seed_input(seed))
                updated.append(found.name)
                seeds_changed = seeds_changed or bool(seeds) or "birth_year" in changes
        except TrackerError as exc:
            savepoint.rollback()
            problems.append(Problem(source, row.line, str(exc)))
            continue
        savepoint.commit()
    return PlayersRead(
        tuple(created), tuple(updated), unchanged, tuple(problems), seeds_changed, tuple(warnings)
    )


def players_rows(session: Session) -> list[dict[str, object]]:
    """Every player as a players file's row (see :mod:`tracker.importers.players`)."""
    rows: list[dict[str, object]] = []
    for p in list_players(session):
        row: dict[str, object] = {
            "name": p.name,
            "fide_id": p.fide_id,
            "federation": p.federation,
            "birth_year": p.birth_year,
            "sex": p.sex,
            "title": p.title,
            "kind": "external" if p.external else "tracked",
        }
        seeds = {s.tc: s for s in p.seeds}
        for tc in TIME_CONTROLS:
            seed = seeds.get(tc)
            if seed is not None:
                row.update(
                    {
                        f"{tc}_rating": seed.rating,
                        f"{tc}_games": seed.games,
                        f"{tc}_ever_2400": seed.ever_2400,
                        f"{tc}_ever_2300": seed.ever_2300,
                    }
                )
        rows.append(row)
    return rows
