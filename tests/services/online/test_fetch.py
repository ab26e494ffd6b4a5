"""Online ratings fetched and imported (tracker.services.online.fetch): a saved response
imported, who to fetch, the download through a given ``fetch`` (no network: a stand-in
answers from the recorded responses in tests/cli/data/online) and what storing did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Services, day, unrated
from tracker.errors import InvalidInputError, NotFoundError
from tracker.services.online import fetch
from tracker.services.players import roster

DATA = Path(__file__).resolve().parents[2] / "cli" / "data" / "online"
HISTORY = (DATA / "lichess_rating_history.json").read_bytes()


def test_urls_and_platforms() -> None:
    assert fetch.lichess_url("d hart") == "https://lichess.org/api/user/d%20hart/rating-history"
    assert fetch.chesscom_archives_url("DanielHart") == (
        "https://api.chess.com/pub/player/danielhart/games/archives"
    )
    assert fetch.check_platform(" Chess.com ") == "chesscom"
    with pytest.raises(InvalidInputError, match="unknown platform 'fics'"):
        fetch.check_platform("fics")


def test_a_saved_lichess_history_imported_then_again(db: Services) -> None:
    db(roster.add_player, name="Hart", lichess="dhart_fm")
    (first,) = db(fetch.import_data, HISTORY, Path("dhart.json"), "Hart")
    assert (first.name, first.platform, first.user) == ("Hart", "lichess", "dhart_fm")
    assert first.added == {"bullet": 2, "blitz": 4, "rapid": 2, "classical": 6}
    assert first.latest["classical"] == (day("2026-03-15"), 2428)
    (again,) = db(fetch.import_data, HISTORY, Path("dhart.json"), "Hart")
    assert again.total_added == 0 and sum(again.unchanged.values()) == 14
    changed = json.loads(HISTORY)
    classical = next(p for p in changed if p["name"] == "Classical")
    classical["points"][-1][3] = 2430  # the same day, another rating
    (third,) = db(fetch.import_data, json.dumps(changed).encode(), Path("dhart.json"), "Hart")
    assert third.updated == {"classical": 1} and third.total_added == 0
    with pytest.raises(InvalidInputError, match="does not say whose it is: give --player"):
        db(fetch.import_data, HISTORY, Path("dhart.json"), None)
    db(unrated, "Sato")
    with pytest.raises(InvalidInputError, match="Sato has no linked Lichess account"):
        db(fetch.import_data, HISTORY, Path("dhart.json"), "Sato")


def test_who_to_fetch_downloaded_and_stored(db: Services) -> None:
    with pytest.raises(NotFoundError, match="no player has a linked online account"):
        db(fetch.plan_fetch, None, None)
    db(roster.add_player, name="Hart", lichess="dhart_fm")
    db(unrated, "Sato")
    (target,) = db(fetch.plan_fetch, None, None)
    assert (target.name, target.platform, target.user, target.since) == (
        "Hart", "lichess", "dhart_fm", None,
    )  # fmt: skip
    with pytest.raises(NotFoundError, match=r"Sato has no linked Lichess or Chess\.com account"):
        db(fetch.plan_fetch, "Sato", None)
    asked: list[str] = []

    def answer(url: str) -> bytes:
        asked.append(url)
        return HISTORY

    said: list[str] = []
    (got,) = fetch.download([target], answer, said.append)
    assert asked == [fetch.lichess_url("dhart_fm")]
    assert said == ["fetching Hart's Lichess rating history (dhart_fm)"]
    assert len(got.points) == 14 and got.notes == ()
    (stored,) = db(fetch.store_downloads, [got])
    assert stored.total_added == 14
    (later,) = db(fetch.plan_fetch, "Hart", "lichess")
    assert later.since == day("2026-03-15")  # the last stored day


def test_a_user_the_platform_does_not_know(db: Services) -> None:
    db(roster.add_player, name="Hart", lichess="nobody_here")
    (target,) = db(fetch.plan_fetch, "Hart", None)

    def missing(url: str) -> bytes:
        raise NotFoundError(f"{url}: 404")

    with pytest.raises(NotFoundError, match="Lichess has no user nobody_here \\(linked to Hart\\)"):
        fetch.download([target], missing)
