"""``tracker event ...``: the events games are played in, and FIDE's inputs for them."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.notes import now_stale
from tracker.cli.options import (
    AnyTc,
    Json,
    command_group,
    date_option,
    month_option,
    option,
    player_option,
    whole_option,
)
from tracker.cli.render import (
    change,
    expected,
    message,
    pick,
    print_json,
    print_table,
    rating,
    score,
    tie_break,
)
from tracker.errors import UsageError
from tracker.months import month_label
from tracker.user_input import check_tc, today
from tracker.vocabulary import EVENT_KINDS, TC_WORDS, TimeControl

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.db.queries.games import EventRow as StoredEvent
    from tracker.services.events.declare import Declaration
    from tracker.services.events.report import Cell, EventListing, EventReport, EventStanding
    from tracker.services.lists.rated_games import Progress

app = command_group(
    """Events: declared, when each is rated, standings, FIDE's inputs.

    Register an event with `event add` (its dates, rounds, type), or let its games name
    it (`game add --event`, an imported file's). A declared event is rated once it has
    ended; one never declared is taken to end at its last game so far.

    \b
    Example: tracker event add "Autumn Swiss" --start 2026-09-26 --rounds 5
    Example: tracker event list
    Example: tracker event show "Summer Open"
    Example: tracker event edit "Summer Open" --rated-in 2026-09
    """
)


def _rating(text: str) -> tuple[str, int]:
    player, sep, rating = text.rpartition("=")
    if not sep or not player.strip() or not rating.strip().isdecimal():
        raise UsageError(f"--ro {text!r}: give PLAYER=RATING, e.g. --ro 'Hart, Daniel=2053'")
    return player.strip(), int(rating)


Start = Annotated[
    dt.date | None,
    date_option(
        "--start",
        "The event's first day, YYYY-MM-DD: its games are rated with the list in force that "
        "day; none may be earlier.",
    ),
]
End = Annotated[
    dt.date | None,
    date_option(
        "--end",
        "Its last day, YYYY-MM-DD: it is rated in the period holding it (or the day its last "
        "round is played, if earlier); no game may be later.",
    ),
]
Rounds = Annotated[
    int | None,
    whole_option("--rounds", "N", "How many rounds it has: it has ended once round N is played."),
]
Kind = Annotated[
    str | None,
    option(
        "--type",
        "TYPE",
        f"{' | '.join(EVENT_KINDS)}. A league is rated month by month (as is any event "
        "whose dates span more than 90 days).",
    ),
]


def _tc_option(help: str) -> Any:
    """``--tc TC``: the event's time control (no default: the command says what none means)."""
    return typer.Option("--tc", metavar="TC", help=help, parser=check_tc)


EventTc = Annotated[TimeControl | None, _tc_option(f"Its time control: {TC_WORDS}.")]
Site = Annotated[str | None, option("--site", "SITE", "Where it is played.")]


def _declaration(
    start: dt.date | None,
    end: dt.date | None,
    rounds: int | None,
    kind: str | None,
    tc: TimeControl | None,
    site: str | None,
) -> Declaration:
    from tracker.services.events.declare import Declaration

    return Declaration(
        start=start,
        end=end,
        rounds=rounds,
        kind=None if kind is None else kind.strip().casefold(),
        tc=tc,
        site=site,
    )


@app.command("add")
def add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")],
    start: Start = None,
    end: End = None,
    rounds: Rounds = None,
    kind: Kind = None,
    tc: EventTc = None,
    site: Site = None,
    json: Json = False,
) -> None:
    """Register an event before it is played: its dates, rounds, type.

    What is declared decides when it is rated: once it has ended (in the period holding
    its end, or the day its last round is played); a close of a month in which it is
    still running holds its games back. Its games must fit it: none outside its dates,
    none of a round past its last. An event never declared is taken to end at its last
    game so far.

    \b
    Example: tracker event add "Autumn Swiss" --start 2026-09-26 --rounds 5
    Example: tracker event add "Club League" --start 2026-09-01 --type league
    """
    from tracker.services.events.declare import add_event, describe

    if start is None:
        raise UsageError("give the event's first day: --start YYYY-MM-DD")
    declaration = _declaration(start, end, rounds, kind, tc, site)
    event = state(ctx).write(lambda db: add_event(db, name, declaration))
    if json:
        print_json(_declared_json(event))
    message(f"added event {event.name}: {describe(event)}")


def _declared_json(event: StoredEvent) -> dict[str, object]:
    return pick(
        event,
        "id event=name start end=end_date rounds type=kind tc site",
        start=event.start_date if event.start_fixed else None,
    )


def _stale_json(stale: tuple[tuple[TimeControl, tuple[dt.date, ...]], ...]) -> dict[str, object]:
    """The closed periods a change made stale, by time control."""
    return {tc: [month_label(m) for m in months] for tc, months in stale}


