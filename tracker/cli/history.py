"""``tracker history`` and ``tracker list``: looking at published ratings."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import render
from tracker.cli.context import state
from tracker.cli.notes import shadow_notes, stale_list_warning, stale_warning
from tracker.cli.options import (
    Json,
    Player,
    Plot,
    Tc,
    month_argument,
    month_option,
    player_option,
)
from tracker.cli.render import message, pick, print_json, print_json_or, print_table, standing_json
from tracker.errors import InvalidInputError, UsageError
from tracker.files import open_input
from tracker.months import month_label, month_of, month_span, next_month
from tracker.vocabulary import TimeControl

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.services.periods.causes import Cause, Explanation
    from tracker.services.periods.detail import DetailGame, PeriodDetail
    from tracker.services.periods.history import History, HistoryRow
    from tracker.services.periods.listing import ListEntryView, ListShape, ListStream, RatingList
    from tracker.services.periods.live import LiveEntry, LiveList
    from tracker.services.periods.reconcile import Reconciled, Reconciliation
    from tracker.services.systems import Beside

CAUSES_WIDTH = 80  # the causes under the table wrap at this width (or the terminal's)


#: A period's own keys in ``history --json``, and the columns of ``export history``'s CSV.
HISTORY_KEYS = (
    "month list=list_date rating_before rating k games score expected change_exact change "
    "stale note"
)


def history_json(h: History) -> list[dict[str, Any]]:
    return [
        pick(r, HISTORY_KEYS, month=month_label(r.month))
        | h.beside.fields(r.readings)  # the shadow's: glicko, rd, volatility, provisional
        | standing_json(r.standing)
        for r in h.rows
    ]


def history_columns(h: History) -> list[str]:
    """The columns of a history's table (``tracker history``, a player's page on the site):
    each registered system's beside the Elo, then the note."""
    columns = ["month", "list", "before", "rating", "rank", "K", "games", "score", "expected"]
    return [*columns, "change", "rounded", *h.beside.headings, "note"]


def history_cells(r: HistoryRow, beside: Beside) -> tuple[Any, ...]:
    """A period's cells of :func:`history_columns` from its list to the last system's: the
    rank is the place on the list, ``2/14`` (of the rated players), blank while unrated."""
    rated = r.rating_before is not None
    return (
        r.list_date,
        render.rating(r.rating_before),
        render.rating(r.rating),
        "" if r.standing is None else f"{r.standing.rank}/{r.standing.of}",
        r.k,
        r.games,
        render.score(r.score),
        render.expected(r.expected) if rated else "",
        render.change(r.change_exact) if rated else "",
        f"{r.change:+d}" if rated else "",
        *beside.cells(r.readings),
    )


def print_history(h: History) -> None:
    """One row per period, each registered system's columns beside the Elo (the shadow's:
    its preset and RD); at 80 columns the list date and the rounded change go, and each
    row's note moves under it; then the columns of the systems after the shadow, the last
    registered first (``--json`` has them all)."""
    columns = history_columns(h)
    print_table(
        columns,
        [
            (
                month_label(r.month) + (" *" if r.stale else ""),
                *history_cells(r, h.beside),
                r.note,
            )
            for r in h.rows
        ],
        title=f"{h.name} ({h.tc})",
        right=[c for c in columns if c not in ("month", "list", "note")],
        drop=("note", "list", "rounded", "rank", *h.beside.drops(keep=1)),
        below="note",
        wrap=("note",),
        empty=f"no closed {h.tc} periods for {h.name} yet (see `tracker period close`)",
    )


def history_notes(h: History) -> None:
    """What the history's numbers need said: the seed, the peak, and the shadow's footnotes."""
    if h.seed_rating is not None:
        message(f"{h.name}: seeded {h.seed_rating} after {h.seed_games} games ({h.tc})")
    if h.peak is not None and (h.seed_rating is None or h.peak.rating > h.seed_rating):
        message(f"{h.name}: peak {h.peak.rating} on the {h.peak.list_date} list ({h.tc})")
    elif h.peak is not None:
        message(f"{h.name}: peak {h.seed_rating}, the seed (no list since is higher)")
    if any(r.glicko is not None for r in h.rows):
        shadow_notes(
            external_rd=h.external_rd if h.external_opponents else None,
            provisional_rd=h.provisional_rd,
            displays=(r.glicko_display for r in h.rows),
        )


