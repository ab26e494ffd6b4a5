"""``tracker shadow``, ``tracker compare`` and ``tracker evaluate``: Elo beside Glicko."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import render
from tracker.cli.context import state
from tracker.cli.notes import shadow_notes, shows_provisional, stale_warning
from tracker.cli.options import PLAYER_WORDS, Json, Plot, Tc, command_group, month_option
from tracker.cli.plot import check_plot_path, plot_comparison
from tracker.cli.render import message, print_json, print_table
from tracker.errors import UsageError
from tracker.months import month_label

if TYPE_CHECKING:
    from tracker.services.compare import Comparison
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
        "description": preset.description,
        "assumptions": list(preset.assumptions),
    }


def _print_config(c: ShadowConfig) -> None:
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
    print_table(["setting", "value"], rows, wrap=("value",))
    for note in preset.assumptions:
        message(f"assumption: {note}")


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
        _print_config(c)


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
            help="elo (default): a player's shadow starts at their Elo when their first game is "
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
        ),
        write=True,
    )
    if json:
        print_json(config_json(c))
    else:
        _print_config(c)
    message("shadow settings changed; the shadow was recomputed" if changed else "nothing changed")


def _f(value: float | None, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}"


def compare_json(c: Comparison) -> dict[str, Any]:
    return {
        "player": c.name,
        "tc": c.tc,
        "preset": c.preset,
        "external_rd": c.external_rd,
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
            }
            for r in c.rows
        ],
    }


def print_comparison(c: Comparison) -> None:
    print_table(
        ["month", "list", "Elo", c.preset, "RD", "volatility", "difference"],
        [
            (
                month_label(r.month),
                r.list_date,
                r.elo if r.elo is not None else "unrated",
                r.display or "",
                render.rd(r.rd),
                _f(r.volatility, 5),
                "" if r.difference is None else f"{r.difference:+.0f}",
            )
            for r in c.rows
        ],
        title=f"{c.name} ({c.tc}): FIDE Elo and the {c.preset} shadow",
        right=("Elo", c.preset, "RD", "volatility", "difference"),
        drop=("list", "volatility"),
        empty=f"no closed {c.tc} periods for {c.name} yet (see `tracker period close`)",
    )


def comparison_notes(c: Comparison) -> None:
    shadow_notes(
        external_rd=c.external_rd if c.external_opponents else None,
        provisional_rd=c.provisional_rd if shows_provisional(r.display for r in c.rows) else None,
    )
    for note in c.assumptions:
        message(f"assumption: {note}")


def compare(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(
            metavar="PLAYER",
            help=f"The player: {PLAYER_WORDS} (or use --all).",
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
    tc: Tc = "standard",
    json: Json = False,
    plot: Plot = None,
) -> None:
    """FIDE Elo beside the Glicko shadow.

    Month by month for one player, or every tracked player's current ratings with --all.

    \b
    Examples:
      tracker compare "Okafor, Grace" --preset glickman
      tracker compare --all
    """
    if all_ == (player is not None):
        raise UsageError("give a PLAYER or --all")
    if all_:
        if plot is not None:
            raise UsageError(
                "--plot draws one player's ratings: give a PLAYER instead of --all "
                '(e.g. tracker compare "Hart, Daniel" --plot hart.png)'
            )
        if preset is not None:
            raise UsageError(
                "--preset compares one player with another preset: give a PLAYER instead of "
                "--all (--all shows the configured preset, see `tracker shadow set`)"
            )
        _compare_all(ctx, tc, json)
        return
    from tracker.services.compare import compare as do_compare

    assert player is not None
    if plot is not None:
        check_plot_path(plot)
    c = state(ctx).run(lambda s: do_compare(s, player, tc, preset), write=False)
    if json:
        print_json(compare_json(c))
    else:
        print_comparison(c)
        comparison_notes(c)
    if plot is not None:
        plot_comparison(c, plot)
        message(f"plot written to {plot}")
    stale_warning(c.stale_months)


def _compare_all(ctx: typer.Context, tc: str, json: bool) -> None:
    from tracker.services.compare import compare_all

    st = state(ctx).run(lambda s: compare_all(s, tc), write=False)
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
            ["Elo rank", "name", "Elo", st.preset, "RD", "difference", f"{st.preset} rank", ""],
            [
                (
                    r.elo_rank or "",
                    r.name,
                    r.elo if r.elo is not None else "unrated",
                    r.display or "",
                    render.rd(r.rd),
                    "" if r.difference is None else f"{r.difference:+.0f}",
                    r.glicko_rank or "",
                    "<-" if r.flagged else "",
                )
                for r in st.rows
            ],
            title=f"{st.tc.capitalize()} list of {st.list_date} and the {st.preset} shadow"
            if st.list_date
            else None,
            right=("Elo rank", "Elo", st.preset, "RD", "difference", f"{st.preset} rank"),
            wrap=("name",),
            empty=f"no closed {st.tc} periods yet (see `tracker period close`)",
        )
        if any(r.flagged for r in st.rows):
            message("<- marks the players whose two ranks differ most")
        if st.rows:
            shadow_notes(
                external_rd=st.external_rd if st.external_opponents else None,
                provisional_rd=st.provisional_rd
                if shows_provisional(r.display for r in st.rows)
                else None,
            )
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
    shadow_notes(external_rd=ev.external_rd if ev.external_games else None)
    message(f"lower log-loss and Brier are better; best here: {best.system}")
    message(
        f"each game is predicted before it is rated; {ev.decisive} decisive games make "
        "'favourite won'"
    )
