"""Every door a game comes in by, driven with the same game: ``game add``, ``game edit``,
``game add-round`` and ``tracker import`` of a CSV, a PGN and a TRF file written for it. Each
door says what became of the game: refused (nothing stored), stored with a warning, or
accepted; and what was stored. The one-intake tests ask that every door gives the same."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import create_engine, text
from typer.testing import Result

from tests.helpers import Cli, comparable, js, ok
from tracker.services.intake import clean_round

Outcome = Literal["refused", "warned", "accepted"]

#: The club every door is tried on: two tracked players, an external one, and a game of
#: 2026-09 (the month the records start).
CLUB = (
    ("player", "add", "Hart, Daniel", "--born", "1988", "--rating", "2318", "--games", "240"),
    ("player", "add", "Sato, Yuki", "--born", "2012", "--rating", "1876", "--games", "41"),
    ("player", "add", "Kim, Ji-ho", "--external"),
    ("player", "add", "Patel, Arjun", "--born", "2010"),
    ("game", "add", "Patel", "Hart", "0-1", "--date", "2026-09-05", "--event", "Club Night"),
)


@dataclass(frozen=True)
class Spec:
    """A game as typed or written."""

    white: str = "Hart, Daniel"
    black: str = "Sato, Yuki"
    result: str = "1-0"
    date: str = "2026-10-10"
    event: str | None = "Autumn Cup"
    round: str | None = "1"
    white_rating: int | None = None
    black_rating: int | None = None
    tc: str = "standard"


@dataclass(frozen=True)
class Seen:
    """What a door made of a game."""

    outcome: Outcome
    stored: tuple[Any, ...] | None  # the game as stored (no id), None if refused
    lines: tuple[str, ...]  # what it said

    def __str__(self) -> str:
        return f"{self.outcome} {self.stored} {self.lines}"


def outcome(result: Result) -> Outcome:
    if result.exit_code != 0:
        return "refused"
    return "warned" if "warning:" in result.stderr else "accepted"


class Doors:
    """The doors on one database, which each try leaves as it found it."""

    def __init__(self, cli: Cli, url: str, folder: Path) -> None:
        self.cli, self.url, self.folder = cli, url, folder
        for args in CLUB:
            ok(cli(*args))
        self.marks = {t: self._max(t) for t in ("games", "events", "players", "imports")}
        self.files = 0

    # -- the doors --------------------------------------------------------------------------

    def game_add(self, spec: Spec, *more: str) -> Result:
        args = ["game", "add", spec.white, spec.black, spec.result, "--date", spec.date]
        args += ["--tc", spec.tc]
        if spec.event is not None:
            args += ["--event", spec.event]
        if spec.round is not None:
            args += ["--round", spec.round]
        for flag, rating in (
            ("--white-rating", spec.white_rating),
            ("--black-rating", spec.black_rating),
        ):
            if rating is not None:
                args += [flag, str(rating)]
        return self.cli(*args, *more)

    def game_edit(self, spec: Spec, *more: str) -> Result:
        """A game of the club's first player pair corrected to ``spec``."""
        ok(self.cli("game", "add", "Patel", "Kim", "1-0", "--date", "2026-09-06",
                    "--black-rating", "1803"))  # fmt: skip
        game_id = js(self.cli, "game", "list")[-1]["id"]
        args = ["game", "edit", str(game_id), "--white", spec.white, "--black", spec.black]
        args += ["--result", spec.result, "--date", spec.date, "--tc", spec.tc]
        for option, value in (("event", spec.event), ("round", spec.round)):
            args += [f"--{option}", value] if value is not None else ["--clear", option]
        for side, rating in (("white", spec.white_rating), ("black", spec.black_rating)):
            given = [f"--{side}-rating", str(rating)] if rating is not None else []
            args += given or ["--clear", f"{side}-rating"]
        return self.cli(*args, *more)

    def add_round(self, spec: Spec, *more: str) -> Result:
        assert spec.event is not None and spec.round is not None
        line = f"{_bracketed(spec.white, spec.white_rating)} {spec.result} "
        line += _bracketed(spec.black, spec.black_rating)
        args = ["game", "add-round", spec.event, "--round", spec.round, "--date", spec.date]
        return self.cli(*args, "--tc", spec.tc, *more, input=line + "\n")

    def csv(self, spec: Spec, *more: str) -> Result:
        cells = [
            spec.date,
            spec.white,
            spec.black,
            spec.result,
            spec.event or "",
            spec.round or "",
            "" if spec.white_rating is None else str(spec.white_rating),
            "" if spec.black_rating is None else str(spec.black_rating),
            spec.tc,
        ]
        quoted = ",".join(f'"{c}"' for c in cells)
        return self._import(
            "csv",
            f"date,white,black,result,event,round,white_rating,black_rating,tc\n{quoted}\n",
            more,
        )

    def pgn(self, spec: Spec, *more: str) -> Result:
        tags = {
            "Event": spec.event or "?",
            "Date": spec.date.replace("-", "."),
            "Round": spec.round or "?",
            "White": spec.white,
            "Black": spec.black,
            "Result": spec.result,
            "TimeControl": {"standard": "5400+30", "rapid": "900+10", "blitz": "180+2"}.get(
                spec.tc.casefold(), "?"
            ),
        }
        for side, rating in (("WhiteElo", spec.white_rating), ("BlackElo", spec.black_rating)):
            if rating is not None:
                tags[side] = str(rating)
        text = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        return self._import("pgn", f"{text}\n1. e4 e5 {spec.result}\n", more)

    def trf(self, spec: Spec, *more: str) -> Result:
        """A TRF of one round, one game (the round is the file's first: ``spec.round`` 1)."""
        assert spec.event is not None and clean_round(spec.round) == "1"
        day = dt.date.fromisoformat(spec.date)
        codes = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "+-": ("+", "-"),
                 "-+": ("-", "+")}[spec.result]  # fmt: skip
        lines = [
            f"012 {spec.event}",
            f"042 {day:%Y/%m/%d}",  # its one round is dated on its start
            _trf_player(1, spec.white, spec.white_rating, 2, "w", codes[0]),
            _trf_player(2, spec.black, spec.black_rating, 1, "b", codes[1]),
        ]
        return self._import("trf", "\n".join(lines) + "\n", ("--tc", spec.tc, *more))

    def all(self) -> dict[str, Callable[..., Result]]:
        return {
            "game add": self.game_add,
            "game edit": self.game_edit,
            "add-round": self.add_round,
            "csv": self.csv,
            "pgn": self.pgn,
            "trf": self.trf,
        }

    # -- trying one ------------------------------------------------------------------------

    def through(self, door: str, spec: Spec, *more: str) -> Seen:
        """``spec`` through ``door`` on the club, which is then as it was."""
        before = len(js(self.cli, "game", "list"))
        result = self.all()[door](spec, *more)
        after = js(self.cli, "game", "list")
        lines = tuple(result.stderr.strip().splitlines())
        try:
            kind = outcome(result)
            if kind == "refused":
                assert len(after) == before + (door == "game edit"), lines
                return Seen(kind, None, lines)
            return Seen(kind, comparable(after[-1]), lines)
        finally:
            self.reset()

    def reset(self) -> None:
        engine = create_engine(self.url)
        try:
            with engine.begin() as conn:
                for table in ("games", "events", "imports", "players"):
                    conn.execute(text(f"DELETE FROM {table} WHERE id > {self.marks[table]}"))
        finally:
            engine.dispose()

    def _max(self, table: str) -> int:
        engine = create_engine(self.url)
        try:
            with engine.connect() as conn:
                return int(
                    conn.execute(text(f"SELECT coalesce(max(id), 0) FROM {table}")).scalar_one()
                )
        finally:
            engine.dispose()

    def _import(self, suffix: str, body: str, more: tuple[str, ...]) -> Result:
        self.files += 1
        path = self.folder / f"door{self.files}.{suffix}"
        path.write_text(body, encoding="utf-8")
        return self.cli("import", str(path), "--create-players", "no", *more)


def _bracketed(name: str, rating: int | None) -> str:
    return name if rating is None else f"{name} ({rating})"


def _trf_player(
    rank: int, name: str, rating: int | None, opponent: int, colour: str, code: str
) -> str:
    record = f"001 {rank:>4} m    {name:<33} {'' if rating is None else rating:>4}"
    record = record.ljust(91)
    return record + f"{opponent:>4} {colour} {code}"


def same_everywhere(seen: dict[str, Seen]) -> None:
    """Every door made the same of the game."""
    outcomes = {door: s.outcome for door, s in seen.items()}
    assert len(set(outcomes.values())) == 1, "\n".join(f"{d}: {s}" for d, s in seen.items())
    games = {door: s.stored for door, s in seen.items()}
    assert len(set(games.values())) == 1, "\n".join(f"{d}: {s}" for d, s in seen.items())


def at(spec: Spec, **changes: Any) -> Spec:
    return replace(spec, **changes)