def history(
    ctx: typer.Context,
    player: Player,
    tc: Tc = "standard",
    month: Annotated[
        dt.date | None,
        month_option("--month", "Show this closed period game by game", "every period"),
    ] = None,
    json: Json = False,
    plot: Plot = None,
) -> None:
    """A player's rating history, period by period.

    One row per closed period they played in or were listed on, with the Glicko shadow
    beside the Elo. With --month, that period game by game, as FIDE's individual
    calculation shows it: each opponent and their rating, the score, the expected score and
    the change, then wins, draws, losses and the performance rating.

    \b
    Examples:
      tracker history "Hart, Daniel" --plot hart.png
      tracker history "Hart, Daniel" --month 2026-09
    """
    from tracker.services.periods.history import history as get_history

    if month is not None:
        if plot is not None:
            raise UsageError("--plot draws the whole history: leave out --month")
        _period_detail(ctx, player, tc, month, json)
        return
    if plot is not None:
        from tracker.cli.plot import check_plot_path  # --plot only (as below): not loaded else

        check_plot_path(plot)
    h = state(ctx).read(lambda db: get_history(db, player, tc))
    if json:
        print_json(history_json(h))
    else:
        print_history(h)
        history_notes(h)
    if plot is not None:
        from tracker.cli.plot import draw_comparison, write_plot  # --plot only
        from tracker.services.compare import compare

        c = state(ctx).read(lambda db: compare(db, f"#{h.player_id}", tc, None))
        write_plot(draw_comparison(c), plot)
        message(f"plot written to {plot}")
    stale_warning(h.stale_months)


def _period_detail(
    ctx: typer.Context, player: str, tc: TimeControl, month: dt.date, json: bool
) -> None:
    from tracker.services.periods.detail import period_detail

    d = state(ctx).read(lambda db: period_detail(db, player, tc, month))
    if json:
        print_json(
            pick(
                d,
                "player tc month list=list_date stale rating_before rating=rating_after k wins "
                "draws losses score expected change_exact change performance notes games",
                month=month_label(d.month),
                games=[
                    pick(
                        g,
                        "game=game_id date=played_on event opponent colour opponent_rating "
                        "own_rating score status expected change",
                    )
                    for g in d.games
                ],
            )
        )
        return
    print_table(
        ["date", "opponent", "col", "rating", "score", "expected", "change", "event", "status"],
        [(g.played_on, g.opponent, g.colour[0], *detail_cells(g)) for g in d.games],
        title=f"{d.player} ({d.tc}), {detail_heading(d)}",
        right=("rating", "score", "expected", "change"),
        wrap=("opponent", "event"),
        drop=("event", "col"),
    )
    typer.echo(detail_summary(d))
    for note in d.notes:
        message(f"note: {note}")
    if d.stale:
        stale_warning([d.month])


def detail_heading(d: PeriodDetail) -> str:
    """A period's line above its games: "2026-03: 1800 -> 1812 on the 2026-04-01 list, K 20"."""
    before = render.rating(d.rating_before)
    after = render.rating(d.rating_after)
    k = f", K {d.k}" if d.k is not None else ""
    return f"{month_label(d.month)}: {before} -> {after} on the {d.list_date} list{k}"


def detail_summary(d: PeriodDetail) -> str:
    """A period's line below its games: wins, draws, losses, the score, the expected score,
    the change (exact and rounded) and the performance."""
    performance = f", performance {d.performance}" if d.performance is not None else ""
    change = ""
    if d.rating_before is not None:  # an unrated player's results are pooled, not rated
        change = (
            f", expected {render.expected(d.expected)}, change "
            f"{render.change(d.change_exact)} -> {d.change:+d}"
        )
    return f"+{d.wins} ={d.draws} -{d.losses}: score {render.score(d.score)}{change}{performance}"


