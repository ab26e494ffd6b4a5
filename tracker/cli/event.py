"""``tracker event ...``: the events games are played in, and FIDE's inputs for them."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.context import state
from tracker.cli.notes import now_stale
from tracker.cli.options import AnyTc, Json, command_group, month_option, player_option, whole
from tracker.cli.render import change, expected, message, print_json, print_table, score
from tracker.errors import UsageError
from tracker.months import month_label
from tracker.user_input import today

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.services.events.report import EventReport, EventRow, Standing

app = command_group(
    """Events: when each is rated, standings, FIDE's inputs.

    An event is the name its games share (`game add --event`, or an imported file's).

    \b
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


@app.command("edit")
def edit(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="EVENT", help="The event's name.", show_default=False)
    ],
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
        typer.Option(
            "--ro",
            metavar="PLAYER=RATING",
            help="The rating FIDE rated PLAYER with in the event, where its calculation shows "
            "another than the list rating (repeatable).",
        ),
    ] = None,
    clear_ro: Annotated[
        list[str] | None,
        typer.Option(
            "--clear-ro",
            metavar="PLAYER",
            help="Rate PLAYER with his list rating again (repeatable).",
        ),
    ] = None,
    new_name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Rename the event (refused if another event has that name; see `event merge`).",
        ),
    ] = None,
    start: Annotated[
        dt.datetime | None,
        typer.Option(
            "--start",
            metavar="DATE",
            formats=["%Y-%m-%d"],
            help="The event's start date, YYYY-MM-DD: its games are rated with the list in "
            "force that day (no game may be earlier).",
        ),
    ] = None,
    tc: Annotated[
        str | None,
        typer.Option("--tc", metavar="TC", help="Put all its games in this time control."),
    ] = None,
    json: Json = False,
) -> None:
    """Rename an event; give its start, time control, rating period or a Ro.

    A change of the start, the time control, the rating period or a Ro marks the closed
    periods it touches stale (`tracker rerate`); `history` notes the last two beside the
    period.

    \b
    Example: tracker event edit "Summer Open" --rated-in 2026-09
    Example: tracker event edit "Summer Open" --ro "Hart, Daniel=2053"
    Example: tracker event edit "Sumer Open" --name "Summer Open"
    Example: tracker event edit "Summer Open" --start 2026-08-29 --tc rapid
    """
    from tracker.services.events import EventEdit, edit_event, edit_event_facts

    ratings = tuple(_rating(text) for text in ro or ())
    facts = new_name is not None or start is not None or tc is not None
    if rated_in is None and not ratings and not clear_ro and not facts:
        raise UsageError(
            "nothing to change: give --name, --start, --tc, --rated-in, --ro or --clear-ro"
        )
    first_day = start.date() if start is not None else None

    def work(db: Db) -> EventEdit:
        done = edit_event_facts(db, name, new_name=new_name, start=first_day, tc=tc)
        if rated_in is None and not ratings and not clear_ro:
            return done
        more = edit_event(
            db, done.name, rated_in=rated_in, ratings=ratings, cleared=tuple(clear_ro or ())
        )
        stale: dict[str, tuple[dt.date, ...]] = {}
        for t, months in (*done.stale, *more.stale):
            stale[t] = tuple(sorted({*stale.get(t, ()), *months}))
        return EventEdit(more.name, done.changes + more.changes, tuple(sorted(stale.items())))

    result = state(ctx).write(work)
    if json:
        print_json(
            {
                "event": result.name,
                "changes": list(result.changes),
                "stale": {tc: [m.isoformat()[:7] for m in months] for tc, months in result.stale},
            }
        )
    if result.changes:
        for change in result.changes:
            message(f"{result.name}: {change}")
    else:
        message(f"unchanged (nothing differs): {result.name}")
    for tc, months in result.stale:
        now_stale(tc, months)


EventName = Annotated[
    str, typer.Argument(metavar="EVENT", help="The event's name (any case).", show_default=False)
]


