"""How this database computes its shadow rating: the preset, the seeding of players who
come with an Elo, the external opponents' RD and the chesscom assumptions (the single
``shadow_settings`` row; defaults without it)."""

from __future__ import annotations

import math

from tracker.db.driver import Db
from tracker.db.queries import shadow as queries
from tracker.errors import InvalidInputError
from tracker.ratings.glicko.presets import (
    CHESSCOM_PRESET,
    PRESETS,
    GlickoPreset,
    chesscom_preset,
    get_preset,
)
from tracker.ratings.glicko.seeding import bounded_seed_rd, seed_rd

SEEDS = ("elo", "fresh")
PRESET_NAMES = tuple(PRESETS)
SEED_RD_RANGE = (10.0, 500.0)
"""The fixed seed RDs ``shadow set --seed-rd N`` accepts."""


class ShadowConfig(queries.Settings):
    """How this database computes its shadow rating: its stored settings (the defaults
    without them), and the Glicko preset they make."""

    def glicko_preset(self, name: str | None = None) -> GlickoPreset:
        chosen = name or self.preset
        if chosen == CHESSCOM_PRESET:
            return chesscom_preset(
                start=self.chesscom_start,
                c=self.chesscom_c,
                rd_min=self.chesscom_rd_min,
                rd_max=self.chesscom_rd_max,
            )
        return get_preset(chosen)


def get_config(db: Db) -> ShadowConfig:
    row = queries.settings(db)
    return ShadowConfig() if row is None else ShadowConfig(*row)


def seed_rd_for(config: ShadowConfig, preset: GlickoPreset, games: int) -> float:
    """The first RD of a player seeded after ``games`` rated games: ``auto``
    (:func:`tracker.ratings.glicko.seeding.seed_rd`, opponents at the external RD), or the
    fixed one, within the preset's bounds."""
    if config.seed_rd is not None:
        return bounded_seed_rd(preset, config.seed_rd)
    return seed_rd(preset, games, opponent_rd=config.external_rd)


def parse_seed_rd(text: str) -> float | None:
    """``auto`` (None) or a fixed RD in :data:`SEED_RD_RANGE`."""
    word = text.strip().lower()
    if word == "auto":
        return None
    try:
        value = float(word)
    except ValueError:
        value = math.nan
    low, high = SEED_RD_RANGE
    if not low <= value <= high:
        raise InvalidInputError(
            f"--seed-rd {text!r}: use auto, or an RD between {low:g} and {high:g}"
        )
    return value


def check_preset(name: str) -> str:
    if name not in PRESET_NAMES:
        raise InvalidInputError(f"unknown preset {name!r}: use {', '.join(PRESET_NAMES)}")
    return name
