"""``tracker status``: where the database stands, at a glance."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from tracker.cli.context import state
from tracker.cli.options import Json
from tracker.cli.render import message, pick, print_json, print_table
from tracker.months import month_label
from tracker.user_input import today
from tracker.vocabulary import plural

if TYPE_CHECKING:
    from tracker.services.periods.status import ListStatus, Mover, Status


def _months(months: tuple[Any, ...]) -> str:
    if not months:
        return ""
    if len(months) == 1:
        return month_label(months[0])
    return f"{month_label(months[0])}..{month_label(months[-1])}"


def _mover_json(m: Mover) -> dict[str, Any]:
    return pick(m, "id=player_id name before rating change")


def status_json(st: Status, database: str) -> dict[str, Any]:
    """``status --json``; a list's ``systems``, by name, the movers of every other registered
    rating system but the shadow (none: no key)."""
    return {
        "database": database,
        "players": {"tracked": st.tracked, "external": st.external},
        "games": st.games,
        "last_import": None
        if st.last_import is None
        else pick(
            st.last_import,
            "id file imported_at added",
            imported_at=st.last_import.imported_at.isoformat(timespec="seconds"),
        ),
        "lists": [
            pick(
                s,
                "tc list=list_date last_closed open_month games_waiting=waiting_games "
                "waiting_months closable stale_months games_to_rerate=rerate_games movers",
                last_closed=month_label(s.last_closed) if s.last_closed else None,
                open_month=month_label(s.open_month),
                waiting_months=[month_label(m) for m in s.waiting_months],
                closable=[month_label(m) for m in s.closable],
                stale_months=[month_label(m) for m in s.stale_months],
                movers=[_mover_json(m) for m in s.movers],
            )
            | (
                {"systems": {o.system: [_mover_json(m) for m in o.movers] for o in s.others}}
                if s.others
                else {}
            )
            for s in st.lists
        ],
    }


def waiting_words(s: ListStatus) -> str:
    """The games a time control's next lists will rate: "3 games not yet rated (2026-05)"."""
    waiting = f"{plural(s.waiting_games, 'game')} not yet rated"
    if s.waiting_months:
        waiting += f" ({_months(s.waiting_months)})"
    return waiting


def _rows(s: ListStatus) -> list[tuple[str, str]]:
    tc = s.tc
    rows = [
        (
            f"{tc} list",
            f"{s.list_date} (games to {month_label(s.last_closed)})"
            if s.list_date and s.last_closed
            else "none yet (no period closed)",
        )
    ]
    rows.append((f"{tc} open", f"{month_label(s.open_month)}; {waiting_words(s)}"))
    stale = _months(s.stale_months) or "none"
    if s.rerate_games:
        stale += f"; {plural(s.rerate_games, 'game')} to rate by `tracker rerate`"
    rows.append((f"{tc} stale", stale))
    for i, m in enumerate(s.movers):
        after = str(m.rating) if m.rating is not None else "unrated"
        rows.append(
            (f"{tc} movers" if i == 0 else "", f"{m.name} {m.change:+d} ({m.before} -> {after})")
        )
    for o in s.others:  # another registered system's movers, in its own numbers
        rows += [
            (
                f"{tc} {o.system} movers" if i == 0 else "",
                f"{m.name} {m.change:+g} ({m.before:g} -> {m.rating:g})",
            )
            for i, m in enumerate(o.movers)
        ]
    return rows


def status(ctx: typer.Context, json: Json = False) -> None:
    """The database at a glance: lists, open months, movers.

    Per time control: the latest list, the open month and the games not yet rated, the
    stale periods and the biggest movers of the latest list; beside them the players, the
    games and the last import.

    \b
    Example: tracker status --json
    """
    from tracker.services.periods.status import status as get_status

    app_state = state(ctx)
    st = app_state.read(lambda db: get_status(db, today()))
    database = app_state.where()
    if json:
        print_json(status_json(st, database))
    else:
        imported = st.last_import
        rows = [
            ("database", database),
            ("players", f"{st.tracked} tracked, {st.external} external"),
            ("games", str(st.games)),
            (
                "last import",
                f"#{imported.id} {imported.file}, {imported.imported_at:%Y-%m-%d %H:%M} UTC, "
                f"{imported.added} game(s) added"
                if imported
                else "none",
            ),
        ]
        for s in st.lists:
            rows.extend(_rows(s))
        print_table(["field", "value"], rows, wrap=("value",))
    for s in st.lists:
        if s.closable:
            message(
                f"{s.tc}: {_months(s.closable)} can be closed: run `tracker period close "
                f"--tc {s.tc}`"
            )
        if s.stale_months:
            message(
                f"{s.tc}: stale periods from {month_label(s.stale_months[0])}: run `tracker rerate`"
            )