def _day(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _event_json(e: EventRow) -> dict[str, object]:
    return {
        "id": e.id,
        "event": e.name,
        "tc": e.tc,
        "start": _day(e.start),
        "end": _day(e.end),
        "games": e.games,
        "players": e.players,
        "rated_in": None if e.stated is None else month_label(e.stated),
        "status": e.rated.status,
        "rated": e.rated.text,
        "lists": [d.isoformat() for d in e.rated.lists],
        "to_come": [month_label(m) for m in e.rated.to_come],
    }


@app.command("list")
def list_(ctx: typer.Context, tc: AnyTc = None, json: Json = False) -> None:
    """Every event: dates, games, players, whether it is rated yet.

    An event is rated in the period it ends in (or the one stated with --rated-in), with
    the list in force when it started; a league (over 90 days) month by month. Until its
    period is closed its games wait: "running" while its last game is in the current
    month. The dates are its start and its last played game.

    \b
    Example: tracker event list --tc standard
    """
    from tracker.services.events.report import list_events

    rows = state(ctx).read(lambda db: list_events(db, today(), tc))
    if json:
        print_json([_event_json(e) for e in rows])
        return
    print_table(
        ["event", "tc", "start", "end", "games", "players", "rated"],
        [(e.name, e.tc, e.start, e.end, e.games, e.players, e.rated.text) for e in rows],
        right=("games", "players"),
        wrap=("event", "rated"),
        drop=("tc",) if all(e.tc in ("standard", None) for e in rows) else (),
        empty="no events yet",
    )


RESULT_WORDS = "1 won, = drawn, 0 lost, + and - a forfeit won and lost"


def _standing_json(s: Standing) -> dict[str, object]:
    return {
        "rank": s.rank,
        "id": s.player_id,
        "name": s.name,
        "external": s.external,
        "games": s.games,
        "score": s.score,
        "rating": s.rating,
        "rated_games": s.rated_games,
        "expected": s.expected,
        "performance": s.performance,
        "change_exact": s.change,
        "lists": [d.isoformat() for d in s.lists],
        "games_by_round": [
            {
                "round": c.round,
                "opponent_rank": c.opponent_rank,
                "opponent_id": c.opponent_id,
                "colour": "white" if c.colour == "w" else "black",
                "result": c.result,
            }
            for c in s.cells
        ],
    }


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
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            metavar="N",
            help="With --norms, while the event runs: its number of rounds; what the "
            "remaining rounds still require. Default: the event is over.",
            parser=whole,
        ),
    ] = None,
    json: Json = False,
) -> None:
    """An event's standings and crosstable, or its title norms.

    Each player's score (forfeits count), the rating he is rated with in it (Ro), his
    expected score and Elo change over the event's games (the close's numbers: of his
    period's change, the part the event makes; before the close, what closing the open
    period now would give) and his performance rating (average opponent + dp, §8.1.1). The
    crosstable is a grid for a small event; for a larger one each player's games, round by
    round, as the opponent's rank, colour and result (as Swiss-Manager prints them).

    With --norms, each player's GM, IM, WGM and WIM norms under the FIDE Title Regulations
    applied from 1 January 2024: games (§1.4.1), federations (§1.4.3-1.4.4), title holders
    (§1.4.5), the opponents' ratings with the floor raise and Ra (§1.4.6-1.4.7), Rp = Ra +
    dp, the minimum Ra and 35% (§1.4.8-1.4.9); titles and federations as stored.

    \b
    Example: tracker event show "Summer Open"
    Example: tracker event show "Summer Open" --norms --player Hart --rounds 9
    """
    if not norms and (player is not None or rounds is not None):
        raise UsageError("--player and --rounds go with --norms")
    if norms:
        from tracker.cli.norms import show_norms

        show_norms(ctx, name, player, rounds, json)
        return
    from tracker.services.events import find_event
    from tracker.services.events.report import show_event

    report = state(ctx).read(lambda db: show_event(db, find_event(db, name), today()))
    if json:
        print_json(
            {
                "id": report.id,
                "event": report.name,
                "tc": report.tc,
                "start": _day(report.start),
                "end": _day(report.end),
                "status": report.rated.status,
                "rated": report.rated.text,
                "live": report.live,
                "waits": [month_label(m) for m in report.waits],
                "standings": [_standing_json(s) for s in report.standings],
            }
        )
        return
    _print_event(report)


