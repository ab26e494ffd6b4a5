"""A deterministic synthetic chess federation for the benchmark.

``generate(Config(...))`` returns players and games; the same config (and seed) always gives
the same data, byte for byte.

- Players: playing strength normal around 1700 (sd 250), clipped to 1000..2800; birth years
  with about a fifth juniors (who improve a little every month); a share of *external*
  players (foreign opponents, rated from the rating recorded on each game). Tracked players
  have a FIDE id; most of them are seeded with their published rating and a number of rated
  games, the others (and everyone below 1400) start unrated.
- Games: every month holds the same number of games, in events: weekend opens (5 to 7 rounds
  over two or three days, 24 to 160 players) and monthly leagues (4 rounds a week apart,
  8 to 16 players). Each round is paired Swiss-like: players sorted by score then rating,
  each paired with the nearest one he has not met yet, colours alternating. Results come
  from the Elo expectation of the players' strengths (with a small white advantage) and a
  draw rate that shrinks with the rating gap; a few games are forfeits.
"""

from __future__ import annotations

import csv
import datetime as dt
import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

CSV_HEADER = (
    "date",
    "white",
    "black",
    "result",
    "event",
    "round",
    "white_rating",
    "black_rating",
    "white_fide_id",
    "black_fide_id",
    "tc",
)

_SURNAME_PARTS = (
    "Ab", "Bar", "Cor", "Dal", "Ek", "Fen", "Gal", "Har", "Ib", "Jor", "Kel", "Lam", "Mor",
    "Nor", "Ol", "Par", "Quin", "Ros", "Sal", "Tor", "Ul", "Var", "Wes", "Yar", "Zel",
)  # fmt: skip
_SURNAME_ENDS = (
    "ton", "sen", "ova", "ez", "ski", "man", "ford", "ini", "ard", "ov", "berg", "ley",
)  # fmt: skip
_GIVEN = (
    "Adam", "Anna", "Boris", "Chen", "Daniel", "Elena", "Farid", "Grace", "Hugo", "Irina",
    "Jan", "Kira", "Luis", "Maya", "Nikolai", "Olga", "Pavel", "Rosa", "Sven", "Tara",
    "Umar", "Vera", "Wei", "Yuki", "Zoran",
)  # fmt: skip
_FEDERATIONS = ("ENG", "ENG", "ENG", "SCO", "WLS", "IRL")
_CITIES = (
    "Aberdeen", "Bath", "Cardiff", "Derby", "Exeter", "Fife", "Glasgow", "Hull", "Ipswich",
    "Kendal", "Leeds", "Margate", "Norwich", "Oxford", "Preston", "Reading", "Sheffield",
    "Truro", "Wigan", "York",
)  # fmt: skip


@dataclass(frozen=True)
class Config:
    players: int
    games: int
    months: int
    first_month: dt.date = dt.date(2024, 3, 1)
    seed: int = 20240301
    external_share: float = 0.10
    unseeded_share: float = 0.08  # of tracked players (plus everyone below 1400)
    junior_share: float = 0.20
    forfeit_share: float = 0.005
    # The big month (``big_month``): one month after the others with this many games.
    big_month_games: int = 16_000
    # Each month's events draw their entrants from this many players, drawn afresh every
    # month weighted by activity (None: from every player).
    active_players: int | None = None
    # Every tracked player's federation (None: drawn, mostly ENG).
    federation: str | None = None

    def scaled(self, factor: float) -> Config:
        """The same federation with ``factor`` times the players, active players and games."""
        active = self.active_players
        return replace(
            self,
            players=round(self.players * factor),
            games=round(self.games * factor),
            active_players=None if active is None else round(active * factor),
        )


SMALL = Config(players=3_000, games=48_000, months=12)
LARGE = Config(players=50_000, games=1_000_000, months=24, big_month_games=160_000)
# FIDE's scale: about 600,000 seeded players on the rating list (of 727,000 tracked: the
# others start unrated), 73,000 external players on top, 50,000 players active in a month,
# 250,000 games a month.
FEDERATION = Config(
    players=800_000,
    games=3_000_000,
    months=12,
    external_share=1 / 11,
    active_players=50_000,
    federation="ENG",
)


