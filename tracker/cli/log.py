"""``tracker log``: what every command that wrote did."""

from __future__ import annotations

import datetime as dt
import textwrap
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.options import Json, date_option, option
from tracker.cli.render import message, pick, print_json

if TYPE_CHECKING:
    from tracker.services.log import LogEntry


def log(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        option("--player", "PLAYER", "Only what touched this player."),
    ] = None,
    event: Annotated[
        str | None,
        option("--event", "EVENT", "Only what touched this event."),
    ] = None,
    since: Annotated[
        dt.date | None, date_option("--since", "YYYY-MM-DD: from this day on (UTC).")
    ] = None,
    until: Annotated[
        dt.date | None, date_option("--until", "YYYY-MM-DD: up to this day (UTC).")
    ] = None,
    json: Json = False,
) -> None:
    """Show what each command that wrote did.

    Each entry lists what the command added, changed or removed and the closed periods it
    made stale. A removed game can be brought back with `tracker game restore ID` until
    its period is closed or rerated again.

    \b
    Example: tracker log --player "Hart, Daniel" --since 2026-11-01
    """
    from tracker.services.log import read_log

    def work(db: Any) -> tuple[LogEntry, ...]:
        player_id = event_id = None
        if player is not None:
            from tracker.services.players.refs import find

            player_id = find(db, player).id
        if event is not None:
            from tracker.services.events.lookup import find_event

            event_id = find_event(db, event).id
        return read_log(db, player=player_id, event=event_id, since=since, until=until)

    entries = state(ctx).read(work)
    if json:
        print_json([pick(e, "id at command changes=notes") for e in entries])
        return
    if not entries:
        message("nothing logged" + (" for that" if player or event or since or until else ""))
        return
    for e in entries:
        print_entry(e)


def print_entry(e: LogEntry) -> None:
    head = f"#{e.id}  {e.at.strftime('%Y-%m-%d %H:%M')}  {e.command}"
    typer.echo(textwrap.fill(head, 80, subsequent_indent="      ", break_long_words=False))
    for n in e.notes:
        line = (
            f"{n['did']} {n['what']}"
            if n["did"] not in ("stale", "closed", "rerated")
            else n["what"]
        )
        typer.echo(textwrap.fill(line, 80, initial_indent="  ", subsequent_indent="    "))
