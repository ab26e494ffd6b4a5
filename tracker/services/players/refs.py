"""Finding the player a user means, and what ``player show`` shows of him: plain reads
(:mod:`tracker.db.driver`), for the everyday commands and for every service that resolves a
player (:func:`find`)."""

import datetime as dt
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import players as queries
from tracker.db.queries.players import EarlierList, PlayerRow, SeedRow, earlier_lists_of
from tracker.errors import AmbiguousError, NotFoundError, quoted
from tracker.vocabulary import TimeControl, name_form

if TYPE_CHECKING:
    from tracker.ratings.fide.records import Seed


class PlayerView(NamedTuple):
    id: int
    name: str
    fide_id: int | None
    federation: str | None
    birth_year: int | None
    sex: str | None
    title: str | None
    external: bool
    seeds: "tuple[Seed, ...]"
    games: int = 0
    earlier_lists: tuple[EarlierList, ...] = ()  # ratings on FIDE's lists before the seed's
    namesakes: tuple[int, ...] = ()
    lichess: str | None = None
    chesscom: str | None = None
    # What a change (player add / edit) did besides: whether anything differed, the closed
    # periods it made stale (by time control), what the intake's rules want known.
    changed: bool = True
    stale: tuple[tuple[TimeControl, tuple[dt.date, ...]], ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def ref(self) -> str:
        return f"#{self.id}"


#: ``id:12`` (or ``#12``, which a shell takes for a comment unless quoted): a player's id.
ID_PREFIXES = ("id:", "#")


def name_key(name: str) -> str:
    """A name as matching compares it: case and spacing (and what name_form drops) do not
    count."""
    return name_form(name).casefold()


def _loose_key(name: str) -> str:
    """Case, spacing and commas do not count ("hart daniel" for "Hart, Daniel")."""
    return name_form(name.replace(",", " ")).casefold()


def _surname(name: str) -> str:
    """The part before the comma ("Hart, Daniel"), else the last word ("Daniel Hart")."""
    if "," in name:
        return name.split(",", 1)[0]
    words = name.split()
    return words[-1] if words else name


def id_ref(text: str) -> str | None:
    """The digits of ``id:12`` or ``#12``; None if ``text`` is neither form."""
    for prefix in ID_PREFIXES:
        if text[: len(prefix)].casefold() == prefix:
            return text[len(prefix) :].strip()
    return None


def find(db: Db, ref: str) -> PlayerRow:
    """A player from a reference, tried in this order: ``id:ID`` (or ``#ID``), a FIDE id, the
    exact name (an online user name may be a number: ``800``), the name in another case or
    spacing, a surname only one player has, and the start of only one player's name. Errors
    name the candidates or the closest names."""
    text = name_form(ref)  # as names are stored
    digits = id_ref(text)
    if digits is not None:
        by_id = (
            queries.player_by_id(db, int(digits))
            if digits.isascii() and digits.isdecimal() and len(digits) < 19
            else None
        )
        if by_id is None:
            raise NotFoundError(f"no player {text}")
        return by_id
    numeric = text.isascii() and text.isdecimal()
    if numeric and len(text) < 19:
        by_fide_id = queries.players_where(db, "fide_id", int(text))
        if by_fide_id:
            return by_fide_id[0]
    matches = queries.players_where(db, "name", text)  # a name may be a number: "800"
    if numeric and not matches:
        raise NotFoundError(f"no player with FIDE id or name {text}")
    if not matches:
        matches = queries.players_where(db, "lower(name)", text.lower())
    if not matches:
        matches = _partial_matches(db, text)
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        listed = ", ".join(_label(p) for p in matches[:10])
        more = f" and {len(matches) - 10} more" if len(matches) > 10 else ""
        raise AmbiguousError(
            f"{quoted(text)} matches {len(matches)} players: {listed}{more}; name one by id:ID"
        )
    raise NotFoundError(f"no player named {quoted(text)}{_closest(db, text)}")


def _partial_matches(db: Db, text: str) -> list[PlayerRow]:
    """The players whose name matches ``text`` in case and spacing only (SQL's lower() knows
    ASCII only), else whose surname is ``text``, else whose name starts with it."""
    wanted, loose = name_key(text), _loose_key(text)
    if not wanted:
        return []
    names = queries.all_names(db)
    tests: tuple[Callable[[str], bool], ...] = (
        lambda name: name_key(name) == wanted,
        lambda name: _loose_key(_surname(name)) == loose,
        lambda name: _loose_key(name).startswith(loose),
    )
    for test in tests:
        ids = [owner.id for owner in names if test(owner.name)]
        if ids:
            by_id = {p.id: p for p in queries.players_by_ids(db, ids)}
            return [by_id[pid] for pid in ids if pid in by_id]
    return []


def _label(player: PlayerRow) -> str:
    fide = f", FIDE {player.fide_id}" if player.fide_id else ""
    return f'"{player.name}" (id:{player.id}{fide})'


#: How German (and Nordic) letters are written without them: ``Mueller`` for Müller.
_SPELT_OUT = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa"}
)


