"""``tracker compare`` and ``tracker evaluate``: FIDE Elo beside the Glicko shadow and the real
online ratings; which system predicts the games better."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import render
from tracker.cli.context import state
from tracker.cli.notes import assumption_note, shadow_notes, stale_warning
from tracker.cli.online import compare_online
from tracker.cli.options import PLAYER_WORDS, PRESET_WORDS, Json, Plot, Tc, month_option, option
from tracker.cli.plot import (
    MAX_PLAYERS,
    check_plot_path,
    draw_comparison,
    draw_players,
    first_platform,
    write_plot,
)
from tracker.cli.render import message, pick, points, print_json, print_table
from tracker.errors import InvalidInputError, UsageError
from tracker.months import month_label
from tracker.vocabulary import ONLINE_PLATFORMS, PLATFORM_WORDS, PLATFORMS, TimeControl

if TYPE_CHECKING:
    from tracker.services.compare import CompareRow, Comparison


def _online_json(r: CompareRow) -> dict[str, Any]:
    return {
        platform: (
            {"rating": o.rating, "day": o.day.isoformat()}
            if (o := r.online_on(platform)) is not None
            else None
        )
        for platform in PLATFORMS
    }


#: A compared period's own keys in ``compare --json``.
PERIOD_KEYS = "month list=list_date elo glicko rd volatility provisional difference"


def compare_json(c: Comparison) -> dict[str, Any]:
    return pick(
        c,
        "player=name tc preset external_rd online periods",
        online={
            s.platform: {"user": s.user, "perf": s.perf, "points": len(s.points)} for s in c.online
        },
        periods=[
            pick(r, PERIOD_KEYS, month=month_label(r.month))
            | c.beside.fields(r.readings)  # the other systems' keys, after the shadow's
            | {"online": _online_json(r)}
            for r in c.rows
        ],
    )


def print_comparison(c: Comparison, platform: str | None = None) -> None:
    """Elo, the shadow, the other registered systems' columns and (``platform``) the real
    online rating (by default the first linked one with ratings), per list date. Too wide,
    the list date goes, then the volatility, then the other systems' columns, the last
    registered first (``--json`` has them all)."""
    platform = platform or first_platform(c)
    series = c.online_series(platform) if platform else None
    columns = ["month", "list", "Elo", c.preset, "RD"]
    columns += ["volatility"] if c.has_volatility else []
    columns += ["difference", *c.beside.headings]
    if series is not None:  # else nothing of the platform stands beside this list
        columns.append(ONLINE_PLATFORMS[series.platform].host)
    rows = []
    for r in c.rows:
        row: list[Any] = [
            month_label(r.month),
            r.list_date,
            render.rating(r.elo),
            r.display or "",
            render.rd(r.rd),
        ]
        if c.has_volatility:
            row.append("" if r.volatility is None else f"{r.volatility:.5f}")
        row.append(points(r.difference))
        row += c.beside.cells(r.readings)
        if series is not None:
            real = r.online_on(series.platform)
            row.append("" if real is None else real.rating)
        rows.append(row)
    what = f"FIDE Elo and the {c.preset} shadow"
    if series is not None:
        what = f"Elo, {c.preset} shadow, {series.label} ({series.user})"
    print_table(
        columns,
        rows,
        title=f"{c.name} ({c.tc}): {what}",
        right=[col for col in columns if col not in ("month", "list")],
        drop=("list", "volatility", *c.beside.drops()),
        empty=f"no closed {c.tc} periods for {c.name} yet (see `tracker period close`)",
    )


def comparison_notes(found: list[Comparison]) -> None:
    """The shadow's footnotes, once for the players shown: external opponents (when any of
    them met one) and the provisional mark (when one is shown)."""
    first = found[0]
    shadow_notes(
        external_rd=first.external_rd if any(c.external_opponents for c in found) else None,
        provisional_rd=first.provisional_rd,
        displays=(r.display for c in found for r in c.rows),
    )


def _online_notes(c: Comparison, platform: str | None) -> None:
    from tracker.vocabulary import online_perf

    platform = platform or first_platform(c)
    series = c.online_series(platform) if platform else None
    if platform is not None and series is None:
        why = (
            f"no linked {ONLINE_PLATFORMS[platform].label} account"
            if online_perf(platform, c.tc)
            else f"{ONLINE_PLATFORMS[platform].label} has no rating beside the {c.tc} list"
        )
        message(f"{c.name}: {why}")
    if series is not None:
        message(
            f"{ONLINE_PLATFORMS[series.platform].host}: {c.name}'s real {series.label} rating, the "
            "latest point on or before each list date (`tracker online fetch` brings new ones)"
        )
        if not series.points:
            message(f"no {series.label} ratings stored for {series.user} yet")
    others = [s for s in c.online if s.platform != platform and s.points]
    for s in others:
        message(f"also stored: {s.label} ({s.user}); --online {s.platform} shows it")


def compare(
    ctx: typer.Context,
    players: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PLAYER...",
            help=f"The player(s): {PLAYER_WORDS} (or use --all).",
            show_default=False,
        ),
    ] = None,
    all_: Annotated[
        bool, typer.Option("--all", help="Every tracked player's current Elo and shadow.")
    ] = False,
    preset: Annotated[
        str | None,
        option(
            "--preset",
            "PRESET",
            f"Compare with this preset ({PRESET_WORDS}) instead of the configured one "
            "(computed on the fly).",
        ),
    ] = None,
    online: Annotated[
        str | None,
        option(
            "--online",
            "PLATFORM",
            f"{PLATFORM_WORDS}: whose real ratings to show beside (default: the "
            "first linked platform with ratings); with --all, the line between FIDE and "
            "that platform across the linked players.",
        ),
    ] = None,
    tc: Tc = "standard",
    json: Json = False,
    plot: Plot = None,
) -> None:
    """FIDE Elo beside the Glicko shadow and the real online ratings.

    Month by month for one player (or several, one after another; with --plot all on one
    chart), or every tracked player's current ratings with --all. A player with a linked
    Lichess or Chess.com account (see `tracker online`) also shows their real rating there on
    each list date. --all --online PLATFORM fits the least-squares line between the Elo and
    that platform's rating across the linked players.

    \b
    Examples:
      tracker compare "Okafor, Grace" --preset glickman
      tracker compare "Hart, Daniel" "Okafor, Grace" --plot club.svg
      tracker compare --all --online lichess
    """
    names = players or []
    if all_ == bool(names):
        raise UsageError("give a PLAYER or --all")
    platform = None
    if online is not None:
        from tracker.services.online.fetch import check_platform

        platform = check_platform(online)
    if plot is not None:
        check_plot_path(plot)
    if all_:
        if preset is not None:
            raise UsageError(
                "--preset compares named players with another preset: give a PLAYER instead of "
                "--all (--all shows the configured preset, see `tracker shadow set`)"
            )
        if platform is not None:
            if plot is not None:
                raise UsageError("--plot draws players, not the --online line")
            compare_online(ctx, tc, platform, json)
        else:
            _compare_all(ctx, tc, json, plot)
        return
    from tracker.services.compare import compare as do_compare

    found = state(ctx).read(lambda db: [do_compare(db, name, tc, preset) for name in names])
    if json:
        print_json(compare_json(found[0]) if len(found) == 1 else [compare_json(c) for c in found])
    else:
        for i, c in enumerate(found):
            if i:
                typer.echo("")
            print_comparison(c, platform)
        if found[0].rows:
            comparison_notes(found)
        for c in found:
            _online_notes(c, platform)
        assumption_note(found[0].assumption_summary)
    if plot is not None:
        if len(found) == 1:
            write_plot(draw_comparison(found[0], platform), plot)
        else:
            write_plot(draw_players(found, platform), plot)
        message(f"plot written to {plot}")
    stale_warning(next((c.stale_months for c in found if c.stale_months), ()))


def _compare_all(ctx: typer.Context, tc: TimeControl, json: bool, plot: Path | None) -> None:
    from tracker.services.compare import compare as do_compare
    from tracker.services.compare.everyone import compare_all

    app_state = state(ctx)
    st = app_state.read(lambda db: compare_all(db, tc))
    if json:
        print_json(
            pick(
                st,
                "tc preset list=list_date stale players",
                players=[
                    pick(
                        r,
                        "id=player_id name elo glicko rd provisional difference elo_rank "
                        "glicko_rank flagged",
                    )
                    | st.others.fields(r.player_id)
                    for r in st.rows
                ],
            )
        )
    else:
        others = st.others.beside.headings
        print_table(
            ["Elo rank", "name", "Elo", st.preset, "RD", "diff", "rank", *others, ""],
            [
                (
                    r.elo_rank or "",
                    r.name,
                    render.rating(r.elo),
                    r.display or "",
                    render.rd(r.rd),
                    points(r.difference),
                    r.glicko_rank or "",
                    *st.others.cells(r.player_id),
                    "<-" if r.flagged else "",
                )
                for r in st.rows
            ],
            title=f"{st.tc.capitalize()} list of {st.list_date} and the {st.preset} shadow "
            f"(rank: by the shadow)"
            if st.list_date
            else None,
            right=("Elo rank", "Elo", st.preset, "RD", "diff", "rank", *others),
            wrap=("name",),
            drop=st.others.beside.drops(),
            empty=f"no closed {st.tc} periods yet (see `tracker period close`)",
        )
        if any(r.flagged for r in st.rows):
            message("<- marks the players whose two ranks differ most")
    if st.rows:
        shadow_notes(
            external_rd=st.external_rd if st.external_opponents else None,
            provisional_rd=st.provisional_rd,
            displays=(r.display for r in st.rows),
        )
        assumption_note(st.assumption_summary)
    if plot is not None:
        ranked = [r for r in st.rows if r.elo is not None or r.glicko is not None]
        chosen = ranked[:MAX_PLAYERS]
        if not chosen:
            raise InvalidInputError(f"nothing to plot: no closed {tc} periods yet")
        found = app_state.read(
            lambda db: [do_compare(db, f"#{r.player_id}", tc, None) for r in chosen]
        )
        write_plot(draw_players(found), plot)
        if len(ranked) > len(chosen):
            message(f"plotted the {len(chosen)} highest-rated of {len(ranked)} players")
        message(f"plot written to {plot}")
    if st.stale:
        message("warning: some periods are stale; run `tracker rerate`")


def evaluate(
    ctx: typer.Context,
    tc: Tc = "standard",
    from_month: Annotated[
        dt.date | None, month_option("--from", "Score the games from this month on", "all games")
    ] = None,
    json: Json = False,
) -> None:
    """Which rating system predicted the games better.

    FIDE Elo against each Glicko preset, every game predicted before it is rated: the
    log-loss, the Brier score and how often the favourite won.

    \b
    Example: tracker evaluate --from 2026-09
    """
    from tracker.services.compare.evaluate import evaluate as do_evaluate

    ev = state(ctx).read(lambda db: do_evaluate(db, tc, from_month))
    if json:
        print_json(
            pick(
                ev,
                "tc games decisive_games=decisive systems",
                systems=[pick(s, "system games log_loss brier accuracy") for s in ev.systems],
            )
        )
        return
    best = min(ev.systems, key=lambda s: s.log_loss)
    print_table(
        ["system", "games", "log-loss", "Brier", "favourite won"],
        [
            (
                s.system,
                s.games,
                f"{s.log_loss:.4f}",
                f"{s.brier:.4f}",
                "" if s.accuracy is None else f"{s.accuracy:.1%}",
            )
            for s in ev.systems
        ],
        title=f"Predicting {ev.games} rated {ev.tc} games"
        + (f" from {month_label(ev.first_month)}" if ev.first_month else ""),
        right=("games", "log-loss", "Brier", "favourite won"),
    )
    shadow_notes(external_rd=ev.external_rd if ev.external_games else None)
    message(f"lower log-loss and Brier are better; best here: {best.system}")
    message(
        f"each game is predicted before it is rated; {ev.decisive} decisive games make "
        "'favourite won'"
    )