@app.command("edit")
def edit(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")],
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
        option(
            "--ro",
            "PLAYER=RATING",
            "The rating FIDE rated PLAYER with in the event, where its calculation shows "
            "another than the list rating (repeatable).",
        ),
    ] = None,
    clear_ro: Annotated[
        list[str] | None,
        option("--clear-ro", "PLAYER", "Rate PLAYER with his list rating again (repeatable)."),
    ] = None,
    new_name: Annotated[
        str | None,
        option(
            "--name",
            "NAME",
            "Rename the event (refused if another event has that name; see `event merge`).",
        ),
    ] = None,
    start: Start = None,
    end: End = None,
    rounds: Rounds = None,
    kind: Kind = None,
    tc: Annotated[
        TimeControl | None, _tc_option("Its time control: all its games are put in it.")
    ] = None,
    site: Site = None,
    json: Json = False,
) -> None:
    """Declare an event's dates, rounds or type; rename it; give a Ro.

    What is declared decides when it is rated (see `event add`). A change of when it is
    rated, of its time control, rating period or a Ro marks the closed periods it touches
    stale (`tracker rerate`); `history` notes the last two beside the period.

    \b
    Example: tracker event edit "Summer Open" --end 2026-08-30 --rounds 9
    Example: tracker event edit "Summer Open" --rated-in 2026-09
    Example: tracker event edit "Summer Open" --ro "Hart, Daniel=2053"
    Example: tracker event edit "Sumer Open" --name "Summer Open"
    Example: tracker event edit "Summer Open" --start 2026-08-29 --tc rapid
    """
    from tracker.services.events.edit import EventEdit, edit_event, edit_event_facts

    ratings = tuple(_rating(text) for text in ro or ())
    declaration = _declaration(start, end, rounds, kind, tc, site)
    if rated_in is None and not ratings and not clear_ro and new_name is None and not declaration:
        raise UsageError(
            "nothing to change: give --name, --start, --end, --rounds, --type, --tc, --site, "
            "--rated-in, --ro or --clear-ro"
        )

    def work(db: Db) -> EventEdit:
        done = edit_event_facts(db, name, new_name=new_name, declaration=declaration)
        if rated_in is None and not ratings and not clear_ro:
            return done
        more = edit_event(
            db, done.name, rated_in=rated_in, ratings=ratings, cleared=tuple(clear_ro or ())
        )
        stale: dict[TimeControl, tuple[dt.date, ...]] = {}
        for t, months in (*done.stale, *more.stale):
            stale[t] = tuple(sorted({*stale.get(t, ()), *months}))
        return EventEdit(more.name, done.changes + more.changes, tuple(sorted(stale.items())))

    result = state(ctx).write(work)
    if json:
        print_json(pick(result, "event=name changes stale", stale=_stale_json(result.stale)))
    if result.changes:
        for change in result.changes:
            message(f"{result.name}: {change}")
    else:
        message(f"unchanged (nothing differs): {result.name}")
    for tc, months in result.stale:
        now_stale(tc, months)


EventName = Annotated[str, typer.Argument(metavar="EVENT", help="The event's name (any case).")]


def _event_json(e: EventListing) -> dict[str, object]:
    return pick(
        e,
        "id event=name tc type=kind start end end_declared rounds=progress.rounds "
        "rounds_played=progress.round_played last_game=progress.last games players rated_in "
        "status=rated.status rated=rated.text lists=rated.lists to_come",
        rated_in=None if e.stated is None else month_label(e.stated),
        to_come=[month_label(m) for m in e.rated.to_come],
    )


def _rounds(p: Progress) -> str:
    """``3/5``: the rounds played of those declared (``3``, ``/5`` where one is unknown)."""
    if p.rounds is None:
        return "" if p.round_played is None else str(p.round_played)
    return f"{p.round_played or 0}/{p.rounds}"


@app.command("list")
def list_(ctx: typer.Context, tc: AnyTc = None, json: Json = False) -> None:
    """Every event: type, dates, rounds, games, when it is rated.

    An event is rated once it has ended (in the period holding its declared end, or the
    day its declared last round is played), with the list in force when it started; a
    league month by month; one stated with --rated-in in that period. Until then its
    games wait ("running"). The end is the declared one, else its last game so far (an
    event never declared is taken to end there). Rounds: played of declared.

    \b
    Example: tracker event list --tc standard
    """
    from tracker.services.events.report import list_events

    rows = state(ctx).read(lambda db: list_events(db, today(), tc))
    if json:
        print_json([_event_json(e) for e in rows])
        return
    columns = ["event", "type", "tc", "start", "end", "rounds", "games", "rated"]
    table = [
        (e.name, e.kind or "", e.tc, e.start, e.end, _rounds(e.progress), e.games, e.rated.text)
        for e in rows
    ]
    unused = {  # nothing to show in them
        "type": not any(e.kind for e in rows),
        "rounds": not any(row[5] for row in table),
    }
    keep = [i for i, c in enumerate(columns) if not unused.get(c)]
    print_table(
        [columns[i] for i in keep],
        [tuple(row[i] for i in keep) for row in table],
        right=("rounds", "games"),
        wrap=("event", "rated"),
        drop=("tc",) if all(e.tc in ("standard", None) for e in rows) else (),
        empty="no events yet",
    )