def spellings(name: str) -> tuple[str, ...]:
    """The ways a name may be typed without its letters: accents dropped (``Muller``) and
    umlauts spelt out (``Mueller``), without case, spacing or commas."""
    key = _loose_key(name)
    plain = "".join(c for c in unicodedata.normalize("NFKD", key) if not unicodedata.combining(c))
    return tuple(dict.fromkeys((plain, key.translate(_SPELT_OUT))))


def _closest(db: Db, text: str) -> str:
    """The closest names, each in double quotes (a name has commas of its own): by their
    letters, by the start of one of their spellings, by a word of the text in them."""
    import difflib  # only when a name is not found

    names = queries.distinct_names(db)
    typed = spellings(text)[0]
    spelt = {s: n for n in names for s in spellings(n)}
    close = [spelt[c] for c in difflib.get_close_matches(typed, list(spelt), n=3, cutoff=0.6)]
    words = [w for w in typed.split() if len(w) > 2]
    for spelling, name in spelt.items():
        if len(close) >= 3:
            break
        if name not in close and (spelling.startswith(typed) or any(w in spelling for w in words)):
            close.append(name)
    if not close:
        return " (no similar names; see `tracker player list`)"
    return "; did you mean " + " or ".join(f'"{c}"' for c in dict.fromkeys(close)) + "?"


def seed_of(row: SeedRow) -> "Seed":
    """A stored seed as a player's view shows it."""
    from tracker.ratings.fide.records import Seed  # the FIDE records load with a player's card

    return Seed(row.rating, row.games, row.ever_2400, row.ever_2300, row.tc)


def stored_seed(player_id: int, seed: "Seed") -> SeedRow:
    """A player's seed as its row stores it (:func:`seed_of` the other way)."""
    return SeedRow(player_id, seed.tc, seed.rating, seed.games, seed.ever_2400, seed.ever_2300)


def seeds_of(db: Db, player_id: int) -> "tuple[Seed, ...]":
    """The player's seeds, by time control."""
    return tuple(map(seed_of, queries.seeds_of(db, player_id)))


def player_view(
    player: PlayerRow,
    seeds: "tuple[Seed, ...]",
    games: int = 0,
    others: tuple[int, ...] = (),
    earlier: tuple[EarlierList, ...] = (),
) -> PlayerView:
    return PlayerView(
        **player._asdict(), seeds=seeds, games=games, earlier_lists=earlier, namesakes=others
    )


def show_player(db: Db, ref: str) -> PlayerView:
    """The player, his seeds, his number of games and his namesakes."""
    player = find(db, ref)
    return player_view(
        player,
        seeds_of(db, player.id),
        queries.player_game_count(db, player.id),
        queries.namesake_ids(db, player.name, player.id),
        tuple(earlier_lists_of(db, player.id)),
    )
