"""One exception family for everything a user can get wrong.

The CLI maps these to a one-line message on stderr and a non-zero exit code in one
place (``tracker.cli.app.main``); anything else escaping is a bug.
"""

from __future__ import annotations

from collections.abc import Sequence


class TrackerError(Exception):
    """Base class: a problem the user can fix. Exit code 1.

    ``problems``: when there is more than one thing wrong (a round's lines, a file's
    records), one line each, printed before the error's own line, which counts them."""

    exit_code = 1

    def __init__(self, message: str = "", problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class NotFoundError(TrackerError):
    """A player, game, event or period that does not exist."""


class AmbiguousError(TrackerError):
    """A reference that matches more than one thing."""


class InvalidInputError(TrackerError):
    """Malformed or impossible input (a result, a date, a rating...)."""


class ConflictError(TrackerError):
    """The change clashes with what is stored (a duplicate game, a referenced player)."""


class DatabaseError(TrackerError):
    """The database cannot be used as asked (wrong revision, unreachable, locked)."""


class NetworkError(TrackerError):
    """An online platform could not be reached or refused the request (offline, timeout,
    HTTP error)."""


class UsageError(TrackerError):
    """Options that cannot go together. Exit code 2, like click's usage errors."""

    exit_code = 2


#: The most of a value a message repeats: a 10,000-character name is not echoed whole.
QUOTED_MAX = 60


def quoted(value: str) -> str:
    """``value`` in quotes, as a message repeats what was given, cut after
    :data:`QUOTED_MAX` characters."""
    if len(value) <= QUOTED_MAX:
        return repr(value)
    return f"{value[:QUOTED_MAX]!r}... ({len(value)} characters)"
