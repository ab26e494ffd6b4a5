"""Parsing the platforms' API responses (recorded fixtures in their real formats)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from tracker.services.online.parse import (
    Archive,
    OnlinePoint,
    chesscom_archives,
    chesscom_games,
    chesscom_players,
    kind_of,
    lichess_history,
    read_json,
)

DATA = Path(__file__).resolve().parents[2] / "cli" / "data" / "online"
D = dt.date


def load(name: str) -> Any:
    payload, why = read_json((DATA / name).read_bytes())
    assert why is None
    return payload


def utc(y: int, m: int, d: int, h: int, minute: int = 0) -> int:
    return int(dt.datetime(y, m, d, h, minute, tzinfo=dt.UTC).timestamp())


def test_kinds() -> None:
    assert kind_of(load("lichess_rating_history.json")) == "lichess-history"
    assert kind_of(load("chesscom_2026_01.json")) == "chesscom-games"
    assert kind_of(load("chesscom_archives.json")) == "chesscom-archives"
    assert kind_of({"username": "x"}) is None and kind_of([1, 2]) is None
    assert kind_of([]) == "lichess-history"  # a user without rated games: an empty history


def test_lichess_months_are_zero_based_and_only_standard_chess_perfs_are_kept() -> None:
    result = lichess_history(load("lichess_rating_history.json"))
    assert result.problems == ()
    assert set(result.ignored_perfs) == {"Chess960", "Puzzles", "UltraBullet"}
    classical = [(p.day, p.rating) for p in result.points if p.perf == "classical"]
    # [2025, 10, 15, 2402] is 15 November 2025; [2026, 0, 31, 2425] is 31 January 2026
    assert classical == [
        (D(2025, 11, 15), 2402),
        (D(2025, 12, 20), 2411),
        (D(2026, 1, 9), 2419),
        (D(2026, 1, 31), 2425),
        (D(2026, 2, 27), 2433),
        (D(2026, 3, 15), 2428),
    ]
    assert {p.perf for p in result.points} == {"classical", "rapid", "blitz", "bullet"}
    assert len(result.points) == 14


def test_lichess_bad_points_are_left_out_with_a_note() -> None:
    payload = [
        {
            "name": "Classical",
            "points": [
                [2026, 0, 9, 2419],
                [2026, 1, 30, 2400],  # 30 February
                [2026, 0, 10, "2400"],
                [2026, 0, 11],
                [2026, 0, 12, 99999],
                [2026, 0, 12, 2421],
                [2026, 0, 12, 2423],  # the same day twice: the last one
            ],
        },
        {"name": "Rapid", "points": "none"},
    ]
    result = lichess_history(payload)
    assert result.points == (
        OnlinePoint("classical", D(2026, 1, 9), 2419),
        OnlinePoint("classical", D(2026, 1, 12), 2423),
    )
    assert result.problems == (
        "Classical point 2: no such day 2026/1/30",
        "Classical point 3: implausible rating '2400'",
        "Classical point 4: not [year, month, day, rating]",
        "Classical point 5: implausible rating 99999",
        "Rapid: points is not a list",
    )
    assert lichess_history({"games": []}).problems[0].startswith("not a Lichess rating history")


def test_chesscom_a_days_rating_is_after_the_last_rated_standard_game() -> None:
    result = chesscom_games(load("chesscom_2026_01.json"), "danielhart")  # any case
    assert result.problems == ()
    assert result.points == (
        OnlinePoint("blitz", D(2026, 1, 11), 2240),
        OnlinePoint("daily", D(2026, 1, 30), 2001),
        # two games on 4 January: 2288 after the first, 2295 after the second (as Black)
        OnlinePoint("rapid", D(2026, 1, 4), 2295),
        # 25 January; the unrated game of the 26th and the Chess960 game of the 27th are out
        OnlinePoint("rapid", D(2026, 1, 25), 2290),
    )
    assert result.ignored_perfs == ("chess960 rapid",)
    okafor = chesscom_games(load("chesscom_2026_01.json"), "Okafor_G")
    assert okafor.points == (OnlinePoint("rapid", D(2026, 1, 4), 2101),)
    assert chesscom_games(load("chesscom_2026_01.json"), "nobody").points == ()
    assert chesscom_players(load("chesscom_2026_01.json")) >= {"danielhart", "okafor_g"}


def test_chesscom_days_are_utc_and_order_follows_end_time() -> None:
    def side(rating: int) -> dict[str, Any]:
        return {"@id": "https://api.chess.com/pub/player/hart", "rating": rating}

    def opp() -> dict[str, Any]:
        return {"username": "x", "rating": 2000}

    games = {
        "games": [
            # listed out of order: the later game of 1 March is listed first
            {"time_class": "rapid", "end_time": utc(2026, 3, 1, 23, 50), "white": side(2310),
             "black": opp()},
            {"time_class": "rapid", "end_time": utc(2026, 3, 1, 22, 0), "white": side(2300),
             "black": opp()},
            {"time_class": "rapid", "end_time": utc(2026, 3, 2, 0, 10), "black": side(2320),
             "white": opp()},
            {"time_class": "rapid", "white": side(2330), "black": opp()},
        ]
    }  # fmt: skip
    result = chesscom_games(games, "Hart")  # the user name from "@id" (older archives)
    assert result.points == (
        OnlinePoint("rapid", D(2026, 3, 1), 2310),
        OnlinePoint("rapid", D(2026, 3, 2), 2320),
    )
    assert result.problems == ("game 4: no end_time",)


def test_chesscom_archive_list() -> None:
    archives, problems = chesscom_archives(load("chesscom_archives.json"))
    assert problems == ()
    assert archives == (
        Archive(2026, 1, "https://api.chess.com/pub/player/danielhart/games/2026/01"),
        Archive(2026, 2, "https://api.chess.com/pub/player/danielhart/games/2026/02"),
    )
    assert archives[1].first_day == D(2026, 2, 1)
    listed = {
        "archives": [
            "https://api.chess.com/pub/player/x/games/2025/12",
            "https://api.chess.com/pub/player/x/games/2025/07",
            "http://api.chess.com/pub/player/x/games/2025/08",
            "https://api.chess.com/pub/player/x/games/2025/13",
            17,
        ]
    }
    archives, problems = chesscom_archives(listed)
    assert [(a.year, a.month) for a in archives] == [(2025, 7), (2025, 12)]  # oldest first
    assert len(problems) == 3


def test_read_json_never_raises() -> None:
    assert read_json(b"\xff\xfe\x00") == (None, "not UTF-8 text")
    payload, why = read_json(b"[1, 2")
    assert payload is None and why is not None and why.startswith("not JSON")
    assert read_json("\ufeff[]".encode()) == ([], None)
    assert read_json(json.dumps({"a": 1}).encode()) == ({"a": 1}, None)
