"""Reading the stored shadow (tracker.services.shadow.reads): everyone's at a month's end (an
idle player's from his latest earlier row), one player's filled in for every closed month,
a preset replayed without storing it."""

from __future__ import annotations

import pytest

from tests.helpers import Services, close, game, month, seeded
from tracker.db.queries import shadow as queries
from tracker.services.shadow import reads
from tracker.services.shadow.config import ShadowConfig

JAN, FEB, MAR = month("2026-01"), month("2026-02"), month("2026-03")


@pytest.fixture
def months(db: Services) -> dict[str, int]:
    """Hart and Sato play in January, Hart and Berg in March; February has no games."""
    with db.transaction() as s:
        ids = {n: seeded(s, n, 2000).id for n in ("Hart", "Sato", "Berg")}
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
        game(s, "Berg", "Hart", "1-0", "2026-03-05")
    db(close, "2026-03")
    return ids


def test_everyones_shadow_at_a_months_end(db: Services, months: dict[str, int]) -> None:
    with db.transaction() as s:
        stored = {m: queries.month_ends_of_period(s, p) for p, m in
                  queries.closed_periods_from_latest(s, "standard", MAR)}  # fmt: skip
        everyone = reads.month_end_players(s, "standard", MAR)
        some = reads.month_end_players(s, "standard", MAR, only={months["Sato"], months["Berg"]})
        assert reads.month_end_players(s, "standard", MAR, only=set()) == {}
        at_feb = reads.month_end_players(s, "standard", FEB)
    assert stored[FEB] == {}  # nobody played: no row stored
    assert everyone[months["Sato"]] == stored[JAN][months["Sato"]]  # idle since January
    assert everyone[months["Hart"]] == stored[MAR][months["Hart"]]
    assert some == {p: everyone[p] for p in (months["Sato"], months["Berg"])}
    assert set(at_feb) == {months["Hart"], months["Sato"]}  # Berg has no shadow yet


def test_one_players_months_filled_in(db: Services, months: dict[str, int]) -> None:
    with db.transaction() as s:
        sato = queries.player_month_ends(s, "standard", months["Sato"])
    assert list(sato) == [JAN]
    filled = reads.fill_months(sato, [JAN, FEB, MAR])
    assert filled == {JAN: sato[JAN], FEB: sato[JAN], MAR: sato[JAN]}
    assert reads.fill_months(sato, [month("2025-12")]) == {}


def test_a_preset_replayed_without_storing_it(db: Services, months: dict[str, int]) -> None:
    with db.transaction() as s:
        stored = reads.month_end_players(s, "standard", MAR)
        replayed = list(reads.replay(s, "standard", ShadowConfig(), "lichess"))
        other = list(reads.replay(s, "standard", ShadowConfig(), "glickman"))
        rows = s.scalar("SELECT count(*) FROM glicko_history")
    assert [r.month for r in replayed] == [JAN, FEB, MAR]
    # the stored preset replayed gives the stored shadow
    last = replayed[-1].players
    for pid in (months["Hart"], months["Berg"]):
        assert last[pid].state.rating == pytest.approx(stored[pid].state.rating)
        assert last[pid].games == stored[pid].games
    assert len(replayed[0].updates) == 2 and replayed[1].updates == []  # a game: one a player
    assert other[-1].players[months["Hart"]].state.rating != last[months["Hart"]].state.rating
    with db.transaction() as s:
        assert s.scalar("SELECT count(*) FROM glicko_history") == rows  # nothing stored


@pytest.mark.parametrize("preset", ["lichess", "chesscom", "glickman"])
def test_a_whole_lists_readings_are_each_players_state_as_of_the_list(
    db: Services, months: dict[str, int], preset: str
) -> None:
    """``on_list`` works a whole list out on plain floats: the same readings as each
    player's state grown to the list date (``as_of``) and shown by the preset."""
    from tracker.ratings.shadow import as_of
    from tracker.services import shadow
    from tracker.services.shadow.config import get_config

    db(shadow.set_config, preset=preset)
    with db.transaction() as s:
        chosen = get_config(s).glicko_preset()
        for when in (FEB, MAR):
            listed = shadow.GlickoShadow().on_list(s, "standard", when)
            states = reads.month_end_players(s, "standard", when)
            day = month("2026-04") if when == MAR else MAR
            assert listed == {
                p: shadow._reading(as_of(player, day, chosen), chosen)
                for p, player in states.items()
            }
            assert listed  # Hart and Sato by February
    # the growth shows: Sato, idle since January, is less sure on April's list
    if preset != "glickman":
        assert listed[months["Sato"]].rd > states[months["Sato"]].state.rd
