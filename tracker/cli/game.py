"""``tracker game ...``: log, list and remove games."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import render
from tracker.cli.context import state
from tracker.cli.notes import now_stale
from tracker.cli.options import (
    PLAYER_WORDS,
    Again,
    AnyTc,
    GameTc,
    Json,
    Player,
    Yes,
    command_group,
    month_option,
    option,
    player_option,
    tc_option,
    whole,
    whole_option,
)
from tracker.cli.render import message, pick, print_json, print_table, table_width, terminal_width
from tracker.errors import InvalidInputError, UsageError
from tracker.files import open_input
from tracker.user_input import parse_date, today
from tracker.vocabulary import BYE_HELP, RESULT_HELP, TimeControl, bye_code, plural

if TYPE_CHECKING:
    from tracker.services.games import GameView
    from tracker.services.games.byes import ByeView

GameId = Annotated[
    int, typer.Argument(metavar="ID", help="The game's id (see game list).", parser=whole)
]

Date = Annotated[str | None, option("--date", "DATE", "YYYY-MM-DD. Default: today.")]

app = command_group(
    """Log, list, edit, remove and restore games.

    A game added, changed or removed in a closed period makes it stale: see
    `tracker rerate`.

    \b
    Example: tracker game list --player "Sato, Yuki"
    """
)


def game_json(g: GameView) -> dict[str, Any]:
    return pick(
        g,
        "id date=played_on white white_id black black_id result rated tc event round "
        "white_rating black_rating",
    )


def _line(g: GameView) -> str:
    where = f", {g.event}" + (f" round {g.round}" if g.round else "") if g.event else ""
    forfeit = (
        " (a double forfeit: neither played; not rated)"
        if g.result == "0-0"
        else " (forfeit, not rated)"
        if not g.rated
        else ""
    )
    return f"game {g.id}: {g.white} {g.result} {g.black}, {g.played_on}, {g.tc}{where}{forfeit}"


@app.command("add")
def add(
    ctx: typer.Context,
    white: Annotated[str, typer.Argument(metavar="WHITE", help=f"White: {PLAYER_WORDS}.")],
    black: Annotated[str, typer.Argument(metavar="BLACK", help=f"Black: {PLAYER_WORDS}.")],
    result: Annotated[
        str | None,
        typer.Argument(
            metavar="RESULT",
            help=f"{RESULT_HELP}. For a bye (BLACK is the word bye): its points, 1/2 or 0 "
            "(none: a full point).",
        ),
    ] = None,
    date: Date = None,
    event: Annotated[
        str | None,
        option(
            "--event",
            "NAME",
            "Event name; created on first use (`tracker event add` declares its dates, "
            "rounds and type).",
        ),
    ] = None,
    round_: Annotated[str | None, option("--round", "ROUND", "Round number.")] = None,
    tc: GameTc = None,
    white_rating: Annotated[
        int | None,
        whole_option(
            "--white-rating", "RATING", "White's rating as recorded (needed if external)."
        ),
    ] = None,
    black_rating: Annotated[
        int | None,
        whole_option(
            "--black-rating", "RATING", "Black's rating as recorded (needed if external)."
        ),
    ] = None,
    yes: Yes = False,
    again: Again = False,
    json: Json = False,
) -> None:
    """Record a game, or a bye (PLAYER bye [1/2|0]).

    A bye is a round of an event without an opponent: it counts in the standings, never in
    a rating.

    \b
    Example: tracker game add "Hart, Daniel" "Sato, Yuki" 1-0 --date 2026-09-05
    Example: tracker game add Sato bye 1/2 --event "Autumn Swiss" --round 3
    """
    from tracker.services.games import add_game

    played_on = parse_date(date) if date is not None else today()
    if black.strip().casefold() == "bye":
        from tracker.services.games.byes import add_bye

        code = bye_code(result or "")
        if code is None:
            raise UsageError(f"a bye's points: {result!r}; write {BYE_HELP}")
        b = state(ctx).write(
            lambda db: add_bye(
                db,
                player=white,
                code=code,
                event=event,
                round_=round_,
                played_on=played_on,
                tc=tc,
                today=today(),
                yes=yes,
            )
        )
        if json:
            print_json(bye_json(b))
        message(f"added bye {b.words}")
        return
    if result is None:
        raise UsageError(f"give the RESULT: {RESULT_HELP}")
    g = state(ctx).write(
        lambda db: add_game(
            db,
            white=white,
            black=black,
            result=result,
            played_on=played_on,
            tc=tc,
            event=event,
            round_=round_,
            white_rating=white_rating,
            black_rating=black_rating,
            yes=yes,
            again=again,
        )
    )
    _done("added", g, json)


@app.command("remove-bye")
def remove_bye(
    ctx: typer.Context,
    player: Player,
    event: Annotated[str, option("--event", "NAME", "The event.")],
    round_: Annotated[str, option("--round", "ROUND", "The round.")],
    json: Json = False,
) -> None:
    """Take out a bye entered by mistake.

    \b
    Example: tracker game remove-bye Sato --event "Autumn Swiss" --round 3
    """
    from tracker.services.games.byes import remove_bye as do_remove

    b = state(ctx).write(lambda db: do_remove(db, player=player, event=event, round_=round_))
    if json:
        print_json(bye_json(b))
    message(f"removed bye {b.words}")


def _done(did: str, g: GameView, json: bool) -> None:
    """A game a command wrote: its JSON (with --json), then on stderr its line, what the
    intake's rules want known of it (a rating that is no FIDE rating...), why a closed
    period went stale where that is not plain, and the periods that did."""
    if json:
        print_json(game_json(g))
    message(f"{did} {_line(g)}")
    for warning in g.warnings:
        message(f"  warning: {warning}")
    if g.stale_why:
        message(f"note: {g.stale_why}")
    now_stale(g.tc, g.stale)


#: The most a round typed or piped on stdin may hold (a round of a thousand boards is 60 kB).
ROUND_BYTES = 1_000_000

ROUND_HELP = """Record a whole round of an event in one go, all or nothing.

