"""``tracker list`` streamed (issue 26): the database sorts a published list and its lines
are read as they are printed. The lines, their order, the ranks and the printed table must be
those of the list built whole in memory from the history and the seeds
(:func:`tests.helpers.whole_list`, sorted in Python), on both backends: stored lines, lines
carried over, seeds not listed yet, ties, names that sort differently by code point than by
a locale's collation.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import (
    Services,
    cli_on,
    close,
    external,
    game,
    month,
    ok,
    unrated,
    whole_list,
)
from tracker.cli import render
from tracker.cli.history import entry_json
from tracker.db.queries import lists as list_queries
from tracker.services import lists
from tracker.services.periods import listing
from tracker.services.players import roster as players
from tracker.services.players.roster import Seed
from tracker.services.shadow import reads


def _add(s: Any, name: str, rating: int | None, fide_id: int | None, **more: Any) -> None:
    seed = Seed(rating, 40, tc="standard") if rating is not None else None
    players.add_player(s, name=name, fide_id=fide_id, birth_year=1990, seed=seed, **more)


@pytest.fixture
def listed(db: Services) -> Services:
    """Two closed months: players who play (stored lines), who do not (carried over), one
    seeded after the first close (a seed, not listed yet), ties broken by name in code point
    order (capitals first, accented letters last), an unrated newcomer, an external one."""
    with db.transaction() as s:
        _add(s, "Zed", 2100, 900001, title="GM", federation="NOR")
        _add(s, "bravo", 2100, 900002)
        _add(s, "Bravo", 2100, 900003, force=True)
        _add(s, "Ärger", 2100, None)
        _add(s, "Émile Longname-Of-The-List", 1900, 900004, federation="FRA")
        _add(s, "Alpha", 2250, 12345678)
        _add(s, "Idle", 1800, 900005)
        unrated(s, "Newcomer", born=2010)
        external(s, "Opp")
        for day in range(3, 9):
            game(s, "Alpha", "Opp", "1-0", f"2026-01-{day:02d}", black_rating=2200,
                 event="January Open", round_=str(day))  # fmt: skip
            game(s, "Newcomer", "Zed", "0-1", f"2026-01-{day:02d}", event="Club",
                 round_=str(day))  # fmt: skip
    db(close, "2026-01")
    with db.transaction() as s:
        _add(s, "Late", 2100, 900006)  # seeded after the first close
        game(s, "bravo", "Opp", "1/2-1/2", "2026-02-10", black_rating=2100, event="Feb")
    db(close, "2026-02")
    return db


def _reference(s: Any, tc: str, list_date: dt.date) -> tuple[listing.ListEntryView, ...]:
    """The list as tracker built it before it was stored: every line worked out from the
    history and the seeds, in memory, sorted in Python."""
    month = dt.date(list_date.year, list_date.month, 1) - dt.timedelta(days=1)
    month = month.replace(day=1)
    lines = whole_list(s, tc, month)
    people = {
        pid: rest
        for pid, *rest in s.all("SELECT id, name, title, federation, fide_id FROM players")
    }
    ordered = sorted(
        (-line.rating, people[pid][0], pid, line) for pid, line in lines.items() if line.rating
    )
    out = []
    previous, rank = None, 0
    for position, (_, _, pid, line) in enumerate(ordered, start=1):
        if line.rating != previous:
            rank, previous = position, line.rating
        name, title, fed, fide_id = people[pid]
        out.append(
            listing.ListEntryView(
                rank,
                pid,
                name,
                title,
                fed,
                fide_id,
                line.birth_year,
                line.rating,
                line.games,
                line.next_k,
            )
        )
    return tuple(out)


@pytest.mark.parametrize("list_date", ["2026-02", "2026-03"])
def test_the_streamed_list_is_the_list_built_whole(listed: Services, list_date: str) -> None:
    with listed.transaction() as s:
        ls = listing.list_stream(s, "standard", month(list_date))
        assert isinstance(ls.entries, Iterator)  # read as the caller goes, not a tuple
        entries = tuple(ls.entries)
        expected = _reference(s, "standard", month(list_date))
        shape = listing.list_shape(s, ls)
    assert entries == expected
    names = [e.name for e in entries]
    if list_date == "2026-03":
        # carried over (Zed, Alpha...), stored (bravo), a seed not listed yet (Late)
        assert {"Late", "Idle", "Zed", "bravo"} <= set(names)
        assert names.index("Bravo") < names.index("Zed") < names.index("bravo")
    assert "Newcomer" not in names and "Opp" not in names
    assert shape.last_rank == entries[-1].rank
    assert shape.longest_name == max(len(n) for n in names)
    assert shape.fide_id_digits == len("12345678")


@pytest.mark.parametrize("walk_from", [0, 10_000])
def test_a_list_is_measured_from_its_own_players(
    listed: Services, walk_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways of measuring a list (a long one walks the players' indexes, a short one
    joins its lines) give its shape, whoever else is in the database: here players off the
    list with the longest name, the highest FIDE id of all and more digits than any on it,
    and the smallest id with as many digits as the widest on it."""
    monkeypatch.setattr(list_queries, "WALK_FROM", walk_from)
    with listed.transaction() as s:
        players.add_player(s, name="Unrated With A Longer Name Than Anyone", fide_id=999999999)
        players.add_player(s, name="Unrated Too", fide_id=10000000)
        ls = listing.list_stream(s, "standard", month("2026-03"))
        entries = tuple(ls.entries)
        shape = listing.list_shape(s, ls)
        empty = list_queries.list_shape(s, -1)
    longest = max(len(e.name) for e in entries)
    assert longest == len("Émile Longname-Of-The-List")
    assert shape == (entries[-1].rank, longest, len("12345678"))
    assert empty == (0, 0, 0)


