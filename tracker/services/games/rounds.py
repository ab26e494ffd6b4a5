"""``tracker game add-round``: one round of an event in one command, all or nothing."""

import datetime as dt
from collections.abc import Sequence
from typing import NamedTuple

from tracker.db.driver import Db
from tracker.errors import InvalidInputError, TrackerError
from tracker.importers.records import Problem
from tracker.importers.rounds import Pairing
from tracker.services.games import GameView, add_game, game_tc
from tracker.services.games.byes import ByeView, add_bye
from tracker.services.intake import clean_round
from tracker.services.intake.checks import date_bounds
from tracker.services.players.refs import find
from tracker.vocabulary import TimeControl


class Round(NamedTuple):
    """What a round added: its games and its byes."""

    games: tuple[GameView, ...]
    byes: tuple[ByeView, ...]


def add_round(
    db: Db,
    *,
    event: str,
    played_on: dt.date,
    round_: str,
    pairings: Sequence[Pairing],
    tc: TimeControl | None = None,
    problems: Sequence[Problem] = (),
    source: str = "stdin",
    today: dt.date | None = None,
    yes: bool = False,
    again: bool = False,
) -> Round:
    """Record one round of an event, all or nothing: every game is checked as ``game add``
    checks it, and also that nobody plays twice in the round. ``problems`` are the lines the
    caller could not read (from ``source``); with any problem at all, the error lists them all
    (its ``problems``), as ``SOURCE:LINE: reason`` (the caller's transaction then writes
    nothing)."""
    if today is not None:
        date_bounds(db, today).check(played_on, yes=yes)
    tc = game_tc(db, tc, event)
    round_text = clean_round(round_)
    if round_text is None:
        raise InvalidInputError("a round needs a number (--round N)")
    found: list[tuple[int, str]] = [(p.line, str(p)) for p in problems]
    seen: dict[int, int] = {}
    added: list[GameView] = []
    byes: list[ByeView] = []
    for pairing in pairings:
        where = f"{source}:{pairing.line}: "
        try:
            white = find(db, pairing.white)  # a bye's player is its white (Pairing)
            black = white if pairing.bye is not None else find(db, pairing.black)
            for player in (white, black):
                # (a player paired with himself: add_game says so)
                if player.id in seen and (white.id != black.id or pairing.bye is not None):
                    raise InvalidInputError(
                        f"{player.name} already plays in line {seen[player.id]} of this round"
                    )
            if pairing.bye is not None:
                byes.append(
                    add_bye(
                        db,
                        player=pairing.white,
                        code=pairing.bye,
                        event=event,
                        round_=round_text,
                        played_on=played_on,
                        tc=tc,
                        playing=white,
                    )
                )
            else:
                added.append(
                    add_game(
                        db,
                        white=f"id:{white.id}",
                        black=f"id:{black.id}",
                        result=pairing.result,
                        played_on=played_on,
                        tc=tc,
                        event=event,
                        round_=round_text,
                        white_rating=pairing.white_rating,
                        black_rating=pairing.black_rating,
                        again=again,
                        yes=yes,
                    )
                )
            seen.setdefault(white.id, pairing.line)
            seen.setdefault(black.id, pairing.line)
        except TrackerError as exc:
            found.append((pairing.line, f"{where}{exc}"))
    if not pairings and not problems:
        raise InvalidInputError(
            "no games given: one line per game, WHITE RESULT BLACK (or PLAYER bye)"
        )
    if found:
        lines = len({line for line, _ in found})
        total = len(pairings) + len({p.line for p in problems})
        raise InvalidInputError(
            f"round {round_text} of {event!r} not added: {lines} of {total} line(s) have "
            "problems; nothing was written",
            [text for _, text in sorted(found)],
        )
    return Round(tuple(added), tuple(byes))