def detail_cells(g: DetailGame) -> tuple[str, ...]:
    """A period's game from the opponent's rating on, as ``history --month`` and a player's
    page show it: the rating, the score, the expected score, the change, the event, and how
    the period counted it (blank when it was rated)."""
    return (
        render.rating(g.opponent_rating),
        render.score(g.score),
        render.expected(g.expected) if g.expected is not None else "",
        render.change(g.change) if g.change is not None else "",
        g.event or "",
        "" if g.status == "rated" else g.status.replace("_", " "),
    )


def rating_list_json(rl: RatingList | ListStream) -> dict[str, Any]:
    return {
        "tc": rl.tc,
        "list": rl.list_date.isoformat(),
        "stale": rl.stale,
        "players": [entry_json(e) | rl.others.fields(e.player_id) for e in rl.entries],
    }


#: A line's keys in ``list --json`` (published or live), and the columns of ``export list``'s
#: CSV.
ENTRY_KEYS = "rank id=player_id name title federation fide_id born=birth_year rating games k"


def entry_json(e: Any) -> dict[str, Any]:
    """A line of a printed list (published or live) as JSON."""
    return pick(e, ENTRY_KEYS)


LIST_COLUMNS = ["rank", "name", "title", "fed", "FIDE id", "rating", "games", "born", "K"]


def list_row(e: ListEntryView) -> tuple[Any, ...]:
    return (e.rank, e.name, e.title, e.federation, e.fide_id, e.rating, e.games, e.birth_year, e.k)


def print_rating_list(ls: ListStream, shape: ListShape) -> None:
    """The list as its lines come from the database: the column widths are known before the
    first line (``shape``; the fixed ones from what the columns hold; another registered
    system's from its readings), so nothing waits for the last. Too wide, the FIDE id goes,
    then the other systems' columns, the last registered first (``--json`` has them)."""
    if not shape.last_rank:
        message("nobody is rated on this list")
        return
    widths = [
        len(str(shape.last_rank)),
        shape.longest_name,
        4,  # a title: GM, WCM, ... (at most 4 letters)
        3,  # a federation
        shape.fide_id_digits,
        4,  # a rating
        1,  # games: the header ("games") is as wide as five digits
        4,  # a year
        2,  # K: 10, 20 or 40
    ]
    others = ls.others
    shown = (others.cells(p) for p in {p for r in others.readings for p in r})
    widths += [max(map(len, column)) for column in zip(others.beside.headings, *shown, strict=True)]
    render.stream_table(
        [*LIST_COLUMNS, *others.beside.headings],
        (list_row(e) + tuple(others.cells(e.player_id)) for e in ls.entries),
        widths,
        title=f"{ls.tc.capitalize()} list of {ls.list_date.isoformat()}",
        right=("rank", "FIDE id", "rating", "games", "K", *others.beside.headings),
        drop=("FIDE id", *others.beside.drops()),
        wrap=("name",),
    )


def stream_rating_list_json(ls: ListStream) -> None:
    """:func:`rating_list_json` printed as :func:`print_json` prints it, player by player as
    they come."""
    import json as json_module  # `list --json` only: a table never loads it

    heading = rating_list_json(ls._replace(entries=iter(())))  # the list's keys, no players
    head = json_module.dumps(heading, ensure_ascii=False, indent=2)
    assert head.endswith('"players": []\n}')
    write = sys.stdout.write
    write(head[: -len("[]\n}")] + "[")
    first = True
    for e in ls.entries:
        entry = entry_json(e) | ls.others.fields(e.player_id)
        text = json_module.dumps(entry, ensure_ascii=False, indent=2).replace("\n", "\n    ")
        write(("\n    " if first else ",\n    ") + text)
        first = False
    write("]\n}\n" if first else "\n  ]\n}\n")


