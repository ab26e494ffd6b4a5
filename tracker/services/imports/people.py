"""Who the file's people are: each person of the file (however many ways it writes him), the
stored player he is (by FIDE id, then by exact name, then by the name in another case; a
name matching several players is a problem), and for the rest, whether and how to create
them (``--create-players``)."""

from __future__ import annotations

from collections import defaultdict

from tracker.db.driver import Db
from tracker.db.queries.players import PlayerRow, players_in
from tracker.errors import InvalidInputError
from tracker.services.imports.report import CreatePlayers
from tracker.services.intake import has_control
from tracker.services.intake.columns import Side
from tracker.services.intake.plan import Identity, Plan
from tracker.services.players.roster import clean_name
from tracker.vocabulary import plural


def match_people(db: Db, plan: Plan, create_players: CreatePlayers) -> None:
    """Fill ``plan.side_identity``: the person of each side of the file, matched to a stored
    player or decided about."""
    identities = _identities(plan)
    _match_players(db, identities)
    _decide_new_players(identities, create_players)


def _identities(plan: Plan) -> list[Identity]:
    """The file's people: keyed by FIDE id, or by name when the file gives none (a name
    given a FIDE id elsewhere in the file is that person)."""
    sides = plan.games.sides
    ids_by_name: dict[str, set[int]] = defaultdict(set)
    for side in sides:
        if side.fide_id is not None:
            ids_by_name[side.name.casefold()].add(side.fide_id)
    by_key: dict[tuple[str, object], Identity] = {}
    identities: list[Identity] = []
    merged: dict[int, list[Side]] = defaultdict(list)  # person -> his sides, if several
    side_identity = plan.side_identity
    for side in sides:  # in the order of their first game: the people's order
        key = _key(side, ids_by_name)
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


def _key(side: Side, ids_by_name: dict[str, set[int]]) -> tuple[str, object]:
    if side.fide_id is not None:
        return ("id", side.fide_id)
    ids = ids_by_name.get(side.name.casefold(), set())
    if len(ids) == 1:
        return ("id", next(iter(ids)))  # the same name is given a FIDE id elsewhere
    return ("name", side.name.casefold())


def _match_players(db: Db, identities: list[Identity]) -> None:
    usable = [i for i in identities if i.problem is None]
    fide_ids = sorted(i.fide_id for i in usable if i.fide_id is not None)
    by_fide: dict[int, PlayerRow] = {}
    for player in players_in(db, "fide_id", fide_ids):
        assert player.fide_id is not None
        by_fide[player.fide_id] = player
    unmatched = [i for i in usable if i.fide_id is None or i.fide_id not in by_fide]
    names = sorted({i.name for i in unmatched})
    by_name: dict[str, list[PlayerRow]] = defaultdict(list)
    for player in players_in(db, "name", names):
        by_name[player.name].append(player)
    folded = sorted({i.name.lower() for i in unmatched if i.name not in by_name})
    by_lower: dict[str, list[PlayerRow]] = defaultdict(list)
    for player in players_in(db, "lower(name)", folded):
        by_lower[player.name.lower()].append(player)
    for identity in usable:
        if identity.fide_id is not None and identity.fide_id in by_fide:
            _use(identity, by_fide[identity.fide_id])
            continue
        candidates = by_name.get(identity.name) or by_lower.get(identity.name.lower(), [])
        if identity.fide_id is not None:
            # Players with another FIDE id are other people of the same name.
            candidates = [p for p in candidates if p.fide_id is None]
        if len(candidates) == 1:
            _use(identity, candidates[0])
        elif len(candidates) > 1:
            listed = ", ".join(_label(p) for p in sorted(candidates, key=lambda p: p.id))
            identity.problem = (
                f"player {identity.name!r} matches {len(candidates)} players ({listed}); "
                "give FIDE ids in the file, or rename one of them"
            )
        else:
            identity.new = True


def _use(identity: Identity, player: PlayerRow) -> None:
    identity.player_id = player.id
    identity.external = player.external
    identity.stored_birth_year = player.birth_year


def _decide_new_players(identities: list[Identity], policy: CreatePlayers) -> None:
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


def _label(player: PlayerRow) -> str:
    fide = f", FIDE {player.fide_id}" if player.fide_id else ""
    return f"#{player.id} {player.name}{fide}"


def _take_details(identity: Identity, sides: list[Side]) -> None:
    """A person's federation, birth year, sex and title: the first the file gives, whichever
    way it writes him."""
    for attribute in ("federation", "birth_year", "sex", "title"):
        given = [value for side in sides if (value := getattr(side, attribute)) is not None]
        if given:
            setattr(identity, attribute, min(given)[1])