One game a line, WHITE RESULT BLACK, from --file or typed on stdin (end with Ctrl-D):
players named as in `game add` (a surname or the start of a name will do), any result
spelling, a recorded rating in brackets after an external player's name. Tabs may separate
the three fields instead. Blank lines, lines starting with # and anything after " # " are
ignored. A line with any problem, or a player in two games, rejects the round: every
problem is listed and nothing is written.

\b
Lines such as:
  Sato, Yuki         =    Hart, Daniel
  Patel              1-0  Okafor
  Kim, Ji-ho (1803)  0-1  Novak

\b
Example: tracker game add-round "Club League" --round 1 --file round1.txt
"""


@app.command("add-round", help=ROUND_HELP)
def add_round(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The event; created on first use.")],
    round_: Annotated[str, option("--round", "ROUND", "The round's number.")],
    date: Date = None,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            metavar="FILE",
            help="Read the games from this file instead of stdin.",
            dir_okay=False,
        ),
    ] = None,
    tc: GameTc = None,
    yes: Yes = False,
    again: Again = False,
    json: Json = False,
) -> None:
    from tracker.importers.rounds import parse_round
    from tracker.services.games.rounds import add_round as do_add_round
    from tracker.services.intake import clean_event_name

    clean_event_name(event)  # a round is of an event: "" is refused before stdin is read
    played_on = parse_date(date) if date is not None else today()
    if file is not None:
        with open_input(file) as stream:
            data = stream.read()
        source = str(file)
    else:
        if sys.stdin.isatty():
            message("one game a line: WHITE RESULT BLACK; end with Ctrl-D")
        data = sys.stdin.buffer.read(ROUND_BYTES + 1)
        source = "stdin"
        if len(data) > ROUND_BYTES:  # `< /dev/zero`: no round is so long
            raise InvalidInputError(
                f"stdin holds more than {ROUND_BYTES // 1_000_000} MB: a round is one game a "
                "line (a big file of games is for `tracker import`)"
            )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInputError(f"{source} is not UTF-8 text") from None
    pairings, problems = parse_round(text, source)
    done = state(ctx).write(
        lambda db: do_add_round(
            db,
            event=event,
            played_on=played_on,
            round_=round_,
            pairings=pairings,
            tc=tc,
            problems=problems,
            source=source,
            today=today(),
            yes=yes,
            again=again,
        )
    )
    added = done.games
    if json:
        print_json([game_json(g) for g in added] + [bye_json(b) for b in done.byes])
    for g in added:
        message(f"added {_line(g)}")
        for warning in g.warnings:
            message(f"  warning: {warning}")
    for b in done.byes:
        message(f"added bye {b.words}")
    first = added[0] if added else done.byes[0]
    forfeits = sum(1 for g in added if not g.rated)
    extra = f" ({forfeits} forfeit(s), not rated)" if forfeits else ""
    byes = f" and {plural(len(done.byes), 'bye')}" if done.byes else ""
    message(
        f"round {first.round} of {first.event}: {plural(len(added), 'game')}{byes} added{extra}"
    )
    now_stale(first.tc, sorted({m for g in added for m in g.stale}))


def bye_json(b: ByeView) -> dict[str, Any]:
    return pick(b, "bye=code id player player_id points event round date=played_on tc")


@app.command("list")
def list_(
    ctx: typer.Context,
    player: Annotated[str | None, player_option("Only this player's games")] = None,
    month: Annotated[
        dt.date | None, month_option("--month", "Only this month's games", "all months")
    ] = None,
    event: Annotated[str | None, option("--event", "NAME", "Only this event's games.")] = None,
    tc: AnyTc = None,
    json: Json = False,
) -> None:
    """List games in date order.

    \b
    Example: tracker game list --player "Sato, Yuki" --month 2026-09
    """
    from tracker.services.games import list_games

    games = state(ctx).read(
        lambda db: list_games(db, player=player, month=month, event=event, tc=tc)
    )
    render.print_json_or(json, games, lambda gs: [game_json(g) for g in gs], print_games)


def print_games(games: tuple[GameView, ...]) -> None:
    """The games, one a line. Where the full table is too wide, a recorded rating moves into
    its player's cell ("Kim, Ji-ho (1803)"), the time control goes when every game is
    standard, and names and events wrap."""

    wide_columns = ["id", "date", "white", "rating", "result", "black", "rating", "tc"]
    wide_columns += ["event", "round"]
    wide = [
        (
            g.id,
            g.played_on,
            g.white,
            g.white_rating,
            g.result + ("" if g.rated else " (ff)"),
            g.black,
            g.black_rating,
            g.tc,
            g.event,
            g.round,
        )
        for g in games
    ]
    width = terminal_width()
    if width is None or not wide or table_width(wide_columns, wide) <= width:
        print_table(wide_columns, wide, right=("id", "rating"), empty="no games match")
        return

    def named(name: str, rating: int | None) -> str:
        return name if rating is None else f"{name} ({rating})"

    print_table(  # the wide rows, each rating in its player's cell
        ["id", "date", "white", "result", "black", "tc", "event", "round"],
        (
            (id_, day, named(white, w_rating), res, named(black, b_rating), tc, event, round_)
            for id_, day, white, w_rating, res, black, b_rating, tc, event, round_ in wide
        ),
        right=("id",),
        drop=("tc",) if all(g.tc == "standard" for g in games) else (),
        wrap=("white", "black", "event"),
        break_words=("white", "black", "event"),
        empty="no games match",
    )


@app.command("edit")
def edit(
    ctx: typer.Context,
    game_id: GameId,
    white: Annotated[str | None, option("--white", "PLAYER", "New white player.")] = None,
    black: Annotated[str | None, option("--black", "PLAYER", "New black player.")] = None,
    result: Annotated[str | None, option("--result", "RESULT", "New result.")] = None,
    date: Annotated[str | None, option("--date", "DATE", "New date (YYYY-MM-DD).")] = None,
    tc: Annotated[TimeControl | None, tc_option("unchanged")] = None,
    event: Annotated[str | None, option("--event", "NAME", "Move to this event.")] = None,
    round_: Annotated[str | None, option("--round", "ROUND", "New round.")] = None,
    white_rating: Annotated[
        int | None, whole_option("--white-rating", "RATING", "White's recorded rating.")
    ] = None,
    black_rating: Annotated[
        int | None, whole_option("--black-rating", "RATING", "Black's recorded rating.")
    ] = None,
    clear: Annotated[
        list[str] | None,
        option(
            "--clear",
            "FIELD",
            "Empty a field: event, round, white-rating or black-rating (repeatable).",
        ),
    ] = None,
    yes: Yes = False,
    again: Again = False,
    json: Json = False,
) -> None:
    """Correct a game; only the options given change.

    The closed periods it touches go stale until `tracker rerate`.

    \b
    Example: tracker game edit 13 --round 1
    """
    from tracker.services.games import UNCHANGED, edit_game

    given = {  # the fields --clear empties
        "event": event,
        "round": round_,
        "white-rating": white_rating,
        "black-rating": black_rating,
    }
    for item in clear or []:
        if item not in given:
            raise UsageError(f"--clear {item}: use one of {', '.join(given)}")
    cleared = set(clear or [])
    both = [name for name in cleared if given[name] is not None]
    if both:
        raise UsageError(f"--{both[0]} and --clear {both[0]} contradict each other")

    def given_or_cleared(name: str) -> object:
        if name in cleared:
            return None
        return UNCHANGED if given[name] is None else given[name]

    options = (white, black, result, date, tc, event, round_, white_rating, black_rating)
    if not cleared and all(value is None for value in options):
        raise UsageError(
            "nothing to change: give what to correct (--result, --date, --white, --black, "
            "--event, --round, --tc, --white-rating, --black-rating or --clear)"
        )
    played_on = parse_date(date) if date is not None else None
    g, changed = state(ctx).write(
        lambda db: edit_game(
            db,
            game_id,
            white=white,
            black=black,
            result=result,
            played_on=played_on,
            tc=tc,
            event=given_or_cleared("event"),  # type: ignore[arg-type]
            round_=given_or_cleared("round"),  # type: ignore[arg-type]
            white_rating=given_or_cleared("white-rating"),  # type: ignore[arg-type]
            black_rating=given_or_cleared("black-rating"),  # type: ignore[arg-type]
            yes=yes,
            again=again,
        )
    )
    _done("updated" if changed else "unchanged (nothing differs):", g, json)


@app.command("remove")
def remove(
    ctx: typer.Context,
    game_id: GameId,
    json: Json = False,
) -> None:
    """Remove a game.

    The closed periods it touches go stale until `tracker rerate`.

    \b
    Example: tracker game remove 13
    """
    from tracker.services.games import remove_game

    _done("removed", state(ctx).write(lambda db: remove_game(db, game_id)), json)


@app.command("restore")
def restore(ctx: typer.Context, game_id: GameId, json: Json = False) -> None:
    """Bring back a removed game, with its id.

    Before a close or rerate of the period its removal changed, it is as if it had never
    been removed (nothing of the removal stays stale); after one, it comes back as a
    correction, marking the periods it touches stale.

    \b
    Example: tracker game restore 13
    """
    from tracker.services.games import restore_game

    _done("restored", state(ctx).write(lambda db: restore_game(db, game_id)), json)
