"""The seam of the rating systems (tracker.services.systems): a system of the test's own, a
running count of each tracked player's points, plugs into the month's close beside FIDE's Elo
and the Glicko shadow, by registering it and nothing else. Closing, rerating and dropping
periods run its steps; the official list does not move; every reader (history, compare,
compare --all, list, status, the site) shows its numbers from what it says of itself."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Services, cli_on, close, game, js, ok, query, seeded
from tracker.db.driver import Db
from tracker.db.queries.periods import delete_history
from tracker.services import compare, games
from tracker.services.compare import everyone
from tracker.services.periods import closing, history, listing, registry, status
from tracker.services.shadow import GlickoShadow
from tracker.services.systems import Month, Periods, Reading

POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}  # half-points


class Points:
    """Each tracked player's points since tracking began, in half-points, a row per player
    and period (``toy_history``)."""

    name = "points"

    def read(self, month: Month, carry: dict[int, int] | None) -> tuple[dict[int, int], list[Any]]:
        if carry is None:  # the first month of a run: the totals the previous period stored
            carry = dict(
                month.db.all(
                    "SELECT t.player_id, t.points FROM toy_history t"
                    " JOIN rating_periods r ON r.id = t.period_id"
                    " WHERE r.tc = :tc AND r.month < :month AND r.month = ("
                    "  SELECT max(month) FROM rating_periods WHERE tc = :tc AND month < :month)",
                    {"tc": month.tc, "month": month.month},
                )
            )
        return carry, month.played

    def fold(self, read: tuple[dict[int, int], list[Any]]) -> dict[int, int]:
        totals, played = dict(read[0]), read[1]
        for g in played:
            white, black = POINTS[g.result]
            if not g.white_external:
                totals[g.white_id] = totals.get(g.white_id, 0) + white
            if not g.black_external:
                totals[g.black_id] = totals.get(g.black_id, 0) + black
        return totals

    def write(
        self, month: Month, period: int, read: object, folded: dict[int, int]
    ) -> dict[int, int] | None:
        rows = [(period, pid, points) for pid, points in sorted(folded.items())]
        month.db.insert_many("toy_history", ("period_id", "player_id", "points"), rows)
        return folded if month.keep else None

    def delete(self, db: Db, which: Periods) -> None:
        delete_history(db, "toy_history", which.tc, since=which.since, before=which.before)

    def columns(self, db: Db) -> tuple[str, ...]:
        return ("points",)

    def cells(self, reading: Reading | None) -> tuple[str, ...]:
        return ("" if reading is None else f"{reading.rating:g}",)

    def fields(self, reading: Reading | None) -> dict[str, Any]:
        return {"points": None if reading is None else reading.rating}

    def on_list(self, db: Db, tc: str, month: dt.date) -> dict[int, Reading]:
        rows = db.all(
            "SELECT t.player_id, t.points FROM toy_history t"
            " JOIN rating_periods r ON r.id = t.period_id WHERE r.tc = :tc AND r.month = :m",
            {"tc": tc, "m": month},
        )
        return {pid: Reading(points / 2) for pid, points in rows}

    def of_player(
        self, db: Db, tc: str, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]:
        out = {}
        for month in months:
            reading = self.on_list(db, tc, month).get(player_id)
            if reading is not None:
                out[month] = reading
        return out


def toy_rows(db: Services) -> list[tuple[str, str, int]]:
    rows = query(
        db.url,
        "SELECT r.month, p.name, t.points FROM toy_history t"
        " JOIN rating_periods r ON r.id = t.period_id JOIN players p ON p.id = t.player_id",
    )
    return sorted((str(month)[:7], name, points) for month, name, points in rows)


def elo_rows(db: Services) -> list[tuple[Any, ...]]:
    return sorted(
        query(
            db.url,
            "SELECT r.month, h.player_id, h.rating, h.change_exact_c FROM elo_history h"
            " JOIN rating_periods r ON r.id = h.period_id",
        )
    )


def season(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Ames", 1900)
        seeded(s, "Bell", 1850)
        game(s, "Ames", "Bell", "1-0", "2026-01-10")
        game(s, "Bell", "Ames", "1/2-1/2", "2026-02-07")
        game(s, "Ames", "Bell", "0-1", "2026-03-07")


def register_toy(db: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's table, and the toy registered beside FIDE's Elo and the shadow."""
    with db.transaction() as s:
        s.run(
            "CREATE TABLE toy_history (period_id INTEGER NOT NULL, player_id INTEGER NOT NULL,"
            " points INTEGER NOT NULL)"
        )
    monkeypatch.setattr(registry, "SYSTEMS", [*registry.SYSTEMS, Points()])