def rating_list(
    ctx: typer.Context,
    list_month: Annotated[
        dt.date | None,
        month_argument("The list's month (the 2026-02 list rates January's games)", "the latest"),
    ] = None,
    tc: Tc = "standard",
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            metavar="FILE",
            help="FIDE's official list (a rating list download, text or XML): show it beside "
            "ours, with the difference per player.",
            exists=True,
            dir_okay=False,
            readable=True,
            show_default=False,
        ),
    ] = None,
    player: Annotated[
        str | None,
        player_option("With --against: that player only, with the period that made his line"),
    ] = None,
    live: Annotated[
        bool,
        typer.Option(
            "--live",
            help="The list as it would be published if every open month closed now (up to "
            "today's: its games so far), beside the last published one, with the change.",
        ),
    ] = False,
    json: Json = False,
) -> None:
    """A published rating list, as FIDE prints it.

    Rank, name, title, federation, rating, games and K of everyone rated on it. With
    --against FILE, FIDE's official list beside it: each player's official rating and K by
    FIDE id, and the difference (ours minus FIDE's); under it, for each player who differs,
    the likely cause and what to enter. --player NAME: that player only, with the period's
    events, the Ro and list of each, and every likely cause, most likely first.

    With --live, the live list: `period close` of every open month up to today's, run and
    undone (nothing is published), so its numbers are those the close will give; an event
    still running waits for its end, as the close has it.

    \b
    Examples:
      tracker list 2026-10 --tc standard --against standard_rating_list.txt
      tracker list --live --tc rapid
    """
    if live:
        if list_month is not None or against is not None or player is not None:
            raise UsageError("--live is the list of today: leave out MONTH, --against, --player")
        _live_list(ctx, tc, json)
        return
    if against is not None:
        _reconciled_list(ctx, list_month, tc, against, json, player)
        return
    if player is not None:
        raise UsageError("--player goes with --against FILE")
    stale_list_warning(state(ctx).read(lambda db: show_rating_list(db, tc, list_month, json=json)))


def show_rating_list(
    db: Db, tc: TimeControl, list_month: dt.date | None, *, json: bool = False
) -> bool:
    """Print a published list (as text or JSON) in the transaction of ``db``, as its lines
    come from the database: a federation's list is never all in memory. Whether it is
    stale."""
    from tracker.services.periods.listing import list_shape, list_stream

    ls = list_stream(db, tc, list_month)
    if json:
        stream_rating_list_json(ls)
    else:
        print_rating_list(ls, list_shape(db, ls))
    return ls.stale


def live_list_json(ll: LiveList) -> dict[str, Any]:
    return pick(
        ll,
        "tc list=list_date months published=published_date stale players dropped",
        months=[month_label(m) for m in ll.months],
        players=[
            entry_json(e.entry) | pick(e, "published_rating=published change percentile")
            for e in ll.entries
        ],
        dropped=[pick(e, "id=player_id name published_rating=rating") for e in ll.dropped],
    )


def print_live_list(ll: LiveList) -> None:
    def row(e: ListEntryView, rating: int | None, change: str, published: int | None) -> Any:
        """A row of the table: a line of the live list, or (``rating`` None) one it drops."""
        rank, k = (e.rank, e.k) if rating is not None else ("-", None)
        cells = (e.name, e.title, e.federation, e.fide_id, render.rating(rating), change)
        return (rank, *cells, published, e.games, e.birth_year, k)

    def change(x: LiveEntry) -> str:
        return "new" if x.change is None else f"{x.change:+d}"

    published = ll.published_date.isoformat() if ll.published_date else None
    # A published list's columns, the change and the published rating after the rating
    print_table(
        [*LIST_COLUMNS[:6], "change", "published", *LIST_COLUMNS[6:]],
        [
            *(row(x.entry, x.entry.rating, change(x), x.published) for x in ll.entries),
            *(row(e, None, "dropped", e.rating) for e in ll.dropped),
        ],
        title=f"{ll.tc.capitalize()} live list of {ll.list_date.isoformat()}"
        + (f" (published: {published})" if published else " (none published yet)"),
        right=("rank", "FIDE id", "rating", "change", "published", "games", "K"),
        drop=("FIDE id", "born", "title"),
        wrap=("name",),
        empty="nobody is rated on the live list",
    )


