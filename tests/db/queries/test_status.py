"""What ``tracker status`` counts (tracker.db.queries.status)."""

from __future__ import annotations

from tests.helpers import Services, close, external, game, month, seeded, unrated
from tracker.db.queries import lists as list_queries
from tracker.db.queries import status as q
from tracker.services import imports
from tracker.services.imports.report import ImportOptions, SourceFile

CSV = b"date,white,black,result,white_rating,black_rating\n2026-02-03,Hart,Berg,1-0,,1900\n"


def test_counts_of_an_empty_database(db: Services) -> None:
    with db.transaction() as s:
        assert q.player_counts(s) == (0, 0)
        assert q.game_count(s) == 0
        assert q.last_import(s) is None


def test_players_games_and_the_last_import(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2100)
        unrated(s, "Sato")
        external(s, "Guest")
        game(s, "Hart", "Guest", "1-0", "2026-01-05", black_rating=1900)
        game(s, "Sato", "Hart", "0-1", "2026-01-06")
    with db.transaction() as s:
        imports.import_files(
            s, [SourceFile("club.csv", CSV)], ImportOptions(tc="standard", create_players="auto")
        )
    with db.transaction() as s:
        assert q.player_counts(s) == (2, 2)  # Berg, with a recorded rating, came external
        assert q.game_count(s) == 3
        last = q.last_import(s)
        assert last is not None and (last.file, last.added) == ("club.csv", 1)


def test_the_movers_of_a_list_are_the_players_rated_before_who_played(db: Services) -> None:
    with db.transaction() as s:
        seeded(s, "Hart", 2000)
        seeded(s, "Sato", 2000)
        seeded(s, "Idle", 1800)
        game(s, "Hart", "Sato", "1-0", "2026-01-05")
    db(close, "2026-01")
    with db.transaction() as s:
        period = list_queries.period_id(s, "standard", month("2026-01"))
        assert period is not None
        moves = {m.name: (m.rating_before, m.rating, m.change) for m in q.moves(s, period)}
    # K 20 (100 games, born 1980), equal ratings: Hart +10, Sato -10; the idle one is no mover
    assert moves == {"Hart": (2000, 2010, 10), "Sato": (2000, 1990, -10)}
