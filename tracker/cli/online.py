"""``tracker online ...``: players' real Lichess and Chess.com ratings, fetched or imported."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import render
from tracker.cli.context import state
from tracker.cli.options import PLAYER_WORDS, Json, Player, command_group, option, player_option
from tracker.cli.render import accounts, message, pick, points, print_json, print_table
from tracker.errors import InvalidInputError
from tracker.vocabulary import ONLINE_PLATFORMS, PLATFORMS, TimeControl

if TYPE_CHECKING:
    from tracker.db.driver import Db
    from tracker.services.online.fetch import Stored
    from tracker.services.online.fit import OnlineFit
    from tracker.services.online.reads import OnlineView

app = command_group(
    """Real Lichess and Chess.com ratings beside the Elo.

    Link a player's accounts first: tracker player edit NAME --lichess USER --chesscom USER.
    Then fetch their rating histories from the platforms' public APIs, or import a saved
    API response (offline). `tracker compare PLAYER` shows them beside their Elo.

    \b
    Example: tracker online fetch "Hart, Daniel"
    """
)

Platform = Annotated[
    str | None,
    option("--platform", "PLATFORM", "Only lichess or only chesscom. Default: both."),
]


def stored_json(s: Stored) -> dict[str, Any]:
    perfs = sorted(set(s.added) | set(s.updated) | set(s.unchanged))
    return pick(
        s,
        "player=name player_id platform user perfs notes",
        perfs=[
            {
                "perf": perf,
                "added": s.added.get(perf, 0),
                "updated": s.updated.get(perf, 0),
                "unchanged": s.unchanged.get(perf, 0),
                "latest": (
                    {"day": s.latest[perf][0], "rating": s.latest[perf][1]}
                    if perf in s.latest
                    else None
                ),
            }
            for perf in perfs
        ],
    )


def print_stored(results: list[Stored]) -> None:
    rows = []
    for s in results:
        perfs = sorted(set(s.added) | set(s.updated) | set(s.unchanged))
        for perf in perfs or ["(none)"]:
            latest = s.latest.get(perf)
            rows.append(
                (
                    s.name,
                    ONLINE_PLATFORMS[s.platform].label,
                    perf,
                    s.added.get(perf, 0),
                    s.updated.get(perf, 0),
                    f"{latest[1]} on {latest[0]}" if latest else "",
                )
            )
    print_table(
        ["player", "platform", "perf", "new", "updated", "latest"],
        rows,
        right=("new", "updated"),
        empty="nothing stored",
    )
    for s in results:
        for note in s.notes:
            message(f"note: {note}")


def _report(results: list[Stored], json: bool) -> None:
    render.print_json_or(json, results, lambda rs: [stored_json(s) for s in rs], print_stored)
    added = sum(s.total_added for s in results)
    message(f"{added} new rating point(s) stored")


@app.command("fetch")
def fetch(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(
            metavar="PLAYER",
            help=f"The player: {PLAYER_WORDS}. Default: every player with a linked account.",
        ),
    ] = None,
    platform: Platform = None,
    json: Json = False,
) -> None:
    """Fetch linked players' rating histories from Lichess and Chess.com.

    Lichess: the public rating history (one request per player). Chess.com: the monthly
    game archives, from the month of the last stored point on. One request at a time, a
    timeout, no retries: an error stops the command and nothing is stored. Re-fetching
    adds only new points.

    \b
    Example: tracker online fetch "Hart, Daniel" --platform lichess
    """
    from tracker.services.online import http
    from tracker.services.online.fetch import download, plan_fetch, store_downloads

    app_state = state(ctx)
    targets = app_state.read(lambda db: plan_fetch(db, player, platform))
    downloads = download(targets, http.get, say=message)
    results = app_state.write(lambda db: store_downloads(db, downloads))
    _report(results, json)


@app.command("import")
def import_(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Saved API responses: a Lichess rating history, Chess.com monthly archives.",
        ),
    ],
    player: Annotated[
        str | None,
        player_option("Whose ratings these are (needed for a Lichess rating history)"),
    ] = None,
    json: Json = False,
) -> None:
    """Import saved Lichess or Chess.com API responses (offline).

    A Lichess rating history (lichess.org/api/user/USER/rating-history) does not name its
    user: give --player, whose Lichess account must be linked. A Chess.com monthly archive
    (api.chess.com/pub/player/USER/games/YYYY/MM) names its players: every linked player
    in it gets their points. All files or none: an error stores nothing.

    \b
    Example: tracker online import hart-lichess.json --player "Hart, Daniel"
    """
    from tracker.services.online.fetch import import_file

    def work(db: Db) -> list[Stored]:
        out: list[Stored] = []
        for f in files:
            out.extend(import_file(db, f, player))
        return out

    _report(state(ctx).write(work), json)


def online_json(v: OnlineView) -> dict[str, Any]:
    return {
        **pick(v, "player=name player_id"),
        **{p: getattr(v, p) for p in PLATFORMS},
        "perfs": [pick(p, "platform perf tc points first last rating") for p in v.perfs],
    }


@app.command("show")
def show(ctx: typer.Context, player: Player, json: Json = False) -> None:
    """Show a player's linked accounts and the online ratings stored.

    One line per perf: how many days are stored, from when to when, the latest rating,
    and the FIDE list it stands beside (Lichess classical beside standard; Chess.com has
    no classical).

    \b
    Example: tracker online show "Hart, Daniel"
    """
    from tracker.services.online.reads import show as get

    v = state(ctx).read(lambda db: get(db, player))
    if json:
        print_json(online_json(v))
        return
    linked = ", ".join(f"{site} {user}" for site, user in accounts(v))
    message(f"{v.name}: {linked or 'no linked online account'}")
    print_table(
        ["platform", "perf", "beside", "days", "first", "last", "rating"],
        [
            (
                ONLINE_PLATFORMS[p.platform].label,
                p.perf,
                p.tc or "-",
                p.points,
                p.first,
                p.last,
                p.rating,
            )
            for p in v.perfs
        ],
        right=("days", "rating"),
        empty="no online ratings stored (see `tracker online fetch` or `online import`)",
    )


# ---------------------------------------------------------------------------------------
# compare --all --online PLATFORM: the line between FIDE and the platform


def compare_online(ctx: typer.Context, tc: TimeControl, platform: str, json: bool) -> None:
    from tracker.services.online.fit import online_fit

    f = state(ctx).read(lambda db: online_fit(db, tc, platform))
    render.print_json_or(json, f, online_fit_json, print_online_fit)


def online_fit_json(f: OnlineFit) -> dict[str, Any]:
    fit = f.fit
    return pick(
        f,
        "tc platform perf list=list_date from_list stale players left_out fit",
        players=[
            pick(r, "id=player_id name elo online online_day fitted residual") for r in f.rows
        ],
        left_out=[{"name": n, "why": why} for n, why in f.left_out],
        fit=None
        if fit is None
        else pick(fit, "n slope intercept residual_sd slope_se r elo_min=x_min elo_max=x_max"),
    )


def print_online_fit(f: OnlineFit) -> None:
    """The players with both ratings, the line, and how far to trust it."""
    platform, fit = f.platform, f.fit
    site, name = ONLINE_PLATFORMS[platform].host, ONLINE_PLATFORMS[platform].label
    if f.perf is None:
        raise InvalidInputError(
            f"{name} has no rating beside the FIDE {f.tc} list (it has no classical perf): "
            "try --tc rapid or --tc blitz"
        )
    label = f"{name} {f.perf}"
    source = (
        f"{f.tc.capitalize()} list of {f.list_date}"
        if f.from_list
        else f"Seeded {f.tc} ratings ({f.list_date})"
    )
    print_table(
        ["name", "Elo", site, "as of", "line", "off"],
        [
            (
                r.name,
                r.elo,
                r.online,
                r.online_day,
                "" if r.fitted is None else f"{r.fitted:.0f}",
                points(r.residual),
            )
            for r in f.rows
        ],
        title=f"{source} beside {label} (players with both)",
        right=("Elo", site, "line", "off"),
        empty=f"no player has both an Elo and a {label} rating "
        f"(link accounts with `tracker player edit NAME --{platform} USER`)",
    )
    for who, why in f.left_out:
        message(f"left out: {who} ({why})")
    if fit is None:
        if f.rows:
            message(f"a line needs at least 2 players with different Elos; here {len(f.rows)}")
        return
    sign = "+" if fit.intercept >= 0 else "-"
    typer.echo(
        f"{label} ~ {fit.slope:.2f} x FIDE {sign} {abs(fit.intercept):.0f} "
        f"(least squares, n = {fit.n}, FIDE {fit.x_min:.0f}..{fit.x_max:.0f})"
    )
    if fit.residual_sd is not None and fit.slope_se is not None:
        typer.echo(
            f"players sit {fit.residual_sd:.0f} points from the line (residual spread); "
            f"slope {fit.slope:.2f} ± {fit.slope_se:.2f}"
        )
    examples = [
        x
        for x in range(int(fit.x_min // 100 + 1) * 100, int(fit.x_max) + 1, 100)
        if fit.x_min <= x <= fit.x_max
    ]
    if examples:
        step = -(-len(examples) // 4)  # at most four, spread over the range
        shown = ", ".join(f"FIDE {x} ~ {fit.predict(x):.0f}" for x in examples[::step][:4])
        typer.echo(f"here: {shown}")
    if fit.n < 10:
        message(
            f"only {fit.n} players: a rough line; one more player can move it a lot, and "
            "it says nothing outside the Elos it was fitted on"
        )
    if f.stale:
        message("warning: some periods are stale; run `tracker rerate`")
