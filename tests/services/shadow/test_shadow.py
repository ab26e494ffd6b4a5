"""The Glicko shadow on a real database, service by service: stored when a period closes,
seeded, recomputed by ``shadow set`` and ``rerate``, per time control.

Expected shadow values are computed by hand with the pure engine (tracker.ratings.glicko,
glicko1, fide, tested on their own), game by game in the order the issue prescribes:
seeding, idle growth since the previous game, external opponents at their recorded rating
with a fixed RD, and the list-date view (idle growth up to the first of the next month).
The CLI end to end (JSON, tables, messages, errors) is in tests/cli/test_shadow.py.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.helpers import (
    GLICKMAN,
    LICHESS,
    Services,
    at_list,
    close,
    ext,
    external,
    game,
    month,
    query,
    seed_shadow,
    seeded,
    shadow_rows,
    unrated,
)
from tracker.ratings.glicko.api import idle, new_player, rate_game, rate_period
from tracker.ratings.glicko.presets import GlickoState
from tracker.services import compare, games, shadow
from tracker.services.compare import CompareRow, everyone
from tracker.services.compare import evaluate as evaluate_service
from tracker.services.periods import closing, history
from tracker.services.shadow.config import get_config
from tracker.services.shadow.reads import month_end_players

D = dt.date


def periods_of(db: Services, name: str, preset: str | None = None, tc: str = "standard") -> Any:
    """``tracker compare NAME [--preset P] [--tc TC]``: the rows, one per closed month."""
    rows: tuple[CompareRow, ...] = db(compare.compare, name, tc, preset).rows
    return rows


def comparison(db: Services, name: str, preset: str | None = None) -> tuple[Any, ...]:
    """What ``tracker compare NAME --json`` prints: player, tc, preset, external RD, rows."""
    c = db(compare.compare, name, "standard", preset)
    return (c.name, c.tc, c.preset, c.external_rd, c.rows)


def history_of(db: Services, name: str, tc: str = "standard") -> Any:
    return db(history.history, name, tc).rows


def rerate(db: Services, start: str | None = None) -> None:
    """``tracker rerate [--from START]``."""
    db(closing.rerate, tc=None, from_month=month(start) if start else None)


def hart_draws_external(db: Services) -> None:
    """Hart (seeded 2318) draws an external 2200 on 10 January 2026; January closed."""
    with db.transaction() as s:
        seeded(s, "Hart", 2318)
        external(s, "Ext")
        game(s, "Hart", "Ext", "1/2-1/2", "2026-01-10", black_rating=2200)
    db(close, "2026-01")


def hart_by_hand(
    start: float = 2318, ext_rd: float = 60.0, *, seeded_start: bool = True
) -> tuple[GlickoState, GlickoState]:
    """(state after the game, state on the 1 February list) for hart_draws_external."""
    hart = seed_shadow(LICHESS, start, ext_rd=ext_rd) if seeded_start else new_player(LICHESS)
    after = rate_game(hart, ext(2200, ext_rd), 0.5, LICHESS)
    return after, at_list(after, D(2026, 1, 10), D(2026, 2, 1), LICHESS)


CLUB_GAMES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("Hart", "Ext", "1/2-1/2", "2026-01-10", {"black_rating": 2200}),
    ("Okafor", "Lee", "1-0", "2026-01-12", {}),
    ("Lee", "Hart", "1-0", "2026-01-20", {}),
    ("Hart", "Okafor", "0-1", "2026-02-07", {}),
    ("Lee", "Ext", "1-0", "2026-02-14", {"black_rating": 2000}),
    ("Okafor", "Hart", "1/2-1/2", "2026-03-03", {}),
]


def club(db: Services, skip: int | None = None) -> None:
    """Three seeded players and an external over three months, all closed."""
    with db.transaction() as s:
        seeded(s, "Hart", 2318)
        seeded(s, "Okafor", 2100)
        seeded(s, "Lee", 1950)
        external(s, "Ext")
        for i, (white, black, result, on, extra) in enumerate(CLUB_GAMES):
            if i != skip:
                game(s, white, black, result, on, **extra)
    db(close, "2026-03")


# ------------------------------------------------------------------- stored at period close


def test_the_shadow_is_stored_when_a_period_closes(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2318)
        external(s, "Ext")
        game(s, "Hart", "Ext", "1/2-1/2", "2026-01-10", black_rating=2200)
    assert periods_of(db, "Hart") == ()
    assert query(db.url, "SELECT COUNT(*) FROM glicko_history") == [(0,)]

    db(close, "2026-01")
    after, on_list = hart_by_hand(2318)
    stored = shadow_rows(db.url)
    assert stored == sorted(
        [
            # the row after the game, and the month-end snapshot
            ("Hart", "2026-01-10", "lichess", "2026-01-10", after.rating, after.rd,
             after.volatility, "2026-01-10", 1, False),
            ("Hart", None, "lichess", "2026-01-31", after.rating, after.rd,
             after.volatility, "2026-01-10", 1, True),
        ],
        key=repr,
    )  # fmt: skip
    (jan,) = periods_of(db, "Hart")
    assert (jan.glicko, jan.rd, jan.volatility) == (
        on_list.rating,
        on_list.rd,
        on_list.volatility,
    )
    assert jan.rd > after.rd  # 22 idle days to the list of 1 February

    # February: the stored January state grows for 24 days before the next game.
    db(game, "Hart", "Ext", "0-1", "2026-02-03", black_rating=2200)
    db(close, "2026-02")
    grown = idle(after, LICHESS, days=24)
    feb_after = rate_game(grown, ext(2200), 0.0, LICHESS)
    feb_list = at_list(feb_after, D(2026, 2, 3), D(2026, 3, 1), LICHESS)
    jan2, feb = periods_of(db, "Hart")
    assert jan2 == jan
    assert (feb.glicko, feb.rd, feb.volatility) == (
        feb_list.rating,
        feb_list.rd,
        feb_list.volatility,
    )
    ends = query(
        db.url,
        "SELECT as_of, games FROM glicko_history WHERE game_id IS NULL ORDER BY as_of",
    )
    assert [(str(d), n) for d, n in ends] == [("2026-01-31", 1), ("2026-02-28", 2)]


def test_history_shows_the_shadow_of_a_month_without_games(db: Services) -> None:
    hart_draws_external(db)
    # A player listed on the next list without games has a month-end row: still carried.
    db(game, "Ext", "Hart", "1-0", "2026-03-05", white_rating=2200)
    db(close, "2026-03")
    rows = history_of(db, "Hart")
    assert [h.month for h in rows] == [month("2026-01"), month("2026-02"), month("2026-03")]
    after, _ = hart_by_hand(2318)
    feb = rows[1]
    # February: no game, the state of 10 January seen on 1 March
    expected = at_list(after, D(2026, 1, 10), D(2026, 3, 1), LICHESS)
    assert (feb.glicko, feb.rd) == (expected.rating, expected.rd)


# ------------------------------------------------------------------------ compare PLAYER


def test_compare_preset_is_computed_on_the_fly_and_equals_what_set_stores(db: Services) -> None:
    club(db)
    lichess = comparison(db, "Hart")
    glickman = comparison(db, "Hart", "glickman")
    chesscom = comparison(db, "Hart", "chesscom")
    assert glickman[2] == "glickman" and chesscom[2] == "chesscom"
    for other in (glickman, chesscom):
        assert [p.elo for p in other[-1]] == [p.elo for p in lichess[-1]]
        assert [p.glicko for p in other[-1]] != [p.glicko for p in lichess[-1]]
    assert all(p.provisional is False for p in glickman[-1])  # no "?" in the paper
    # on the fly: nothing stored changes
    assert {r[2] for r in shadow_rows(db.url)} == {"lichess"}

    db(shadow.set_config, preset="glickman")
    assert comparison(db, "Hart") == glickman
    assert {r[2] for r in shadow_rows(db.url)} == {"glickman"}
    # monthly preset: month-end rows only
    assert all(r[-1] for r in shadow_rows(db.url))
    assert comparison(db, "Hart", "lichess") == lichess

    db(shadow.set_config, preset="chesscom")
    assert comparison(db, "Hart") == chesscom
    assert comparison(db, "Hart", "glickman") == glickman


def test_glickman_compare_by_hand(db: Services) -> None:
    """One month, Glickman's preset: one rating period from the seeds, no idle growth."""
    hart_draws_external(db)
    with db.transaction() as s:
        seeded(s, "Lee", 1950)
        game(s, "Lee", "Hart", "1-0", "2026-02-20")
        game(s, "Hart", "Lee", "1/2-1/2", "2026-02-21")
    db(close, "2026-02")
    jan, feb = periods_of(db, "Hart", "glickman")
    hart0 = seed_shadow(GLICKMAN, 2318)
    hart1 = rate_period(hart0, [(ext(2200, 60, GLICKMAN), 0.5)], GLICKMAN)
    assert (jan.glicko, jan.rd, jan.volatility) == (hart1.rating, hart1.rd, hart1.volatility)
    # Lee's first game is in February: seeded at his Elo on the February list (1950)
    lee0 = seed_shadow(GLICKMAN, 1950)
    hart2 = rate_period(hart1, [(lee0, 0.0), (lee0, 0.5)], GLICKMAN)
    assert (feb.glicko, feb.rd, feb.volatility) == (hart2.rating, hart2.rd, hart2.volatility)


