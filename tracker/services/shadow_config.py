"""How this database computes its shadow rating: the preset, the seeding of players who
come with an Elo, the external opponents' RD and the chesscom assumptions (the single
``shadow_settings`` row; defaults without it)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy.orm import Session

from tracker.db.models import ShadowSettings
from tracker.errors import InvalidInputError
from tracker.ratings import glicko
from tracker.ratings.glicko import GlickoPreset

SEEDS = ("elo", "fresh")
PRESET_NAMES = tuple(glicko.PRESETS)
SEED_RD_RANGE = (10.0, 500.0)
"""The fixed seed RDs ``shadow set --seed-rd N`` accepts."""


@dataclass(frozen=True)
class ShadowConfig:
    """How this database computes its shadow rating."""

    preset: str = glicko.DEFAULT_PRESET
    seed: str = "elo"
    external_rd: float = 60.0
    chesscom_start: float = glicko.CHESSCOM_START
    chesscom_c: float = glicko.CHESSCOM_C_PER_DAY
    chesscom_rd_min: float = glicko.CHESSCOM_RD_MIN
    chesscom_rd_max: float = glicko.CHESSCOM_RD_MAX
    seed_rd: float | None = None  # None: ``auto``, from the player's rated games

    def glicko_preset(self, name: str | None = None) -> GlickoPreset:
        chosen = name or self.preset
        if chosen == "chesscom":
            return glicko.chesscom_preset(
                start=self.chesscom_start,
                c=self.chesscom_c,
                rd_min=self.chesscom_rd_min,
                rd_max=self.chesscom_rd_max,
            )
        return glicko.get_preset(chosen)


def get_config(session: Session) -> ShadowConfig:
    row = session.get(ShadowSettings, 1)
    if row is None:
        return ShadowConfig()
    return ShadowConfig(
        row.preset,
        row.seed,
        row.external_rd,
        row.chesscom_start,
        row.chesscom_c,
        row.chesscom_rd_min,
        row.chesscom_rd_max,
        row.seed_rd,
    )


def seed_rd_for(config: ShadowConfig, preset: GlickoPreset, games: int) -> float:
    """The first RD of a player seeded after ``games`` rated games: ``auto``
    (:func:`tracker.ratings.glicko.seed_rd`, opponents at the external RD), or the fixed one,
    within the preset's bounds."""
    if config.seed_rd is not None:
        return glicko.bounded_seed_rd(preset, config.seed_rd)
    return glicko.seed_rd(preset, games, opponent_rd=config.external_rd)


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


def store_config(
    session: Session,
    *,
    preset: str | None = None,
    seed: str | None = None,
    external_rd: float | None = None,
    chesscom_start: float | None = None,
    chesscom_c: float | None = None,
    chesscom_rd_min: float | None = None,
    chesscom_rd_max: float | None = None,
    seed_rd: str | None = None,
) -> tuple[ShadowConfig, bool]:
    """Check and store a new configuration; whether it changed. (Recomputing the stored
    shadow is :func:`tracker.services.shadow.set_config`'s.)

    ``seed_rd``: ``"auto"`` or a number (see :func:`parse_seed_rd`); None leaves it as is."""
    current = get_config(session)
    if preset is not None:
        check_preset(preset)
    if seed is not None and seed not in SEEDS:
        raise InvalidInputError(f"unknown seeding {seed!r}: use elo or fresh")
    if external_rd is not None and not 10 <= external_rd <= 500:
        raise InvalidInputError(f"external RD {external_rd:g} is outside 10..500")
    if chesscom_start is not None and not 100 <= chesscom_start <= 3000:
        raise InvalidInputError(f"start rating {chesscom_start:g} is outside 100..3000")
    if chesscom_c is not None and not 0 <= chesscom_c <= 100:
        raise InvalidInputError(f"RD growth c {chesscom_c:g} is outside 0..100")
    new = ShadowConfig(
        preset or current.preset,
        seed or current.seed,
        current.external_rd if external_rd is None else external_rd,
        current.chesscom_start if chesscom_start is None else chesscom_start,
        current.chesscom_c if chesscom_c is None else chesscom_c,
        current.chesscom_rd_min if chesscom_rd_min is None else chesscom_rd_min,
        current.chesscom_rd_max if chesscom_rd_max is None else chesscom_rd_max,
        current.seed_rd if seed_rd is None else parse_seed_rd(seed_rd),
    )
    if not 1 <= new.chesscom_rd_min < new.chesscom_rd_max <= 1000:
        raise InvalidInputError(
            f"RD bounds {new.chesscom_rd_min:g}..{new.chesscom_rd_max:g} must satisfy "
            "1 <= minimum < maximum <= 1000"
        )
    if new == current:
        return current, False
    row = session.get(ShadowSettings, 1)
    if row is None:
        row = ShadowSettings(id=1)
        session.add(row)
    row.preset, row.seed = new.preset, new.seed
    row.external_rd, row.chesscom_start = new.external_rd, new.chesscom_start
    row.chesscom_c, row.chesscom_rd_min = new.chesscom_c, new.chesscom_rd_min
    row.chesscom_rd_max, row.seed_rd = new.chesscom_rd_max, new.seed_rd
    session.flush()
    return new, True
