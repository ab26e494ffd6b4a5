"""``tracker export games|history|list|players``: data back out as CSV, JSON, PGN or TRF."""

from __future__ import annotations

import datetime as dt
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from tracker.cli.context import state
from tracker.cli.history import ENTRY_KEYS, HISTORY_KEYS, history_json, rating_list_json
from tracker.cli.notes import stale_list_warning, stale_warning
from tracker.cli.options import month_option, option, player_option, tc_option
from tracker.cli.render import json_text, keys, message, pick, plain
from tracker.errors import UsageError
from tracker.files import check_target, write_file
from tracker.importers.records import csv_cell, csv_file
from tracker.vocabulary import FORFEITS, TimeControl

if TYPE_CHECKING:
    from tracker.db.queries.exports import GameLine
    from tracker.services.players.refs import PlayerView


def _formats() -> dict[str, tuple[str, ...]]:
    """What each export writes: games in JSON or any game file format, the rest as tables."""
    from tracker.services.exports import GAME_FORMATS

    tables = ("csv", "json")
    return {
        "games": tuple(sorted({"json", *GAME_FORMATS})),
        "history": tables,
        "list": tables,
        "players": tables,
    }


def export(
    ctx: typer.Context,
    what: Annotated[
        Literal["games", "history", "list", "players"],
        typer.Argument(
            metavar="WHAT",
            help="games, history, list or players. games: the games (CSV, JSON, PGN, or one "
            "event as TRF); history: a player's rating history (needs --player); list: a "
            "published rating list; players: every player with his seeds (the CSV imports "
            "again with `tracker import`).",
        ),
    ],
    player: Annotated[
        str | None, player_option("games: only this player's; history: whose")
    ] = None,
    month: Annotated[
        dt.date | None,
        month_option(
            "--month",
            "games, history: only this month; list: the list of this month",
            "all months; the latest list",
        ),
    ] = None,
    tc: Annotated[
        TimeControl | None, tc_option("all for games, standard for history and list")
    ] = None,
    event: Annotated[
        str | None,
        option("--event", "NAME", "games: only this event's (TRF needs one)."),
    ] = None,
    fmt: Annotated[
        str,
        option("--format", "FORMAT", "csv (the import CSV header), json, pgn or trf (games only)."),
    ] = "csv",
    out: Annotated[
        Path | None,
        option("--out", "FILE", "Write to this file instead of stdout."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the --out file if it exists.")
    ] = False,
) -> None:
    """Export games, a history, a rating list or the players.

    To stdout, or to a file with --out (written whole or not at all; an existing file is
    replaced only with --force). The players and the games (CSV) together rebuild a
    database: `tracker import players.csv games.csv`.

    \b
    Examples:
      tracker export games --format pgn --out club.pgn
      tracker export history --player "Hart, Daniel" --format json
      tracker export list --month 2026-10
      tracker export players --out players.csv
    """
    fmt = fmt.strip().casefold()
    written = _formats()[what]
    if fmt not in written:
        raise UsageError(f"export {what} writes {' or '.join(written)}, not {fmt}")
    if what == "history" and player is None:
        raise UsageError("export history needs --player")
    if what == "list" and player is not None:
        raise UsageError("export list takes no --player (a list holds everyone)")
    if what != "games" and event is not None:
        raise UsageError("--event applies to export games only")
    if force and out is None:
        raise UsageError("--force replaces an --out file: give --out FILE")
    if out is not None:
        check_target(out, force=force)  # before the work: refused now, not after it
    if what == "players" and (player is not None or month is not None or tc is not None):
        raise UsageError("export players takes no --player, --month or --tc (it holds everyone)")
    app_state = state(ctx)
    if what == "players":
        from tracker.services.exports import export_players

        rows, views = app_state.read(export_players)
        text, count = _players_text(rows, views, fmt), f"{len(rows)} players"
    elif what == "games":
        from tracker.services import exports

        games = app_state.read(
            lambda db: exports.export_games(
                db, player=player, month=month, tc=tc, event=event, ratings_in_force=fmt == "trf"
            )
        )
        text, count = _games_text(games, fmt), f"{len(games)} games"
    elif what == "history":
        from tracker.services.exports import export_history

        assert player is not None
        h = app_state.read(lambda db: export_history(db, player, tc or "standard", month))
        stale_warning(h.stale_months)
        rows = history_json(h)
        text = _table_text(rows, rows, HISTORY_KEYS, fmt)
        count = f"{len(h.rows)} periods of {h.name}"
    else:
        from tracker.services.periods.listing import rating_list

        rl = app_state.read(lambda db: rating_list(db, tc or "standard", month))
        stale_list_warning(rl.stale)
        data = rating_list_json(rl)
        text = _table_text(data, data["players"], ENTRY_KEYS, fmt)
        count = f"{len(rl.entries)} players"
    if out is None:
        sys.stdout.write(text)
        return
    write_file(out, text.encode("utf-8"), force=force)
    message(f"wrote {count} to {out} ({fmt})")


def _table_text(data: Any, rows: list[dict[str, Any]], names: str, fmt: str) -> str:
    """``data`` as JSON, or its ``rows`` as CSV: a column per key of ``names`` (as
    :func:`pick` names them), the other keys left out."""
    if fmt == "json":
        return json_text(data)
    columns = keys(names)
    return csv_file(columns, ([_cell(row[c]) for c in columns] for row in rows))


def _cell(value: Any) -> str:
    """A cell of an exported table: an exact number as written by hand (``2.5``, ``10``)."""
    return plain(value) if isinstance(value, Decimal) else csv_cell(value)


def game_json(g: GameLine) -> dict[str, Any]:
    return pick(
        g,
        "id date=played_on white=white.name white_id=white.id white_fide_id=white.fide_id "
        "black=black.name black_id=black.id black_fide_id=black.fide_id result rated tc event "
        "event_start site round white_rating black_rating import_id",
        rated=g.result not in FORFEITS,
    )


def _games_text(games: tuple[GameLine, ...], fmt: str) -> str:
    if fmt == "json":
        return json_text([game_json(g) for g in games])
    from tracker.services.exports import games_text

    return games_text(games, fmt)


def _players_text(rows: list[dict[str, Any]], views: tuple[PlayerView, ...], fmt: str) -> str:
    if fmt == "json":
        from tracker.cli.player import player_json

        return json_text([player_json(p) for p in views])
    from tracker.importers.players import write_players_csv

    return write_players_csv(rows)
