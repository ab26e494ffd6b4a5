"""An event found by its name as every door compares names (:func:`tracker.vocabulary.
event_key`: case and spacing do not count)."""

from __future__ import annotations

from tracker.db.driver import Db
from tracker.db.queries import events as queries
from tracker.db.queries import games as game_queries
from tracker.db.queries.games import EventRow
from tracker.errors import AmbiguousError, NotFoundError, quoted
from tracker.vocabulary import event_key


def event_by_name(db: Db, name: str) -> EventRow | None:
    """The event a name means, compared without case or extra blanks
    (:func:`~tracker.services.intake.event_key`); None if there is none. Of two stored
    spellings of one event (from before revision 0007) the exact name picks one."""
    found = game_queries.events_with_key(db, event_key(name))
    if len(found) > 1:
        from tracker.services.intake import clean_event_name  # two stored spellings: rare

        exact = [e for e in found if e.name == clean_event_name(name)]
        if len(exact) == 1:
            return exact[0]
        listed = ", ".join(repr(e.name) for e in found)
        raise AmbiguousError(
            f"event {name!r} matches {len(found)} events ({listed}): give its exact name"
        )
    return found[0] if found else None


def find_event(db: Db, name: str) -> EventRow:
    """The event named ``name``, as every door finds it (:func:`event_by_name`: case and
    spacing do not count), or an error naming the closest names."""
    found = event_by_name(db, name)
    if found is not None:
        return found
    import difflib  # only when a name is not found

    close = difflib.get_close_matches(name, queries.event_names(db), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    raise NotFoundError(f"no event {quoted(name)}{hint}")
