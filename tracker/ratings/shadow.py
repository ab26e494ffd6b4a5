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

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from tracker.ratings.glicko.api import GameRater, expected_score, idle, rate_period
from tracker.ratings.glicko.presets import GlickoPreset, GlickoState


class ShadowPlayer(NamedTuple):
    """A tracked player's shadow: his state after his last game, and that game's date (a
    named tuple, as :class:`GameUpdate`: a month's close makes two of each per game)."""

    state: GlickoState
    last_played: dt.date | None
    games: int = 0


class ShadowGame(NamedTuple):
    """One played game. A side is a tracked player's id, or None with a fixed state given
    (a named tuple: a month's close makes one per game)."""

    game_id: int
    played_on: dt.date
    white: int | None
    black: int | None
    white_score: float
    white_fixed: GlickoState | None = None
    black_fixed: GlickoState | None = None


class GameUpdate(NamedTuple):
    """A tracked player's state right after a game (``played_on``: the game's day, now his
    last; ``games``: his games so far), and the prediction made before it (None when it was
    not asked for: see :func:`rate_month`). Flat: a month's close makes one per game side."""

    game_id: int
    player_id: int
    rating: float
    rd: float
    volatility: float
    played_on: dt.date
    games: int
    expected: float | None

    @property
    def after(self) -> ShadowPlayer:
        """The player's shadow right after the game."""
        return ShadowPlayer(
            GlickoState(self.rating, self.rd, self.volatility), self.played_on, self.games
        )


NewPlayer = Callable[[int, dt.date], GlickoState]


def _side(
    pid: int | None,
    fixed: GlickoState | None,
    players: Mapping[int, ShadowPlayer],
    day: dt.date,
    new_player: NewPlayer,
) -> GlickoState:
    """The state one side of a game brings to a monthly period: an external side's fixed
    state, a tracked player's at the month's start (a new one's first)."""
    if pid is None:
        assert fixed is not None, "an external side needs a fixed state"
        return fixed
    current = players.get(pid)
    return new_player(pid, day) if current is None else current.state


def rate_month(
    players: Mapping[int, ShadowPlayer],
    games: Sequence[ShadowGame],
    preset: GlickoPreset,
    new_player: NewPlayer,
    *,
    predict: bool = True,
) -> tuple[dict[int, ShadowPlayer], list[GameUpdate]]:
    """Fold one month's games (in order) into the players' shadows.

    Returns every player's shadow after the month (players without games unchanged for
    per-game presets; after step 6 for monthly ones) and, per game and tracked side, the
    state after the game with the expected score computed before it (``predict``; without
    it, a per-game preset leaves ``expected`` None: a close stores no prediction).
    """
    ordered = sorted(games, key=lambda g: (g.played_on, g.game_id))
    if preset.period == "month":
        return _rate_period(players, ordered, preset, new_player)
    updates: list[GameUpdate] = []
    rater = GameRater(preset)
    rate, grown_rd = rater.rate, rater.grown_rd
    # Each player who has played this month: (rating, RD, volatility, last played, games),
    # plain values until the month's end (a state object a game side cost more than the
    # arithmetic around it).
    now: dict[int, tuple[float, float, float, dt.date | None, int]] = {}

    def before(
        pid: int | None, fixed: GlickoState | None, day: dt.date
    ) -> tuple[float, float, float, int]:
        """A side's pre-game rating, RD (grown for the days since his previous game: none
        before his first), volatility and games so far (-1: an external side)."""
        if pid is None:
            assert fixed is not None, "an external side needs a fixed state"
            return fixed.rating, fixed.rd, fixed.volatility, -1
        current = now.get(pid)
        if current is None:
            stored = players.get(pid)
            if stored is None:
                state = new_player(pid, day)
                return state.rating, state.rd, state.volatility, 0
            state = stored.state
            current = (state.rating, state.rd, state.volatility, *stored[1:])
        rating, rd, volatility, last, games = current
        if last is not None:
            rd = grown_rd(rd, volatility, (day - last).days)
        return rating, rd, volatility, games

    for g in ordered:
        day, white_id, black_id = g.played_on, g.white, g.black
        w_rating, w_rd, w_vol, w_games = before(white_id, g.white_fixed, day)
        b_rating, b_rd, b_vol, b_games = before(black_id, g.black_fixed, day)
        if predict:
            white = GlickoState(w_rating, w_rd, w_vol)
            black = GlickoState(b_rating, b_rd, b_vol)
        if white_id is not None:
            rating, rd, vol = rate(w_rating, w_rd, w_vol, b_rating, b_rd, g.white_score)
            expected = expected_score(white, black, preset) if predict else None
            updates.append(
                GameUpdate(g.game_id, white_id, rating, rd, vol, day, w_games + 1, expected)
            )
            now[white_id] = (rating, rd, vol, day, w_games + 1)
        if black_id is not None:
            rating, rd, vol = rate(b_rating, b_rd, b_vol, w_rating, w_rd, 1.0 - g.white_score)
            expected = expected_score(black, white, preset) if predict else None
            updates.append(
                GameUpdate(g.game_id, black_id, rating, rd, vol, day, b_games + 1, expected)
            )
            now[black_id] = (rating, rd, vol, day, b_games + 1)
    out = dict(players)
    for pid, (rating, rd, vol, last, played) in now.items():
        out[pid] = ShadowPlayer(GlickoState(rating, rd, vol), last, played)
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
        white = _side(g.white, g.white_fixed, before, g.played_on, new_player)
        black = _side(g.black, g.black_fixed, before, g.played_on, new_player)
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
            updates.append((g.game_id, pid, expected_score(me, opp, preset)))
    out: dict[int, ShadowPlayer] = {}
    for pid, current in before.items():
        mine = results.get(pid, [])
        state = rate_period(current.state, mine, preset)
        out[pid] = ShadowPlayer(
            state, last.get(pid, current.last_played), current.games + len(mine)
        )
    return out, [_update(gid, pid, out[pid], p) for gid, pid, p in updates]


def _update(game_id: int, pid: int, after: ShadowPlayer, expected: float | None) -> GameUpdate:
    state, last_played, games = after
    assert last_played is not None, "a player who played has a last game"
    return GameUpdate(
        game_id, pid, state.rating, state.rd, state.volatility, last_played, games, expected
    )


def as_of(player: ShadowPlayer, day: dt.date, preset: GlickoPreset) -> GlickoState:
    """The state a platform would show on ``day``: with idle RD growth for per-game presets."""
    days = idle_days(player.last_played, day, preset)
    return player.state if days is None else idle(player.state, preset, days=days)


def idle_days(last_played: dt.date | None, day: dt.date, preset: GlickoPreset) -> int | None:
    """The days an RD grows by from a player's last game to ``day`` (:func:`as_of`); None
    when it does not grow: a monthly preset, no game yet, or none before ``day``."""
    if preset.period != "game" or last_played is None or day <= last_played:
        return None
    return (day - last_played).days