def live_label(months: tuple[dt.date, ...], today: dt.date) -> str:
    """The months a live figure closes, as a message says them ("2026-10 to 2026-11 so far")."""
    if not months:
        return "no open month"
    return month_span(months) + (" so far" if months[-1] == month_of(today) else "")


def _live_list(ctx: typer.Context, tc: TimeControl, json: bool) -> None:
    from tracker.services.periods.live import live_list
    from tracker.user_input import today

    day = today()
    ll = state(ctx).rehearse(lambda db: live_list(db, tc, day))
    print_json_or(json, ll, live_list_json, print_live_list)
    message(
        f"live: closes {live_label(ll.months, day)} as `tracker period close` would; "
        "nothing is published"
    )
    if ll.stale:
        message("note: the published lists are stale: the live list rerates them first")


def _reconciled_list(
    ctx: typer.Context,
    list_month: dt.date | None,
    tc: TimeControl,
    path: Path,
    json: bool,
    player: str | None = None,
) -> None:
    from tracker.services.periods.reconcile import reconcile

    with open_input(path) as stream:
        rec = state(ctx).read(lambda db: reconcile(db, tc, list_month, stream, str(path), player))
    for problem in rec.problems:
        message(problem)
    if rec.problems:
        raise InvalidInputError(f"{path}: cannot compare: {len(rec.problems)} problem(s)")
    if json:
        print_json(reconciled_json(rec))
    else:
        print_reconciled(rec)
        if rec.player is not None:
            print_explanation(rec)
        else:
            print_causes(rec)
    for note in rec.notes:
        message(f"note: {note}")
    stale_list_warning(rec.ours.stale)


def causes_json(causes: tuple[Cause, ...]) -> list[dict[str, Any]]:
    return [pick(c, "kind hint command exact") for c in causes]


def explanation_json(e: Explanation) -> dict[str, Any]:
    events = [
        pick(
            p,
            "event start end rated_in games ro list ro_from change",
            rated_in=month_label(p.stated) if p.stated else None,
            list=month_label(p.list_date),
        )
        for p in e.events
    ]
    return pick(
        e,
        "month rating_before k games official_games change_exact change events",
        month=month_label(e.month) if e.month else None,
        events=events,
    )


def _explained_json(p: Reconciled, full: bool) -> dict[str, Any]:
    e = p.explanation
    out: dict[str, Any] = {"causes": causes_json(e.causes) if e else []}
    if full and e is not None:
        out["period"] = explanation_json(e)
    return out


def reconciled_json(rec: Reconciliation) -> dict[str, Any]:
    data = rating_list_json(rec.ours)
    full = rec.player is not None
    by_id = {p.player_id: p for p in rec.players if p.rank is not None}
    data["players"] = [entry for entry in data["players"] if entry["id"] in by_id]
    for entry in data["players"]:
        found = by_id[entry["id"]]
        entry |= pick(found, "official_rating=official official_k official_games difference")
        entry |= _explained_json(found, full)
    data["against"] = {
        "file": rec.file,
        "list": month_label(rec.official_month) if rec.official_month else None,
    }
    data["official_only"] = [
        pick(p, "id=player_id name fide_id official_rating=official official_k")
        | _explained_json(p, full)
        for p in rec.players
        if p.rank is None
    ]
    return data