def _print_event(report: EventReport) -> None:
    dates = report.start.isoformat()
    if report.end is not None and report.end != report.start:
        dates += f" to {report.end.isoformat()}"
    header = f"{report.name} ({report.tc}), {dates}: {report.rated.text}"
    league = report.rated.status == "league"
    print_table(
        ["rk", "player", "Ro", "games", "score", "expected", "perf", "change"]
        + (["lists"] if league else []),
        [
            (
                s.rank,
                s.name,
                "ext" if s.external else s.rating if s.rating is not None else "unrated",
                s.games,
                score(s.score),
                "" if s.expected is None else expected(s.expected),
                s.performance,
                "" if s.change is None else change(s.change),
            )
            + ((", ".join(d.isoformat() for d in s.lists),) if league else ())
            for s in report.standings
        ],
        title=header,
        right=("rk", "Ro", "games", "score", "expected", "perf", "change"),
        wrap=("player", "lists"),
        break_words=("player",),
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


def grid_rows(report: EventReport) -> list[tuple[int, str, list[str], str]]:
    """The crosstable as a grid: per player in rank order, his number, name, the results
    against each player (a column per player in rank order, ``x`` on his own) and score."""
    n = len(report.standings)
    position = {s.player_id: i for i, s in enumerate(report.standings)}
    rows = []
    for s in report.standings:
        against = [""] * n
        for c in s.cells:
            against[position[c.opponent_id]] += c.result
        against[position[s.player_id]] = "x"
        rows.append((position[s.player_id] + 1, s.name, against, score(s.score)))
    return rows


def round_rows(report: EventReport) -> list[tuple[int, str, str, str]]:
    """The crosstable of a large event: per player his rank, name, score and games in order
    (opponent's rank, colour, result: ``12w1``)."""
    return [
        (
            s.rank,
            s.name,
            score(s.score),
            " ".join(f"{c.opponent_rank}{c.colour}{c.result}" for c in s.cells),
        )
        for s in report.standings
    ]


def _print_grid(report: EventReport) -> None:
    """A column per player, in rank order: the results against him, in the order played."""
    n = len(report.standings)
    print_table(
        ["no", "player", *(str(i + 1) for i in range(n)), "score"],
        [(no, name, *against, total) for no, name, against, total in grid_rows(report)],
        title=f"crosstable (no: place in the standings; {RESULT_WORDS})",
        right=("no", "score"),
        wrap=("player",),
        break_words=("player",),
    )


def _print_rounds(report: EventReport) -> None:
    """Each player's games in order: opponent's rank, colour, result (``12w1``)."""
    print_table(
        ["rk", "player", "score", "games"],
        round_rows(report),
        title=f"crosstable (each game: opponent's rank, colour w/b, result: {RESULT_WORDS})",
        right=("rk", "score"),
        wrap=("player", "games"),
        break_words=("player",),
    )


@app.command("merge")
def merge(
    ctx: typer.Context,
    keep: Annotated[
        str, typer.Argument(metavar="EVENT", help="The event to keep.", show_default=False)
    ],
    other: Annotated[
        str,
        typer.Argument(
            metavar="OTHER", help="Another spelling of it: its games move.", show_default=False
        ),
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
    from tracker.services.events import MergeRefused, merge_events

    try:
        result = state(ctx).write(lambda db: merge_events(db, keep, other))
    except MergeRefused as exc:
        for problem in exc.problems:
            message(problem)
        raise
    if json:
        print_json(
            {
                "event": result.name,
                "merged": result.merged,
                "games": list(result.games),
                "stale": {tc: [m.isoformat()[:7] for m in months] for tc, months in result.stale},
            }
        )
    message(f"merged {result.merged!r} into {result.name!r}: {len(result.games)} game(s) moved")
    for tc, months in result.stale:
        now_stale(tc, months)
