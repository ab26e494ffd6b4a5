"""FIDE's rating list downloads, read a line (or a player) at a time.

FIDE publishes each month, at https://ratings.fide.com/download_lists.phtml:

* fixed-width text files, one per list (``standard_rating_list.txt``, ``rapid_...``,
  ``blitz_...``) and one with the three lists side by side (``players_list_foa.txt``). Their
  first line names the columns, and each column starts where its name starts::

    ID Number      Name      ... Fed Sex Tit  WTit OTit           FOA NOV26 Gms K  B-day Flag
    ID Number      Name      ... Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm
    Rk BRtng BGm BK B-day Flag  (one line)

  (ID at 1-15, name 16-76, federation 77-80, sex 81-84, title 85-89, women's title 90-94,
  other titles 95-109, FIDE Online Arena title 110-113, then the rating of the list named by
  its month (``NOV26``), the games rated in the period (``Gms``), K, birth year and flags;
  in the combined file ``SRtng SGm SK`` / ``RRtng RGm Rk`` / ``BRtng BGm BK`` for the three
  lists). The columns are taken from the header line, so a shifted layout reads the same.
* XML files of the same lists: ``<playerslist><player><fideid>..</fideid><name>..</name>
  <country>..</country><sex>..</sex><title>..</title><w_title>..</w_title>
  <o_title>..</o_title><foa_title>..</foa_title><rating>..</rating><games>..</games>
  <k>..</k>[<rapid_rating>..</rapid_rating><rapid_games>..</rapid_games><rapid_k>..</rapid_k>
  <blitz_rating>..</blitz_rating>...]<birthday>..</birthday><flag>..</flag></player>...``;
  the combined file has the ``rapid_`` and ``blitz_`` elements.

Flags: ``i`` inactive, ``w`` woman (``wi`` both). ``Gms`` is the number of games rated in the
list's period, not a career total: FIDE's lists do not publish that.

A list holds about a million players: :class:`FideListReader` streams it (text: line by line;
XML: ``iterparse``, each player cleared once read), asks ``wanted(fide_id, federation)``
about each line before reading the rest of it, and keeps nothing. Standard library only;
problems (a wanted line that cannot be read, a file that is no list) are collected, never
raised.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import IO, Final

from tracker.importers.dates import MONTHS
from tracker.importers.records import Problem, Sex, clean_name
from tracker.vocabulary import TIME_CONTROLS, TITLES, YEAR_MAX, YEAR_MIN, TimeControl

_MONTH_COLUMN: Final = re.compile(r"^([A-Z]{3})([0-9]{2})$")
_HEADER_TOKEN: Final = re.compile(r"ID [Nn]umber|\S+")
#: Column names of the text files -> the fields they hold. Per list: rating, games, K.
_TEXT_COLUMNS: Final[dict[str, str]] = {
    "id number": "id",
    "name": "name",
    "fed": "fed",
    "sex": "sex",
    "tit": "title",
    "wtit": "w_title",
    "otit": "o_title",
    "foa": "foa",
    "gms": "games",
    "games": "games",
    "k": "k",
    "b-day": "birth",
    "born": "birth",
    "flag": "flag",
    "srtng": "standard_rating",
    "sgm": "standard_games",
    "sk": "standard_k",
    "rrtng": "rapid_rating",
    "rgm": "rapid_games",
    "rk": "rapid_k",
    "brtng": "blitz_rating",
    "bgm": "blitz_games",
    "bk": "blitz_k",
}
#: The standard list's elements in the XML files (the rapid and blitz ones are prefixed).
_XML_FIELDS: Final[dict[str, str]] = {
    "fideid": "id",
    "name": "name",
    "country": "fed",
    "sex": "sex",
    "title": "title",
    "w_title": "w_title",
    "o_title": "o_title",
    "birthday": "birth",
    "flag": "flag",
}
# (A standalone text file's one rating column is named by its month: see _MONTH_COLUMN.)
#: What a list gives of each player (the combined file, once per list: ``rapid_rating``...).
_LIST_FIELDS: Final = ("rating", "games", "k")


@dataclass(frozen=True, slots=True)
class FideListEntry:
    """One player of a FIDE list, for the list (time control) being read."""

    line: int
    fide_id: int
    name: str
    federation: str | None
    sex: Sex | None
    title: str | None
    birth_year: int | None
    rating: int | None  # None: not rated on this list
    games: int | None  # games rated in the list's period
    k: int | None
    inactive: bool


def tc_from_name(name: str) -> TimeControl | None:
    """The list a FIDE file name says it holds (``rapid_rating_list.txt``), or None
    (``players_list_foa.txt`` holds all three)."""
    lowered = name.casefold()
    found = [tc for tc in TIME_CONTROLS if tc in lowered]
    return found[0] if len(found) == 1 else None


def _number(text: str) -> int | None:
    value = text.strip()
    return int(value) if value.isascii() and value.isdigit() else None


@dataclass
class FideListReader:
    """Reads one FIDE list file for one time control. Iterate :meth:`entries`; afterwards
    ``format``, ``combined``, ``list_month`` and ``lines`` describe what was read."""

    stream: IO[bytes]  # seekable (a file, or io.BytesIO)
    source: str
    tc: TimeControl
    wanted: Callable[[int, str | None], bool]
    problems: list[Problem] = field(default_factory=list)
    format: str = "txt"
    combined: bool = False
    list_month: date | None = None  # the list's month, when the file names it (text header)
    lines: int = 0  # players read
    recoded: int = 0  # wanted lines that were not UTF-8 (read as Windows-1252)

    def entries(self) -> Iterator[FideListEntry]:
        first = self.stream.read(256)
        self.stream.seek(0)  # a file or bytes: seekable
        if first.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            self.format = "xml"
            yield from self._xml()
        else:
            yield from self._text()

    # -- the fixed-width text files ------------------------------------------------------

    def _header(self, line: str, number: int) -> dict[str, tuple[int, int | None]] | None:
        tokens = [(m.start(), m.group()) for m in _HEADER_TOKEN.finditer(line)]
        spans: dict[str, tuple[int, int | None]] = {}
        for index, (start, token) in enumerate(tokens):
            end = tokens[index + 1][0] if index + 1 < len(tokens) else None
            name = _TEXT_COLUMNS.get(token.casefold())
            month = _MONTH_COLUMN.match(token)
            listed = MONTHS.get(month.group(1).casefold()) if month is not None else None
            if name is None and month is not None and listed is not None:
                name = "rating"
                self.list_month = date(2000 + int(month.group(2)), listed, 1)
            if name is not None:
                spans[name] = (start, end)
        self.combined = "standard_rating" in spans
        if "id" not in spans or not ("rating" in spans or self.combined):
            self.problems.append(
                Problem(
                    self.source,
                    number,
                    "not a FIDE rating list: its first line does not name the columns "
                    "(ID Number, Name, Fed, ..., the rating)",
                )
            )
            return None
        return spans

    def _text(self) -> Iterator[FideListEntry]:
        spans: dict[str, tuple[int, int | None]] | None = None
        id_start, id_end = 0, 15
        fed_span: tuple[int, int | None] = (76, 80)
        prefix = ""
        for number, raw in enumerate(self.stream, start=1):
            if spans is None:
                if not raw.strip():
                    continue
                header = raw.decode("utf-8", errors="replace").rstrip("\r\n").lstrip("\ufeff")
                spans = self._header(header, number)
                if spans is None:
                    return
                id_start, id_end = spans["id"][0], spans["id"][1] or 15
                fed_span = spans.get("fed", (76, 80))
                prefix = f"{self.tc}_" if self.combined else ""
                continue
            fide_id = _number(raw[id_start:id_end].decode("ascii", errors="replace"))
            if fide_id is None:
                if raw.strip():
                    self.lines += 1
                continue
            self.lines += 1
            fed = raw[fed_span[0] : fed_span[1]].decode("ascii", errors="replace").strip()
            if not self.wanted(fide_id, fed or None):
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode("cp1252", errors="replace")
                self.recoded += 1
            line = line.rstrip("\r\n")

            def cell(
                name: str, line: str = line, spans: dict[str, tuple[int, int | None]] = spans
            ) -> str:
                span = spans.get(name)
                return "" if span is None else line[span[0] : span[1]].strip()

            cells = {
                name: cell(name) for name in ("name", "sex", "title", "w_title", "birth", "flag")
            }
            cells |= {what: cell(f"{prefix}{what}") for what in _LIST_FIELDS}
            entry = self._entry(number, fide_id, cells | {"fed": fed})
            if entry is not None:
                yield entry

    # -- the XML files --------------------------------------------------------------------

    def _xml(self) -> Iterator[FideListEntry]:
        root: ElementTree.Element | None = None
        players = 0
        try:
            for event, element in ElementTree.iterparse(self.stream, events=("start", "end")):
                if event == "start":
                    if root is None:
                        root = element
                    continue
                if element.tag != "player":
                    continue
                players += 1
                self.lines = players
                values = {child.tag: (child.text or "").strip() for child in element}
                element.clear()
                if root is not None:
                    root.clear()  # the players read so far: nothing is kept
                if players == 1:
                    self.combined = "rapid_rating" in values or "blitz_rating" in values
                fide_id = _number(values.get("fideid", ""))
                if fide_id is None:
                    continue
                fed = values.get("country", "")
                if not self.wanted(fide_id, fed or None):
                    continue
                key = "" if self.tc == "standard" or not self.combined else f"{self.tc}_"
                cells = {name: values.get(tag, "") for tag, name in _XML_FIELDS.items()}
                cells |= {what: values.get(f"{key}{what}", "") for what in _LIST_FIELDS}
                entry = self._entry(players, fide_id, cells)
                if entry is not None:
                    yield entry
        except ElementTree.ParseError as error:
            line = error.position[0] if error.position else 0
            self.problems.append(Problem(self.source, line, f"unreadable XML ({error})"))
            return
        if players == 0:
            self.problems.append(
                Problem(self.source, 0, "not a FIDE rating list: no <player> elements")
            )

    # -- one player -------------------------------------------------------------------------

    def _entry(self, line: int, fide_id: int, cells: dict[str, str]) -> FideListEntry | None:
        where = f"player {fide_id}"
        reasons: list[str] = []
        name = clean_name(cells["name"])
        if not name:
            reasons.append("no name")
        values: dict[str, int | None] = {}
        for what in _LIST_FIELDS:
            text = cells[what]
            value = _number(text)
            if text and value is None:
                reasons.append(f"{what} {text!r} is not a whole number")
            values[what] = value
        rating = values["rating"] or None  # 0: unrated
        if rating is not None and not 1000 <= rating <= 3500:
            reasons.append(f"rating {rating} is outside 1000..3500")
        birth = _number(cells["birth"])
        birth_year = birth if birth is not None and YEAR_MIN <= birth <= YEAR_MAX else None
        federation = cells["fed"].upper() or None
        if federation is not None and not re.fullmatch(r"[A-Z]{3}", federation):
            federation = None
        sex_text = cells["sex"].strip().casefold()
        sex: Sex | None = "m" if sex_text == "m" else "f" if sex_text in ("f", "w") else None
        title = next(
            (t for t in (cells["title"].upper(), cells["w_title"].upper()) if t in TITLES), None
        )
        if reasons:
            self.problems.extend(
                Problem(self.source, line, f"{where}: {reason}") for reason in reasons
            )
            return None
        return FideListEntry(
            line=line,
            fide_id=fide_id,
            name=name,
            federation=federation,
            sex=sex,
            title=title,
            birth_year=birth_year,
            rating=rating,
            games=values["games"],
            k=values["k"],
            inactive="i" in cells["flag"].casefold(),
        )
