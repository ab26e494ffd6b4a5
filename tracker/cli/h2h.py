"""``tracker h2h A B``: two players' games against each other and the score between them;
``tracker h2h A``: one player's score against each opponent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.options import PLAYER_WORDS, AnyTc, Json
from tracker.cli.render import message, pick, print_json, print_json_or, print_table, score
from tracker.vocabulary import TimeControl, plural

if TYPE_CHECKING:
    from tracker.services.h2h import H2hGame, HeadToHead, Opponents, Tally


def both_scores(t: Tally) -> str:
    """A's points and B's: "2.5-1.5"."""
    return f"{score(t.score)}-{score(t.against)}"


def played_words(t: Tally) -> str:
    """A tally in words: "5 games played: 3.0-2.0 (+2 =2 -1)"."""
    return f"{plural(t.games, 'game')} played: {both_scores(t)} (+{t.wins} ={t.draws} -{t.losses})"


def tally_cells(t: Tally) -> tuple[int, str, int, int, int]:
    """A tally's cells in a table: games, score (both players'), won, drawn, lost."""
    return (t.games, both_scores(t), t.wins, t.draws, t.losses)


def _tally_json(t: Tally) -> dict[str, Any]:
    return pick(t, "games score against wins draws losses")


def _game_json(g: H2hGame) -> dict[str, Any]:
    return pick(g, "id date=played_on event round tc colour result score forfeit")


def h2h_json(h: HeadToHead) -> dict[str, Any]:
    return {
        "a": {"id": h.a_id, "name": h.a},
        "b": {"id": h.b_id, "name": h.b},
        "tc": h.tc,
        "games": [_game_json(g) for g in h.games],
        "total": _tally_json(h.total),
        "by_colour": {colour: _tally_json(t) for colour, t in h.by_colour},
        "by_tc": {tc: _tally_json(t) for tc, t in h.by_tc},
        "forfeits": h.forfeits,
        "first": None if h.first is None else _game_json(h.first),
        "last": None if h.last is None else _game_json(h.last),
    }


def _where(g: H2hGame) -> str:
    if g.event is None:
        return "no event"
    return g.event if g.round is None else f"{g.event}, round {g.round}"


def _none(h: HeadToHead) -> str:
    which = "" if h.tc is None else f" {h.tc}"
    return f"no{which} games between {h.a} and {h.b}"


def print_h2h(h: HeadToHead) -> None:
    mixed = len({g.tc for g in h.games}) > 1  # else the title or the table says which
    columns = ["date", "event", "round", *(["tc"] if mixed else []), "colour", "result", "points"]
    rows = [
        (
            g.played_on,
            g.event or "",
            g.round or "",
            *([g.tc] if mixed else []),
            g.colour,
            g.result,
            "forfeit" if g.score is None else score(g.score),
        )
        for g in h.games
    ]
    which = "" if h.tc is None else f" ({h.tc})"
    print_table(
        columns,
        rows,
        title=f"{h.a} against {h.b}{which} (the first player's colour and points)",
        right=["points"],
        wrap=["event"],
        drop=["tc"],
        empty=_none(h),
    )
    if not h.games:
        return
    lines: list[tuple[str, Tally]] = [("all games", h.total)]
    lines += [(f"with {colour}", t) for colour, t in h.by_colour if t.games]
    played = [(tc, t) for tc, t in h.by_tc if t.games]
    lines += played if len(played) > 1 else []
    typer.echo("")
    print_table(
        ["", "games", "score", "won", "drawn", "lost"],
        [(label, *tally_cells(t)) for label, t in lines],
        right=["games", "score", "won", "drawn", "lost"],
    )
    if h.first is not None and h.last is not None:
        typer.echo("")
        print_table(
            ["meeting", "date", "where"],
            [
                ("first", h.first.played_on, _where(h.first)),
                ("last", h.last.played_on, _where(h.last)),
            ],
            wrap=["where"],
        )


def h2h(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(metavar="A", help=f"The first player: {PLAYER_WORDS}.")],
    b: Annotated[
        str | None,
        typer.Argument(
            metavar="[B]",
            help="The second player, named the same ways; without B, A's score against each "
            "opponent.",
        ),
    ] = None,
    tc: AnyTc = None,
    json: Json = False,
) -> None:
    """Head to head: two players' games, or one player's opponents.

    With A and B: every game of A against B (date, event, round, A's colour, result, A's
    points), then the score from A's side: overall, with each colour and in each time
    control, and the first and last meeting. With A only: each opponent A has met, with the
    games, the score, wins, draws and losses, and the last meeting, most games first. A
    forfeit is listed but is no game played: it counts in no score.

    \b
    Examples:
      tracker h2h "Hart, Daniel" "Okafor, Grace" --tc standard
      tracker h2h "Hart, Daniel"
    """
    if b is None:
        _opponents(ctx, a, tc, json)
        return
    from tracker.services.h2h import head_to_head

    h = state(ctx).read(lambda db: head_to_head(db, a, b, tc))
    print_json_or(json, h, h2h_json, print_h2h)
    if json and not h.games:
        message(_none(h))
    if h.forfeits:
        message(
            f"{plural(h.forfeits, 'forfeit')} listed, not counted as played: in no score, "
            "colour or time control, and no meeting"
        )


def opponents_json(o: Opponents) -> dict[str, Any]:
    return {
        "a": {"id": o.a_id, "name": o.a},
        "tc": o.tc,
        "total": _tally_json(o.total),
        "opponents": [
            {**pick(line, "id name"), **_tally_json(line.total), **pick(line, "forfeits last")}
            for line in o.lines
        ],
    }


def _opponents(ctx: typer.Context, a: str, tc: TimeControl | None, json: bool) -> None:
    from tracker.services.h2h import opponents

    o = state(ctx).read(lambda db: opponents(db, a, tc))
    if json:
        print_json(opponents_json(o))
        return
    which = "" if o.tc is None else f" ({o.tc})"
    forfeits = any(line.forfeits for line in o.lines)
    print_table(
        ["opponent", "games", "score", "won", "drawn", "lost", *(["forfeits"] * forfeits), "last"],
        [
            (
                line.name,
                *tally_cells(line.total),
                *([line.forfeits] * forfeits),
                line.last or "",
            )
            for line in o.lines
        ],
        title=f"{o.a} against each opponent{which}",
        right=["games", "score", "won", "drawn", "lost", "forfeits"],
        wrap=["opponent"],
        break_words=["opponent"],
        empty=f"no {o.tc} games of {o.a}" if o.tc else f"no games of {o.a}",
    )
    if o.lines and o.total.games:
        message(played_words(o.total))