# --------------------------------------------------------------------------------- seeding


def test_seed_elo_starts_from_the_seeded_rating_and_fresh_from_1500(db: Services) -> None:
    hart_draws_external(db)
    (jan,) = periods_of(db, "Hart")
    _, on_list = hart_by_hand(2318)
    assert (jan.glicko, jan.rd, jan.volatility) == (
        on_list.rating,
        on_list.rd,
        on_list.volatility,
    )
    # a draw against a lower-rated opponent costs points from 2318 with RD 500
    assert 2200 < jan.glicko < 2318
    assert db(get_config).seed == "elo"

    config, recomputed = db(shadow.set_config, seed="fresh")
    assert recomputed and config.seed == "fresh"
    (fresh,) = periods_of(db, "Hart")
    after_f, on_list_f = hart_by_hand(seeded_start=False)
    assert (fresh.glicko, fresh.rd, fresh.volatility) == (
        on_list_f.rating,
        on_list_f.rd,
        on_list_f.volatility,
    )
    assert 1500 < fresh.glicko < 2200  # from 1500, a draw with a 2200 gains a lot
    # the Elo does not care: PD 0.66 for a 118-point edge, 20 x -0.16 = -3.2 -> 2315
    assert fresh.elo == jan.elo == 2315
    game_rows = [r for r in shadow_rows(db.url) if not r[-1]]
    assert [(r[4], r[5]) for r in game_rows] == [(after_f.rating, after_f.rd)]

    db(shadow.set_config, seed="elo")
    assert periods_of(db, "Hart") == (jan,)


