"""``tracker site build``: everything a club's static rating pages show.

Nothing here is computed for the site: each number comes from the service the CLI prints
it with (:func:`~tracker.services.periods.listing.rating_list` for ``tracker list``,
:func:`~tracker.services.periods.history.history` for ``tracker history``,
:func:`~tracker.services.periods.detail.month_details` for ``history --month``,
:func:`~tracker.services.compare.compare` for the chart ``--plot`` draws,
:func:`~tracker.services.h2h.opponents` for ``tracker h2h PLAYER``,
:func:`~tracker.services.compare.everyone.compare_all` for the shadow beside the list,
:func:`~tracker.services.events.report.show_event` for ``event show``). The pages are drawn
by the CLI layer (:mod:`tracker.cli.site_pages`).

A federation's site has tens of thousands of pages: :func:`site` reads what the index and
the Elo-and-Glicko page need, and :class:`SiteReads` gives each player's and each event's
data one at a time, to be drawn and written before the next is read; what every page reads
alike (the closed months, the lists' ranks, the published lists) is read once. Memory holds
the period details of a batch of players (:data:`BATCH`) and of a few months' events, never
every month's (a 50,000-player site built in 1.1 GB when it did).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from tracker.db.driver import Db
from tracker.db.queries import site as queries
from tracker.db.queries.games import event_by_id
from tracker.db.queries.lists import period_lines
from tracker.db.queries.players import players_by_ids
from tracker.errors import InvalidInputError
from tracker.months import next_month
from tracker.services import lists, log
from tracker.services.compare import Comparison, compare
from tracker.services.compare.everyone import StandingRow, compare_all
from tracker.services.events.report import EventListing, EventReport, list_events, show_event
from tracker.services.h2h import Opponents, opponents
from tracker.services.intake import has_control
from tracker.services.periods.detail import MonthDetails, PeriodDetail
from tracker.services.periods.history import History, Shared, history
from tracker.services.periods.listing import RatingList, rating_list
from tracker.services.periods.status import ListStatus, status
from tracker.services.players.refs import PlayerView
from tracker.services.players.roster import list_players
from tracker.vocabulary import LOGO_TYPES, TIME_CONTROLS, TimeControl

#: What ``tracker site config`` stores: title, about, url, logo (bytes) and its type.
SiteConfig = queries.SiteConfigRow

#: The title of a site whose club gave none (``tracker site config --title``).
DEFAULT_TITLE = "Club ratings"
#: The longest title, and words about the club, a site keeps.
TITLE_MAX, ABOUT_MAX = 100, 2000
#: The largest logo a site keeps (bytes): a logo, not a photograph.
LOGO_MAX = 256 * 1024
#: How each kind of image begins (an SVG is XML with an <svg> element near its start).
_MAGIC = {
    "png": (b"\x89PNG\r\n\x1a\n",),
    "jpeg": (b"\xff\xd8\xff",),
    "gif": (b"GIF87a", b"GIF89a"),
}


@dataclass(frozen=True)
class SiteList:
    """One time control's latest list, with the shadow of each player on it and the rounded
    change of the period that made his line (None: his first rating, or no games)."""

    tc: TimeControl
    preset: str
    rating_list: RatingList
    shadows: dict[int, StandingRow]
    changes: dict[int, int]
    pending: ListStatus | None  # what ``tracker status`` says is open and not yet rated


@dataclass(frozen=True)
class ListPage:
    """A published list and the rounded change of each line (none: his first rating, or
    no games)."""

    rating_list: RatingList
    changes: dict[int, int]


@dataclass(frozen=True)
class SiteRecord:
    """One time control of a player: his history (``tracker history``), the same months as
    ``tracker compare`` gives them for the chart (as ``--plot`` draws it), and each closed
    period's games as ``tracker history --month`` lists them."""

    history: History
    comparison: Comparison
    periods: tuple[PeriodDetail, ...]  # by month


