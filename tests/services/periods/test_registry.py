"""The rating systems registered (tracker.services.periods.registry): the official list
first, the shadow after it; the readers' columns come from the systems after the first."""

from __future__ import annotations

import pytest

from tracker.services.periods import registry


def test_the_registered_systems_in_order() -> None:
    assert [s.name for s in registry.SYSTEMS] == ["fide", "shadow"]
    assert registry.system("fide") is registry.OFFICIAL
    assert registry.system("shadow") is registry.SYSTEMS[1]
    assert registry.beside() == [registry.SYSTEMS[1]]
    assert registry.others() == []  # the shadow is read by its name, not as columns
    with pytest.raises(LookupError, match="no rating system 'elo' is registered"):
        registry.system("elo")
