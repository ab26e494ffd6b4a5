"""``tracker shadow``: how the Glicko shadow rating is computed (show and set)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.notes import assumption_note
from tracker.cli.options import Json, command_group, option
from tracker.cli.render import message, pick, print_json_or, print_table

if TYPE_CHECKING:
    from tracker.services.shadow.config import ShadowConfig

app = command_group(
    """Configure the Glicko shadow rating.

    \b
    Example: tracker shadow set --preset glickman
    """
)


def config_json(c: ShadowConfig) -> dict[str, Any]:
    return pick(
        c,
        "preset seed external_rd chesscom_start chesscom_c chesscom_rd_min chesscom_rd_max "
        "seed_rd description assumptions",
        seed_rd="auto" if c.seed_rd is None else c.seed_rd,
        **pick(c.glicko_preset(), "description assumptions"),
    )


def _seed_rd_text(c: ShadowConfig) -> str:
    from tracker.ratings.glicko.seeding import seed_bounds

    low, high = seed_bounds(c.glicko_preset())
    if c.seed == "fresh":
        return "unused with fresh seeding"
    if c.seed_rd is not None:
        return f"{c.seed_rd:g} for every seeded player (within {low:g}..{high:g})"
    return f"auto: from their rated games (within {low:g}..{high:g})"


def _print_config(c: ShadowConfig, *, full: bool) -> None:
    from tracker.ratings.glicko.presets import CHESSCOM_PRESET  # not loaded at every start

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
    if c.preset == CHESSCOM_PRESET:
        rows.append(("chesscom start", f"{c.chesscom_start:g}"))
        rows.append(
            (
                "chesscom RD",
                f"{c.chesscom_rd_min:g}..{c.chesscom_rd_max:g}, growing by c = "
                f"{c.chesscom_c:g} per day (assumptions)",
            )
        )
    print_table(["setting", "value"], rows, wrap=("value",))
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
    from tracker.services.shadow.config import get_config

    c = state(ctx).read(get_config)
    print_json_or(json, c, config_json, lambda c: _print_config(c, full=True))


@app.command("set")
def set_(
    ctx: typer.Context,
    preset: Annotated[
        str | None,
        option("--preset", "PRESET", "lichess (default), glickman or chesscom."),
    ] = None,
    seed: Annotated[
        str | None,
        option(
            "--seed",
            "SEED",
            "elo (default): a player's shadow starts at their Elo when their first game is "
            "rated; fresh: at the preset's new-player rating, like a new online account.",
        ),
    ] = None,
    external_rd: Annotated[
        float | None,
        option("--external-rd", "RD", "RD given to external opponents (default 60)."),
    ] = None,
    chesscom_start: Annotated[
        float | None,
        option("--chesscom-start", "RATING", "Start rating of the chesscom preset (1200)."),
    ] = None,
    chesscom_c: Annotated[
        float | None,
        option(
            "--chesscom-c",
            "C",
            "chesscom: RD growth per day, RD = sqrt(RD² + c²·days) (8.1; an assumption).",
        ),
    ] = None,
    chesscom_rd_min: Annotated[
        float | None,
        option("--chesscom-rd-min", "RD", "chesscom: lowest RD (30; an assumption)."),
    ] = None,
    chesscom_rd_max: Annotated[
        float | None,
        option("--chesscom-rd-max", "RD", "chesscom: highest RD (350; an assumption)."),
    ] = None,
    seed_rd: Annotated[
        str | None,
        option(
            "--seed-rd",
            "RD",
            "First RD of a player seeded from their Elo: auto (default) derives it from "
            "their rated games (the RD that as many evenly matched games give a new player, "
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

    c, changed = state(ctx).write(
        lambda db: set_config(
            db,
            preset=preset,
            seed=seed,
            external_rd=external_rd,
            chesscom_start=chesscom_start,
            chesscom_c=chesscom_c,
            chesscom_rd_min=chesscom_rd_min,
            chesscom_rd_max=chesscom_rd_max,
            seed_rd=seed_rd,
        ),
    )
    print_json_or(json, c, config_json, lambda c: _print_config(c, full=False))
    message("shadow settings changed; the shadow was recomputed" if changed else "nothing changed")
