"""``tracker forecast``: what an event would do to a player's rating (a what-if; writes
nothing)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli.context import state
from tracker.cli.options import Json, Player, Tc, option, whole_option
from tracker.cli.render import message, pick, print_json_or, print_table, rating
from tracker.errors import InvalidInputError
from tracker.months import month_label
from tracker.user_input import parse_date, today

if TYPE_CHECKING:
    from tracker.services.forecast import Distribution, Forecast, Result, ScoreRow


def forecast(
    ctx: typer.Context,
    player: Player,
    opponents: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="OPPONENT...",
            help="Each opponent: a player (as PLAYER), or a rating such as 2150 (also "
            "ext:2150) for an opponent not in the database.",
        ),
    ] = None,
    date: Annotated[
        str | None,
        option(
            "--date",
            "DATE",
            "The event's start, YYYY-MM-DD: it picks the list in force and the rules, "
            "and the event is rated in its month. Default: today.",
        ),
    ] = None,
    tc: Tc = "standard",
    target: Annotated[
        int | None, whole_option("--target", "RATING", "Say the score that gives at least RATING.")
    ] = None,
    probabilities: Annotated[
        bool,
        typer.Option(
            "--probabilities",
            help="Add the exact distribution of the next published rating (win/draw/loss "
            "from FIDE's expectation and a draw rate fitted on the database's games).",
        ),
    ] = False,
    draw_rate: Annotated[
        str | None,
        option(
            "--draw-rate",
            "C",
            "With --probabilities: the draw rate between equals (0..1) instead of the fitted one.",
        ),
    ] = None,
    strength: Annotated[
        int | None,
        whole_option(
            "--strength",
            "RATING",
            "With --probabilities: the player's rating the probabilities assume. "
            "Default: his rating (unrated: his opponents' average).",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """What-if: the rating change an event would give, score by score.

    The event's games join the player's other games of the period it is rated in (its
    start's month) and the period is closed as `period close` would close it, for each
    score: K with the 700 rule, the 400-point rule, one rounding, the 1400 floor, an
    unrated player's pending results and first rating. Nothing is written.

    \b
    Example: tracker forecast Patel Okafor 2150 --date 2026-11-07 --target 2000
    """
    from tracker.services.forecast import forecast as run

    rate: Decimal | None = None
    if draw_rate is not None:
        try:
            rate = Decimal(draw_rate.strip())
        except InvalidOperation:
            raise InvalidInputError(
                f"bad draw rate {draw_rate!r}: give a number within 0..1, e.g. 0.3"
            ) from None
        if not rate.is_finite():
            raise InvalidInputError(f"bad draw rate {draw_rate!r}: give a number within 0..1")
    start = parse_date(date) if date is not None else today()
    f = state(ctx).read(
        lambda db: run(
            db,
            player,
            list(opponents or []),
            tc=tc,
            start=start,
            target=target,
            probabilities=probabilities,
            draw_rate=rate,
            strength=strength,
        )
    )
    for note in f.notes:
        message(f"note: {note}")
    print_json_or(json, f, forecast_json, print_forecast)


def _cell(row: ScoreRow, show: Callable[[Result], str]) -> str:
    low, high = show(row.low), show(row.high)
    return low if low == high else f"{low}..{high}"


def print_forecast(f: Forecast) -> None:
    others = f"{f.other_games} other game(s) in it" if f.other_games else "no other games"
    typer.echo(f"{f.player} ({f.tc})")
    typer.echo(f"event starting {f.start.isoformat()}, rated in {month_label(f.month)}; {others}")
    if f.rating is not None:
        k = f"K {f.k_in_force}" + (
            f" ({f.k_used} by the 700 rule)" if f.k_used not in (None, f.k_in_force) else ""
        )
        typer.echo(f"rating {f.rating} on the {f.list_date.isoformat()} list, {k}")
    else:
        typer.echo(f"unrated: {f.pending} result(s) pending, {f.rated_games} rated game(s)")
    print_table(
        ["game", "opponent", "rating", "expected"],
        [
            (
                i,
                o.name if o.name is not None else "external",
                rating(o.rating),
                f"{o.expected:.2f}" if o.expected is not None else "not rated",
            )
            for i, o in enumerate(f.opponents, start=1)
        ],
        right=("game", "rating", "expected"),
        wrap=("opponent",),
        break_words=("opponent",),
    )
    # What each total score gives: low..high where the ways of making it differ.
    outcomes: list[tuple[str, Callable[[Result], str]]]
    if f.rating is not None:
        outcomes = [
            ("change", lambda x: f"{x.change:+d}" if x.change is not None else ""),
            ("exact", lambda x: "" if x.change_exact is None else f"{x.change_exact:+.2f}"),
            ("rating", lambda x: rating(x.rating)),
        ]
    else:
        outcomes = [
            ("rating", lambda x: rating(x.rating)),
            ("computed", lambda x: "" if x.initial is None else str(x.initial)),
            ("pending", lambda x: str(x.pooled)),
        ]
    outcomes.append(("next K", lambda x: "" if x.next_k is None else str(x.next_k)))
    columns = ["score", *(name for name, _ in outcomes)]
    print_table(
        columns,
        [(f"{r.score:.1f}", *(_cell(r, show) for _, show in outcomes)) for r in f.rows],
        right=columns,
    )
    if f.target is not None:
        t = f.target
        n = len(f.opponents)
        if t.score is None:
            typer.echo(f"target {t.rating}: out of reach with {n} game(s)")
        else:
            typer.echo(f"target {t.rating}: {t.score:.1f} of {n} (rating {t.reached})")
    if f.distribution is not None:
        _print_distribution(f.distribution)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f} %"


def _print_distribution(d: Distribution) -> None:
    strength = rating(d.strength)
    fitted = (
        f"fitted on {d.fitted_games} game(s) of closed periods"
        if d.fitted_games is not None
        else "given"
    )
    typer.echo(f"draw rate c {d.draw_rate}, {fitted}")
    typer.echo("  P(draw) = c x 2 min(E, 1-E), E from table 8.1.2 at the full difference")
    typer.echo(f"  player at {strength}: expected score {float(d.expected_score):.2f}")
    at_least = Fraction(0)
    rows = []
    for o in reversed(d.outcomes):
        at_least += o.probability
        rows.append(
            (
                rating(o.rating),
                "" if o.change is None else f"{o.change:+d}",
                _percent(o.probability),
                _percent(at_least),
            )
        )
    columns = ["next rating", "change", "probability", "at least"]
    print_table(columns, reversed(rows), right=columns)


def _result_json(r: Result) -> dict[str, Any]:
    return pick(r, "rating change_exact change k next_k initial pending=pooled")


def _distribution_json(d: Distribution) -> dict[str, Any]:
    return pick(
        d,
        "model draw_rate fitted_games strength expected_score outcomes",
        expected_score=float(d.expected_score),
        outcomes=[
            pick(
                o,
                "rating change probability exact",
                probability=float(o.probability),
                exact=f"{o.probability.numerator}/{o.probability.denominator}",
            )
            for o in d.outcomes
        ],
    )


def forecast_json(f: Forecast) -> dict[str, Any]:
    return pick(
        f,
        "player player_id tc start month list=list_date rating k=k_in_force k_used rated_games "
        "pending other_games opponents scores target probabilities notes",
        month=month_label(f.month),
        opponents=[
            pick(o, "opponent=text name id=player_id rating rated=counted expected")
            for o in f.opponents
        ],
        scores=[
            {"score": r.score, "low": _result_json(r.low), "high": _result_json(r.high)}
            for r in f.rows
        ],
        target=None if f.target is None else pick(f.target, "rating score reached"),
        probabilities=None if f.distribution is None else _distribution_json(f.distribution),
    )