@dataclass
class Player:
    index: int
    name: str
    strength: float
    birth_year: int
    external: bool
    fide_id: int | None
    federation: str
    sex: str
    title: str | None
    seed_rating: int | None  # the published rating before tracking starts (tracked only)
    seed_games: int
    activity: float
    recorded: int = 0  # an external player's recorded rating

    @property
    def junior(self) -> bool:
        return self.birth_year >= 2006


@dataclass(frozen=True)
class GeneratedGame:
    played_on: dt.date
    white: int  # player index
    black: int
    result: str
    event: str
    round: int


@dataclass
class Federation:
    config: Config
    players: list[Player]
    games: list[GeneratedGame] = field(default_factory=list)

    def month_list(self) -> list[dt.date]:
        return [_add_months(self.config.first_month, i) for i in range(self.config.months)]


def _add_months(month: dt.date, n: int) -> dt.date:
    index = month.year * 12 + month.month - 1 + n
    return dt.date(index // 12, index % 12 + 1, 1)


def _days_in(month: dt.date) -> int:
    return (_add_months(month, 1) - month).days


def _name(index: int) -> str:
    a, rest = index % len(_SURNAME_PARTS), index // len(_SURNAME_PARTS)
    b, rest = rest % len(_SURNAME_ENDS), rest // len(_SURNAME_ENDS)
    g, rest = rest % len(_GIVEN), rest // len(_GIVEN)
    surname = _SURNAME_PARTS[a] + _SURNAME_ENDS[b].lower()
    suffix = f" {rest + 1}" if rest else ""
    return f"{surname}{suffix}, {_GIVEN[g]}"


def make_players(config: Config, rng: random.Random) -> list[Player]:
    players = []
    for i in range(config.players):
        strength = min(2800.0, max(1000.0, rng.gauss(1700.0, 250.0)))
        external = rng.random() < config.external_share
        junior = rng.random() < config.junior_share
        born = rng.randint(2008, 2016) if junior else rng.randint(1950, 2005)
        if junior:
            strength = min(strength, 2300.0)
        title = None
        if strength >= 2500:
            title = "GM"
        elif strength >= 2400:
            title = "IM"
        elif strength >= 2300:
            title = "FM"
        seed_rating = None
        seed_games = 0
        if not external and strength >= 1400 and rng.random() >= config.unseeded_share:
            seed_rating = round(strength + rng.gauss(0.0, 40.0))
            seed_rating = max(1400, seed_rating)
            seed_games = rng.randint(0, 60) if junior else rng.randint(10, 600)
        # Half the external players have a FIDE id; every tracked one has.
        fide_id = (9_000_000 + i if rng.random() < 0.5 else None) if external else 400_000 + i
        players.append(
            Player(
                index=i,
                name=_name(i),
                strength=strength,
                birth_year=born,
                external=external,
                fide_id=fide_id,
                federation=rng.choice(_FEDERATIONS) if not external else "FRA",
                sex="f" if rng.random() < 0.15 else "m",
                title=title,
                seed_rating=seed_rating,
                seed_games=seed_games,
                activity=rng.lognormvariate(0.0, 0.8),
                recorded=max(1400, round(strength)),
            )
        )
    return players


def _result(white: float, black: float, rng: random.Random, forfeit: float) -> str:
    if rng.random() < forfeit:
        return "+-" if rng.random() < 0.5 else "-+"
    expected = 1.0 / (1.0 + 10.0 ** ((black - white - 30.0) / 400.0))
    draw = 0.12 + 0.30 * math.exp(-abs(white - black) / 250.0) * min(1.0, (white + black) / 4400)
    draw = min(draw, 2 * min(expected, 1.0 - expected))
    u = rng.random()
    if u < expected - draw / 2:
        return "1-0"
    if u < expected + draw / 2:
        return "1/2-1/2"
    return "0-1"


class _Pairer:
    """Swiss-like rounds for one event."""

    def __init__(self, entrants: list[Player], rng: random.Random) -> None:
        self.entrants = entrants
        self.rng = rng
        self.score = {p.index: 0.0 for p in entrants}
        self.met: set[tuple[int, int]] = set()
        self.colour = {p.index: 0 for p in entrants}  # whites minus blacks

    def round(self) -> list[tuple[Player, Player]]:
        order = sorted(self.entrants, key=lambda p: (-self.score[p.index], -p.strength))
        unpaired = list(order)
        pairs = []
        while len(unpaired) >= 2:
            top = unpaired.pop(0)
            pick = 0
            for j, other in enumerate(unpaired[:8]):
                if (min(top.index, other.index), max(top.index, other.index)) not in self.met:
                    pick = j
                    break
            other = unpaired.pop(pick)
            self.met.add((min(top.index, other.index), max(top.index, other.index)))
            if self.colour[top.index] > self.colour[other.index] or (
                self.colour[top.index] == self.colour[other.index] and self.rng.random() < 0.5
            ):
                top, other = other, top
            self.colour[top.index] += 1
            self.colour[other.index] -= 1
            pairs.append((top, other))
        if unpaired:
            self.score[unpaired[0].index] += 1.0  # a bye: a point, no game
        return pairs

    def record(self, white: Player, black: Player, result: str) -> None:
        w, b = {"1-0": (1, 0), "0-1": (0, 1), "+-": (1, 0), "-+": (0, 1)}.get(result, (0.5, 0.5))
        self.score[white.index] += w
        self.score[black.index] += b


def _entrants(
    players: list[Player], cum: list[float], size: int, rng: random.Random
) -> list[Player]:
    chosen: dict[int, Player] = {}
    while len(chosen) < size:
        for p in rng.choices(players, cum_weights=cum, k=size - len(chosen)):
            chosen[p.index] = p
    return list(chosen.values())


def _cumulative(players: list[Player]) -> list[float]:
    """The players' cumulative activity, for ``rng.choices``."""
    return list(itertools.accumulate(p.activity for p in players))


def _active(players: list[Player], size: int, rng: random.Random) -> list[Player]:
    """A month's active players: ``size`` of them, drawn weighted by activity."""
    return _entrants(players, _cumulative(players), min(size, len(players)), rng)


def _month_games(
    fed: Federation,
    month: dt.date,
    quota: int,
    rng: random.Random,
    pool: list[Player],
    cum: list[float],
) -> Iterator[GeneratedGame]:
    days = _days_in(month)
    made = 0
    number = 0
    while made < quota:
        number += 1
        city = rng.choice(_CITIES)
        if rng.random() < 0.25:
            kind, size, rounds = "League", rng.randint(8, 16), 4
            start = rng.randint(1, 7)
            dates = [month.replace(day=start + 7 * r) for r in range(rounds)]
        else:
            kind, size = "Open", rng.randint(24, 160)
            rounds = rng.choice((5, 5, 6, 7))
            span = 2 if rounds == 5 else 3
            start = rng.randint(1, days - span + 1)
            per_day = math.ceil(rounds / span)
            dates = [month.replace(day=start + r // per_day) for r in range(rounds)]
        name = f"{city} {kind} {month:%Y-%m} #{number}"
        pairer = _Pairer(_entrants(pool, cum, min(size, len(pool)), rng), rng)
        for r in range(rounds):
            for white, black in pairer.round():
                if made >= quota:
                    return
                result = _result(white.strength, black.strength, rng, fed.config.forfeit_share)
                pairer.record(white, black, result)
                made += 1
                yield GeneratedGame(dates[r], white.index, black.index, result, name, r + 1)


def generate(config: Config) -> Federation:
    rng = random.Random(config.seed)
    fed = Federation(config, make_players(config, rng))
    if config.federation is not None:
        for p in fed.players:
            if not p.external:
                p.federation = config.federation
    per_month, extra = divmod(config.games, config.months)
    for i, month in enumerate(fed.month_list()):
        pool = fed.players
        if config.active_players is not None:
            pool = _active(fed.players, config.active_players, rng)
        quota = per_month + (1 if i < extra else 0)
        fed.games.extend(_month_games(fed, month, quota, rng, pool, _cumulative(pool)))
        for p in fed.players:  # juniors improve
            if p.junior:
                p.strength = min(2500.0, p.strength + 6.0)
    return fed


def big_month(fed: Federation) -> list[GeneratedGame]:
    """``config.big_month_games`` games in the month after the last one (the same players,
    the same kinds of events, a seeded generator of its own): a federation's busiest month,
    four times the usual, to measure the close of a big month."""
    config = fed.config
    rng = random.Random(config.seed + 1)
    month = _add_months(config.first_month, config.months)
    cum = _cumulative(fed.players)
    return list(_month_games(fed, month, config.big_month_games, rng, fed.players, cum))


def write_csv(fed: Federation, path: Path, games: list[GeneratedGame] | None = None) -> None:
    """The games (default: every game of the federation) as a CSV file for ``tracker
    import`` (ratings recorded for externals only)."""
    players = fed.players
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_HEADER)
        for g in fed.games if games is None else games:
            w, b = players[g.white], players[g.black]
            writer.writerow(
                (
                    g.played_on.isoformat(),
                    w.name,
                    b.name,
                    g.result,
                    g.event,
                    g.round,
                    w.recorded if w.external else "",
                    b.recorded if b.external else "",
                    w.fide_id or "",
                    b.fide_id or "",
                    "standard",
                )
            )


def games_by_month(fed: Federation) -> dict[dt.date, list[GeneratedGame]]:
    """The federation's games, month by month (every event lies within one month)."""
    out: dict[dt.date, list[GeneratedGame]] = {month: [] for month in fed.month_list()}
    for g in fed.games:
        out[g.played_on.replace(day=1)].append(g)
    return out


_MONTH_NAMES = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
#: FIDE's fixed-width standard list: (column name, width); the rating column is named by
#: the list's month (``FEB24``). See tracker/importers/fidelist.py.
_LIST_COLUMNS = (
    ("ID Number", 15), ("Name", 61), ("Fed", 4), ("Sex", 4), ("Tit", 5), ("WTit", 5),
    ("OTit", 15), ("FOA", 4), ("", 6), ("Gms", 4), ("K", 3), ("B-day", 6), ("Flag", 0),
)  # fmt: skip


def write_fide_list(fed: Federation, path: Path, federation: str) -> dt.date:
    """The seeded tracked players as FIDE's fixed-width standard rating list of the month
    before the first one, all of ``federation``: their seed as the rating, K 10 from 2400,
    K 40 for a junior under 2300 or fewer than 30 games, else K 20 (``tracker player
    import-fide-list`` reads the K as the flags and the games). The list's month."""
    month = _add_months(fed.config.first_month, -1)
    label = f"{_MONTH_NAMES[month.month - 1]}{month:%y}"

    def line(cells: tuple[object, ...]) -> str:
        return "".join(
            f"{cell:<{width}}" for cell, (_, width) in zip(cells, _LIST_COLUMNS, strict=True)
        ).rstrip()

    with path.open("w", encoding="utf-8") as out:
        out.write(line(tuple(name or label for name, _ in _LIST_COLUMNS)) + "\n")
        for p in fed.players:
            rating = p.seed_rating
            if p.external or rating is None:
                continue
            if rating >= 2400:
                k = 10
            elif (p.junior and rating < 2300) or p.seed_games < 30:
                k = 40
            else:
                k = 20
            title = p.title or ""
            sex, flag = ("F", "w") if p.sex == "f" else ("M", "")
            cells = (p.fide_id, p.name, federation, sex, title, "", "", "", rating, 0, k)
            out.write(line((*cells, p.birth_year, flag)) + "\n")
    return month
