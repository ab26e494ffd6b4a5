"""Exports (tracker.services.exports): games with the ratings in force, written back in the
game file formats and read again; a history, a list and the players as the readers give
them. The command end to end is in tests/cli/test_export.py."""

from __future__ import annotations

import pytest

from tests.helpers import Services, close, day, external, game, month, read_file, seeded, unrated
from tracker.errors import InvalidInputError
from tracker.services import exports
from tracker.services.periods import listing


@pytest.fixture
def season(db: Services) -> Services:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 1900)
        unrated(s, "Berg")
        external(s, "Guest")
        game(s, "Hart", "Sato", "1-0", "2026-01-05", event="Winter Cup", round_="1")
        game(s, "Guest", "Hart", "1/2-1/2", "2026-02-03", white_rating=2100, event="Feb Open",
             round_="1")  # fmt: skip
        game(s, "Berg", "Sato", "0-1", "2026-02-04", event="Feb Open", round_="2")
    db(close, "2026-01")
    return db


def test_games_with_the_ratings_in_force(season: Services) -> None:
    plain = season(exports.export_games)
    assert [(g.white.name, g.black.name, g.white_rating, g.black_rating) for g in plain] == [
        ("Hart", "Sato", None, None), ("Guest", "Hart", 2100, None), ("Berg", "Sato", None, None),
    ]  # fmt: skip
    filled = season(exports.export_games, ratings_in_force=True)
    # January: the seeds; February: the list of 1 February (Hart +7, Sato -7: PD .64 at K 20)
    assert [(g.white_rating, g.black_rating) for g in filled] == [
        (2000, 1900), (2100, 2007), (None, 1893),
    ]  # fmt: skip
    assert [g.round for g in season(exports.export_games, player="Berg")] == ["2"]
    assert len(season(exports.export_games, month=month("2026-02"), event="Feb Open")) == 2


@pytest.mark.parametrize("fmt", ["pgn", "csv"])
def test_games_written_and_read_back(season: Services, fmt: str) -> None:
    text = exports.games_text(season(exports.export_games), fmt)
    back = read_file(fmt, text.encode("utf-8"), f"games.{fmt}")
    assert [(g.white.name, g.black.name, g.result, g.played_on) for g in back.games] == [
        ("Hart", "Sato", "1-0", day("2026-01-05")),
        ("Guest", "Hart", "1/2-1/2", day("2026-02-03")),
        ("Berg", "Sato", "0-1", day("2026-02-04")),
    ]
    assert back.games[1].white.rating == 2100


def test_a_trf_holds_one_event(season: Services) -> None:
    with pytest.raises(InvalidInputError, match="cannot write a TRF"):
        exports.games_text(season(exports.export_games), "trf")
    one = exports.games_text(season(exports.export_games, event="Winter Cup"), "trf")
    assert "Hart" in one and "Sato" in one and "Berg" not in one


def test_a_history_a_list_and_the_players(season: Services) -> None:
    history = season(exports.export_history, "Hart", "standard")
    assert [(r.month, r.rating) for r in history.rows] == [(month("2026-01"), 2007)]
    assert season(exports.export_history, "Hart", "standard", month("2025-12")).rows == ()
    one = season(exports.export_history, "Hart", "standard", month("2026-01"))
    assert one == history  # its one month: the columns beside it too
    rl = season(listing.rating_list, "standard", None)  # what `export list` reads
    assert [(e.name, e.rating) for e in rl.entries] == [("Hart", 2007), ("Sato", 1893)]
    rows, views = season(exports.export_players)
    assert [r["name"] for r in rows] == [v.name for v in views]
    assert {"Hart", "Sato", "Berg", "Guest"} == {v.name for v in views}
