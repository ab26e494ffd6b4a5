"""``tracker shadow``, ``tracker compare`` and ``tracker evaluate``: Elo beside Glicko."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.notes import assumption_note, external_note, stale_warning
from tracker.cli.options import PLAYER_WORDS, Json, Plot, Tc, command_group, month_option
from tracker.cli.plot import MAX_PLAYERS, check_plot_path, plot_comparison, plot_players
from tracker.cli.render import message, print_json, print_table
from tracker.errors import InvalidInputError, UsageError
from tracker.months import month_label

if TYPE_CHECKING:
    from tracker.services.compare import CompareRow, Comparison, OnlineFit
    from tracker.services.shadow import ShadowConfig

app = command_group(
    """Configure the Glicko shadow rating.

    \b
    Example: tracker shadow set --preset glickman
    """
)

PRESET_WORDS = "lichess, glickman or chesscom"


def config_json(c: ShadowConfig) -> dict[str, Any]:
    preset = c.glicko_preset()
    return {
        "preset": c.preset,
        "seed": c.seed,
        "external_rd": c.external_rd,
        "chesscom_start": c.chesscom_start,
        "chesscom_c": c.chesscom_c,
        "chesscom_rd_min": c.chesscom_rd_min,
        "chesscom_rd_max": c.chesscom_rd_max,
        "seed_rd": "auto" if c.seed_rd is None else c.seed_rd,
        "description": preset.description,
        "assumptions": list(preset.assumptions),
    }


def _seed_rd_text(c: ShadowConfig) -> str:
    from tracker.ratings.glicko import seed_bounds

    low, high = seed_bounds(c.glicko_preset())
    if c.seed == "fresh":
        return "unused with fresh seeding"
    if c.seed_rd is not None:
        return f"{c.seed_rd:g} for every seeded player (within {low:g}..{high:g})"
    return f"auto: from his rated games (within {low:g}..{high:g})"


def _print_config(c: ShadowConfig, *, full: bool) -> None:
    preset = c.glicko_preset()
    rows = [
        ("preset", c.preset),
        ("about", preset.description),
        (
            "seed",
            "elo: start from the Elo in force at the first game"
            if c.seed == "elo"
            else "fresh: the preset's new-player values",
        ),
        ("seed RD", _seed_rd_text(c)),
        ("external RD", f"{c.external_rd:g} (external opponents: recorded rating, fixed RD)"),
    ]
    if c.preset == "chesscom":
        rows.append(("chesscom start", f"{c.chesscom_start:g}"))
        rows.append(
            (
                "chesscom RD",
                f"{c.chesscom_rd_min:g}..{c.chesscom_rd_max:g}, growing by c = "
                f"{c.chesscom_c:g} per day (assumptions)",
            )
        )
    print_table(["setting", "value"], rows)
    if not preset.assumptions:
        return
    if not full:
        assumption_note(preset.assumption_summary)
        return
    import textwrap

    typer.echo("assumptions:")
    for note in preset.assumptions:
        typer.echo(textwrap.fill(note, width=78, initial_indent="- ", subsequent_indent="  "))


@app.command("show")
def show(ctx: typer.Context, json: Json = False) -> None:
    """Show how this database computes its shadow rating.

    \b
    Example: tracker shadow show --json
    """
    from tracker.services.shadow import get_config

    c = state(ctx).run(get_config, write=False)
    if json:
        print_json(config_json(c))
    else:
        _print_config(c, full=True)


@app.command("set")
def set_(
    ctx: typer.Context,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help="lichess (default), glickman or chesscom.",
            metavar="PRESET",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            help="elo (default): a player's shadow starts at his Elo when his first game is "
            "rated; fresh: at the preset's new-player rating, like a new online account.",
            metavar="SEED",
        ),
    ] = None,
    external_rd: Annotated[
        float | None,
        typer.Option(
            "--external-rd", metavar="RD", help="RD given to external opponents (default 60)."
        ),
    ] = None,
    chesscom_start: Annotated[
        float | None,
        typer.Option(
            "--chesscom-start",
            metavar="RATING",
            help="Start rating of the chesscom preset (1200).",
        ),
    ] = None,
    chesscom_c: Annotated[
        float | None,
        typer.Option(
            "--chesscom-c",
            metavar="C",
            help="chesscom: RD growth per day, RD = sqrt(RD² + c²·days) (8.1; an assumption).",
        ),
    ] = None,
    chesscom_rd_min: Annotated[
        float | None,
        typer.Option(
            "--chesscom-rd-min", metavar="RD", help="chesscom: lowest RD (30; an assumption)."
        ),
    ] = None,
    chesscom_rd_max: Annotated[
        float | None,
        typer.Option(
            "--chesscom-rd-max", metavar="RD", help="chesscom: highest RD (350; an assumption)."
        ),
    ] = None,
    seed_rd: Annotated[
        str | None,
        typer.Option(
            "--seed-rd",
            metavar="RD",
            help="First RD of a player seeded from his Elo: auto (default) derives it from "
            "his rated games (the RD that as many evenly matched games give a new player, "
            "within the preset's RD bounds); a number fixes it for everyone seeded.",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """Change the shadow settings; the stored shadow is recomputed.

    \b
    Example: tracker shadow set --preset chesscom --external-rd 80
    """
    from tracker.services.shadow import set_config

    c, changed = state(ctx).run(
        lambda s: set_config(
            s,
            preset=preset,
            seed=seed,
            external_rd=external_rd,
            chesscom_start=chesscom_start,
            chesscom_c=chesscom_c,
            chesscom_rd_min=chesscom_rd_min,
            chesscom_rd_max=chesscom_rd_max,
            seed_rd=seed_rd,
        ),
        write=True,
    )
    if json:
        print_json(config_json(c))
    else:
        _print_config(c, full=False)
    message("shadow settings changed; the shadow was recomputed" if changed else "nothing changed")


def _f(value: float | None, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}"


ONLINE_HEADERS = {"lichess": "lichess.org", "chesscom": "chess.com"}
"""Column headers of the real online ratings (the sites' names: not the presets')."""


def _online_json(r: CompareRow) -> dict[str, Any]:
    return {
        platform: (
            {"rating": o.rating, "day": o.day.isoformat()}
            if (o := r.online_on(platform)) is not None
            else None
        )
        for platform in ("lichess", "chesscom")
    }


def compare_json(c: Comparison) -> dict[str, Any]:
    return {
        "player": c.name,
        "tc": c.tc,
        "preset": c.preset,
        "external_rd": c.external_rd,
        "online": {
            s.platform: {"user": s.user, "perf": s.perf, "points": len(s.points)} for s in c.online
        },
        "periods": [
            {
                "month": month_label(r.month),
                "list": r.list_date.isoformat(),
                "elo": r.elo,
                "glicko": r.glicko,
                "rd": r.rd,
                "volatility": r.volatility,
                "provisional": r.provisional,
                "difference": r.difference,
                "online": _online_json(r),
            }
            for r in c.rows
        ],
    }


def shown_platform(c: Comparison, wanted: str | None) -> str | None:
    """The platform whose real rating the table and plot show: ``wanted``, else the first
    linked one with points for this list."""
    if wanted is not None:
        return wanted
    return next((s.platform for s in c.online if s.points), None)


def print_comparison(c: Comparison, platform: str | None = None) -> None:
    """Elo, the shadow and (``platform``) the real online rating, per list date."""
    platform = shown_platform(c, platform)
    series = c.online_series(platform) if platform else None
    columns = ["month", "list", "Elo", c.preset, "RD"]
    columns += ["volatility"] if c.has_volatility else []
    columns += ["difference"]
    if series is None:
        platform = None  # nothing of it stands beside this list
    else:
        columns.append(ONLINE_HEADERS[series.platform])
    rows = []
    for r in c.rows:
        row: list[Any] = [
            month_label(r.month),
            r.list_date,
            r.elo if r.elo is not None else "unrated",
            r.display or "",
            _f(r.rd, 1),
        ]
        if c.has_volatility:
            row.append(_f(r.volatility, 5))
        row.append("" if r.difference is None else f"{r.difference:+.0f}")
        if platform is not None:
            real = r.online_on(platform)
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
        empty=f"no closed {c.tc} periods for {c.name} yet (see `tracker period close`)",
    )


def _online_notes(c: Comparison, platform: str | None) -> None:
    from tracker.vocabulary import PLATFORM_NAMES, online_perf

    platform = shown_platform(c, platform)
    series = c.online_series(platform) if platform else None
    if platform is not None and series is None:
        why = (
            f"no linked {PLATFORM_NAMES[platform]} account"
            if online_perf(platform, c.tc)
            else f"{PLATFORM_NAMES[platform]} has no rating beside the {c.tc} list"
        )
        message(f"{c.name}: {why}")
    if series is not None:
        message(
            f"{ONLINE_HEADERS[series.platform]}: {c.name}'s real {series.label} rating, the "
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
        typer.Option(
            "--preset",
            help=f"Compare with this preset ({PRESET_WORDS}) instead of the configured one "
            "(computed on the fly).",
            metavar="PRESET",
        ),
    ] = None,
    online: Annotated[
        str | None,
        typer.Option(
            "--online",
            metavar="PLATFORM",
            help="lichess or chesscom: whose real ratings to show beside (default: the "
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
    Lichess or Chess.com account (see `tracker online`) also shows his real rating there on
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
        from tracker.services.online import check_platform

        platform = check_platform(online)
    if plot is not None:
        check_plot_path(plot)
    if all_:
        if preset is not None:
            raise UsageError("--preset compares named players, not --all")
        if platform is not None:
            if plot is not None:
                raise UsageError("--plot draws players, not the --online line")
            _compare_online(ctx, tc, platform, json)
        else:
            _compare_all(ctx, tc, json, plot)
        return
    from tracker.services.compare import compare as do_compare

    found = state(ctx).run(
        lambda s: [do_compare(s, name, tc, preset) for name in names], write=False
    )
    if json:
        print_json(compare_json(found[0]) if len(found) == 1 else [compare_json(c) for c in found])
    else:
        for i, c in enumerate(found):
            if i:
                typer.echo("")
            print_comparison(c, platform)
        if found[0].rows:
            external_note(found[0].external_rd)
        for c in found:
            _online_notes(c, platform)
        assumption_note(found[0].assumption_summary)
    if plot is not None:
        if len(found) == 1:
            plot_comparison(found[0], plot, shown_platform(found[0], platform))
        else:
            plot_players(found, plot, platform)
        message(f"plot written to {plot}")
    stale_warning(next((c.stale_months for c in found if c.stale_months), ()))


def _compare_all(ctx: typer.Context, tc: str, json: bool, plot: Path | None) -> None:
    from tracker.services.compare import compare as do_compare
    from tracker.services.compare import compare_all

    app_state = state(ctx)
    st = app_state.run(lambda s: compare_all(s, tc), write=False)
    if json:
        print_json(
            {
                "tc": st.tc,
                "preset": st.preset,
                "list": st.list_date.isoformat() if st.list_date else None,
                "stale": st.stale,
                "players": [
                    {
                        "id": r.player_id,
                        "name": r.name,
                        "elo": r.elo,
                        "glicko": r.glicko,
                        "rd": r.rd,
                        "provisional": r.provisional,
                        "difference": r.difference,
                        "elo_rank": r.elo_rank,
                        "glicko_rank": r.glicko_rank,
                        "flagged": r.flagged,
                    }
                    for r in st.rows
                ],
            }
        )
    else:
        print_table(
            ["Elo rank", "name", "Elo", st.preset, "RD", "diff", "rank", ""],
            [
                (
                    r.elo_rank or "",
                    r.name,
                    r.elo if r.elo is not None else "unrated",
                    r.display or "",
                    _f(r.rd, 1),
                    "" if r.difference is None else f"{r.difference:+.0f}",
                    r.glicko_rank or "",
                    "<- ranks differ" if r.flagged else "",
                )
                for r in st.rows
            ],
            title=f"{st.tc.capitalize()} list of {st.list_date} and the {st.preset} shadow "
            f"(rank: by the shadow)"
            if st.list_date
            else None,
            right=("Elo rank", "Elo", st.preset, "RD", "diff", "rank"),
            empty=f"no closed {st.tc} periods yet (see `tracker period close`)",
        )
    if st.rows:
        external_note(st.external_rd)
        assumption_note(st.assumption_summary)
    if plot is not None:
        ranked = [r for r in st.rows if r.elo is not None or r.glicko is not None]
        chosen = ranked[:MAX_PLAYERS]
        if not chosen:
            raise InvalidInputError(f"nothing to plot: no closed {tc} periods yet")
        found = app_state.run(
            lambda s: [do_compare(s, f"#{r.player_id}", tc, None) for r in chosen], write=False
        )
        plot_players(found, plot)
        if len(ranked) > len(chosen):
            message(f"plotted the {len(chosen)} highest-rated of {len(ranked)} players")
        message(f"plot written to {plot}")
    if st.stale:
        message("warning: some periods are stale; run `tracker rerate`")


def _signed(value: float | None) -> str:
    return "" if value is None else f"{value:+.0f}"


def _compare_online(ctx: typer.Context, tc: str, platform: str, json: bool) -> None:
    from tracker.services.compare import online_fit

    f = state(ctx).run(lambda s: online_fit(s, tc, platform), write=False)
    if json:
        print_json(online_fit_json(f))
    else:
        print_online_fit(f)


def online_fit_json(f: OnlineFit) -> dict[str, Any]:
    fit = f.fit
    return {
        "tc": f.tc,
        "platform": f.platform,
        "perf": f.perf,
        "list": f.list_date.isoformat(),
        "from_list": f.from_list,
        "stale": f.stale,
        "players": [
            {
                "id": r.player_id,
                "name": r.name,
                "elo": r.elo,
                "online": r.online,
                "online_day": r.online_day.isoformat(),
                "fitted": r.fitted,
                "residual": r.residual,
            }
            for r in f.rows
        ],
        "left_out": [{"name": n, "why": why} for n, why in f.left_out],
        "fit": None
        if fit is None
        else {
            "n": fit.n,
            "slope": fit.slope,
            "intercept": fit.intercept,
            "residual_sd": fit.residual_sd,
            "slope_se": fit.slope_se,
            "r": fit.r,
            "elo_min": fit.x_min,
            "elo_max": fit.x_max,
        },
    }


def print_online_fit(f: OnlineFit) -> None:
    """The players with both ratings, the line, and how far to trust it."""
    from tracker.vocabulary import PLATFORM_NAMES

    platform, fit = f.platform, f.fit
    site, name = ONLINE_HEADERS[platform], PLATFORM_NAMES[platform]
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
            (r.name, r.elo, r.online, r.online_day, _f(r.fitted, 0), _signed(r.residual))
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
    from tracker.services.compare import evaluate as do_evaluate

    ev = state(ctx).run(lambda s: do_evaluate(s, tc, from_month), write=False)
    if json:
        print_json(
            {
                "tc": ev.tc,
                "games": ev.games,
                "decisive_games": ev.decisive,
                "systems": [
                    {
                        "system": s.system,
                        "games": s.games,
                        "log_loss": s.log_loss,
                        "brier": s.brier,
                        "accuracy": s.accuracy,
                    }
                    for s in ev.systems
                ],
            }
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
    external_note(ev.external_rd)
    message(
        f"lower log-loss and Brier are better; best here: {best.system}. Each game is predicted "
        f"before it is rated; {ev.decisive} decisive games decide 'favourite won'"
    )
