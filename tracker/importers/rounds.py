"""The lines of one round as a club officer types them: ``WHITE RESULT BLACK``.

::

    Hart, Daniel     1-0   Sato, Yuki
    Okafor, Grace    =     Patel, Arjun
    Kim, Ji-ho (1803)  0-1  Novak        # a recorded rating in brackets after a name

A bye is a line of one player, the word ``bye`` and its points: ``Smith  bye`` (a full
point, the odd player's of the round), ``Smith  bye 1/2``, ``Smith  bye 0``.

The result is the one word of the line that is a result (any spelling of
:data:`tracker.vocabulary.RESULT_ALIASES`); the words before it name White, the words after it
Black, as the player references of ``game add`` do (a surname or the start of a name will
do). A name may end with its recorded rating in round or square brackets (needed for an
external player). Fields may instead be separated by tabs. Blank lines, lines starting with
``#`` (but ``#12`` is a player's id) and anything after `` # `` are ignored.

Like the file parsers, :func:`parse_round` never raises on bad input: it returns the pairings
it could read and one :class:`~tracker.importers.records.Problem` per line it could not.
Standard library (and :mod:`tracker.vocabulary`) only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tracker.importers.records import Problem
from tracker.vocabulary import BYE_HELP, RESULT_HELP, bye_code, canonical_result

_RATED = re.compile(r"^(?P<name>.*?)\s*[\(\[]\s*(?P<rating>[0-9]{1,5})\s*[\)\]]$")
# A comment: a line starting with "#" (but "#12" is a player's id), or " # ..." at its end.
_COMMENT = re.compile(r"^\s*#(?![0-9]).*$|\s#(\s.*)?$")


@dataclass(frozen=True, slots=True)
class Pairing:
    """One line: who played whom, the result (canonical), recorded ratings if written; or a
    bye (``bye``: its code, tracker.vocabulary.BYE_POINTS; ``white`` the player, ``black``
    and ``result`` empty)."""

    line: int
    white: str
    black: str
    result: str
    white_rating: int | None = None
    black_rating: int | None = None
    bye: str | None = None


def parse_bye(text: str) -> tuple[str, str] | str | None:
    """``(player, code)`` for a line that gives a bye (``Smith  bye``, ``Smith  bye 1/2``,
    ``Smith  bye 0``), why it cannot be one, or None for a line that names no bye."""
    words = text.replace("\t", " ").split()
    at = next((i for i in range(len(words) - 1, -1, -1) if words[i].casefold() == "bye"), None)
    if at is None or at < len(words) - 2:
        return None
    if any(canonical_result(w) is not None for w in words[:at]):
        return None  # a game (of a player called Bye, say)
    points = " ".join(words[at + 1 :])
    code = bye_code(points)
    if code is None:
        return f"a bye's points: {points!r}; write {BYE_HELP}"
    if at == 0:
        return f"a bye of nobody: write {BYE_HELP}"
    return " ".join(words[:at]), code


def _side(text: str) -> tuple[str, int | None]:
    match = _RATED.match(text.strip())
    if match is None:
        return text.strip(), None
    return match["name"].strip(), int(match["rating"])


def parse_line(text: str) -> tuple[str, str, str] | str:
    """``(white, result, black)`` as written, or why the line cannot be read."""
    if "\t" in text:
        fields = [f.strip() for f in text.split("\t") if f.strip()]
        if len(fields) != 3:
            return (
                f"a line separated by tabs needs 3 fields (WHITE, RESULT, BLACK), not {len(fields)}"
            )
        white, result, black = fields
        if canonical_result(result) is None:
            return f"invalid result {result!r}: use {RESULT_HELP}"
        return white, result, black
    words = text.split()
    found = [i for i, word in enumerate(words) if canonical_result(word) is not None]
    inside = [i for i in found if 0 < i < len(words) - 1]
    if not inside:
        return f"no result between two names: write WHITE RESULT BLACK, the result {RESULT_HELP}"
    if len(inside) > 1:
        shown = ", ".join(repr(words[i]) for i in inside)
        return f"more than one word could be the result ({shown}): separate the fields with tabs"
    i = inside[0]
    return " ".join(words[:i]), words[i], " ".join(words[i + 1 :])


def parse_round(text: str, source: str) -> tuple[list[Pairing], list[Problem]]:
    """Every pairing of ``text``, and a problem for each line that is not one."""
    pairings: list[Pairing] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        bye = parse_bye(line)
        if isinstance(bye, tuple):
            pairings.append(Pairing(number, bye[0], "", "", bye=bye[1]))
            continue
        if isinstance(bye, str):
            problems.append(Problem(source, number, bye))
            continue
        parsed = parse_line(line)
        if isinstance(parsed, str):
            problems.append(Problem(source, number, parsed))
            continue
        white, result, black = parsed
        white_name, white_rating = _side(white)
        black_name, black_rating = _side(black)
        canonical = canonical_result(result)
        assert canonical is not None  # parse_line checked it
        pairings.append(
            Pairing(number, white_name, black_name, canonical, white_rating, black_rating)
        )
    return pairings, problems
