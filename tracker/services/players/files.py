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

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import players as q
from tracker.errors import TrackerError
from tracker.importers.players import FilePlayer
from tracker.importers.records import Problem
from tracker.ratings.fide.records import Seed
from tracker.services import lists
from tracker.services.intake import is_fide_id, not_fide_id
from tracker.services.players.refs import PlayerView, seed_of
from tracker.services.players.roster import add_player, edit_player, list_players, seed_row
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


class _StoredPlayer(NamedTuple):
    """A stored player a row matches, with his seeds."""

    player: q.PlayerRow
    seeds: list[q.SeedRow]


def _match(db: Db, row: FilePlayer) -> _StoredPlayer | str | None:
    """The stored player of a row, None for a new one, or why it cannot be told."""
    if row.fide_id is not None:
        by_id = q.players_where(db, "fide_id", row.fide_id)  # one at most
        if by_id:
            return _StoredPlayer(by_id[0], q.seeds_of(db, by_id[0].id))
    named = q.players_where(db, "name", row.name)
    if row.fide_id is not None:
        named = [p for p in named if p.fide_id is None]  # another id: another person
    if len(named) > 1:
        ids = ", ".join(f"#{p.id}" for p in named)
        return f"{row.name!r} matches {len(named)} players ({ids}); give their FIDE id"
    return _StoredPlayer(named[0], q.seeds_of(db, named[0].id)) if named else None


def _changes(player: q.PlayerRow, row: FilePlayer) -> dict[str, Any]:
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


def _seed_changes(seeds: list[q.SeedRow], row: FilePlayer) -> list[Seed]:
    """The row's seeds that are not stored as they would be (:func:`seed_row`)."""
    stored = {s.tc: seed_of(s) for s in seeds}
    return [seed for seed in row.seeds if stored.get(seed.tc) != seed_row(seed)]


def read_players(db: Db, file: str, rows: tuple[FilePlayer, ...]) -> PlayersRead:
    """Add or update the players of a file (see the module docstring): ``file`` names it in
    the problems."""
    created: list[tuple[int, str, int | None, bool]] = []
    updated: list[str] = []
    unchanged = 0
    problems: list[Problem] = []
    seeds_changed = False
    seen_ids: dict[int, int] = {}
    seen_names: dict[str, int] = {}
    warnings: list[Problem] = []
    touched: list[int] = []  # whose lines on the stored lists may change: restored once
    for row in rows:
        if row.fide_id is not None and not is_fide_id(row.fide_id):
            warnings.append(Problem(file, row.line, f"fide_id {not_fide_id(row.fide_id)}"))
            row = replace(row, fide_id=None)
        earlier = (seen_ids.get(row.fide_id) if row.fide_id is not None else None) or (
            seen_names.get(row.name) if row.fide_id is None else None
        )
        if earlier is not None:
            problems.append(Problem(file, row.line, f"the same player as line {earlier}"))
            continue
        if row.fide_id is not None:
            seen_ids[row.fide_id] = row.line
        else:
            seen_names[row.name] = row.line
        found = _match(db, row)
        if isinstance(found, str):
            problems.append(Problem(file, row.line, found))
            continue
        changes: dict[str, Any] = {}
        seeds = list(row.seeds)
        if found is not None:
            changes = _changes(found.player, row)
            seeds = _seed_changes(found.seeds, row)
            if not changes and not seeds:
                unchanged += 1
                continue
        try:
            with db.savepoint("player_change"):  # a row refused leaves nothing behind
                if found is None:
                    view = _add(db, row)
                    created.append((view.id, view.name, view.fide_id, view.external))
                else:
                    view = _edit(db, f"#{found.player.id}", changes, seeds)
                    updated.append(view.name)  # as it is now
                touched.append(view.id)
        except TrackerError as exc:
            problems.append(Problem(file, row.line, str(exc)))
            continue
        seeds_changed = seeds_changed or bool(seeds) or "birth_year" in changes
    lists.restore_players(db, touched)
    return PlayersRead(
        tuple(created), tuple(updated), unchanged, tuple(problems), seeds_changed, tuple(warnings)
    )


def _add(db: Db, row: FilePlayer) -> PlayerView:
    """A new player, as ``tracker player add`` adds him, then his other seeds."""
    seeds = list(row.seeds)
    view = add_player(
        db,
        name=row.name,
        fide_id=row.fide_id,
        birth_year=row.birth_year,
        federation=row.federation,
        sex=row.sex,
        title=row.title,
        external=bool(row.external),
        seed=seeds[0] if seeds else None,
        restore_lists=False,
    )
    for seed in seeds[1:]:
        edit_player(db, view.ref, changes={}, seed=seed, restore_lists=False)
    return view


def _edit(db: Db, ref: str, changes: dict[str, Any], seeds: list[Seed]) -> PlayerView:
    """A known player's changes and new seeds, as ``tracker player edit`` makes them; the
    player as he is then."""
    first = seeds[0] if seeds else None
    view = edit_player(db, ref, changes=changes, seed=first, restore_lists=False)
    for seed in seeds[1:]:
        view = edit_player(db, ref, changes={}, seed=seed, restore_lists=False)
    return view


def players_rows(db: Db) -> list[dict[str, object]]:
    """Every player as a players file's row (see :mod:`tracker.importers.players`)."""
    rows: list[dict[str, object]] = []
    for p in list_players(db):
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
