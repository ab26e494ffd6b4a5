"""The sample season shipped with the package, loaded through the ordinary services."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from tracker.db.driver import Db
from tracker.db.queries.demo import player_names_in_file
from tracker.ratings.fide.records import Seed
from tracker.services.games import add_game
from tracker.services.online.fetch import import_data
from tracker.services.players.roster import add_player, edit_player
from tracker.vocabulary import LICHESS


@dataclass(frozen=True)
class DemoSummary:
    description: str
    players: int
    tracked: int
    games: int
    months: tuple[dt.date, ...]
    linked: tuple[str, ...] = ()  # players with a (fictional) Lichess account and history


def season() -> dict[str, Any]:
    text = resources.files("tracker.services").joinpath("data/demo_season.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def is_demo_database(path: Path) -> bool:
    """Whether the SQLite file at ``path`` is one ``tracker demo`` made: its players are the
    sample season's, no more, no fewer (read only: a file that is not one is left as it was)."""
    return player_names_in_file(path) == {p["name"] for p in season()["players"]}


def load_demo(db: Db) -> DemoSummary:
    """The sample season, added as the commands add it."""
    data = season()
    for p in data["players"]:
        seed = Seed(rating=p["rating"], games=p["games"]) if p.get("rating") is not None else None
        add_player(
            db,
            name=p["name"],
            fide_id=p.get("fide_id"),
            birth_year=p.get("born"),
            federation=p.get("federation"),
            sex=p.get("sex"),
            title=p.get("title"),
            external=bool(p.get("external")),
            seed=seed,
        )
    for g in data["games"]:
        add_game(
            db,
            white=g["white"],
            black=g["black"],
            result=g["result"],
            played_on=dt.date.fromisoformat(g["date"]),
            tc=g.get("tc", "standard"),
            event=g.get("event"),
            round_=g.get("round"),
            white_rating=g.get("white_rating"),
            black_rating=g.get("black_rating"),
        )
    linked = []
    for account in data.get("online", {}).get(LICHESS.key, []):
        # A recorded rating history in Lichess's format, as `tracker online import` reads it.
        edit_player(db, account["player"], changes={LICHESS.key: account["user"]})
        history = json.dumps(account["rating_history"]).encode("utf-8")
        import_data(db, history, Path(f"{account['user']}.json"), account["player"])
        linked.append(account["player"])
    by_month = {g["date"][:7] for g in data["games"]}
    return DemoSummary(
        description=data["description"],
        players=len(data["players"]),
        tracked=sum(1 for p in data["players"] if not p.get("external")),
        games=len(data["games"]),
        months=tuple(dt.date.fromisoformat(m + "-01") for m in sorted(by_month)),
        linked=tuple(linked),
    )
