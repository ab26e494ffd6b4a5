"""Head to head (tracker.services.h2h): two players' games and score, and one player's score
against each opponent. The command end to end is in tests/cli/test_h2h.py."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.helpers import Services, day, external, game, unrated
from tracker.errors import InvalidInputError
from tracker.services import h2h

D = Decimal


@pytest.fixture
def rivals(db: Services) -> Services:
    with db.transaction() as s:
        unrated(s, "Hart")
        unrated(s, "Sato")
        external(s, "Guest")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Sato", "Hart", "1/2-1/2", "2026-01-12")
        game(s, "Sato", "Hart", "1-0", "2026-02-02", tc="rapid")
        game(s, "Hart", "Sato", "+-", "2026-02-09")  # a forfeit: no meeting
        game(s, "Guest", "Hart", "0-1", "2026-03-01")
    return db


def test_two_players_games_and_score(rivals: Services) -> None:
    out = rivals(h2h.head_to_head, "Hart", "Sato")
    assert (out.a, out.b, out.tc) == ("Hart", "Sato", None)
    assert [(g.colour, g.result, g.score) for g in out.games] == [
        ("white", "1-0", D(1)),
        ("black", "1/2-1/2", D("0.5")),
        ("black", "1-0", D(0)),
        ("white", "+-", None),
    ]
    t = out.total
    assert (t.games, t.wins, t.draws, t.losses, t.score, t.against) == (
        3,
        1,
        1,
        1,
        D("1.5"),
        D("1.5"),
    )
    assert dict(out.by_colour)["white"].score == D(1)
    assert dict(out.by_colour)["black"].games == 2
    assert {tc: t.games for tc, t in out.by_tc} == {"standard": 2, "rapid": 1, "blitz": 0}
    assert out.forfeits == 1
    assert out.first is not None and out.first.played_on == day("2026-01-05")
    assert out.last is not None and out.last.played_on == day("2026-02-02")  # not the forfeit
    standard = rivals(h2h.head_to_head, "Sato", "Hart", "standard")
    assert (standard.total.games, standard.total.score) == (2, D("0.5"))
    assert [tc for tc, _ in standard.by_tc] == ["standard"]


def test_a_player_against_himself_is_refused(rivals: Services) -> None:
    with pytest.raises(InvalidInputError, match="Hart twice: name two different players"):
        rivals(h2h.head_to_head, "Hart", "hart")


def test_one_players_score_against_each_opponent(rivals: Services) -> None:
    out = rivals(h2h.opponents, "Hart")
    lines = [(line.name, line.total.games, line.total.score, line.forfeits) for line in out.lines]
    assert lines == [("Sato", 3, D("1.5"), 1), ("Guest", 1, D(1), 0)]  # most games first
    assert (out.total.games, out.total.score) == (4, D("2.5"))
    assert out.lines[1].last == day("2026-03-01")
    rapid = rivals(h2h.opponents, "Hart", "rapid")
    assert [(line.name, line.total.score) for line in rapid.lines] == [("Sato", D(0))]