def test_unrated_player_is_seeded_fresh_even_with_seed_elo(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Okafor", 2100)
        unrated(s, "Newbie", born=1990)
        game(s, "Newbie", "Okafor", "0-1", "2026-01-12")
    db(close, "2026-01")
    new = new_player(LICHESS)
    oka = seed_shadow(LICHESS, 2100)
    newbie = rate_game(new, oka, 0.0, LICHESS)
    okafor = rate_game(oka, new, 1.0, LICHESS)
    (n,) = periods_of(db, "Newbie")
    (o,) = periods_of(db, "Okafor")
    assert n.elo is None and n.difference is None
    assert n.glicko == at_list(newbie, D(2026, 1, 12), D(2026, 2, 1), LICHESS).rating
    assert o.glicko == at_list(okafor, D(2026, 1, 12), D(2026, 2, 1), LICHESS).rating


def test_a_seeded_player_without_games_has_no_shadow_yet(db: Services) -> None:
    hart_draws_external(db)
    db(seeded, "Okafor", 2100)
    rerate(db)
    (row,) = history_of(db, "Okafor")
    assert row.rating == 2100
    assert all(getattr(row, k) is None for k in ("glicko", "rd", "volatility", "provisional"))
    standings = {p.name: p for p in db(everyone.compare_all, "standard").rows}
    assert standings["Okafor"].glicko is None and standings["Okafor"].glicko_rank is None
    assert standings["Okafor"].elo_rank == 2 and standings["Hart"].elo_rank == 1


# ------------------------------------------------------------------------- external RD


def test_external_rd_default_60_and_set_external_rd_100(db: Services) -> None:
    hart_draws_external(db)
    assert db(get_config).external_rd == 60.0
    (rd60,) = periods_of(db, "Hart")
    assert rd60.glicko == hart_by_hand(2318, 60.0)[1].rating

    db(shadow.set_config, external_rd=100.0)
    assert db(get_config).external_rd == 100.0
    out = db(compare.compare, "Hart", "standard", None)
    assert out.external_rd == 100.0
    (rd100,) = out.rows
    _, by_hand = hart_by_hand(2318, 100.0)
    assert (rd100.glicko, rd100.rd) == (by_hand.rating, by_hand.rd)
    # the external RD also stands for the opponents behind a seed: the seed RD moves too
    assert rd100.glicko != rd60.glicko and rd100.rd != rd60.rd


# ----------------------------------------------------------------------------- rerate


def test_rerate_recomputes_the_shadow_like_logging_the_game_on_time(
    db: Services, other_db: Services
) -> None:
    on_time = other_db
    club(on_time)
    # the same club, the 12 January game forgotten, then logged after the periods closed
    club(db, skip=1)
    white, black, result, on, extra = CLUB_GAMES[1]
    names = ("Hart", "Okafor", "Lee")
    before = {n: comparison(db, n) for n in names}
    assert before != {n: comparison(on_time, n) for n in names}
    db(game, white, black, result, on, **extra)
    assert comparison(db, "Lee") == before["Lee"]  # stale: nothing recomputed yet

    rerate(db)
    for n in names:
        assert comparison(db, n) == comparison(on_time, n)
        assert history_of(db, n) == history_of(on_time, n)
    assert db(everyone.compare_all, "standard") == on_time(everyone.compare_all, "standard")
    assert shadow_rows(db.url) == shadow_rows(on_time.url)
    # the same games, predicted the same way (summed in another order: the last bit may move)
    late = db(evaluate_service.evaluate, "standard", None)
    timely = on_time(evaluate_service.evaluate, "standard", None)
    assert late.games == timely.games == 6
    for a, b in zip(late.systems, timely.systems, strict=True):
        assert (a.system, a.games, a.accuracy) == (b.system, b.games, b.accuracy)
        assert a.log_loss == pytest.approx(b.log_loss, rel=1e-12)
        assert a.brier == pytest.approx(b.brier, rel=1e-12)


ELO_ROWS = """
    SELECT p.name, r.tc, r.month, r.stale, e.rating_before, e.rating, e.k, e.next_k, e.games,
           e.score_c, e.expected_c, e.change_exact_c, e.change, e.rated_games, e.ever_2400,
           e.ever_2300, e.pool, e.note
    FROM elo_history e JOIN rating_periods r ON r.id = e.period_id
    JOIN players p ON p.id = e.player_id
"""

#: An autumn open from 28 September to 3 October 2026 (rated in October), around games
#: without an event; the third is the one entered late.
AUTUMN: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("A", "B", "1-0", "2026-08-10", {}),
    ("C", "D", "1/2-1/2", "2026-09-12", {}),
    ("A", "C", "0-1", "2026-09-28", {"event": "Autumn Open", "round_": "1"}),
    ("B", "D", "1-0", "2026-09-29", {"event": "Autumn Open", "round_": "2"}),
    ("C", "B", "1-0", "2026-10-03", {"event": "Autumn Open", "round_": "3"}),
    ("D", "A", "1-0", "2026-10-15", {}),
]
LATE = 3


