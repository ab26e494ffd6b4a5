"""Games back out as CSV, PGN or FIDE TRF text: the inverse of the parsers (no database).

Each writer takes :class:`GameRecord` values (``source`` and ``line`` are ignored) and
writes what its parser reads back as the same games:

* :func:`write_csv`: exactly the import header (:data:`.csvfile.ALLOWED_COLUMNS`), UTF-8
  without a byte-order mark, comma-separated, ``\\n`` line ends, fields quoted when needed; a
  name, event, site or round a spreadsheet would run as a formula (``=HYPERLINK(...)``) behind
  a ``'`` (:func:`tracker.importers.records.spreadsheet_text`), which the importer takes off.
* :func:`write_pgn`: the Seven Tag Roster, then ``WhiteElo``/``BlackElo`` and
  ``WhiteFideId``/``BlackFideId`` when known, ``WhiteTitle``/``BlackTitle``, a
  ``TimeControl`` and ``EventDate``, and an empty movetext holding the result. A database
  keeps only the class of a game's time control, so ``TimeControl`` says that class
  (``standard``, ``rapid``, ``blitz``): no control nobody entered, and it reads back as the
  same class.
  PGN has no forfeit result: a forfeit is written as a win with ``[Termination
  "forfeit"]``, which the PGN parser reads back as the forfeit. A quote or a backslash in
  a tag value is escaped (``\\"``, ``\\\\``), as the PGN standard writes them and the
  parser reads them.
* :func:`write_trf`: one event as a TRF16 file (see its docstring).

Stdlib only. Registered with their readers in :data:`tracker.importers.detect.FORMATS`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from tracker.importers.csvfile import ALLOWED_COLUMNS
from tracker.importers.pgn_tags import escaped
from tracker.importers.records import GameRecord, PlayerInfo, csv_file, spreadsheet_text

_PGN_RESULT: Final[dict[str, str]] = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "+-": "1-0",
    "-+": "0-1",
    "0-0": "*",  # PGN has no double forfeit: the game is written unfinished (and read so)
}


def write_csv(games: Sequence[GameRecord]) -> str:
    """The games as a CSV file the CSV importer reads back unchanged."""
    return csv_file(ALLOWED_COLUMNS, (_csv_row(g) for g in games))


def _csv_row(g: GameRecord) -> list[object]:
    row = {
        "date": g.played_on.isoformat(),
        "white": spreadsheet_text(g.white.name),
        "black": spreadsheet_text(g.black.name),
        "result": g.result,  # +- and -+: no formula (and read back as forfeits)
        "event": g.event and spreadsheet_text(g.event),
        "site": g.site and spreadsheet_text(g.site),
        "round": g.round and spreadsheet_text(g.round),
        "white_rating": g.white.rating,
        "black_rating": g.black.rating,
        "white_fide_id": g.white.fide_id,
        "black_fide_id": g.black.fide_id,
        "tc": g.tc,
        "event_start": g.event_start.isoformat() if g.event and g.event_start else None,
    }
    return [row[column] for column in ALLOWED_COLUMNS]


def _pgn_value(value: str) -> str:
    return escaped(" ".join(value.split()))


def write_pgn(games: Sequence[GameRecord]) -> str:
    """The games as PGN (headers and result only), read back by the PGN importer."""
    parts: list[str] = []
    for g in games:
        tags: list[tuple[str, str]] = [
            ("Event", g.event or "?"),
            ("Site", g.site or "?"),
            ("Date", g.played_on.isoformat().replace("-", ".")),
            ("Round", g.round or "?"),
            ("White", g.white.name),
            ("Black", g.black.name),
            ("Result", _PGN_RESULT[g.result]),
        ]
        for tag, attribute in (("Elo", "rating"), ("FideId", "fide_id"), ("Title", "title")):
            for colour, info in (("White", g.white), ("Black", g.black)):
                if (value := getattr(info, attribute)) is not None:
                    tags.append((f"{colour}{tag}", str(value)))
        if g.tc is not None:
            tags.append(("TimeControl", g.tc))
        if g.event is not None and g.event_start is not None:
            tags.append(("EventDate", g.event_start.isoformat().replace("-", ".")))
        if g.is_forfeit:
            tags.append(("Termination", "double forfeit" if g.result == "0-0" else "forfeit"))
        lines = [f'[{name} "{_pgn_value(value)}"]' for name, value in tags]
        parts.append("\n".join(lines) + f"\n\n{_PGN_RESULT[g.result]}\n")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------
# TRF


class TrfExportError(ValueError):
    """The games cannot be written as one TRF tournament (the reason says why)."""


@dataclass(frozen=True)
class _Entrant:
    info: PlayerInfo
    key: tuple[str, object]


_TRF_CODE: Final[dict[str, tuple[str, str]]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "0-0": ("-", "-"),
}


def _player_key(info: PlayerInfo) -> tuple[str, object]:
    return ("id", info.fide_id) if info.fide_id is not None else ("name", info.name)


def _round_number(text: str | None) -> int:
    value = (text or "").strip()
    if not value.isascii() or not value.isdigit() or int(value) < 1 or int(value) > 999:
        raise TrfExportError(
            f"round {text!r} is not a round number 1..999: a TRF needs numbered rounds"
        )
    return int(value)


def write_trf(games: Sequence[GameRecord]) -> str:
    """One event's games as a TRF16 file that the TRF importer reads back as the same games.

    * ``012`` the event name, ``022`` the site, ``042`` the start date, ``052`` the last
      game's date, ``062``/``072`` the number of players, ``132`` each round's date;
    * one ``001`` record per player, numbered by recorded rating (highest first) then name,
      with sex, title, name, rating (his recorded rating in his first game), federation,
      FIDE id, birth year, points, place (by points, then starting rank), and for each
      round opponent / colour / result;
    * ``122`` the games' time control class when they share one (``standard``...; the
      database keeps the class, not the control), which reads back as the same class;
    * the rating of a player is his recorded rating in his first game (an export fills a
      tracked player's with his rating on the list in force at the event's start).

    A TRF records one rating per player per event: a player whose recorded rating changed
    during the event reads back with his first one on every game.

    The games must belong to one event, have numbered rounds (1, 2, ...), one game per
    player per round, and one date per round; otherwise :class:`TrfExportError`.
    A round a player did not play is left blank (read back as an absence, not stored).
    """
    if not games:
        raise TrfExportError("no games to write")
    events = {g.event for g in games}
    if len(events) != 1 or None in events:
        raise TrfExportError("a TRF holds one event: choose one (its games must all have it)")
    table = _TrfTable.of(games)
    return "\n".join([*_trf_header(games, table), *table.records()]) + "\n"


@dataclass
class _TrfTable:
    """An event's players and rounds as a TRF lays them out: each player's entry per round
    (opponent, colour, code), his points, starting rank (by first recorded rating, then
    name) and place."""

    entrants: dict[tuple[str, object], _Entrant] = field(default_factory=dict)
    first_rating: dict[tuple[str, object], int | None] = field(default_factory=dict)
    round_dates: dict[int, date] = field(default_factory=dict)
    slots: dict[tuple[tuple[str, object], int], tuple[tuple[str, object], str, str]] = field(
        default_factory=dict
    )
    points: dict[tuple[str, object], float] = field(default_factory=lambda: defaultdict(float))
    order: list[_Entrant] = field(default_factory=list)
    rank: dict[tuple[str, object], int] = field(default_factory=dict)
    place: dict[tuple[str, object], int] = field(default_factory=dict)

    @classmethod
    def of(cls, games: Sequence[GameRecord]) -> _TrfTable:
        table = cls()
        for g in sorted(games, key=lambda g: (g.played_on, _round_number(g.round))):
            table.add(g)
        table.order = sorted(
            table.entrants.values(),
            key=lambda e: (-(table.first_rating[e.key] or 0), e.info.name, str(e.key)),
        )
        table.rank = {e.key: number for number, e in enumerate(table.order, start=1)}
        standings = sorted(table.order, key=lambda e: (-table.points[e.key], table.rank[e.key]))
        table.place = {e.key: number for number, e in enumerate(standings, start=1)}
        return table

    def add(self, g: GameRecord) -> None:
        """One game: its round's date, both players' entries and points."""
        number = _round_number(g.round)
        known = self.round_dates.setdefault(number, g.played_on)
        if known != g.played_on:
            raise TrfExportError(
                f"round {number} has games on {known} and {g.played_on}: a TRF gives one "
                "date per round"
            )
        white, black = _player_key(g.white), _player_key(g.black)
        for key, info in ((white, g.white), (black, g.black)):
            if len(info.name) > 33:
                raise TrfExportError(f"{info.name!r} is longer than a TRF's 33-character names")
            self.entrants.setdefault(key, _Entrant(info, key))
            self.first_rating.setdefault(key, info.rating)
            if (key, number) in self.slots:
                raise TrfExportError(f"{info.name} plays twice in round {number}")
        white_code, black_code = _TRF_CODE[g.result]
        self.slots[(white, number)] = (black, "w", white_code)
        self.slots[(black, number)] = (white, "b", black_code)
        for key, code in ((white, white_code), (black, black_code)):
            self.points[key] += {"1": 1.0, "+": 1.0, "=": 0.5}.get(code, 0.0)

    @property
    def rounds(self) -> int:
        return max(self.round_dates)

    def dates_record(self) -> str:
        """The ``132`` record: each round's date."""
        dates = "".join(
            (self.round_dates[n].strftime("%y/%m/%d") if n in self.round_dates else "").ljust(10)
            for n in range(1, self.rounds + 1)
        )
        return ("132" + " " * 88 + dates).rstrip()

    def records(self) -> list[str]:
        """One ``001`` record per player, by starting rank."""
        out = []
        for entrant in self.order:
            info, key = entrant.info, entrant.key
            rating = self.first_rating[key]
            record = (
                f"001 {self.rank[key]:>4} {(info.sex or ' ').replace('f', 'w')}"
                f"{(info.title or '')[:3]:>3} {info.name:<33} "
                f"{rating or '':>4} {(info.federation or ''):<3} {info.fide_id or '':>11} "
                f"{info.birth_year or '':<10} {self.points[key]:>4.1f} {self.place[key]:>4}"
            )
            for number in range(1, self.rounds + 1):
                slot = self.slots.get((key, number))
                if slot is None:
                    record += "          "
                else:
                    opponent, colour, code = slot
                    record += f"  {self.rank[opponent]:>4} {colour} {code}"
            out.append(record.rstrip())
        return out


def _trf_header(games: Sequence[GameRecord], table: _TrfTable) -> list[str]:
    """The event's records: name, site, dates, players, time control, round dates."""
    first, last = min(g.played_on for g in games), max(g.played_on for g in games)
    start = games[0].event_start or first
    lines = [
        f"012 {games[0].event}",
        *([f"022 {games[0].site}"] if games[0].site else []),
        f"042 {min(start, first).isoformat().replace('-', '/')}",
        f"052 {last.isoformat().replace('-', '/')}",
        f"062 {len(table.order)}",
        f"072 {len(table.order)}",
    ]
    tcs = {g.tc for g in games}
    if len(tcs) == 1 and None not in tcs:
        lines.append(f"122 {next(iter(tcs))}")
    lines.append(table.dates_record())
    return lines
