"""A TRF file's player records (001): the columns, the codes, and one record read into a
player and his round entries (see :mod:`tracker.importers.trf` for the layout)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Final

from tracker.importers import dates
from tracker.importers.records import (
    ByeKind,
    PlayerInfo,
    Problem,
    Sex,
    clean_name,
    parse_fide_id,
    parse_rating,
)
from tracker.vocabulary import TITLES

ROUND_START: Final = 92  # column of round 1's opponent
ROUND_WIDTH: Final = 10


TITLE_CODES: Final[dict[str, str]] = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
    **{title.casefold(): title for title in TITLES},
}
SEX_CODES: Final[dict[str, Sex]] = {"m": "m", "w": "f", "f": "f"}
GAME_CODES: Final = frozenset("1=0+-WDL")
BYE_CODES: Final[dict[str, ByeKind]] = {
    "H": "H",
    "F": "F",
    "U": "U",
    "Z": "Z",
    " ": "Z",
    "+": "F",
    "1": "F",
    "W": "F",
    "=": "H",
    "D": "H",
    "-": "Z",
    "0": "Z",
    "L": "Z",
}


@dataclass(frozen=True, slots=True)
class Slot:
    opponent: int  # 0: none
    colour: str  # "w", "b" or "-"
    code: str  # upper case; " " when blank
    blank: bool = False  # the whole entry is blank: the player was not in that round


@dataclass(slots=True)
class TrfPlayer:
    rank: int
    line: int
    info: PlayerInfo | None  # None when the record itself is invalid (already reported)
    slots: dict[int, Slot | None] = field(default_factory=dict)  # None: malformed entry


def columns(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive) of a line; blanks past its end."""
    return line[first - 1 : last].ljust(last - first + 1)


def round_start(round_no: int) -> int:
    return ROUND_START + ROUND_WIDTH * (round_no - 1)


def rounds_on(line: str) -> int:
    """How many round entries a (right-stripped) record line reaches into."""
    length = len(line.rstrip())
    if length < ROUND_START:
        return 0
    return (length - ROUND_START) // ROUND_WIDTH + 1


@dataclass(slots=True)
class Codes:
    """Unknown sex and title codes: each distinct one reported once, with its count."""

    seen: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))

    def note(self, what: str, code: str, line: int) -> None:
        self.seen[(what, code)].append(line)

    def warnings(self, source: str) -> list[Problem]:
        out = []
        for (what, code), lines in self.seen.items():
            count = len(lines)
            where = f"{count} player records" if count > 1 else "1 player record"
            out.append(
                Problem(
                    source,
                    lines[0],
                    f"unknown {what} code {code!r} ({where}): left empty",
                )
            )
        return out


def title_of(text: str, line_no: int, codes: Codes) -> str | None:
    value = text.strip()
    if not value:
        return None
    title = TITLE_CODES.get(value.casefold())
    if title is None:
        codes.note("title", value, line_no)
    return title


def player_record(
    line: str, line_no: int, source: str, problems: list[Problem], codes: Codes
) -> TrfPlayer | None:
    """A player record; None (after reporting why) when even its starting rank is unusable."""
    rank_text = columns(line, 5, 8).strip()
    if not (rank_text.isascii() and rank_text.isdigit()) or int(rank_text) == 0:
        problems.append(
            Problem(source, line_no, f"player record without a valid starting rank ({rank_text!r})")
        )
        return None
    reasons: list[str] = []
    sex_text = columns(line, 10, 10).strip()
    sex = SEX_CODES.get(sex_text.casefold())
    if sex_text and sex is None:
        codes.note("sex", sex_text, line_no)
    name = clean_name(columns(line, 15, 47))
    if not name:
        reasons.append("empty player name")
    rating, reason = parse_rating(columns(line, 49, 52), "rating")
    if reason:
        reasons.append(reason)
    federation = columns(line, 54, 56).strip().upper() or None
    fide_id = parse_fide_id(columns(line, 58, 68))
    birth_year, reason = dates.birth_year(columns(line, 70, 79))
    if reason:
        reasons.append(reason)
    problems.extend(
        Problem(source, line_no, f"player {int(rank_text)}: {reason}") for reason in reasons
    )
    title = title_of(columns(line, 11, 13), line_no, codes)
    info = None
    if not reasons:
        info = PlayerInfo(
            name=name,
            fide_id=fide_id,
            rating=rating,
            federation=federation,
            birth_year=birth_year,
            sex=sex,
            title=title,
            line=line_no,
        )
    return TrfPlayer(rank=int(rank_text), line=line_no, info=info)


def slot_of(
    line: str, round_no: int, rank: int, line_no: int, source: str, problems: list[Problem]
) -> Slot | None:
    start = round_start(round_no)
    entry = columns(line, start, start + 7)
    opponent_text, colour, code = entry[0:4].strip(), entry[5].casefold(), entry[7].upper()
    reasons: list[str] = []
    if entry[4] != " " or entry[6] != " ":
        reasons.append(f"malformed entry {entry.strip()!r} (misaligned columns?)")
    elif opponent_text and not (opponent_text.isascii() and opponent_text.isdigit()):
        reasons.append(f"opponent {opponent_text!r} is not a starting rank")
    elif colour not in {"w", "b", "-", " "}:
        reasons.append(f"unknown colour {entry[5]!r} (use w, b or -)")
    elif code not in GAME_CODES and code not in BYE_CODES:
        reasons.append(f"unknown result code {entry[7]!r}")
    if reasons:
        problems.extend(
            Problem(source, line_no, f"player {rank}, round {round_no}: {reason}")
            for reason in reasons
        )
        return None
    return Slot(
        opponent=int(opponent_text) if opponent_text else 0,
        colour="-" if colour == " " else colour,
        code=code,
        blank=not entry.strip(),
    )