def autumn_players(db: Services) -> None:
    with db.transaction() as s:
        for name, rating in (("A", 1800), ("B", 1900), ("C", 2000), ("D", 1700)):
            seeded(s, name, rating)


def every_row(db: Services) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Both tables, with names and months instead of ids."""
    elo = sorted((tuple(str(v) if isinstance(v, dt.date) else v for v in r)
                  for r in query(db.url, ELO_ROWS)), key=repr)  # fmt: skip
    return elo, shadow_rows(db.url)


def test_a_late_game_before_its_events_month_reaches_the_shadow_on_rerate(
    db: Services, other_db: Services
) -> None:
    """The shadow rates a game in the month it was played, FIDE in the month its event
    ends: a game of 29 September entered after October closed (its open is rated in
    October) must make September stale too, or the shadow never sees it. Logging the games
    on time and closing month by month, or closing first and rerating after the late game,
    gives the same elo_history and glicko_history."""
    on_time = other_db
    autumn_players(on_time)
    for when in ("2026-08", "2026-09", "2026-10"):
        for white, black, result, on, extra in AUTUMN:
            if on.startswith(when):
                on_time(game, white, black, result, on, **extra)
        on_time(close, when)

    autumn_players(db)
    for i, (white, black, result, on, extra) in enumerate(AUTUMN):
        if i != LATE:
            db(game, white, black, result, on, **extra)
    db(close, "2026-10")
    white, black, result, on, extra = AUTUMN[LATE]
    added = db(game, white, black, result, on, **extra)
    assert added.stale == (month("2026-09"), month("2026-10"))  # the game's month, not only
    rerate(db)  # the event's

    elo, glicko_rows = every_row(db)
    assert (elo, glicko_rows) == every_row(on_time)
    # the late game is in the shadow: B's and D's rows of 29 September
    assert [r[:2] for r in glicko_rows if r[1] == "2026-09-29"] == [
        ("B", "2026-09-29"),
        ("D", "2026-09-29"),
    ]


def test_rerate_after_removing_a_game_drops_its_shadow(db: Services) -> None:
    hart_draws_external(db)
    gid = db(game, "Hart", "Ext", "1-0", "2026-01-25", black_rating=2200).id
    rerate(db)
    (two,) = periods_of(db, "Hart")
    db(games.remove_game, gid)
    rerate(db)
    (one,) = periods_of(db, "Hart")
    assert one.glicko == hart_by_hand(2318)[1].rating != two.glicko
    assert len([r for r in shadow_rows(db.url) if not r[-1]]) == 1


def test_settings_apply_to_later_periods(db: Services) -> None:
    hart_draws_external(db)
    config, changed = db(shadow.set_config, preset="glickman", seed="fresh", external_rd=80.0)
    assert changed and (config.preset, config.seed, config.external_rd) == ("glickman", "fresh", 80)
    # a later period is closed with the stored settings
    db(game, "Hart", "Ext", "1-0", "2026-02-11", black_rating=2200)
    db(close, "2026-02")
    rerate(db, "2026-01")
    shown = db(get_config)
    assert (shown.preset, shown.seed, shown.external_rd) == ("glickman", "fresh", 80.0)
    assert {r[2] for r in shadow_rows(db.url)} == {"glickman"}
    hart0 = new_player(GLICKMAN)  # fresh: 1500 / 350 / 0.06
    x = ext(2200, 80, GLICKMAN)
    hart1 = rate_period(hart0, [(x, 0.5)], GLICKMAN)
    hart2 = rate_period(hart1, [(x, 1.0)], GLICKMAN)
    jan, feb = periods_of(db, "Hart")
    assert (jan.glicko, feb.glicko, feb.rd) == (hart1.rating, hart2.rating, hart2.rd)


# ----------------------------------------------------------------------- games and periods


def test_forfeits_do_not_move_the_shadow(db: Services) -> None:
    hart_draws_external(db)
    with db.transaction() as s:
        seeded(s, "Lee", 1950)
        game(s, "Hart", "Lee", "+-", "2026-02-05")
        game(s, "Lee", "Hart", "-+", "2026-02-06")
    db(close, "2026-02")
    after, _ = hart_by_hand(2318)
    _, feb = periods_of(db, "Hart")
    expected = at_list(after, D(2026, 1, 10), D(2026, 3, 1), LICHESS)
    assert (feb.glicko, feb.rd) == (expected.rating, expected.rd)
    assert periods_of(db, "Lee")[-1].glicko is None
    assert len([r for r in shadow_rows(db.url) if not r[-1]]) == 1  # only the January game


def test_games_the_same_day_follow_the_order_they_were_entered(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "A", 2000)
        seeded(s, "B", 1800)
    db(game, "A", "B", "1-0", "2026-01-10", round_="1")
    db(game, "B", "A", "1-0", "2026-01-10", round_="2")
    db(close, "2026-01")
    a, b = seed_shadow(LICHESS, 2000), seed_shadow(LICHESS, 1800)
    a, b = rate_game(a, b, 1.0, LICHESS), rate_game(b, a, 0.0, LICHESS)
    a, b = rate_game(a, b, 0.0, LICHESS), rate_game(b, a, 1.0, LICHESS)
    (row,) = periods_of(db, "A")
    by_hand = at_list(a, D(2026, 1, 10), D(2026, 2, 1), LICHESS)
    assert (row.glicko, row.rd) == (by_hand.rating, by_hand.rd)


def test_each_time_control_has_its_own_shadow_and_set_recomputes_all(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "A", 2000)
        seeded(s, "B", 1800)
        game(s, "A", "B", "1-0", "2026-01-10")
        game(s, "B", "A", "1-0", "2026-01-11", tc="rapid")
    db(close, "2026-01")
    db(close, "2026-01", tc="rapid")
    a, b = seed_shadow(LICHESS, 2000), seed_shadow(LICHESS, 1800)
    standard = at_list(rate_game(a, b, 1.0, LICHESS), D(2026, 1, 10), D(2026, 2, 1), LICHESS)
    # rapid: unrated in rapid, so the standard rating seeds it (Rapid & Blitz 7.2.1)
    rapid = at_list(rate_game(a, b, 0.0, LICHESS), D(2026, 1, 11), D(2026, 2, 1), LICHESS)
    assert periods_of(db, "A")[0].glicko == standard.rating
    assert periods_of(db, "A", tc="rapid")[0].glicko == rapid.rating
    assert history_of(db, "A", tc="rapid")[0].glicko == rapid.rating

    db(shadow.set_config, preset="glickman")
    assert {r[2] for r in shadow_rows(db.url)} == {"glickman"}
    a, b = seed_shadow(GLICKMAN, 2000), seed_shadow(GLICKMAN, 1800)
    rapid_g = rate_period(a, [(b, 0.0)], GLICKMAN)
    assert periods_of(db, "A", tc="rapid")[0].glicko == rapid_g.rating


# ------------------------------------------------- idle players' month-end rows: derived

MONTH_ENDS = """
    SELECT r.month, p.name FROM glicko_history h
    JOIN rating_periods r ON r.id = h.period_id JOIN players p ON p.id = h.player_id
    WHERE h.game_id IS NULL
