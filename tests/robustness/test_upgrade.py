"""Upgrades keep data: a club's data written under the first revision (0001: players, seeds,
events, games) and upgraded to head gives exactly the histories and lists of the same data
entered at head, once the same periods are closed on both.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, select, text

from tests.helpers import ok
from tests.robustness.common import Databases, Run, club_players, digest, member, write_games_csv
from tracker.db import migrate
from tracker.db.engine import make_engine
from tracker.db.revision import SCHEMA_REVISION

FIRST = migrate.all_revisions()[0]
TABLES_0001 = ("players", "player_seeds", "events", "games")  # in foreign-key order
MEMBERS = 16


def enter_club(run: Run, url: str, tmp_path: Path) -> None:
    """Seeded, junior, unrated and external players; four months of standard games and three
    of rapid (with events, forfeits and games against visitors); a few games by hand."""
    for args in club_players(MEMBERS):
        ok(run(url, "player", "add", *args))
    edit = ("--fide-id", "400102", "--federation", "ENG", "--title", "FM", "--sex", "f")
    ok(run(url, "player", "edit", member(2), *edit))
    for tc, months, count, seed in (
        ("standard", ["2026-06", "2026-07", "2026-08", "2026-09"], 240, 11),
        ("rapid", ["2026-07", "2026-08", "2026-09"], 90, 12),
    ):
        csv = write_games_csv(
            tmp_path / f"{tc}.csv",
            months=months,
            count=count,
            members=MEMBERS,
            seed=seed,
            events=f"{tc.title()} ",
        )
        ok(run(url, "import", str(csv), "--tc", tc))
    for args in (
        (member(4), member(5), "1-0", "--date", "2026-09-20", "--tc", "blitz"),
        (member(5), member(4), "1/2-1/2", "--date", "2026-09-20", "--tc", "blitz"),
        (
            member(3),
            member(8),
            "0-1",
            "--date",
            "2026-08-30",
            "--event",
            "Late Summer Cup",
            "--round",
            "2",
        ),
    ):
        ok(run(url, "game", "add", *args))
    ok(run(url, "event", "edit", "Late Summer Cup", "--start", "2026-08-29"))


def copy_into_first_revision(source: str, target: str) -> None:
    """Make ``target`` a database at the first revision holding ``source``'s rows (the
    columns that revision has), ids included."""
    old, new = make_engine(target), make_engine(source)
    try:
        migrate.upgrade(old, FIRST)
        assert migrate.current(old) == FIRST
        tables, current = MetaData(), MetaData()
        tables.reflect(old, only=TABLES_0001)
        current.reflect(new, only=TABLES_0001)
        with new.connect() as src, old.begin() as dst:
            for name in TABLES_0001:
                table = tables.tables[name]
                columns = [c.name for c in table.columns]
                rows = [dict(r._mapping) for r in src.execute(select(current.tables[name]))]
                assert rows, name
                dst.execute(table.insert(), [{c: r[c] for c in columns} for r in rows])
                if dst.dialect.name == "postgresql" and "id" in columns:
                    sequence = f"pg_get_serial_sequence('{name}', 'id')"
                    dst.execute(text(f"SELECT setval({sequence}, (SELECT MAX(id) FROM {name}))"))
            count = dst.execute(select(text("COUNT(*)")).select_from(tables.tables["games"]))
            assert count.scalar() == 240 + 90 + 3
    finally:
        old.dispose()
        new.dispose()


def carry_on(run: Run, url: str) -> None:
    """What a club does next, the same on both databases: a game, the periods closed on every
    list, a late correction and a rerate."""
    ok(run(url, "event", "add", "Autumn Cup", "--start", "2026-09-28"))
    event = ("--event", "Autumn Cup")
    ok(run(url, "game", "add", member(0), member(1), "1/2-1/2", "--date", "2026-10-02", *event))
    for tc in ("standard", "rapid", "blitz"):
        ok(run(url, "period", "close", "2026-10", "--tc", tc))
    ok(run(url, "game", "add", member(6), member(7), "1-0", "--date", "2026-07-15", "--round", "x"))
    ok(run(url, "rerate"))


def views(run: Run, url: str) -> dict[tuple[str, ...], Any]:
    """Every history and list the CLI shows, as JSON (errors as they are)."""

    def js(*args: str) -> Any:
        return json.loads(ok(run(url, *args, "--json")).stdout)

    shown: dict[tuple[str, ...], Any] = {}
    for args in (("player", "list"), ("game", "list"), ("period", "list"), ("compare", "--all")):
        shown[args] = js(*args)
    players = [p["id"] for p in shown["player", "list"]]
    lists = {(p["tc"], p["list"][:7]) for p in shown["period", "list"] if p["status"] == "closed"}
    assert len(lists) == 5 + 4 + 2  # standard Jun-Oct, rapid Jul-Oct, blitz Sep-Oct
    for tc, month in sorted(lists):
        shown["list", tc, month] = js("list", month, "--tc", tc)
    for pid in players:
        shown["player", "show", str(pid)] = js("player", "show", f"#{pid}")
        for tc in ("standard", "rapid", "blitz"):
            result = run(url, "history", f"#{pid}", "--tc", tc, "--json")
            shown["history", str(pid), tc] = (result.exit_code, result.stdout, result.stderr)
    return shown


def test_data_from_the_first_revision_gives_the_same_histories_after_the_upgrade(
    db_url: str, databases: Databases, run: Run, tmp_path: Path
) -> None:
    enter_club(run, db_url, tmp_path)
    old = databases.empty()
    copy_into_first_revision(db_url, old)

    refused = run(old, "history", member(0))
    assert refused.exit_code == 1 and "tracker db upgrade" in refused.stderr
    upgraded = ok(run(old, "db", "upgrade"))
    assert f"from revision {FIRST} to {SCHEMA_REVISION}" in upgraded.stderr
    ok(run(old, "db", "check"))

    carry_on(run, db_url)
    carry_on(run, old)
    at_head, after_upgrade = views(run, db_url), views(run, old)
    assert after_upgrade.keys() == at_head.keys()
    for key in at_head:
        assert after_upgrade[key] == at_head[key], key
    # and underneath, row for row (import provenance aside: 0001 had none)
    head_rows, upgraded_rows = digest(db_url), digest(old)
    for table in head_rows.keys() - {"imports", "games"}:
        assert upgraded_rows[table] == head_rows[table], table
    assert len(upgraded_rows["games"]) == len(head_rows["games"]) == 240 + 90 + 3 + 2
