"""The shadow rating as a fold over a month's games: pure, deterministic, no I/O.

Online platforms rate every game, so every played game (forfeits excluded) of a tracked
player moves his shadow rating, in date order with ties in the order the games were
entered. External opponents have no shadow state: the caller passes their recorded rating
with a fixed RD.

- Per-game presets (``lichess``, ``chesscom``): before a game each player's RD grows for the
  days since his previous game (none before his first game); both players are then rated
  from their pre-game values (lila ``PerfsUpdater``; Glickman's Glicko-1 per game).
- Monthly presets (``glickman``): the month is one rating period, every opponent counted at
  his value before the month (Glickman 2013, steps 1-8); players without games get step 6.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tracker.ratings import glicko
from tracker.ratings.glicko import GlickoPreset, GlickoState


class ShadowPlayer(NamedTuple):
    """A tracked player's shadow: his state after his last game, and that game's date (a
    named tuple, as :class:`GameUpdate`: a month's close makes two of each per game)."""

    state: GlickoState
    last_played: dt.date | None
    games: int = 0


@dataclass(frozen=True)
class ShadowGame:
    """One played game. A side is a tracked player's id, or None with a fixed state given."""

    game_id: int
    played_on: dt.date
    white: int | None
    black: int | None
    white_score: float
    white_fixed: GlickoState | None = None
    black_fixed: GlickoState | None = None


class GameUpdate(NamedTuple):
    """A tracked player's state right after a game, and the prediction made before it."""

    game_id: int
    player_id: int
    after: ShadowPlayer
    expected: float


NewPlayer = Callable[[int, dt.date], GlickoState]


def _side(
    pid: int | None,
    fixed: GlickoState | None,
    players: Mapping[int, ShadowPlayer],
    day: dt.date,
    preset: GlickoPreset,
    new_player: NewPlayer,
) -> tuple[GlickoState, ShadowPlayer | None]:
    """The pre-game state of one side, with idle RD growth since his previous game."""
    if pid is None:
        assert fixed is not None, "an external side needs a fixed state"
        return fixed, None
    current = players.get(pid)
    if current is None:
        current = ShadowPlayer(new_player(pid, day), None, 0)
    state = current.state
    if current.last_played is not None and preset.period == "game":
        state = glicko.idle(state, preset, days=(day - current.last_played).days)
    return state, current


def rate_month(
    players: Mapping[int, ShadowPlayer],
    games: Sequence[ShadowGame],
    preset: GlickoPreset,
    new_player: NewPlayer,
) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
    """Fold one month's games (in order) into the players' shadows.

    Returns every player's shadow after the month (players without games unchanged for
    per-game presets; after step 6 for monthly ones) and, per game and tracked side, the
    state after the game with the expected score computed before it.
    """
    ordered = sorted(games, key=lambda g: (g.played_on, g.game_id))
    if preset.period == "month":
        return _rate_period(players, ordered, preset, new_player)
    out = dict(players)
    updates: list[GameUpdate] = []
    rate_game, expected_score = glicko.rate_game, glicko.expected_score
    for g in ordered:
        day = g.played_on
        white, w_now = _side(g.white, g.white_fixed, out, day, preset, new_player)
        black, b_now = _side(g.black, g.black_fixed, out, day, preset, new_player)
        if g.white is not None and w_now is not None:
            after = ShadowPlayer(
                rate_game(white, black, g.white_score, preset), day, w_now.games + 1
            )
            updates.append(
                GameUpdate(g.game_id, g.white, after, expected_score(white, black, preset))
            )
            out[g.white] = after
        if g.black is not None and b_now is not None:
            after = ShadowPlayer(
                rate_game(black, white, 1.0 - g.white_score, preset), day, b_now.games + 1
            )
            updates.append(
                GameUpdate(g.game_id, g.black, after, expected_score(black, white, preset))
            )
            out[g.black] = after
    return out, updates


def _rate_period(
    players: Mapping[int, ShadowPlayer],
    games: Sequence[ShadowGame],
    preset: GlickoPreset,
    new_player: NewPlayer,
) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
    before = dict(players)
    results: dict[int, list[tuple[GlickoState, float]]] = {}
    last: dict[int, dt.date] = {}
    updates: list[tuple[int, int, float]] = []
    for g in games:
        white, _ = _side(g.white, g.white_fixed, before, g.played_on, preset, new_player)
        black, _ = _side(g.black, g.black_fixed, before, g.played_on, preset, new_player)
        for pid, me, opp, score in (
            (g.white, white, black, g.white_score),
            (g.black, black, white, 1.0 - g.white_score),
        ):
            if pid is None:
                continue
            if pid not in before:
                before[pid] = ShadowPlayer(me, None, 0)
            results.setdefault(pid, []).append((opp, score))
            last[pid] = g.played_on
            updates.append((g.game_id, pid, glicko.expected_score(me, opp, preset)))
    out: dict[int, ShadowPlayer] = {}
    for pid, current in before.items():
        mine = results.get(pid, [])
        state = glicko.rate_period(current.state, mine, preset)
        out[pid] = ShadowPlayer(
            state, last.get(pid, current.last_played), current.games + len(mine)
        )
    return out, [GameUpdate(gid, pid, out[pid], p) for gid, pid, p in updates]


def as_of(player: ShadowPlayer, day: dt.date, preset: GlickoPreset) -> GlickoState:
    """The state a platform would show on ``day``: with idle RD growth for per-game presets."""
    if preset.period != "game" or player.last_played is None or day <= player.last_played:
        return player.state
    return glicko.idle(player.state, preset, days=(day - player.last_played).days)