"""


def month_end_names(url: str) -> list[tuple[str, str]]:
    """(period month, player) of every stored month-end row, sorted."""
    return sorted((str(m)[:7], name) for m, name in query(url, MONTH_ENDS))


def outputs(db: Services) -> tuple[Any, ...]:
    """Everything that reads the stored month-end shadow: history, compare (rows and the
    plots' points), compare --all."""
    return (
        *(history_of(db, n) for n in ("Hart", "Okafor", "Lee")),
        *(db(compare.compare, n, "standard", None) for n in ("Hart", "Okafor", "Lee")),
        db(everyone.compare_all, "standard").rows,
    )


def lee_in_march(db: Services) -> None:
    """The club's games: Lee plays in January and February, not in March."""
    with db.transaction() as s:
        seeded(s, "Hart", 2318)
        seeded(s, "Okafor", 2100)
        seeded(s, "Lee", 1950)
        external(s, "Ext")
        for white, black, result, on, extra in CLUB_GAMES:
            game(s, white, black, result, on, **extra)


@pytest.mark.parametrize("one_by_one", [True, False], ids=["close-each", "close-all"])
def test_a_close_stores_no_month_end_row_for_an_idle_player(db: Services, one_by_one: bool) -> None:
    lee_in_march(db)
    for m in ("2026-01", "2026-02", "2026-03") if one_by_one else ("2026-03",):
        db(close, m)
    # Lee, idle in March, has no March row: 8 month-end rows, not 9
    assert month_end_names(db.url) == [
        ("2026-01", "Hart"), ("2026-01", "Lee"), ("2026-01", "Okafor"),
        ("2026-02", "Hart"), ("2026-02", "Lee"), ("2026-02", "Okafor"),
        ("2026-03", "Hart"), ("2026-03", "Okafor"),
    ]  # fmt: skip
    (feb_end,) = [
        r for r in shadow_rows(db.url) if r[0] == "Lee" and r[1] is None and r[8] == 3
    ]  # his latest month-end row, of February (3 games by then)
    _, _, _, as_of, rating, rd, vol, last, games_played, _ = feb_end
    assert (str(as_of), str(last), games_played) == ("2026-02-28", "2026-02-14", 3)
    feb = GlickoState(rating, rd, vol)
    # ... but history, compare and compare --all show his March shadow: February's, grown
    # idle up to the list of 1 April
    on_april_list = at_list(feb, D(2026, 2, 14), D(2026, 4, 1), LICHESS)
    assert on_april_list.rd > rd
    march = history_of(db, "Lee")[2]
    assert (march.month, march.glicko, march.rd, march.volatility) == (
        month("2026-03"),
        on_april_list.rating,
        on_april_list.rd,
        on_april_list.volatility,
    )
    compared = periods_of(db, "Lee")
    assert [r.month for r in compared] == [month("2026-01"), month("2026-02"), month("2026-03")]
    assert (compared[2].glicko, compared[2].rd) == (on_april_list.rating, on_april_list.rd)
    (lee,) = [r for r in db(everyone.compare_all, "standard").rows if r.name == "Lee"]
    assert (lee.glicko, lee.rd) == (on_april_list.rating, on_april_list.rd)
    with db.transaction() as s:
        ends = month_end_players(s, "standard", month("2026-03"))
        assert ends[s.scalar("SELECT id FROM players WHERE name = 'Lee'")].state == feb
        assert {p.games for p in ends.values()} == {3, 4}  # Hart 4 games, Okafor 4, Lee 3
        assert month_end_players(s, "standard", month("2025-12")) == {}


def test_a_per_period_preset_stores_everyones_month_end_row(db: Services) -> None:
    lee_in_march(db)
    db(close, "2026-03")
    db(shadow.set_config, preset="glickman")
    assert len(month_end_names(db.url)) == 9  # Lee's March row too: his RD moved
    rows = shadow_rows(db.url)
    lee = sorted((r for r in rows if r[0] == "Lee"), key=lambda r: str(r[3]))
    assert [str(r[3]) for r in lee] == ["2026-01-31", "2026-02-28", "2026-03-31"]
    # an idle month is a rating period without games: the RD grows, the rating stays
    idle = rate_period(GlickoState(*lee[1][4:7]), [], GLICKMAN)
    assert tuple(lee[2][4:7]) == (idle.rating, idle.rd, idle.volatility)
    assert idle.rd > lee[1][5]
    assert history_of(db, "Lee")[2].rd == lee[2][5]


def test_a_database_with_the_copied_idle_rows_reads_as_a_rerated_one(db: Services) -> None:
    """Databases written before stored an idle player's month-end row, copied from the
    previous period: they read the same, and ``rerate`` rewrites them without the copies."""
    lee_in_march(db)
    db(close, "2026-03")
    expected = outputs(db)
    with db.transaction() as s:  # what closing March used to write: Lee's February row, copied
        s.run(
            "INSERT INTO glicko_history (as_of, player_id, preset, game_id, period_id,"
            " rating, rd, volatility, last_played, games)"
            " SELECT :end, h.player_id, h.preset, NULL, :march, h.rating, h.rd,"
            " h.volatility, h.last_played, h.games FROM glicko_history h"
            " WHERE h.period_id = :feb AND h.game_id IS NULL AND h.player_id NOT IN"
            " (SELECT player_id FROM glicko_history WHERE period_id = :march)",
            {
                "end": D(2026, 3, 31),
                "march": periods_id(s, "2026-03"),
                "feb": periods_id(s, "2026-02"),
            },
        )
    assert len(month_end_names(db.url)) == 9
    assert ("2026-03", "Lee") in month_end_names(db.url)
    assert outputs(db) == expected
    rerate(db, "2026-01")
    assert len(month_end_names(db.url)) == 8
    assert ("2026-03", "Lee") not in month_end_names(db.url)
    assert outputs(db) == expected
    # closing April on the old rows (Lee plays again) reads his copied March row as before
    db(game, "Lee", "Hart", "0-1", "2026-04-02")
    db(close, "2026-04")
    assert ("2026-04", "Lee") in month_end_names(db.url)
    assert history_of(db, "Lee")[3].month == month("2026-04")


def periods_id(s: Any, m: str) -> int:
    found: int = s.scalar("SELECT id FROM rating_periods WHERE month = :m", {"m": month(m)})
    return found


def test_a_player_back_after_months_without_games_starts_from_his_latest_row(
    db: Services,
) -> None:
    """Closed one month at a time, a close reads the shadows of the month's players: from the
    latest periods, else by player (Lee's latest row is three periods back)."""
    lee_in_march(db)
    db(game, "Okafor", "Hart", "1-0", "2026-04-04")
    db(game, "Lee", "Hart", "0-1", "2026-05-09")
    for m in ("2026-01", "2026-02", "2026-03", "2026-04", "2026-05"):
        db(close, m)
    lee = sorted(
        (r for r in shadow_rows(db.url) if r[0] == "Lee" and r[1] is None), key=lambda r: r[8]
    )
    assert [(str(r[3]), r[8]) for r in lee] == [
        ("2026-01-31", 2),
        ("2026-02-28", 3),
        ("2026-05-31", 4),  # his fourth game: he started May from his February row
    ]
    feb = GlickoState(*lee[1][4:7])
    with db.transaction() as s:
        hart = month_end_players(s, "standard", month("2026-04"))
        (hart_id,) = s.scalars("SELECT id FROM players WHERE name = 'Hart'")
    grown_hart = idle(hart[hart_id].state, LICHESS, days=(D(2026, 5, 9) - D(2026, 4, 4)).days)
    grown_lee = idle(feb, LICHESS, days=(D(2026, 5, 9) - D(2026, 2, 14)).days)
    after = rate_game(grown_lee, grown_hart, 0.0, LICHESS)
    assert tuple(lee[2][4:7]) == (after.rating, after.rd, after.volatility)
    expected = outputs(db)
    rerate(db, "2026-01")  # every month again, the shadows handed on in memory
    assert outputs(db) == expected
    assert len(month_end_names(db.url)) == 3 + 3 + 2 + 2 + 2
