"""The club's site (tracker.services.site): its configuration, and what a build reads: the
lists, players and events. The pages themselves are in tests/cli/test_site*.py."""

from __future__ import annotations

import pytest

from tests.helpers import TODAY, Services, close, day, game, seeded, unrated
from tracker.errors import InvalidInputError
from tracker.services import site

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


def test_logo_type_from_the_bytes() -> None:
    assert site.logo_type(PNG, "logo.jpg") == "png"  # the bytes, not the name
    assert site.logo_type(b"RIFF\0\0\0\0WEBPVP8 ", "a") == "webp"
    assert site.logo_type(b'  <?xml version="1.0"?><svg xmlns="x"/>', "a") == "svg"
    with pytest.raises(InvalidInputError, match=r"notes\.txt is no image a page shows"):
        site.logo_type(b"hello", "notes.txt")


def test_the_configuration_checked_stored_and_changed_only_when_it_differs(db: Services) -> None:
    default = db(site.site_config)
    assert (default.title, default.about, default.logo) == (site.DEFAULT_TITLE, None, None)
    config, changed = db(
        site.set_site_config, title="  Riverside CC ", url="https://riverside.example",
        logo=(PNG, "logo.png"),
    )  # fmt: skip
    assert changed and (config.title, config.url, config.logo_type) == (
        "Riverside CC", "https://riverside.example", "png",
    )  # fmt: skip
    assert db(site.site_config) == config
    assert db(site.set_site_config, title="Riverside CC") == (config, False)
    cleared, changed = db(site.set_site_config, url="", no_logo=True)
    assert changed and (cleared.url, cleared.logo, cleared.title) == (None, None, "Riverside CC")
    with pytest.raises(InvalidInputError, match="the title is blank"):
        db(site.set_site_config, title="  ")
    with pytest.raises(InvalidInputError, match="is no web address"):
        db(site.set_site_config, url="riverside.example")
    with pytest.raises(InvalidInputError, match="--logo FILE or --no-logo, not both"):
        db(site.set_site_config, logo=(PNG, "logo.png"), no_logo=True)


def test_what_a_build_reads(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        unrated(s, "New")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Sato", "Hart", "1-0", "2026-02-05", tc="rapid")
    db(close, "2026-01")
    out = db(site.site, None, TODAY)
    assert out.tcs == ("standard", "rapid", "blitz")
    assert [sl.tc for sl in out.lists] == ["standard"]  # rapid has no closed period
    (standard,) = out.lists
    ranks = [(e.name, e.rating) for e in standard.rating_list.entries]
    assert ranks == [("Hart", 2010), ("Sato", 1990)]
    hart = standard.rating_list.entries[0].player_id
    assert standard.changes[hart] == 10
    assert [p.name for p in out.players] == ["Hart", "Sato", "New"]
    assert [e.name for e in out.events] == ["Winter Cup"]
    assert out.last_game == day("2026-02-05")
    assert [(p.tc, p.list_date, p.stale) for p in out.published] == [
        ("standard", day("2026-02-01"), False)
    ]
    assert db(site.site, "rapid", TODAY).lists == ()
