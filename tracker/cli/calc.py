"""``tracker calc ...``: rating calculators that need no database."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.cli.options import Json, command_group, option, whole, whole_option
from tracker.cli.render import message, pick, plain, print_json, print_table
from tracker.errors import UsageError
from tracker.user_input import parse_date, today
from tracker.vocabulary import DEFAULT_PRESET, plural

if TYPE_CHECKING:
    from tracker.ratings.fide.initial import InitialRating

app = command_group(
    """Rating calculators (no database needed).

    \b
    Example: tracker calc elo 1500 1400:1 1600:= 1550:0 --k 20
    """
)


def _fmt(value: Decimal, places: int) -> str:
    from tracker.ratings.fide.arithmetic import quantize_half_away

    return f"{quantize_half_away(value, places):.{places}f}"


def _signed(value: Decimal) -> str:
    """An exact change: signed, two decimals (rounded half away from zero)."""
    text = _fmt(value, 2)
    return text if text.startswith("-") else "+" + text


@app.command("elo")
def elo(
    rating: Annotated[
        int, typer.Argument(metavar="RATING", help="The player's rating.", parser=whole)
    ],
    games: Annotated[
        list[str],
        typer.Argument(
            help="Games as OPPONENT_RATING:SCORE, SCORE being 1, 0.5 (1/2, ½, =) or 0.",
            metavar="OPP:SCORE...",
        ),
    ],
    k: Annotated[int | None, whole_option("--k", "K", "K to use (before the 700 rule).")] = None,
    rated_games: Annotated[
        int | None,
        whole_option("--games", "N", "Rated games so far: K from FIDE's rules instead of --k."),
    ] = None,
    born: Annotated[
        int | None, whole_option("--born", "YEAR", "Year of birth (junior K 40, with --games).")
    ] = None,
    ever_2400: Annotated[
        bool, typer.Option("--ever-2400", help="A published rating once reached 2400.")
    ] = False,
    ever_2300: Annotated[
        bool, typer.Option("--ever-2300", help="A published rating once reached 2300.")
    ] = False,
    formula: Annotated[
        str,
        option(
            "--formula",
            "FORMULA",
            "table: FIDE table 8.1.2 (the regulations); logistic: 1/(1+10^(-D/400)), "
            "as many online calculators.",
        ),
    ] = "table",
    no_cap: Annotated[
        bool, typer.Option("--no-400-rule", help="Use the full rating difference.")
    ] = False,
    date: Annotated[
        str | None,
        option(
            "--date",
            "DATE",
            "Event start date, YYYY-MM-DD (picks the rules in force). Default: today.",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """FIDE Elo change for one player over a period's games.

    FIDE Rating Regulations §8.3. K is --k, or FIDE's K worked out from --games (with
    --born, --ever-2400 and --ever-2300).

    \b
    Example: tracker calc elo 1892 2026:1 1750:0.5 --games 12 --born 2011
    """
    from tracker.services.calc import calc_elo

    if k is not None and rated_games is not None:
        raise UsageError("give either --k or --games, not both")
    if (born is not None or ever_2400 or ever_2300) and rated_games is None:
        raise UsageError("--born, --ever-2400 and --ever-2300 work out K with --games")
    on = parse_date(date) if date is not None else today()
    result = calc_elo(
        rating,
        games,
        k=k,
        rated_games=rated_games,
        born=born,
        ever_2400=ever_2400,
        ever_2300=ever_2300,
        formula=formula,
        cap=not no_cap,
        on=on,
    )
    for note in result.notes:
        message(f"note: {note}")
    if json:
        print_json(
            pick(
                result,
                "rating k formula games change_exact change new_rating",
                games=[pick(g, "opponent score expected change") for g in result.games],
            )
        )
        return
    places = 2 if result.formula == "table" else 3
    print_table(
        ["game", "opponent", "score", "diff", "expected", "change"],
        [
            (
                i,
                g.opponent,
                plain(g.score),
                g.difference,
                _fmt(g.expected, places),
                _signed(g.change),
            )
            for i, g in enumerate(result.games, start=1)
        ],
        right=("game", "opponent", "score", "diff", "expected", "change"),
    )
    typer.echo(
        f"K {result.k} ({result.k_source}), score {plain(result.score)} of "
        f"{len(result.games)}, expected {_fmt(result.expected, places)}"
    )
    typer.echo(
        f"change {_signed(result.change_exact)} -> {result.change:+d}, "
        f"new rating {result.new_rating}"
    )


@app.command("initial")
def initial(
    games: Annotated[
        list[str],
        typer.Argument(
            help="The games against rated opponents, as OPPONENT_RATING:SCORE, SCORE being 1, "
            "0.5 (1/2, ½, =) or 0.",
            metavar="OPP:SCORE...",
        ),
    ],
    date: Annotated[
        str | None,
        option(
            "--date",
            "DATE",
            "A day of the rating period that works the rating out, YYYY-MM-DD (its month "
            "picks the rules in force). Default: today.",
        ),
    ] = None,
    json: Json = False,
) -> None:
    """A first rating from an unrated player's games (§8.2).

    FIDE Rating Regulations §8.2: Ra, the rated opponents' average with two hypothetical
    1800 opponents both drawn; Ru = Ra + dp (table 8.1.1), at most 2200; published from 5
    games and 1400 (§7.1.4); a zero in the first event is disregarded (§8.2.1). For a rating
    period from January 2022 to February 2024 (--date), the rules then in force (2022 §8.2):
    Ra of the rated opponents only, Ru = Ra at 50 %, Ra + 20 a half point above, Ra + dp
    below; no maximum; published from 1000.

    \b
    Example: tracker calc initial 1600:1 1700:0.5 1500:1 1800:0 1650:=
    """
    from tracker.services.calc import calc_initial

    on = parse_date(date) if date is not None else today()
    result = calc_initial(games, on)
    r = result.rating
    for note in result.notes:
        message(f"note: {note}")
    if json:
        print_json(
            pick(
                r,
                "games=n score ra p dp rating=ru capped published missing rules",
                ra=r.ra.quantize(Decimal("0.01")),
                published=not result.missing,
                missing=result.missing,
                rules=r.rules.effective_from,
            )
        )
        return
    typer.echo(f"{plural(r.n, 'game')} against rated opponents, score {plain(r.score)}")
    typer.echo(_initial_steps(r))
    capped = f" (limited to {r.rules.max_rating}, §8.2.3)" if r.capped else ""
    if result.missing:
        typer.echo(f"rating {r.ru}{capped}: not published")
        for reason in result.missing:
            message(f"  {reason}")
    else:
        typer.echo(f"first rating {r.ru}{capped}")


def _initial_steps(r: InitialRating) -> str:
    """How Ru follows from Ra, in the words of the rules in force (§8.2.2-§8.2.3)."""
    if r.rules.method == "hypothetical_draws":
        return (
            f"Ra {_fmt(r.ra, 2)} (with two {r.rules.hypothetical_opponent} opponents drawn), "
            f"p {_fmt(r.p, 2)}, dp {r.dp:+d}"
        )
    head = f"Ra {_fmt(r.ra, 2)} (rated opponents only), p {_fmt(r.p, 2)}"
    over = int(2 * r.score) - r.n
    if over > 0:
        return f"{head}, +{r.dp} ({plural(over, 'half point')} over 50 %, 20 each)"
    if over == 0:
        return f"{head}: a 50 % score, Ru = Ra"
    return f"{head}, dp {r.dp:+d}"


@app.command("glicko")
def glicko_(
    rating: Annotated[float, typer.Argument(metavar="RATING", help="The player's rating.")],
    rd: Annotated[float, typer.Argument(metavar="RD", help="Their rating deviation (RD).")],
    rest: Annotated[
        list[str] | None,
        typer.Argument(
            help="Their volatility (Glicko-2 presets only, e.g. 0.06), then the games as "
            "OPP_RATING/OPP_RD:SCORE, SCORE being 1, 0.5 (1/2, ½, =) or 0.",
            metavar="[VOLATILITY] OPP/RD:SCORE...",
        ),
    ] = None,
    preset: Annotated[
        str,
        option(
            "--preset",
            "PRESET",
            "lichess: one game at a time; glickman: all games form one rating period; "
            "chesscom: Glicko-1 (no volatility), one game at a time.",
        ),
    ] = DEFAULT_PRESET,
    tau: Annotated[float | None, option("--tau", "TAU", "Override the preset's tau.")] = None,
    idle_days: Annotated[
        float | None,
        option("--idle-days", "DAYS", "Days without games before these (lichess, chesscom)."),
    ] = None,
    idle_periods: Annotated[
        int | None,
        whole_option(
            "--idle-periods", "N", "Rating periods without games before these (glickman)."
        ),
    ] = None,
    json: Json = False,
) -> None:
    """A Glicko rating after some games.

    Glickman's papers, with Lichess's parameters by default. Glicko-2 presets take the
    player's volatility after their RD; chesscom (Glicko-1) has none: leave it out.

    \b
    Examples:
      tracker calc glicko 1500 200 0.06 1400/30:1 1550/100:0
      tracker calc glicko 1500 200 1400/30:1 --preset chesscom
    """
    from tracker.cli.notes import assumption_note
    from tracker.ratings.glicko.presets import PRESETS
    from tracker.services.calc import calc_glicko

    if idle_days is not None and idle_periods is not None:
        raise UsageError("give either --idle-days or --idle-periods, not both")
    words = list(rest or [])
    volatility: float | None = None
    if words and ":" not in words[0] and "/" not in words[0]:
        try:
            volatility = float(words[0])
        except ValueError:
            raise UsageError(
                f"invalid volatility {words[0]!r}: a number such as 0.06, before the games"
            ) from None
        words = words[1:]
    chosen = PRESETS.get(preset.strip().lower())
    glicko1 = chosen is not None and chosen.system == "glicko1"
    if glicko1 and volatility is not None:
        raise UsageError(
            f"{chosen.name if chosen else preset} is Glicko-1: it has no volatility; "
            "give RATING RD and the games"
        )
    if chosen is not None and not glicko1 and volatility is None:
        raise UsageError(
            f"{chosen.name} is Glicko-2: give the volatility after the RD "
            f"(a new {chosen.name} player has {chosen.initial_volatility:g})"
        )
    result = calc_glicko(
        rating,
        rd,
        volatility,
        words,
        preset=preset,
        tau=tau,
        idle_days=idle_days,
        idle_periods=idle_periods,
    )
    assumption_note(result.assumption_summary)
    final = result.result
    if json:
        print_json(
            pick(
                result,
                "preset rating=result.rating rd=result.rd volatility provisional display "
                "rd_after_idle=after_idle.rd",
                volatility=final.volatility if result.has_volatility else None,
            )
        )
        return
    if result.after_idle != result.start:
        typer.echo(f"idle: RD {result.start.rd:.2f} -> {result.after_idle.rd:.2f}")
    if result.steps:
        columns = ["game", "opponent", "opp RD", "score", "expected", "rating", "RD"]
        columns += ["volatility"] if result.has_volatility else []
        print_table(
            columns,
            [
                (
                    i,
                    f"{s.opponent:g}",
                    f"{s.opponent_rd:g}",
                    f"{s.score:g}",
                    f"{s.expected:.3f}",
                    f"{s.rating:.2f}",
                    f"{s.rd:.2f}",
                    *([f"{s.volatility:.6f}"] if result.has_volatility else []),
                )
                for i, s in enumerate(result.steps, start=1)
            ],
            right=columns,
        )
    vol = f", volatility {final.volatility:.6f}" if result.has_volatility else ""
    typer.echo(
        f"{result.preset}: rating {final.rating:.2f}, RD {final.rd:.2f}{vol}; "
        f"shown as {result.display}"
    )
