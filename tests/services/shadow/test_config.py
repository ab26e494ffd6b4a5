"""The shadow's configuration (tracker.services.shadow.config): the defaults without stored
settings, the preset they make, a seed's first RD, the words a user types."""

from __future__ import annotations

import pytest

from tests.helpers import LICHESS, Services
from tracker.errors import InvalidInputError
from tracker.ratings.glicko.seeding import seed_rd
from tracker.services import shadow
from tracker.services.shadow import config


def test_the_defaults_without_stored_settings(db: Services) -> None:
    got = db(config.get_config)
    assert (got.preset, got.seed, got.external_rd, got.seed_rd) == ("lichess", "elo", 60.0, None)
    assert got.glicko_preset() == LICHESS
    assert got.glicko_preset("glickman").name == "glickman"
    chesscom = got.glicko_preset("chesscom")
    assert chesscom.initial_rating == got.chesscom_start


def test_stored_settings_are_read_back(db: Services) -> None:
    db(shadow.set_config, preset="glickman", external_rd=100.0, seed_rd="250")
    got = db(config.get_config)
    assert (got.preset, got.external_rd, got.seed_rd) == ("glickman", 100.0, 250.0)


def test_a_seeds_first_rd() -> None:
    auto = config.ShadowConfig()
    assert config.seed_rd_for(auto, LICHESS, 100) == seed_rd(LICHESS, 100, opponent_rd=60.0)
    assert config.seed_rd_for(auto, LICHESS, 0) > config.seed_rd_for(auto, LICHESS, 300)
    fixed = config.ShadowConfig(seed_rd=120.0)
    assert config.seed_rd_for(fixed, LICHESS, 0) == 120.0 == config.seed_rd_for(fixed, LICHESS, 300)


def test_the_words_a_user_types() -> None:
    assert config.parse_seed_rd(" AUTO ") is None
    assert config.parse_seed_rd("75") == 75.0
    for wrong in ("5", "600", "many", "nan"):
        with pytest.raises(InvalidInputError, match="use auto, or an RD between 10 and 500"):
            config.parse_seed_rd(wrong)
    assert config.check_preset("glickman") == "glickman"
    with pytest.raises(InvalidInputError, match="unknown preset 'elo'"):
        config.check_preset("elo")