def print_reconciled(rec: Reconciliation) -> None:
    print_table(
        ["rank", "name", "FIDE id", "rating", "FIDE", "diff", "K", "FIDE K"],
        [
            (
                p.rank if p.rank is not None else "-",
                p.name,
                p.fide_id,
                p.rating,
                p.official,
                render.points(p.difference),
                p.k,
                p.official_k,
            )
            for p in rec.players
        ],
        title=f"{rec.ours.tc.capitalize()} list of {rec.ours.list_date.isoformat()} "
        f"against {Path(rec.file).name}",
        right=("rank", "FIDE id", "rating", "FIDE", "diff", "K", "FIDE K"),
        empty="nobody is rated on either list",
    )
    compared = rec.compared
    differ = [p for p in compared if p.difference]
    only_ours = sum(1 for p in rec.players if p.rank is not None and p.official is None)
    only_fide = sum(1 for p in rec.players if p.rank is None)
    summary = f"{len(compared)} on both lists: {len(compared) - len(differ)} agree"
    if differ:
        worst = max(differ, key=lambda p: abs(p.difference or 0))
        summary += f", {len(differ)} differ (most: {worst.name} {render.points(worst.difference)})"
    message(f"{summary}; {only_ours} only on ours, {only_fide} only on FIDE's")


def _width() -> int:
    return min(render.terminal_width() or CAUSES_WIDTH, CAUSES_WIDTH)


def _wrapped(text: str, indent: str = "  ") -> list[str]:
    """``text`` wrapped at 80 columns (or a narrower terminal's), further lines indented."""
    import textwrap

    return textwrap.wrap(
        text,
        _width(),
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [""]


def _what_differs(p: Reconciled) -> str:
    if p.difference:
        return f"{p.difference:+d}"
    if p.rating is None:
        return "not on ours"
    return f"K {p.k}, FIDE's {p.official_k}"


def print_causes(rec: Reconciliation) -> None:
    """Under the table: each differing player's likeliest cause and what to enter."""
    explained = [p for p in rec.players if p.explanation and p.explanation.causes]
    if not explained:
        return
    lines = ["", "likely causes (`--player NAME` gives every one):"]
    for p in explained:
        assert p.explanation is not None
        cause = p.explanation.causes[0]
        more = len(p.explanation.causes) - 1
        text = f"{p.name} {_what_differs(p)}: {cause.hint}"
        if more:
            text += f" (+{more} more)"
        command = f" -> {cause.command}" if cause.command else ""
        if render.cell_width(text + command) <= _width():
            lines.append(text + command)
        else:  # the command whole on a line of its own
            lines += _wrapped(text)
            if command:
                lines += _wrapped(f"  {command.strip()}", "    ")
    typer.echo("\n".join(lines))


def print_explanation(rec: Reconciliation) -> None:
    """``--player``: the period that made the player's line, and every likely cause."""
    for p in rec.players:
        e = p.explanation
        if e is None:
            typer.echo(f"\n{p.name}: tracker's list and FIDE's agree")
            continue
        lines = [""]
        if e.month is not None:
            if e.rating_before is not None:
                change = (
                    f"from {e.rating_before}, change {render.change(e.change_exact)} -> "
                    f"{e.change:+d}, K {e.k}"
                )
            else:
                change = "unrated before"
            fide_games = "" if e.official_games is None else f", FIDE's {e.official_games}"
            lines += _wrapped(
                f"{p.name}: period {month_label(e.month)} (the "
                f"{month_label(next_month(e.month))} list): {change}; games in "
                f"{month_label(rec.ours.month)}: ours {e.games}{fide_games}"
            )
        typer.echo("\n".join(lines))
        if e.events:
            print_table(
                ["event", "start", "end", "games", "Ro", "list", "Ro from", "change"],
                [
                    (
                        part.event,
                        part.start,
                        part.end,
                        part.games,
                        render.rating(part.ro),
                        month_label(part.list_date),
                        part.ro_from,
                        render.change(part.change),
                    )
                    for part in e.events
                ],
                right=("games", "Ro", "change"),
                wrap=("event", "Ro from"),
                width=_width(),
            )
        if not e.causes:
            continue
        out = [f"likely causes of {_what_differs(p)}, most likely first:"]
        for i, cause in enumerate(e.causes, start=1):
            sure = " (gives FIDE's rating)" if cause.exact else ""
            out += _wrapped(f"{i}. {cause.hint}{sure}", "   ")
            if cause.command:
                out += _wrapped(f"   {cause.command}", "     ")
            else:
                out.append("   nothing to enter")
        typer.echo("\n".join(out))
