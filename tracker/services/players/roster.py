"""The players' roster: add, list, show, edit, seed and remove players."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tracker.db.driver import Db
from tracker.db.queries import players as q
from tracker.db.queries.players import PlayerRow
from tracker.errors import ConflictError, InvalidInputError, quoted
from tracker.months import month_label
from tracker.ratings.fide.records import Seed
from tracker.services import lists, log
from tracker.services.intake import (
    CHESSCOM_USER,
    LICHESS_USER,
    age_problem,
    check_text,
    is_fide_id,
    not_fide_id,
)
from tracker.services.lists.stale import mark_all_stale
from tracker.services.players.refs import (
    PlayerView,
    find,
    id_ref,
    player_view,
    seed_of,
    seeds_of,
    show_player,
    stored_seed,
)
from tracker.user_input import check_birth_year, check_plausible_rating, today
from tracker.vocabulary import CHESSCOM, LICHESS, TITLES, TimeControl, name_form

FEDERATION = re.compile(r"^[A-Z]{3}$")
#: Each platform's players' column, its name and the rule of its user names.
ACCOUNTS: dict[str, tuple[str, re.Pattern[str]]] = {
    LICHESS.key: (LICHESS.label, LICHESS_USER),
    CHESSCOM.key: (CHESSCOM.label, CHESSCOM_USER),
}
"""Linkable online accounts: the player column, the platform's name, the user-name rule."""


def clean_name(name: str) -> str:
    """A player's name as stored (:func:`tracker.vocabulary.name_form`), refused if empty,
    too long, holding control characters or read as a player id."""
    cleaned = name_form(name)
    if not cleaned:
        raise InvalidInputError("a player needs a name")
    if len(cleaned) > 200:
        raise InvalidInputError("a player's name is limited to 200 characters")
    check_text(cleaned, "player name")
    if id_ref(cleaned) is not None:
        raise InvalidInputError(
            f"invalid name {quoted(name)}: a name cannot start with '#' or 'id:' (those refer to "
            "player ids)"
        )
    return cleaned