RESULT_WORDS = "1 won, = drawn, 0 lost, + and - a forfeit won and lost"


def _standing_json(s: EventStanding) -> dict[str, object]:
    return pick(
        s,
        "rank id=player_id name external number games score buchholz=tie_breaks.buchholz "
        "sonneborn_berger=tie_breaks.sonneborn_berger rating rated_games expected performance "
        "change_exact=change lists games_by_round",
        games_by_round=[
            pick(
                c,
                "round opponent_rank opponent_number opponent_id colour result bye",
                opponent_id=c.opponent_id or None,
                colour={"w": "white", "b": "black"}.get(c.colour),
            )
            for c in s.cells
        ],
    )


#: Up to this many players the crosstable is a grid (a column per opponent).
GRID_PLAYERS = 12


@app.command("show")
def show(
    ctx: typer.Context,
    name: EventName,
    norms: Annotated[
        bool,
        typer.Option(
            "--norms",
            help="Instead, the GM, IM, WGM and WIM norms each player's games give (FIDE Title "
            "Regulations 2024, each check with its article).",
        ),
    ] = False,
    player: Annotated[
        str | None, player_option("With --norms: only this player, with every check")
    ] = None,
    json: Json = False,
) -> None:
    """An event's standings and crosstable, or its title norms.

    Each player's score (forfeits count), the rating he is rated with in it (Ro), his
    expected score and Elo change over the event's games (the close's numbers: of his
    period's change, the part the event makes; before the close, what closing the open
    period now would give) and his performance rating (average opponent + dp over his games
    against rated opponents, §8.1.1). The crosstable is a grid for a small event; for a
    larger one each player's games, round by round, as the opponent's start number (by
    rating at the start), colour and result (as Swiss-Manager prints them).

    With --norms, each player's GM, IM, WGM and WIM norms under the FIDE Title Regulations
    applied from 1 January 2024: games (§1.4.1), federations (§1.4.3-1.4.4), title holders
    (§1.4.5), the opponents' ratings with the floor raise and Ra (§1.4.6-1.4.7), Rp = Ra +
    dp, the minimum Ra and 35% (§1.4.8-1.4.9); titles and federations as stored. Where
    leaving games out gives a norm, the best set the rules allow: games after the title
    result (§1.4.1e, not in a round robin: `event add/edit --type round-robin`), wins
    (§1.4.1f). While the event runs (its rounds declared), what its remaining rounds still
    require.

    \b
    Example: tracker event show "Summer Open"
    Example: tracker event show "Summer Open" --norms --player Hart
    """
    if not norms and player is not None:
        raise UsageError("--player goes with --norms")
    if norms:
        from tracker.cli.norms import show_norms

        show_norms(ctx, name, player, json)
        return
    from tracker.services.events.lookup import find_event
    from tracker.services.events.report import show_event

    report = state(ctx).read(lambda db: show_event(db, find_event(db, name), today()))
    if json:
        progress = report.progress
        print_json(
            pick(
                report,
                "id event=name tc start end type=kind rounds rounds_played status=rated.status "
                "rated=rated.text live waits standings",
                rounds=progress.rounds if progress else None,
                rounds_played=progress.round_played if progress else None,
                waits=[month_label(m) for m in report.waits],
                standings=[_standing_json(s) for s in report.standings],
            )
        )
        return
    _print_event(report)


