"""Closing months one by one and rerating them all in one go store exactly the same rows.

Closing a single month reads the previous list and shadows back from the database (only the
players of the month, the idle players' shadow rows being copied in SQL); closing several
months in a row (``period close`` of a later month, ``rerate``) hands each month's list and
shadows to the next in memory. Both must give the same history, row for row, for a
federation with idle players, newcomers, externals, juniors and forfeits.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from sqlalchemy import text

from tests.helpers import Services, whole_list
from tracker.db.engine import make_engine
from tracker.services import games, shadow
from tracker.services.periods import closing
from tracker.services.players import roster as players

TODAY = dt.date(2026, 11, 29)
MONTHS = [dt.date(2025, m, 1) for m in (8, 9, 10, 11, 12)] + [dt.date(2026, 1, 1)]

ELO = """SELECT p.month, h.player_id, h.rating_before, h.rating, h.k, h.next_k, h.games,
    h.score_c, h.expected_c, h.change_exact_c, h.change, h.rated_games, h.ever_2400,
    h.ever_2300, h.pool, h.note
    FROM elo_history h JOIN rating_periods p ON p.id = h.period_id"""
GLICKO = """SELECT p.month, h.player_id, h.preset, h.game_id, h.as_of, h.rating, h.rd,
    h.volatility, h.last_played, h.games
    FROM glicko_history h JOIN rating_periods p ON p.id = h.period_id"""


def _federation(url: str) -> None:
    rng = random.Random(7)
    with Services(url).transaction() as session:
        names = []
        for i in range(36):
            seed = None
            if i % 4:
                seed = players.Seed(rng.randint(1350, 2450), rng.choice([0, 12, 45, 300]))
            born = 2011 if i % 7 == 0 else 1980
            names.append(f"Player {i}, A")
            players.add_player(session, name=names[-1], birth_year=born, seed=seed)
        externals = [f"Guest {i}, B" for i in range(5)]
        for name in externals:
            players.add_player(session, name=name, external=True)
        for month in MONTHS:
            active = rng.sample(names, 16) + rng.sample(externals, 2)
            for event in range(2):
                rng.shuffle(active)
                day = month.replace(day=3 + 10 * event)
                for rnd in range(3):
                    for a, b in zip(active[0::2], active[1::2], strict=True):
                        if a in externals and b in externals:
                            continue
                        result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "+-"])
                        games.add_game(
                            session,
                            white=a,
                            black=b,
                            result=result,
                            played_on=day + dt.timedelta(days=rnd // 2),
                            event=f"{month:%Y-%m} event {event}",
                            round_=str(rnd + 1),
                            white_rating=rng.randint(1500, 2300) if a in externals else None,
                            black_rating=rng.randint(1500, 2300) if b in externals else None,
                        )
                    active = active[1:] + active[:1]


def _rows(url: str) -> dict[str, list[Any]]:
    engine = make_engine(url)
    with engine.connect() as conn:
        out = {
            name: sorted((tuple(r) for r in conn.execute(text(sql))), key=repr)
            for name, sql in (("elo", ELO), ("glicko", GLICKO))
        }
    engine.dispose()
    return out


def _run(url: str, work: Any) -> Any:
    return Services(url)(work)


@pytest.mark.parametrize("preset", ["lichess", "glickman"])
def test_one_month_at_a_time_equals_all_at_once(db_url: str, preset: str) -> None:
    _federation(db_url)
    if preset != "lichess":
        _run(db_url, lambda s: shadow.set_config(s, preset=preset))
    for month in MONTHS:  # each close in its own transaction: everything is read back
        report = _run(
            db_url, lambda s, m=month: closing.close(s, tc="standard", month=m, today=TODAY)
        )
        assert [p.month for p in report.closed] == [month]
    one_by_one = _rows(db_url)
    assert len({r[0] for r in one_by_one["elo"]}) == len(MONTHS)
    # a rated player without games carries his line over: derived when read, not stored
    assert not any(
        r[6] == 0 and r[3] is not None and r[10] == 0 and r[15] is None and r[2] == r[3]
        for r in one_by_one["elo"]
    )
    listed = _run(db_url, lambda s: whole_list(s, "standard", MONTHS[-1]))
    assert any(not line.stored for line in listed.values())  # idle players are listed

    reports = _run(db_url, lambda s: closing.rerate(s, tc="standard", from_month=MONTHS[0]))
    assert reports[0].months == tuple(MONTHS)
    assert _rows(db_url) == one_by_one

    # Closing them all in one command: the same again.
    _run(db_url, lambda s: s.run("DELETE FROM elo_history"))
    _run(db_url, lambda s: s.run("DELETE FROM glicko_history"))
    _run(db_url, lambda s: s.run("DELETE FROM rating_periods"))
    report = _run(db_url, lambda s: closing.close(s, tc="standard", month=MONTHS[-1], today=TODAY))
    assert [p.month for p in report.closed] == MONTHS
    assert _rows(db_url) == one_by_one
