"""``tracker event ...``: the events games are played in, and FIDE's inputs for them."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

import typer

from tracker.cli.context import state
from tracker.cli.notes import now_stale
from tracker.cli.options import Json, command_group, month_option
from tracker.cli.render import message, print_json
from tracker.errors import UsageError

app = command_group(
    """FIDE's inputs for an event: rating period, Ro.

    An event is the name its games share (`game add --event`, or an imported file's).

    \b
    Example: tracker event edit "Summer Open" --rated-in 2026-09
    """
)


def _rating(text: str) -> tuple[str, int]:
    player, sep, rating = text.rpartition("=")
    if not sep or not player.strip() or not rating.strip().isdecimal():
        raise UsageError(f"--ro {text!r}: give PLAYER=RATING, e.g. --ro 'Hart, Daniel=2053'")
    return player.strip(), int(rating)


@app.command("edit")
def edit(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="EVENT", help="The event's name.", show_default=False)
    ],
    rated_in: Annotated[
        dt.date | None,
        month_option(
            "--rated-in",
            "The rating period FIDE rated the event in, when after the month it ended in "
            "(§7.1.3: it ended after the closing date, or was reported late); the month it "
            "ends in undoes it",
            "the month it ends in",
        ),
    ] = None,
    ro: Annotated[
        list[str] | None,
        typer.Option(
            "--ro",
            metavar="PLAYER=RATING",
            help="The rating FIDE rated PLAYER with in the event, where its calculation shows "
            "another than the list rating (repeatable).",
        ),
    ] = None,
    clear_ro: Annotated[
        list[str] | None,
        typer.Option(
            "--clear-ro",
            metavar="PLAYER",
            help="Rate PLAYER with his list rating again (repeatable).",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """Set an event's rating period or a player's Ro.

    A change marks the closed periods it touches stale (`tracker rerate`); `history` notes
    both beside the period.

    \b
    Example: tracker event edit "Summer Open" --rated-in 2026-09
    Example: tracker event edit "Summer Open" --ro "Hart, Daniel=2053"
    """
    from tracker.services.events import edit_event

    ratings = tuple(_rating(text) for text in ro or ())
    if rated_in is None and not ratings and not clear_ro:
        raise UsageError("nothing to change: give --rated-in, --ro or --clear-ro")
    result = state(ctx).write(
        lambda db: edit_event(
            db, name, rated_in=rated_in, ratings=ratings, cleared=tuple(clear_ro or ())
        )
    )
    if json:
        print_json(
            {
                "event": result.name,
                "changes": list(result.changes),
                "stale": {tc: [m.isoformat()[:7] for m in months] for tc, months in result.stale},
            }
        )
    if result.changes:
        for change in result.changes:
            message(f"{result.name}: {change}")
    else:
        message(f"unchanged (nothing differs): {result.name}")
    for tc, months in result.stale:
        now_stale(tc, months)
