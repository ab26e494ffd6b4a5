"""The change log: every command that writes records what it did (``tracker log``).

Services note each thing they add, change or remove, and each period they make stale
(:func:`note`); the command's transaction writes the notes as one log entry with the command
line and the time (:func:`write_entry`, called by the CLI), or nothing when it keeps nothing.
A removed game is kept with its entry so that ``tracker game restore ID`` can bring it back
(before a later close or rerate of the period its removal changed, undoing its stale marks).

An entry's notes are JSON objects: ``did`` (added, changed, removed, restored, set, cleared,
imported, closed, rerated, stale), ``what`` (a line a person reads), and, where they apply,
``players`` and ``events`` (ids, for the filters), ``tc`` and ``months`` (YYYY-MM).
"""

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from tracker.db.driver import Db
from tracker.db.queries import log as queries
from tracker.months import month_label
from tracker.vocabulary import TimeControl


def note(
    db: Db,
    did: str,
    what: str,
    *,
    players: Iterable[int | None] = (),
    events: Iterable[int | None] = (),
    tc: TimeControl | None = None,
    months: Iterable[dt.date] = (),
    removed_game: dict[str, Any] | None = None,
) -> None:
    """Note one thing the command did (see the module docstring)."""
    given = {
        "players": sorted({p for p in players if p is not None}),
        "events": sorted({e for e in events if e is not None}),
        "tc": tc,
        "months": [month_label(m) for m in months],
        "removed_game": removed_game,
    }
    entry: dict[str, Any] = {"did": did, "what": what, **{k: v for k, v in given.items() if v}}
    if not db.journal or db.journal[-1] != entry:  # two marks of the same periods: one note
        db.journal.append(entry)


def note_stale(db: Db, tc: TimeControl, months: Iterable[dt.date]) -> None:
    found = sorted(months)
    if found:
        shown = ", ".join(month_label(m) for m in found)
        note(db, "stale", f"{tc} periods made stale: {shown}", tc=tc, months=found)


def write_entry(db: Db, command: str, at: dt.datetime) -> int | None:
    """Write the command's notes as one log entry (none when it noted nothing); its number.
    A removed game's row goes into ``removed_games`` with it."""
    if not db.journal:
        return None
    kept = []
    removed = []
    for entry in db.journal:
        game = entry.pop("removed_game", None)
        if game is not None:
            removed.append((game, entry))
        kept.append(entry)
    log_id = queries.insert_log(db, at, command, json.dumps(kept, ensure_ascii=False))
    for game, entry in removed:
        month = dt.date.fromisoformat(entry["months"][0] + "-01")
        queries.insert_removed_game(
            db, queries.RemovedGameRow(int(game["id"]), log_id, json.dumps(game), month)
        )
    db.journal.clear()
    return log_id


class LogEntry(NamedTuple):
    id: int
    at: dt.datetime
    command: str
    notes: tuple[dict[str, Any], ...]


def read_log(
    db: Db,
    *,
    player: int | None = None,
    event: int | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
    after: int = 0,
) -> tuple[LogEntry, ...]:
    """The log, oldest first: the entries touching ``player`` or ``event`` (ids), from
    ``since`` to ``until`` (days, both included), after entry number ``after``."""
    out = []
    for row in queries.log_rows(db, after):
        if since is not None and row.at.date() < since:
            continue
        if until is not None and row.at.date() > until:
            continue
        notes = tuple(json.loads(row.entries))
        if player is not None and not any(player in n.get("players", ()) for n in notes):
            continue
        if event is not None and not any(event in n.get("events", ()) for n in notes):
            continue
        out.append(LogEntry(row.id, row.at, row.command, notes))
    return tuple(out)


def settled_since(db: Db, log_id: int, tc: TimeControl, month: dt.date) -> bool:
    """Whether an entry after ``log_id`` closed or rerated ``tc``'s period ``month``."""
    label = month_label(month)
    return any(
        str(n["did"]) in ("closed", "rerated")
        and n.get("tc") == tc
        and label in n.get("months", ())
        for entry in read_log(db, after=log_id)
        for n in entry.notes
    )