def _print_event(report: EventReport) -> None:
    dates = report.start.isoformat()
    if report.end is not None and report.end != report.start:
        dates += f" to {report.end.isoformat()}"
    facts = [f for f in (report.kind, report.tc) if f]
    so_far = report.progress.text if report.progress is not None else ""
    if so_far:
        facts.append(so_far)
    header = f"{report.name} ({', '.join(facts)}), {dates}: {report.rated.text}"
    league = report.rated.status == "league"
    breaks = report.tie_break_names  # what orders equal scores
    print_table(
        ["rk", "player", "Ro", "games", "score", *breaks, "expected", "perf", "change"]
        + (["lists"] if league else []),
        [
            (
                s.rank,
                s.name,
                "ext" if s.external else rating(s.rating),
                s.games,
                score(s.score),
                *(tie_break(t, s.tie_breaks.value(t)) for t in breaks),
                "" if s.expected is None else expected(s.expected),
                s.performance,
                "" if s.change is None else change(s.change),
            )
            + ((", ".join(d.isoformat() for d in s.lists),) if league else ())
            for s in report.standings
        ],
        title=header,
        right=("rk", "Ro", "games", "score", *breaks, "expected", "perf", "change"),
        wrap=("player", "lists"),
        break_words=("player",),
        drop=tuple(reversed(breaks)),  # where there is no room: the tie-breaks, last first
        empty=f"{report.name} has no games",
    )
    if not report.standings:
        return
    print()
    if len(report.standings) <= GRID_PLAYERS:
        _print_grid(report)
    else:
        _print_rounds(report)
    if report.live:
        message("the change is what closing the open period now would give (not published yet)")
    if report.waits:
        message(
            f"no expected score or change yet for the games rated in "
            f"{', '.join(month_label(m) for m in report.waits)}: an earlier open period "
            "must be closed first"
        )


def grid(report: EventReport) -> tuple[list[str], str, list[tuple[int, str, list[str], str]]]:
    """The crosstable as a grid: its headers (a column per player, and one for byes if any),
    its caption's key to the results, and per player in rank order his number, name, the
    results against each player (a column per player in rank order, ``x`` on his own) and
    score."""
    n = len(report.standings)
    position = {s.player_id: i for i, s in enumerate(report.standings)}
    byes = any(c.bye for s in report.standings for c in s.cells)
    key = f"no: place in the standings; {RESULT_WORDS}" + ("; bye: a bye's points" if byes else "")
    columns = ["no", "player", *(str(i + 1) for i in range(n)), *(["bye"] if byes else []), "score"]
    rows = []
    for s in report.standings:
        against = [""] * (n + byes)  # and the byes' column, if any
        for c in s.cells:
            against[n if c.bye else position[c.opponent_id]] += c.result
        against[position[s.player_id]] = "x"
        rows.append((position[s.player_id] + 1, s.name, against, score(s.score)))
    return columns, key, rows


def game_code(c: Cell) -> str:
    """A game as a crosstable by start numbers shows it: opponent's number, colour, result
    (``12w1``); a bye, its points (``bye1``)."""
    return f"bye{c.result}" if c.bye else f"{c.opponent_number}{c.colour}{c.result}"


def round_rows(report: EventReport) -> list[tuple[int, int, str, str, str]]:
    """The crosstable of a large event: per player his rank, start number, name, score and
    games in order (opponent's start number, colour, result: ``12w1``; a rank can be shared,
    a start number not)."""
    return [
        (
            s.rank,
            s.number,
            s.name,
            score(s.score),
            " ".join(map(game_code, s.cells)),
        )
        for s in report.standings
    ]


def _print_grid(report: EventReport) -> None:
    """A column per player, in rank order: the results against him, in the order played."""
    columns, key, rows = grid(report)
    print_table(
        columns,
        [(no, name, *against, total) for no, name, against, total in rows],
        title=f"crosstable ({key})",
        right=("no", "score"),
        wrap=("player",),
        break_words=("player",),
    )


#: The large crosstable's caption (``event show`` and the site's event page).
ROUNDS_CAPTION = (
    "crosstable (no: start number, by rating at the start; each game: opponent's no, colour "
    f"w/b, result: {RESULT_WORDS})"
)


def _print_rounds(report: EventReport) -> None:
    """Each player's games in order: opponent's start number, colour, result (``12w1``)."""
    print_table(
        ["rk", "no", "player", "score", "games"],
        round_rows(report),
        title=ROUNDS_CAPTION,
        right=("rk", "no", "score"),
        wrap=("player", "games"),
        break_words=("player",),
    )


@app.command("merge")
def merge(
    ctx: typer.Context,
    keep: Annotated[str, typer.Argument(metavar="EVENT", help="The event to keep.")],
    other: Annotated[
        str, typer.Argument(metavar="OTHER", help="Another spelling of it: its games move.")
    ],
    json: Json = False,
) -> None:
    """Make two spellings of one event one: OTHER's games move to EVENT.

    The games keep their ids; OTHER goes. Refused, a line per problem, where a game would
    become a duplicate of one of EVENT's (same date, players and round), or where the two
    differ in time control or in FIDE's inputs. The periods the move touches go stale.

    \b
    Example: tracker event merge "Summer Open" "Sumer Open"
    """
    from tracker.services.events.edit import merge_events

    result = state(ctx).write(lambda db: merge_events(db, keep, other))
    if json:
        print_json(pick(result, "event=name merged games stale", stale=_stale_json(result.stale)))
    message(f"merged {result.merged!r} into {result.name!r}: {len(result.games)} game(s) moved")
    for tc, months in result.stale:
        now_stale(tc, months)
