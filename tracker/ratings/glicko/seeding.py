"""The starting RD of a shadow seeded from a rating earned elsewhere (a FIDE Elo).

A player who arrives with a FIDE rating after N rated games is not a new online account: his
rating is already backed by N games. :func:`seed_rd` turns N into the RD that N games of
average information would have given a new player of the preset, following Glickman's own
update of the deviation:

* Glicko-2 ("Example of the Glicko-2 system", 2013), step 4 and step 7 with phi* = phi (no
  time between the games): one game against an opponent of deviation phi_j carries
  ``1/v = g(phi_j)^2 E (1 - E)`` and the update is ``1/phi'^2 = 1/phi^2 + 1/v``. Information
  adds up, so N games from the new-player deviation phi_0 give
  ``1/phi_N^2 = 1/phi_0^2 + N g(phi_j)^2 E (1 - E)``.
* "Average information": an opponent of the player's own strength, E = 1/2, so
  ``E (1 - E) = 1/4`` (its largest value: a mismatch tells less), with the deviation tracker
  gives an opponent it knows only by his rating (the external RD, default 60).
* Back on the rating scale (RD = 173.7178 phi):
  ``1/RD_N^2 = 1/RD_0^2 + N g(RD_j/173.7178)^2 / (4 x 173.7178^2)``.
  Glicko-1 ("The Glicko system", step 2) gives the same number: there
  ``d^-2 = q^2 g(RD_j)^2 E (1 - E)`` per game with q = ln 10 / 400 = 1 / 173.7178.

The result is kept within the preset's RD bounds: at most the new-player RD (a seed is never
less certain than a new account) and at least the preset's floor, or Glickman's suggested
floor of 30 ("The Glicko system": a floor so that frequent players' ratings still move) for a
preset without one. With Lichess's parameters (RD 500, floor 45, opponents at RD 60) one game
gives 7.994e-6 of information; 22 games give RD 74.6, 41 games 54.9, and from 62 games on the
floor of 45 applies.

Left out on purpose: the games' dates (N games spread over ten years leave more doubt than N
games last season; the count is all a seed records) and the opponents' real strengths.

Pure code: standard library only, no I/O.
"""

from __future__ import annotations

import math
from typing import Final

from tracker.ratings.glicko.engine import SCALE, g
from tracker.ratings.glicko.presets import GlickoPreset

SEED_RD_FLOOR: Final = 30.0
"""The lowest seeded RD for a preset without an RD floor of its own (``glickman``):
Glickman's suggested floor ("The Glicko system")."""
AVERAGE_SCORE_VARIANCE: Final = 0.25
"""E (1 - E) for an evenly matched game, E = 1/2."""


def game_information(opponent_rd: float) -> float:
    """What one evenly matched game adds to 1/RD^2 (rating scale):
    ``g(RD_j / 173.7178)^2 / 4 / 173.7178^2`` (Glicko-2 steps 4 and 7; Glicko-1 step 2)."""
    if not (math.isfinite(opponent_rd) and opponent_rd > 0):
        raise ValueError(f"opponent RD must be positive and finite, got {opponent_rd}")
    weight = g(opponent_rd / SCALE)
    return weight * weight * AVERAGE_SCORE_VARIANCE / (SCALE * SCALE)


def seed_bounds(preset: GlickoPreset) -> tuple[float, float]:
    """(lowest, highest) RD a seeded shadow may start with under ``preset``."""
    high = preset.initial_rd if preset.rd_max is None else min(preset.initial_rd, preset.rd_max)
    low = SEED_RD_FLOOR if preset.rd_min is None else preset.rd_min
    return min(low, high), high


def bounded_seed_rd(preset: GlickoPreset, rd: float) -> float:
    """A chosen starting RD kept within :func:`seed_bounds`."""
    if not (math.isfinite(rd) and rd > 0):
        raise ValueError(f"RD must be positive and finite, got {rd}")
    low, high = seed_bounds(preset)
    return min(max(rd, low), high)


def seed_rd(preset: GlickoPreset, games: int, *, opponent_rd: float) -> float:
    """The RD of a player seeded after ``games`` rated games (see the module docstring):
    ``1/RD^2 = 1/RD_0^2 + games x game_information(opponent_rd)``, within the preset's
    bounds. 0 games give the new-player RD."""
    if games < 0:
        raise ValueError(f"games must not be negative, got {games}")
    start = preset.initial_rd
    information = 1.0 / (start * start) + games * game_information(opponent_rd)
    return bounded_seed_rd(preset, 1.0 / math.sqrt(information))