def _old_table(rl: listing.RatingList) -> None:
    """``tracker list`` as it printed before streaming: the whole table measured first."""
    rows = [
        (e.rank, e.name, e.title, e.federation, e.fide_id, e.rating, e.games, e.birth_year, e.k)
        for e in rl.entries
    ]
    render.print_table(
        ["rank", "name", "title", "fed", "FIDE id", "rating", "games", "born", "K"],
        rows,
        title=f"{rl.tc.capitalize()} list of {rl.list_date.isoformat()}",
        right=("rank", "FIDE id", "rating", "games", "K"),
        drop=("FIDE id",),
        wrap=("name",),
        empty="nobody is rated on this list",
    )


@pytest.mark.parametrize("columns", [None, "60", "45"])  # full, FIDE id dropped, names wrapped
def test_the_printed_list_is_unchanged(
    listed: Services,
    db_url: str,
    columns: str | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if columns is not None:
        monkeypatch.setenv("COLUMNS", columns)
    rl = listed(listing.rating_list, "standard", None)
    _old_table(rl)
    expected = capsys.readouterr().out
    assert "Late" in expected
    out = ok(cli_on(db_url)("list")).stdout
    assert out == expected
    if columns == "60":
        assert "FIDE id" not in out
    if columns == "45":
        assert "Émile Longname" not in out and "Longname-Of-The-List" in out  # wrapped


def test_the_json_list_is_unchanged(
    listed: Services, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rl = listed(listing.rating_list, "standard", month("2026-02"))
    render.print_json(
        {
            "tc": rl.tc,
            "list": rl.list_date.isoformat(),
            "stale": rl.stale,
            "players": [entry_json(e) for e in rl.entries],
        }
    )
    expected = capsys.readouterr().out
    out = ok(cli_on(db_url)("list", "2026-02", "--json")).stdout
    assert out == expected
    assert json.loads(out)["players"]


def test_an_empty_list_prints_no_table(db: Services, db_url: str) -> None:
    with db.transaction() as s:
        unrated(s, "Newcomer")
        external(s, "Opp")
        game(s, "Newcomer", "Opp", "1-0", "2026-01-05", black_rating=2000, event="Club")
    db(close, "2026-01")
    result = ok(cli_on(db_url)("list"))
    assert result.stdout == ""
    assert "nobody is rated on this list" in result.stderr
    out = ok(cli_on(db_url)("list", "--json")).stdout
    assert (
        out
        == json.dumps(
            {"tc": "standard", "list": "2026-02-01", "stale": False, "players": []}, indent=2
        )
        + "\n"
    )


# compare --all reads whole lists too: the ratings of every line, the latest shadows


@pytest.mark.parametrize("closing", ["2026-01", "2026-02"])
def test_a_lists_ratings_are_those_of_its_whole_lines(listed: Services, closing: str) -> None:
    """``ratings_at`` (the stored list, and the period's unrated lines) gives the ratings of
    the whole list's lines (:func:`tests.helpers.whole_list`): stored lines, unrated ones,
    lines carried over, seeds not listed yet."""
    with listed.transaction() as s:
        whole = {pid: b.rating for pid, b in whole_list(s, "standard", month(closing)).items()}
        assert lists.ratings_at(s, "standard", month(closing)) == whole
    assert None in whole.values()  # the newcomer's line: unrated, pending


def test_the_latest_shadows_of_everyone_are_each_players_latest(listed: Services) -> None:
    """The whole list's month-end shadows (one grouped scan) are those read player by
    player: for February's idle players, their January rows."""
    with listed.transaction() as s:
        everyone = reads.month_end_players(s, "standard", month("2026-02"))
        ids = [pid for pid, _ in s.all("SELECT id, name FROM players")]
        one_by_one = reads.month_end_players(s, "standard", month("2026-02"), only=ids)
    assert everyone == one_by_one and len(everyone) == 4  # who played: Alpha, Zed, bravo, Newcomer