def test_a_registered_system_closes_rerates_and_drops_with_the_others(
    db: Services, other_db: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    season(other_db)  # the same season without the toy: the official list to compare with
    other_db(close, "2026-03")

    register_toy(db, monkeypatch)
    season(db)
    db(close, "2026-02")  # one run: February's totals come from January's carry
    db(close, "2026-03")  # another: March's totals come from February's stored rows
    assert toy_rows(db) == [
        ("2026-01", "Ames", 2), ("2026-01", "Bell", 0),
        ("2026-02", "Ames", 3), ("2026-02", "Bell", 1),
        ("2026-03", "Ames", 3), ("2026-03", "Bell", 3),
    ]  # fmt: skip
    assert elo_rows(db) == elo_rows(other_db)  # the toy moves nothing of the official list
    assert db(registry.system("points").on_list, "standard", dt.date(2026, 3, 1)) == {
        1: Reading(1.5),
        2: Reading(1.5),
    }

    # A correction in January: the rerate deletes every system's rows of the periods it
    # recomputes (none is left twice) and writes them again.
    with db.transaction() as s:
        (first,) = [g for g in games.list_games(s) if g.played_on == dt.date(2026, 1, 10)]
        games.edit_game(s, first.id, result="0-1")
    db(closing.rerate, tc=None, from_month=None)
    assert toy_rows(db) == [
        ("2026-01", "Ames", 0), ("2026-01", "Bell", 2),
        ("2026-02", "Ames", 1), ("2026-02", "Bell", 3),
        ("2026-03", "Ames", 1), ("2026-03", "Bell", 5),
    ]  # fmt: skip

    # Every game of January gone: the period holds nothing and is dropped, with its rows.
    with db.transaction() as s:
        (first,) = [g for g in games.list_games(s) if g.played_on == dt.date(2026, 1, 10)]
        games.remove_game(s, first.id)
    db(closing.rerate, tc=None, from_month=None)
    assert toy_rows(db) == [
        ("2026-02", "Ames", 1), ("2026-02", "Bell", 1),
        ("2026-03", "Ames", 1), ("2026-03", "Bell", 3),
    ]  # fmt: skip


class Fixed:
    """A system registered as the shadow that rates everyone 1234 (RD 50): what the readers
    show of the shadow comes from the registry."""

    name = "shadow"
    columns, cells, fields = GlickoShadow.columns, GlickoShadow.cells, GlickoShadow.fields

    def read(self, month: Month, carry: object) -> None:
        return None

    def fold(self, read: object) -> None:
        return None

    def write(self, month: Month, period: int, read: object, folded: object) -> None:
        return None

    def delete(self, db: Db, which: Periods) -> None:
        return None

    def on_list(self, db: Db, tc: str, month: dt.date) -> dict[int, Reading]:
        return {pid: FIXED for pid in db.scalars("SELECT id FROM players WHERE NOT external")}

    def of_player(
        self, db: Db, tc: str, player_id: int, months: list[dt.date]
    ) -> dict[dt.date, Reading]:
        return dict.fromkeys(months, FIXED)


FIXED = Reading(1234.0, 50.0, 0.06, "1234", False)


def test_history_and_compare_read_the_registered_systems(
    db: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    season(db)
    db(close, "2026-03")
    monkeypatch.setattr(registry, "SYSTEMS", [registry.OFFICIAL, Fixed()])
    rows = db(history.history, "Ames", "standard").rows
    assert [(r.glicko, r.rd, r.glicko_display) for r in rows] == [(1234.0, 50.0, "1234")] * 3
    standings = db(everyone.compare_all, "standard").rows
    assert {(r.name, r.glicko, r.rd) for r in standings} == {
        ("Ames", 1234.0, 50.0),
        ("Bell", 1234.0, 50.0),
    }
    assert all(r.elo is not None for r in standings)  # the official list's, as before


@pytest.fixture
def toy(db: Services, monkeypatch: pytest.MonkeyPatch) -> Services:
    """The season closed to March with the toy registered beside FIDE's Elo and the shadow."""
    register_toy(db, monkeypatch)
    season(db)
    db(close, "2026-03")
    return db


def test_every_reader_shows_a_registered_system(toy: Services) -> None:
    h = toy(history.history, "Ames", "standard")
    assert h.beside.headings == ["lichess", "RD", "points"]
    assert [r.readings[1] for r in h.rows] == [Reading(1.0), Reading(1.5), Reading(1.5)]
    assert all(r.glicko is not None for r in h.rows)  # the shadow's, as before
    c = toy(compare.compare, "Bell", "standard", None)
    assert [r.readings for r in c.rows] == [(Reading(0.0),), (Reading(0.5),), (Reading(1.5),)]
    standings = toy(everyone.compare_all, "standard")
    assert standings.others.readings == ({1: Reading(1.5), 2: Reading(1.5)},)
    assert toy(listing.rating_list, "standard", None).others == standings.others
    (listed,) = toy(status.status, dt.date(2026, 4, 2)).lists
    (moves,) = listed.others
    assert moves.system == "points"
    assert [(m.name, m.before, m.rating, m.change) for m in moves.movers] == [
        ("Bell", 0.5, 1.5, 1.0)
    ]


def test_the_command_line_and_the_site_show_a_registered_system(
    toy: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = cli_on(toy.url)

    def cli_lines(*args: str) -> list[str]:
        return ok(cli(args[0], "show", *args[1:])).stdout.splitlines()[1:]

    text = ok(cli("history", "Ames")).stdout
    assert "lichess  RD  points  note" in text.splitlines()[1]  # its column after the shadow's
    monkeypatch.setenv("COLUMNS", "60")  # too narrow: its column goes before the shadow's
    assert ok(cli("history", "Ames")).stdout.splitlines()[1].endswith("lichess  RD")
    monkeypatch.delenv("COLUMNS")
    assert [r["points"] for r in js(cli, "history", "Ames")] == [1.0, 1.5, 1.5]
    assert [r["glicko"] is not None for r in js(cli, "history", "Ames")] == [True] * 3
    assert "points" in ok(cli("compare", "Bell")).stdout
    assert [p["points"] for p in js(cli, "compare", "Bell")["periods"]] == [0.0, 0.5, 1.5]
    assert {(p["name"], p["points"]) for p in js(cli, "compare", "--all")["players"]} == {
        ("Ames", 1.5),
        ("Bell", 1.5),
    }
    listing = ok(cli("list")).stdout.splitlines()
    assert listing[1].endswith("points") and listing[2].endswith("1.5")
    assert [p["points"] for p in js(cli, "list")["players"]] == [1.5, 1.5]
    assert "standard points movers  Bell +1 (0.5 -> 1.5)" in ok(cli("status")).stdout
    card = {
        field: value.strip()
        for field, value in (
            (*re.split(r"\s{2,}", line, maxsplit=1), "")[:2] for line in cli_lines("player", "Bell")
        )
    }
    assert card["standard points"] == "1.5"  # after the shadow's rating and RD
    assert re.fullmatch(r"\d{4}\??, RD \d+", card["standard lichess"])
    assert list(card).index("standard points") == list(card).index("standard lichess") + 1
    (rating,) = js(cli, "player", "show", "Bell")["ratings"]
    assert rating["points"] == 1.5 and rating["glicko"] is not None
    (listed,) = js(cli, "status")["lists"]
    assert listed["systems"] == {
        "points": [{"id": 2, "name": "Bell", "before": 0.5, "rating": 1.5, "change": 1.0}]
    }
    ok(cli("site", "build", str(tmp_path / "site")))
    page = (tmp_path / "site" / "players" / "1.html").read_text()
    assert ">points</th>" in page and ">1.5</td>" in page
    index = (tmp_path / "site" / "index.html").read_text()  # the list beside the Elo
    assert ">points</th>" in index and ">1.5</td>" in index
    both = (tmp_path / "site" / "compare.html").read_text()  # Elo and Glicko, as compare --all
    assert '>RD</th><th scope="col" class="n">points</th>' in both and ">1.5</td>" in both
    full = (tmp_path / "site" / "lists" / "standard-2026-04-01.csv").read_text()
    assert full.splitlines()[:2] == [
        "rank,name,title,fed,FIDE id,rating,games,born,K,change,points",
        "1,Ames,,,,1895,1,1980,20,-12,1.5",
    ]
