"""Title norms of an event's players (tracker.services.norms), on the Arbiters' Manual's worked
example (Arbiters' Manual 2016, Spanish edition p. 183, example 3: an IM of Armenia in a
9-round Swiss). The same through ``event show --norms`` is in tests/cli/test_norms.py."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.helpers import NORM_FIELD, NORM_LAST, TODAY, Services, day, game
from tracker.db.driver import Db
from tracker.errors import InvalidInputError
from tracker.services.events.declare import Declaration, add_event
from tracker.services.norms import event_norms
from tracker.services.players import roster


def _play(
    s: Db, name: str, fed: str, title: str | None, rating: int, result: str, rnd: int
) -> None:
    roster.add_player(s, name=name, federation=fed, title=title, external=True)
    game(s, "Avetisyan, Aram", name, result, f"2026-07-0{rnd}", event="Yerevan Open",
         round_=str(rnd), black_rating=rating, yes=True)  # fmt: skip


@pytest.fixture
def open_(db: Services) -> Services:
    with db.transaction() as s:
        roster.add_player(s, name="Avetisyan, Aram", federation="ARM", title="IM")
        add_event(s, "Yerevan Open", Declaration(start=day("2026-07-01"), rounds=9))
        for rnd, entry in enumerate(NORM_FIELD, 1):
            _play(s, *entry, rnd)
    return db


def test_before_the_last_round(open_: Services) -> None:
    out = open_(event_norms, "Yerevan Open", today=TODAY)
    assert (out.event, out.list_date, out.rounds) == ("Yerevan Open", day("2026-07-01"), 9)
    (im,) = out.players  # the tracked players only
    assert (im.name, im.games, im.score, im.remaining) == ("Avetisyan, Aram", 8, Decimal("5.5"), 1)
    # not a woman: no WGM or WIM norm; an IM: no IM norm
    assert [r.norm for r in im.results] == ["GM"]
    assert im.achieved == ()
    assert [g.rating for g in im.played] == [r for *_, r, _ in NORM_FIELD]


@pytest.mark.parametrize(
    ("result", "rp", "achieved"), [("1/2-1/2", 2601, True), ("0-1", 2556, False)]
)
def test_after_the_last_round(open_: Services, result: str, rp: int, achieved: bool) -> None:
    with open_.transaction() as s:
        _play(s, *NORM_LAST, result, 9)
    (im,) = open_(event_norms, "Yerevan Open", today=TODAY).players
    (gm,) = im.results
    # §1.4.6c: the 2150 raised to the floor; Ra 2476
    assert (gm.games, gm.raised, gm.ra, gm.rp, gm.achieved) == (9, 2150, 2476, rp, achieved)
    assert im.remaining == 0
    assert im.achieved == (("GM",) if achieved else ())


def test_only_standard_events_and_players_who_played(open_: Services) -> None:
    with open_.transaction() as s:
        roster.add_player(s, name="Nobody")
    with pytest.raises(InvalidInputError, match="Nobody plays no game in Yerevan Open"):
        open_(event_norms, "Yerevan Open", player="Nobody", today=TODAY)
    with open_.transaction() as s:
        roster.add_player(s, name="Quick", external=True)
        game(s, "Avetisyan, Aram", "Quick", "1-0", "2026-07-10", tc="blitz", event="Blitz")
    with pytest.raises(InvalidInputError, match="Blitz has no standard games"):
        open_(event_norms, "Blitz", today=TODAY)