@dataclass(frozen=True)
class SitePlayer:
    player: PlayerView
    records: tuple[SiteRecord, ...]  # one per time control he has a history in
    opponents: Opponents  # ``tracker h2h PLAYER`` (of the site's time control, if one)


@dataclass(frozen=True)
class Site:
    tc: TimeControl | None  # the time control asked for; None: all
    tcs: tuple[TimeControl, ...]  # the time controls asked for
    lists: tuple[SiteList, ...]  # those with a closed period, in the order of ``tcs``
    players: tuple[PlayerView, ...]  # tracked players by id
    events: tuple[EventListing, ...]  # those with games, by id
    config: SiteConfig  # ``tracker site config``
    last_game: dt.date | None  # the day of the latest game stored: the date of the data
    published: tuple[Published, ...]  # every list, by time control, the latest first


@dataclass(frozen=True)
class Published:
    """A published list: its time control, its date, and whether a rerate is due."""

    tc: TimeControl
    list_date: dt.date
    stale: bool


def _changes(db: Db, rl: RatingList) -> dict[int, int]:
    """The rounded change of the period that made each line of ``rl``, by player: of the
    lines stored on its period that rated games from a rating (none for a first rating, or
    a line carried over without games: nothing changed it)."""
    period = lists.period_id(db, rl.tc, rl.month)
    stored = period_lines(db, period, players=[e.player_id for e in rl.entries]) if period else []
    return {ln.player_id: ln.change for ln in stored if ln.rating_before is not None and ln.games}


def site(db: Db, tc: TimeControl | None, today: dt.date) -> Site:
    """The lists, the players and the events, in a stable order (ids, time controls as
    listed)."""
    tcs: tuple[TimeControl, ...] = (tc,) if tc is not None else TIME_CONTROLS
    site_lists = []
    published = []
    statuses = {s.tc: s for s in status(db, today).lists}
    for t in tcs:
        closed = lists.closed_months(db, t)
        if not closed:
            continue
        published += [Published(t, next_month(c.month), c.stale) for c in reversed(closed)]
        rl = rating_list(db, t, None)
        standings = compare_all(db, t)
        site_lists.append(
            SiteList(
                tc=t,
                preset=standings.preset,
                rating_list=rl,
                shadows={r.player_id: r for r in standings.rows},
                changes=_changes(db, rl),
                pending=statuses.get(t),
            )
        )
    events = sorted(  # an event whose games were all removed has no page
        (e for e in list_events(db, today) if e.games and (tc is None or e.tc == tcs[0])),
        key=lambda e: e.id,
    )
    return Site(
        tc=tc,
        tcs=tcs,
        lists=tuple(site_lists),
        players=tuple(sorted(list_players(db, external=False), key=lambda p: p.id)),
        events=tuple(events),
        config=site_config(db),
        last_game=queries.last_game_day(db),
        published=tuple(published),
    )


#: The players whose periods are worked out together (each month's reads made once for
#: them) and held while their pages are drawn.
BATCH = 6000
#: The months of period details the event pages keep (events are read in order of start).
EVENT_MONTHS = 3


