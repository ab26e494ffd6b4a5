"""``tracker period ...`` and ``tracker rerate``: monthly rating periods."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.context import state
from tracker.cli.options import AnyTc, Json, Tc, command_group, month_argument, month_option
from tracker.cli.render import message, pick, print_json, print_table
from tracker.months import month_label, month_span
from tracker.user_input import today
from tracker.vocabulary import plural

if TYPE_CHECKING:
    from tracker.services.periods.closing import PeriodRow

app = command_group(
    """Close monthly rating periods, list and rerate them.

    \b
    Example: tracker period close 2026-09
    """
)

NAMES_SHOWN = 10
#: Up to this many events a close took to end at their last game are named a line each.
ASSUMED_SHOWN = 3


def name_list(names: Sequence[str], noun: str = "player") -> str:
    """Players' (or events') names for a one-line message: one name as is; several counted
    and separated by " / " (a name such as "Sato, Yuki" has a comma of its own); past
    NAMES_SHOWN, the rest counted (a federation's month can rate hundreds for the first
    time)."""
    if len(names) == 1:
        return names[0]
    shown = " / ".join(names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    rest = f" and {more} more (--json lists every one)" if more > 0 else ""
    return f"{plural(len(names), noun)}: {shown}{rest}"


@app.command("close")
def close(
    ctx: typer.Context,
    month: Annotated[
        dt.date | None,
        month_argument(
            "The month to close (earlier open months are closed first)",
            "every month before the current one",
        ),
    ] = None,
    tc: Tc = "standard",
    json: Json = False,
) -> None:
    """Rate a month's games and publish the next list.

    The list is dated the first of the next month. Earlier open months are closed first
    and stale ones rerated; closing a closed month again changes nothing.

    \b
    Example: tracker period close 2026-09 --tc standard
    """
    from tracker.services.periods.closing import close as do_close

    report = state(ctx).write(lambda db: do_close(db, tc=tc, month=month, today=today()))
    if report.rerated:
        which = "period" if len(report.rerated) == 1 else "periods"
        message(f"rerated the stale {which} {month_span(report.rerated)} first")
    for p in report.closed:
        extra = ""
        if p.new_players:
            extra += f"; first rating for {name_list(p.new_players)}"
        if p.dropped_players:
            extra += f"; below 1400, now unrated: {name_list(p.dropped_players)}"
        message(
            f"closed {month_label(p.month)} ({p.tc}): {plural(p.games, 'game')}, "
            f"{plural(p.players_rated, 'rated player')}; list of {p.list_date.isoformat()} "
            f"published{extra}"
        )
    for h in report.held:
        message(f"held back: {h.name}, {h.why} ({plural(h.games, 'game')})")
    leagues = [a for a in report.assumed if a.league]
    ended = [a for a in report.assumed if not a.league]
    for a in leagues:
        message(
            f"{a.name}: no end declared; its games span over 90 days: rated month by month "
            f"as a league; `tracker event edit {a.name!r} --type league` says so"
        )
    if len(ended) <= ASSUMED_SHOWN:
        for a in ended:
            message(
                f"{a.name}: no end declared; rated as ended {a.end.isoformat()}, its last "
                f"game; `tracker event edit {a.name!r} --end DATE` if it goes on"
            )
    else:
        message(
            f"no end declared, rated as ended at their last game: "
            f"{name_list([a.name for a in ended], 'event')}; `tracker event edit NAME --end DATE` "
            "for one that goes on"
        )
    for m in report.already_closed:
        message(f"{month_label(m)} ({report.tc}) is already closed; nothing to do")
    if report.nothing_to_close:
        message(f"nothing to close: no {report.tc} games up to that month")
    if json:
        print_json(
            pick(
                report,
                "tc closed already_closed rerated held assumed",
                closed=[
                    pick(
                        p,
                        "month list=list_date games players_rated new_players dropped_players",
                        month=month_label(p.month),
                    )
                    for p in report.closed
                ],
                already_closed=[month_label(m) for m in report.already_closed],
                rerated=[month_label(m) for m in report.rerated],
                held=[
                    pick(
                        h,
                        "event=name games rated_in stated running why",
                        rated_in=None if h.rated_in is None else month_label(h.rated_in),
                    )
                    for h in report.held
                ],
                assumed=[pick(a, "event=name end league") for a in report.assumed],
            )
        )


def print_periods(rows: tuple[PeriodRow, ...]) -> None:
    print_table(
        ["month", "tc", "status", "games", "players", "list"],
        [(month_label(r.month), r.tc, r.status, r.games, r.players, r.list_date) for r in rows],
        right=("games", "players"),
        empty="no games yet",
    )


@app.command("list")
def list_(
    ctx: typer.Context,
    tc: AnyTc = None,
    json: Json = False,
) -> None:
    """Every month with its status, games and players.

    The status is open, closed or stale (changed after closing: see `tracker rerate`).

    \b
    Example: tracker period list --tc standard
    """
    from tracker.services.periods.closing import list_periods

    rows = state(ctx).read(lambda db: list_periods(db, tc))
    if json:
        print_json(
            [
                pick(r, "month tc list=list_date status games players", month=month_label(r.month))
                for r in rows
            ]
        )
        return
    print_periods(rows)
    if any(r.status == "stale" for r in rows):
        message("stale periods changed after closing: run `tracker rerate`")


@app.command("rerate")
def rerate(
    ctx: typer.Context,
    from_month: Annotated[
        dt.date | None,
        month_option("--from", "Recompute from this month", "the earliest stale period"),
    ] = None,
    tc: AnyTc = None,
    json: Json = False,
) -> None:
    """Recompute closed periods after a correction.

    A game added, changed or removed late makes its period and every later one stale;
    this recomputes them. `tracker rerate` and `tracker period rerate` are one command.

    \b
    Example: tracker rerate --from 2026-09 --tc standard
    """
    from tracker.services.periods.closing import rerate as do_rerate

    reports = state(ctx).write(lambda db: do_rerate(db, tc=tc, from_month=from_month))
    if not reports:
        message("nothing to rerate: no period has been closed yet")
    for r in reports:
        if r.nothing_stale:
            message(f"{r.tc}: nothing is stale (use --from YYYY-MM to recompute anyway)")
        if r.dropped:
            message(
                f"{r.tc}: dropped {plural(len(r.dropped), 'empty closed period')} "
                f"{month_span(r.dropped)} (before the first game)"
            )
        if r.months:
            message(f"{r.tc}: rerated {month_span(r.months)}")
    if json:
        print_json(
            [
                {
                    "tc": r.tc,
                    "months": [month_label(m) for m in r.months],
                    "dropped": [month_label(m) for m in r.dropped],
                }
                for r in reports
            ]
        )