def _clean_fields(fields: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """The fields as stored, by the intake's rules; what the rules set aside goes to
    ``warnings`` (a number that is no FIDE id is not stored as one)."""
    out = dict(fields)
    if out.get("name") is not None:
        out["name"] = clean_name(out["name"])
    fide_id = out.get("fide_id")
    if fide_id is not None and fide_id < 0:
        raise InvalidInputError(f"invalid FIDE id {fide_id}: a positive number")
    if fide_id == 0:  # as in files: no FIDE id given
        del out["fide_id"]
        fide_id = None
    if fide_id is not None and not is_fide_id(fide_id):
        warnings.append(f"FIDE id {not_fide_id(fide_id)}")
        del out["fide_id"]
    federation = out.get("federation")
    if federation is not None:
        federation = federation.strip().upper()
        if not FEDERATION.match(federation):
            raise InvalidInputError(f"invalid federation {fields['federation']!r}: three letters")
        out["federation"] = federation
    born = out.get("birth_year")
    if born is not None:
        check_birth_year(born)
    sex = out.get("sex")
    if sex is not None:
        sex = sex.strip().lower()
        if sex == "w":
            sex = "f"
        if sex not in ("m", "f"):
            raise InvalidInputError(f"invalid sex {fields['sex']!r}: use m or f")
        out["sex"] = sex
    title = out.get("title")
    if title is not None:
        title = title.strip().upper()
        if title not in TITLES:
            raise InvalidInputError(f"unknown title {fields['title']!r}: use {', '.join(TITLES)}")
        out["title"] = title
    for column, (platform, rule) in ACCOUNTS.items():
        user = out.get(column)
        if user is not None:
            user = user.strip()
            if not rule.match(user):
                raise InvalidInputError(
                    f"invalid {platform} user name {fields[column]!r}: letters, digits, "
                    "'_' and '-' only"
                )
            out[column] = user
    return out


def _check_account_free(db: Db, column: str, user: str, player_id: int | None) -> None:
    """An online account belongs to one player (user names compared without case)."""
    other = next(iter(q.players_where(db, f"lower({column})", user.lower())), None)
    if other is not None and other.id != player_id:
        platform = ACCOUNTS[column][0]
        raise ConflictError(
            f"{platform} account {user} is already linked to {other.name} (#{other.id})"
        )


def _check_fide_id_free(db: Db, fide_id: int | None, player_id: int | None) -> None:
    if fide_id is None:
        return
    other = next(iter(q.players_where(db, "fide_id", fide_id)), None)
    if other is not None and other.id != player_id:
        raise ConflictError(f"FIDE id {fide_id} already belongs to {other.name} (#{other.id})")


def _check_seed(seed: Seed | None, external: bool) -> None:
    if seed is None:
        return
    if external:
        raise InvalidInputError(
            "an external player is not rated by us: their rating comes from each game, "
            "so --rating/--games do not apply"
        )
    check_plausible_rating(seed.rating, "seed rating")
    if not 0 <= seed.games <= 100_000:
        raise InvalidInputError(f"--games {seed.games} is outside 0..100000")


def seed_row(seed: Seed) -> Seed:
    """The seed as stored: a seeded rating counts as published, so it sets the sticky 2400 /
    2300 flags too."""
    return seed._replace(
        ever_2400=seed.ever_2400 or seed.rating >= 2400,
        ever_2300=seed.ever_2300 or seed.rating >= 2300,
    )


def _spaceless(name: str) -> str:
    return "".join(name.split()).casefold()


def check_name_free(
    db: Db, name: str, *, player_id: int | None = None, force: bool = False
) -> None:
    """Refuse, unless ``force``, a name another player already has, or one that differs from
    another player's only in case or spacing (a typo far more often than a namesake)."""
    if force:
        return
    key = _spaceless(name)
    others = [
        (pid, other)
        for pid, other in q.all_names(db)
        if pid != player_id and _spaceless(other) == key
    ]
    if not others:
        return
    pid, other = min(others)  # the first added
    action = "rename to it" if player_id is not None else "add a namesake"
    if other == name:
        raise ConflictError(
            f'"{other}" is already a player (id:{pid}): to {action} anyway, give --force '
            "(then refer to each by id:ID)"
        )
    raise ConflictError(
        f'{name!r} differs from the player "{other}" (id:{pid}) only in case or spacing: '
        f"use that player, or give --force to {action} anyway"
    )


def add_player(
    db: Db,
    *,
    name: str,
    fide_id: int | None = None,
    birth_year: int | None = None,
    federation: str | None = None,
    sex: str | None = None,
    title: str | None = None,
    external: bool = False,
    seed: Seed | None = None,
    lichess: str | None = None,
    chesscom: str | None = None,
    force: bool = False,
    restore_lists: bool = True,
) -> PlayerView:
    """Add a tracked player (optionally seeded with their FIDE state, optionally with linked
    online accounts) or an external opponent.

    A name another player has, or nearly has (:func:`check_name_free`), needs ``force``.
    ``restore_lists`` False: the caller restores the stored lists (a seed puts him on them)
    for many players at once (:func:`tracker.services.lists.restore_players`)."""
    warnings: list[str] = []
    fields = _clean_fields(
        {
            "name": name,
            "fide_id": fide_id,
            "birth_year": birth_year,
            "federation": federation,
            "sex": sex,
            "title": title,
            LICHESS.key: lichess,
            CHESSCOM.key: chesscom,
        },
        warnings,
    )
    fields.setdefault("fide_id", None)
    _check_seed(seed, external)
    _check_age(fields["name"], fields["birth_year"], None, seed is not None)
    _check_fide_id_free(db, fields["fide_id"], None)
    for column in ACCOUNTS:
        if fields[column] is not None:
            _check_account_free(db, column, fields[column], None)
    check_name_free(db, fields["name"], force=force)
    player = PlayerRow(id=0, external=external, **fields)
    player = player._replace(id=q.insert_player(db, player))
    seeds = () if seed is None else (seed_row(seed),)
    for s in seeds:
        q.insert_seed(db, stored_seed(player.id, s))
    seeded = f", seeded {seeds[0].rating} after {seeds[0].games} games" if seeds else ""
    kind = "external" if external else "tracked"
    log.note(
        db, "added", f"player #{player.id} {player.name} ({kind}{seeded})", players=[player.id]
    )
    # a new player has no games: nothing goes stale, and a seed puts him on the lists as it
    # is (his seed's line on each of them)
    if seeds and not external and restore_lists:
        lists.restore_players(db, [player.id])
    return player_view(player, seeds, others=q.namesake_ids(db, player.name, player.id))._replace(
        warnings=tuple(warnings)
    )


def list_players(db: Db, *, external: bool | None = None) -> tuple[PlayerView, ...]:
    seeds: dict[int, list[Seed]] = {}
    for seed in q.all_seeds(db):
        seeds.setdefault(seed.player_id, []).append(seed_of(seed))
    earlier: dict[int, list[q.EarlierList]] = {}
    for pid, entry in q.all_earlier_lists(db):
        earlier.setdefault(pid, []).append(entry)
    return tuple(
        player_view(
            listed.player,
            tuple(seeds.get(listed.player.id, ())),
            listed.games,
            earlier=tuple(earlier.get(listed.player.id, ())),
        )
        for listed in q.listed_players(db, external)
    )


def edit_player(
    db: Db,
    ref: str,
    *,
    changes: dict[str, Any],
    seed: Seed | None = None,
    clear: tuple[str, ...] = (),
    force: bool = False,
    restore_lists: bool = True,
) -> PlayerView:
    """Change the given fields; ``clear`` names optional fields to empty (e.g. ``fide_id``).

    A new name another player has, or nearly has, needs ``force``; ``restore_lists``: as
    :func:`add_player`'s."""
    player = find(db, ref)
    seeds = seeds_of(db, player.id)
    warnings: list[str] = []
    fields = _clean_fields({k: v for k, v in changes.items() if v is not None}, warnings)
    before = frozenset(map(_seed_state, seeds))
    external = fields.pop("external", player.external)
    _check_edit(db, player, fields, clear, seed, seeds=bool(seeds), external=external, force=force)
    relinked = _relinked(db, player, fields, clear)
    # What is cleared first, then what is given (a field both cleared and given is given).
    values: dict[str, Any] = dict.fromkeys(clear)
    values.update(fields, external=external)
    edited = player._replace(**values)
    if edited != player:
        q.update_player(db, edited)
    seeds = _store_seed(db, player.id, seed, seeds, before)
    seeds_changed = frozenset(map(_seed_state, seeds)) != before
    others = q.namesake_ids(db, edited.name, player.id)
    played = q.player_game_count(db, player.id)
    view = player_view(edited, seeds, played, others)
    if edited == player and not seeds_changed:
        return view._replace(changed=False, warnings=tuple(warnings))
    for column in relinked:
        # The stored points belonged to the account that was linked before.
        q.delete_online_ratings(db, player.id, column)
    what = [
        name.replace("_", " ")
        for name in PlayerRow._fields
        if getattr(player, name) != getattr(edited, name)
    ]
    what += [
        f"{s.tc} seed {s.rating} after {s.games} games"
        for s in seeds
        if _seed_state(s) not in before
    ]
    log.note(
        db, "changed", f"player #{player.id} {edited.name}: {', '.join(what)}", players=[player.id]
    )
    stale: tuple[tuple[TimeControl, tuple[dt.date, ...]], ...] = ()
    rating_inputs = (player.birth_year, player.external)
    if seeds_changed or (edited.birth_year, edited.external) != rating_inputs:
        if restore_lists:  # (else the caller restores them, for many players at once)
            lists.restore_players(db, [player.id])  # his lines carried over or seeded
        if played:
            stale = mark_all_stale(db)  # a player without games is in no closed period's rows
    return view._replace(stale=stale, warnings=tuple(warnings))


def _check_edit(
    db: Db,
    player: PlayerRow,
    fields: dict[str, Any],
    clear: tuple[str, ...],
    seed: Seed | None,
    *,
    seeds: bool,
    external: bool,
    force: bool,
) -> None:
    """Refuse an edit that would leave the player wrong: a name taken, an external player
    with a seed, an age his games or seed contradict, a FIDE id another player has."""
    if "name" in fields and fields["name"] != player.name:
        check_name_free(db, fields["name"], player_id=player.id, force=force)
    if external and not player.external and seeds and seed is None:
        raise InvalidInputError(
            f"{player.name} has a seeded rating; an external player cannot keep one"
        )
    _check_seed(seed, external)
    born = None if "birth_year" in clear else fields.get("birth_year", player.birth_year)
    if (born is not None and born != player.birth_year) or seed is not None:
        first = q.first_game_day(db, player.id)
        _check_age(player.name, born, first, seed is not None or (seeds and not external))
    if "fide_id" in fields:
        _check_fide_id_free(db, fields["fide_id"], player.id)


def _relinked(
    db: Db, player: PlayerRow, fields: dict[str, Any], clear: tuple[str, ...]
) -> list[str]:
    """The online accounts the edit links anew or unlinks (a new one refused if another
    player has it)."""
    relinked = []
    for column in ACCOUNTS:
        old = getattr(player, column)
        new = None if column in clear else fields.get(column, old)
        if new is not None and column in fields:
            _check_account_free(db, column, new, player.id)
        if (old or "").lower() != (new or "").lower():
            relinked.append(column)
    return relinked


def _store_seed(
    db: Db,
    player_id: int,
    seed: Seed | None,
    seeds: tuple[Seed, ...],
    before: frozenset[tuple[Any, ...]],
) -> tuple[Seed, ...]:
    """The player's seeds once a new one is stored: it replaces the time control's old one,
    and comes after the others (the same state again changes nothing)."""
    new_seed = None if seed is None else seed_row(seed)
    if new_seed is None or _seed_state(new_seed) in before:
        return seeds
    q.delete_seed(db, player_id, new_seed.tc)
    q.insert_seed(db, stored_seed(player_id, new_seed))
    return (*(s for s in seeds if s.tc != new_seed.tc), new_seed)


def seed_player(
    db: Db,
    ref: str,
    *,
    tc: TimeControl,
    rating: int | None,
    games: int | None = None,
    ever_2400: bool = False,
    ever_2300: bool = False,
    list_date: dt.date | None = None,
    clear: bool = False,
) -> PlayerView:
    """Give a tracked player's FIDE state before tracking starts (``player seed``).

    Without ``list_date``: his seed, the state on the list in force when tracking starts (the
    rating, the rated games, the sticky flags). With it: his rating on an earlier list of
    FIDE's, the one an event that started while it was in force is rated with (FIDE Rating
    Regulations §8.3 as FIDE's calculations apply it; Title Regulations §1.4.6a): a July open
    that ends in August is rated with the July list, not with the seed (``clear`` removes it). A
    list tracker published itself (its period is closed) is tracker's: an earlier list comes
    before. Changed values mark every closed period stale, as a seed does; the same values again
    change nothing."""
    player = find(db, ref)
    if player.external:
        raise InvalidInputError(
            f"{player.name} is external: their rating comes from each game, not from a seed"
        )
    if list_date is None:
        if clear:
            raise InvalidInputError("--clear removes an earlier list's rating: give --list MONTH")
        if rating is None or games is None:
            raise InvalidInputError(
                "a seed is a rating and its rated games: give --rating and --games"
            )
        return edit_player(
            db, f"#{player.id}", changes={}, seed=Seed(rating, games, ever_2400, ever_2300, tc)
        )
    if games is not None or ever_2400 or ever_2300:
        raise InvalidInputError(
            "an earlier list gives the rating only: --games, --ever-2400 and --ever-2300 "
            "describe the seed (leave out --list)"
        )
    _check_earlier_list(db, player, tc, list_date)
    before = {(e.tc, e.list_date): e.rating for e in q.earlier_lists_of(db, player.id)}
    if clear:
        changed = q.delete_earlier_list(db, player.id, tc, list_date) > 0
        if not changed:
            raise InvalidInputError(
                f"{player.name} has no {tc} rating on the {month_label(list_date)} list to clear"
            )
    else:
        if rating is None:
            raise InvalidInputError("give the player's rating on that list: --rating RATING")
        check_plausible_rating(rating, "rating")
        changed = before.get((tc, list_date)) != rating
        if changed:
            q.put_earlier_list(db, player.id, q.EarlierList(tc, list_date, rating))
    view = show_player(db, f"#{player.id}")
    if not changed:
        return view._replace(changed=False)
    shown = "no rating" if clear else str(rating)
    log.note(
        db,
        "cleared" if clear else "set",
        f"player #{player.id} {player.name}: {shown} on the {month_label(list_date)} {tc} list",
        players=[player.id],
    )
    return view._replace(stale=mark_all_stale(db) if q.player_game_count(db, player.id) else ())


def _check_earlier_list(db: Db, player: PlayerRow, tc: TimeControl, list_date: dt.date) -> None:
    """An earlier list goes with a seed of its time control, and is one FIDE published before
    tracker's own lists (:func:`tracker.services.lists.earlier_list_problem`)."""
    if not any(s.tc == tc for s in seeds_of(db, player.id)):
        raise InvalidInputError(
            f"{player.name} has no {tc} seed: an earlier list goes with one (give it first: "
            f"tracker player seed id:{player.id} --rating R --games N)"
        )
    problem = lists.earlier_list_problem(db, tc, list_date, today())
    if problem is not None:
        raise InvalidInputError(problem)


def _seed_state(seed: Seed) -> tuple[Any, ...]:
    """A seed, to tell whether an edit changed a player's seeds (a set of them)."""
    return (seed.tc, seed.rating, seed.games, bool(seed.ever_2400), bool(seed.ever_2300))


def _check_age(name: str, born: int | None, first_game: dt.date | None, seeded: bool) -> None:
    """The intake's age rule (tracker.services.intake.age_problem) for a birth year: against
    the player's first game, and for a seeded player against this year (a seed is the
    rating he holds now)."""
    checks = [(first_game.year, "a game")] if first_game is not None else []
    if seeded:
        checks.append((today().year, "a FIDE rating"))
    for year, what in checks:
        if (problem := age_problem(year, born, name, what)) is not None:
            raise InvalidInputError(f"{problem}: check the birth year")


def remove_player(db: Db, ref: str) -> PlayerView:
    """Remove a player who has no games (refused while games reference them)."""
    player = find(db, ref)
    count = q.player_game_count(db, player.id)
    if count:
        raise ConflictError(
            f"{player.name} (#{player.id}) plays in {count} game(s); remove those games first"
        )
    byes = q.bye_count(db, player.id)
    if byes:
        raise ConflictError(
            f"{player.name} (#{player.id}) has {byes} bye(s); remove those first "
            "(`tracker game remove-bye`)"
        )
    result = player_view(player, seeds_of(db, player.id))
    lists.restore_players(db, [player.id], leaving=True)  # a seeded player leaves the lists
    q.delete_player(db, player.id)
    log.note(db, "removed", f"player #{player.id} {player.name}", players=[player.id])
    return result