class SiteReads:
    """Each player's and each event's page data, one at a time, from reads made once for
    all of them (each time control's closed months, list ranks and published lists) or for
    a batch of them (the players' period details)."""

    def __init__(self, db: Db, site: Site) -> None:
        self.db = db
        self.site = site
        self.open_tcs = [sl.rating_list.tc for sl in site.lists]
        self.shared = {t: Shared(db, t) for t in self.open_tcs}
        self.months = {
            t: MonthDetails(db, s.tc, s.closed, keep=EVENT_MONTHS) for t, s in self.shared.items()
        }

    def players(self) -> Iterator[SitePlayer]:
        people = self.site.players
        for start in range(0, len(people), BATCH):
            yield from self._batch(people[start : start + BATCH])

    def _batch(self, batch: tuple[PlayerView, ...]) -> Iterator[SitePlayer]:
        """A batch's pages, from its periods worked out together (let go when it ends,
        before the next batch's are)."""
        rows = players_by_ids(self.db, [p.id for p in batch])
        periods = {t: self.months[t].of_players(rows) for t in self.open_tcs}
        for p in batch:
            records = []
            for t in self.open_tcs:
                h = history(self.db, f"#{p.id}", t, self.shared[t])
                if h.rows:
                    mine = tuple(periods[t].get(p.id, ()))
                    records.append(SiteRecord(h, compare(self.db, f"#{p.id}", t, None), mine))
            yield SitePlayer(p, tuple(records), opponents(self.db, f"#{p.id}", self.site.tc))

    def lists(self) -> Iterator[ListPage]:
        """Each published list in full, with each line's change (``tracker list MONTH``)."""
        for p in self.site.published:
            rl = rating_list(self.db, p.tc, p.list_date)
            yield ListPage(rl, _changes(self.db, rl))

    def events(self, today: dt.date) -> Iterator[EventReport]:
        """Each event's report, in order of start (the months its details need come in
        order)."""
        for e in sorted(self.site.events, key=lambda e: (e.start, e.id)):
            event = event_by_id(self.db, e.id)
            assert event is not None
            yield show_event(self.db, event, today, self.months)


def site_config(db: Db) -> SiteConfig:
    """What ``tracker site config`` stored (the default title if nothing)."""
    return queries.site_config(db) or SiteConfig(DEFAULT_TITLE, None, None, None, None)


def logo_type(data: bytes, name: str) -> str:
    """The kind of image a logo file is, from its bytes (its name only in the message)."""
    for kind, starts in _MAGIC.items():
        if data.startswith(starts):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:1024].lstrip().lower()
    if head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in data[:4096].lower():
        return "svg"
    raise InvalidInputError(f"{name} is no image a page shows: use {', '.join(LOGO_TYPES)}")


def _text(value: str, what: str, most: int) -> str | None:
    """A title or a paragraph as stored: trimmed, blank is none; refused with control
    characters (but a paragraph's line breaks) or past ``most`` characters."""
    text = value.strip()
    if has_control(text.replace("\n", " ") if what == "about" else text):
        raise InvalidInputError(f"the {what} has control characters")
    if len(text) > most:
        raise InvalidInputError(f"the {what} is {len(text)} characters: at most {most}")
    return text or None


def set_site_config(
    db: Db,
    *,
    title: str | None = None,
    about: str | None = None,
    url: str | None = None,
    logo: tuple[bytes, str] | None = None,
    no_logo: bool = False,
) -> tuple[SiteConfig, bool]:
    """Check and store the site's configuration: what is not given stays; ``about`` or
    ``url`` blank removes it; ``logo`` is the file's bytes and name. The configuration, and
    whether it changed."""
    current = site_config(db)
    new = current
    if title is not None:
        checked = _text(title, "title", TITLE_MAX)
        if checked is None:
            raise InvalidInputError("the title is blank: give the club's name")
        new = new._replace(title=checked)
    if about is not None:
        new = new._replace(about=_text(about, "about", ABOUT_MAX))
    if url is not None:
        address = _text(url, "url", 500)
        if address is not None and (
            not address.startswith(("https://", "http://")) or any(c.isspace() for c in address)
        ):
            raise InvalidInputError(f"{address!r} is no web address: give https://...")
        new = new._replace(url=address)
    if logo is not None and no_logo:
        raise InvalidInputError("--logo FILE or --no-logo, not both")
    if logo is not None:
        data, name = logo
        if len(data) > LOGO_MAX:
            raise InvalidInputError(
                f"{name} is {len(data) // 1024} KB: a logo is at most {LOGO_MAX // 1024} KB"
            )
        new = new._replace(logo=data, logo_type=logo_type(data, name))
    if no_logo:
        new = new._replace(logo=None, logo_type=None)
    if new == current and queries.site_config(db) is not None:
        return current, False
    queries.save_site_config(db, new)
    log.note(db, "changed", f"site settings: title {new.title!r}")
    return new, True
