"""``tracker player ...``: the people we rate and the opponents we do not."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker.cli import fide_list, render
from tracker.cli.context import state
from tracker.cli.notes import now_stale
from tracker.cli.options import (
    PLAYER_WORDS,
    Json,
    Player,
    Tc,
    command_group,
    month_option,
    option,
    whole_option,
)
from tracker.cli.render import (
    accounts,
    message,
    pick,
    place,
    print_json,
    print_json_or,
    print_table,
    standing_json,
    yes_no,
)
from tracker.errors import UsageError
from tracker.months import month_label
from tracker.user_input import today
from tracker.vocabulary import CHESSCOM, LICHESS, PLATFORMS, OnlinePlatform

if TYPE_CHECKING:
    from tracker.ratings.fide.records import Seed
    from tracker.services.periods.card import PlayerCard, RatingStatus
    from tracker.services.players.refs import PlayerView
    from tracker.services.systems import Beside

app = command_group(
    f"""Add, list, show, edit, seed and remove players.

    Refer to a player by {PLAYER_WORDS}.

    \b
    Example: tracker player show "Hart, Daniel"
    """
)

FideId = Annotated[int | None, whole_option("--fide-id", "NUMBER", "FIDE id number.")]
Born = Annotated[int | None, whole_option("--born", "YEAR", "Year of birth (for the junior K).")]
Federation = Annotated[str | None, option("--federation", "FED", "Three-letter federation.")]
Sex = Annotated[str | None, option("--sex", "SEX", "m or f.")]
Title = Annotated[
    str | None,
    option("--title", "TITLE", "GM, IM, FM, CM, WGM, WIM, WFM or WCM."),
]
Rating = Annotated[
    int | None,
    whole_option(
        "--rating",
        "RATING",
        "Seed: the published FIDE rating on the list before tracking starts (needs --games).",
    ),
]
Games = Annotated[
    int | None, whole_option("--games", "N", "Seed: rated games played before tracking starts.")
]


def _account(platform: OnlinePlatform) -> Any:
    """``--lichess USER``, ``--chesscom USER``: a player's account on an online platform."""
    help = f"Their {platform.label} user name (see `tracker online`)."
    return option(f"--{platform.key}", "USER", help)


Lichess = Annotated[str | None, _account(LICHESS)]
Chesscom = Annotated[str | None, _account(CHESSCOM)]
Ever2400 = Annotated[
    bool, typer.Option("--ever-2400", help="Seed: a published rating once reached 2400 (K 10).")
]
Force = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Allow a name another player has, or has but for case or spacing (a namesake).",
    ),
]
Ever2300 = Annotated[
    bool,
    typer.Option(
        "--ever-2300", help="Seed: a published rating once reached 2300 (no junior K 40)."
    ),
]


def player_json(p: PlayerView) -> dict[str, Any]:
    accounts = f"{LICHESS.key} {CHESSCOM.key}"  # the players' columns of the platforms
    return pick(
        p,
        f"id name fide_id federation birth_year sex title external {accounts} games seeds "
        "earlier_lists",
        seeds=[pick(s, "tc rating games ever_2400 ever_2300") for s in p.seeds],
        earlier_lists=[
            pick(e, "tc list rating", list=month_label(e.list_date)) for e in p.earlier_lists
        ],
    )


def _seed(rating: int | None, games: int | None, ever_2400: bool, ever_2300: bool) -> Seed | None:
    from tracker.ratings.fide.records import Seed

    if rating is None and games is None:
        if ever_2400 or ever_2300:
            raise UsageError("--ever-2400 / --ever-2300 describe a seed: give --rating and --games")
        return None
    if rating is None or games is None:
        raise UsageError("--rating and --games go together: give both")
    return Seed(rating=rating, games=games, ever_2400=ever_2400, ever_2300=ever_2300)


def _describe(p: PlayerView) -> str:
    kind = "external" if p.external else "tracked"
    seed = next((s for s in p.seeds if s.tc == "standard"), None)
    seeded = f", seeded {seed.rating} after {seed.games} games" if seed else ""
    linked = "".join(f", {site} {user}" for site, user in accounts(p))
    return f"#{p.id} {p.name} ({kind}{seeded}{linked})"


@app.command("add")
def add(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME", help="Full name, e.g. 'Carlsen, Magnus'.", show_default=False
        ),
    ],
    fide_id: FideId = None,
    born: Born = None,
    federation: Federation = None,
    sex: Sex = None,
    title: Title = None,
    rating: Rating = None,
    games: Games = None,
    ever_2400: Ever2400 = False,
    ever_2300: Ever2300 = False,
    lichess: Lichess = None,
    chesscom: Chesscom = None,
    external: Annotated[
        bool,
        typer.Option(
            "--external",
            help="An opponent we do not rate: their rating comes from each game's recorded rating.",
        ),
    ] = False,
    force: Force = False,
    json: Json = False,
) -> None:
    """Add a tracked player or an external opponent.

    Seed a player who already has a FIDE rating with their state on the list before
    tracking starts (--rating and --games); without a seed they start unrated and earn a
    first rating under FIDE's rules.

    \b
    Example: tracker player add "Hart, Daniel" --rating 2318 --games 240
    """
    from tracker.services.players.roster import add_player

    seed = _seed(rating, games, ever_2400, ever_2300)
    result = state(ctx).write(
        lambda db: add_player(
            db,
            name=name,
            fide_id=fide_id,
            birth_year=born,
            federation=federation,
            sex=sex,
            title=title,
            external=external,
            seed=seed,
            lichess=lichess,
            chesscom=chesscom,
            force=force,
        )
    )
    if json:
        print_json(player_json(result))
    message(f"added {_describe(result)}")
    if result.namesakes:
        others = ", ".join(f"#{i}" for i in result.namesakes)
        message(f"note: {others} has the same name; refer to these players by #ID")
    _after_change(result)


def _after_change(result: PlayerView) -> None:
    """What the intake's rules set aside, and the closed periods the change made stale."""
    for warning in result.warnings:
        message(f"  warning: {warning}")
    for tc, months in result.stale:
        now_stale(tc, months)


@app.command("list")
def list_(
    ctx: typer.Context,
    external: Annotated[
        bool | None,
        typer.Option("--external/--tracked", help="Only external / only tracked players."),
    ] = None,
    json: Json = False,
) -> None:
    """List players by name.

    \b
    Example: tracker player list --tracked
    """
    from tracker.services.players.roster import list_players

    players = state(ctx).read(lambda db: list_players(db, external=external))
    print_json_or(json, players, lambda ps: [player_json(p) for p in ps], print_players)


def print_players(players: tuple[PlayerView, ...]) -> None:
    print_table(
        ["id", "name", "title", "fed", "FIDE id", "born", "kind", "seed", "games"],
        (
            (
                f"#{p.id}",
                p.name,
                p.title,
                p.federation,
                p.fide_id,
                p.birth_year,
                "external" if p.external else "tracked",
                ", ".join(f"{s.rating}/{s.games}" for s in p.seeds),
                p.games,
            )
            for p in players
        ),
        right=("games", "born", "FIDE id"),
        drop=("FIDE id", "title"),
        wrap=("name",),
        empty="no players yet: add one with `tracker player add NAME`",
    )


#: A rating's and its live line's own keys in ``player show --json``.
STATUS_KEYS = "tc list=list_date rating k rated_games ever_2400 ever_2300 pending_games=pool_games"
LIVE_KEYS = "list=list_date months games change_exact change rating"


def status_json(r: RatingStatus) -> dict[str, Any]:
    live = r.live
    months = [month_label(m) for m in live.months]
    return (
        pick(r, f"{STATUS_KEYS} stale")
        | standing_json(r.standing)
        | {
            "peak": pick(r.peak, "rating list=list_date") if r.peak else None,
            "games_per_month": [{"month": month_label(m), "games": n} for m, n in r.games_by_month],
            "live": pick(live, LIVE_KEYS, months=months) | standing_json(live.standing),
        }
    )


#: The months of games the card lists (the latest); the earlier ones are counted.
GAME_MONTHS = 6


def games_by_month(r: RatingStatus) -> str:
    months = r.games_by_month
    shown = ", ".join(f"{month_label(m)}: {n}" for m, n in months[-GAME_MONTHS:])
    earlier = len(months) - GAME_MONTHS
    more = f" (and {earlier} earlier months)" if earlier > 0 else ""
    total = sum(n for _, n in months)
    return f"{total} in {len(months)} month(s){more}; {shown}"


@app.command("show")
def show(ctx: typer.Context, player: Player, json: Json = False) -> None:
    """Show one player's details and ratings.

    For each list: their published rating, K for the next period, and the live change of their
    games not yet published.

    \b
    Example: tracker player show "Hart, Daniel" --json
    """
    from tracker.services.periods.card import player_card

    day = today()
    card = state(ctx).rehearse(lambda db: player_card(db, player, day))
    p = card.player
    if json:
        ratings = [status_json(r) | card.beside.fields(r.readings) for r in card.ratings]
        print_json(player_json(p) | {"ratings": ratings})
    else:
        print_player_card(card)
    if any(r.stale for r in card.ratings):
        message("warning: some closed periods are stale; run `tracker rerate` to recompute them")


def print_player_card(card: PlayerCard) -> None:
    p = card.player
    rows: list[tuple[str, Any]] = [
        ("id", f"#{p.id}"),
        ("name", p.name),
        ("kind", "external (rated from each game)" if p.external else "tracked"),
        ("FIDE id", p.fide_id),
        ("federation", p.federation),
        ("born", p.birth_year),
        ("sex", p.sex),
        ("title", p.title),
        *accounts(p),
        ("games", p.games),
    ]
    for s in p.seeds:
        rows.append((f"seed ({s.tc})", f"{s.rating} after {s.games} games; {_reached(s)}"))
    for e in p.earlier_lists:
        rows.append((f"{e.tc} list {month_label(e.list_date)}", f"{e.rating} (an earlier list)"))
    for r in card.ratings:
        listed = f"on the {r.list_date} list" if r.list_date else "before any closed period"
        pending = f", {r.pool_games} result(s) pending for a first rating" if r.pool_games else ""
        rows.append((f"{r.tc} rating", f"{render.rating(r.rating)} {listed}{pending}"))
        rows.extend(_readings(card.beside, r))
        if r.rating is not None:
            rows.append((f"{r.tc} K", f"{r.k} for the next period"))
        if r.standing is not None:
            rows.append((f"{r.tc} place", place(r.standing)))
        if r.peak is not None:
            rows.append((f"{r.tc} peak", f"{r.peak.rating} on the {r.peak.list_date} list"))
        rows.append((f"{r.tc} record", f"{r.rated_games} rated games; {_reached(r)}"))
        if r.games_by_month:
            rows.append((f"{r.tc} games", games_by_month(r)))
        live = r.live
        if live.months:
            span = ", ".join(month_label(m) for m in live.months)
            text = (
                f"{live.change_exact:+.2f} -> {live.change:+d} over {live.games} games "
                f"({span}, not yet published)"
            )
            if live.rating != r.rating:
                text += f"; live rating {render.rating(live.rating)}"
            if live.standing is not None:
                text += f"; {place(live.standing)} on the {live.list_date} live list"
            rows.append((f"{r.tc} live", text))
    print_table(["field", "value"], rows, wrap=("value",))


def _reached(record: Seed | RatingStatus) -> str:
    """ "ever 2400: yes, ever 2300: no": what a seed, or a rating's record, says of them."""
    return f"ever 2400: {yes_no(record.ever_2400)}, ever 2300: {yes_no(record.ever_2300)}"


def _readings(beside: Beside, r: RatingStatus) -> list[tuple[str, str]]:
    """A row per system beside the official list with a reading on the list: its first
    column's heading and cell (the shadow: its preset, its rating), the others after it."""
    rows = []
    for system, columns, reading in zip(beside.systems, beside.columns, r.readings, strict=True):
        first, *more = system.cells(reading)
        if first:
            rest = "".join(f", {h} {c}" for h, c in zip(columns[1:], more, strict=True) if c)
            rows.append((f"{r.tc} {columns[0]}", first + rest))
    return rows


@app.command("edit")
def edit(
    ctx: typer.Context,
    player: Player,
    name: Annotated[str | None, option("--name", "NAME", "New name.")] = None,
    fide_id: FideId = None,
    born: Born = None,
    federation: Federation = None,
    sex: Sex = None,
    title: Title = None,
    lichess: Lichess = None,
    chesscom: Chesscom = None,
    external: Annotated[
        bool | None,
        typer.Option("--external/--tracked", help="Make the player external or tracked."),
    ] = None,
    clear: Annotated[
        list[str] | None,
        option(
            "--clear",
            "FIELD",
            "Empty a field: fide-id, born, federation, sex, title, lichess or chesscom "
            "(repeatable).",
        ),
    ] = None,
    force: Force = False,
    json: Json = False,
) -> None:
    """Change a player's details; only the options given change.

    --lichess and --chesscom link their online accounts (a changed account drops the online
    ratings stored for the old one). A FIDE rating is given with `tracker player seed`.

    \b
    Example: tracker player edit id:4 --fide-id 400177 --lichess yuki_sato
    """
    from tracker.services.players.roster import edit_player

    fields = {"fide-id": "fide_id", "born": "birth_year", "federation": "federation"}
    fields |= {column: column for column in ("sex", "title", *PLATFORMS)}
    cleared = []
    for item in clear or []:
        if item not in fields:
            raise UsageError(f"--clear {item}: use one of {', '.join(fields)}")
        cleared.append(fields[item])
    changes = {
        "name": name,
        "fide_id": fide_id,
        "birth_year": born,
        "federation": federation,
        "sex": sex,
        "title": title,
        "external": external,
        LICHESS.key: lichess,
        CHESSCOM.key: chesscom,
    }
    result = state(ctx).write(
        lambda db: edit_player(db, player, changes=changes, clear=tuple(cleared), force=force)
    )
    if json:
        print_json(player_json(result))
    did = "updated" if result.changed else "unchanged (nothing differs):"
    message(f"{did} {_describe(result)}")
    _after_change(result)


@app.command("seed")
def seed(
    ctx: typer.Context,
    player: Player,
    rating: Annotated[
        int | None,
        whole_option(
            "--rating",
            "RATING",
            "The published FIDE rating: on the list before tracking starts, or with --list on "
            "that earlier list.",
        ),
    ] = None,
    games: Games = None,
    ever_2400: Ever2400 = False,
    ever_2300: Ever2300 = False,
    list_date: Annotated[
        dt.date | None,
        month_option(
            "--list",
            "An earlier FIDE list: the rating on it rates the events that started while it "
            "was in force (a July open ending in August is rated with the July list)",
            "the seed",
        ),
    ] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="Remove the rating given for the --list month.")
    ] = False,
    tc: Tc = "standard",
    json: Json = False,
) -> None:
    """Give a FIDE rating: the seed or an earlier list.

    The seed (--rating and --games, with --ever-2400 / --ever-2300 if the published rating
    ever reached them) is the state on the list in force when tracking starts. --list MONTH
    --rating R gives the rating on an earlier list: FIDE rates an event with the list in force
    when it started, so an event that began before the seed's list needs it. A change marks
    the closed periods stale (`tracker rerate`).

    \b
    Example: tracker player seed "Hart, Daniel" --rating 2391 --games 240
    Example: tracker player seed "Hart, Daniel" --list 2026-07 --rating 2383
    """
    from tracker.services.players.roster import seed_player

    result = state(ctx).write(
        lambda db: seed_player(
            db,
            player,
            tc=tc,
            rating=rating,
            games=games,
            ever_2400=ever_2400,
            ever_2300=ever_2300,
            list_date=list_date,
            clear=clear,
        )
    )
    if json:
        print_json(player_json(result))
    if list_date is None:
        seed = next(s for s in result.seeds if s.tc == tc)
        what = f"seeded {seed.rating} after {seed.games} games ({tc})"
    elif clear:
        what = f"no rating on the {month_label(list_date)} {tc} list"
    else:
        what = f"{rating} on the {month_label(list_date)} {tc} list (an earlier list)"
    prefix = "" if result.changed else "unchanged (nothing differs): "
    message(f"{prefix}{result.ref} {result.name}: {what}")
    _after_change(result)


@app.command("remove")
def remove(ctx: typer.Context, player: Player, json: Json = False) -> None:
    """Remove a player who has no games.

    \b
    Example: tracker player remove id:6
    """
    from tracker.services.players.roster import remove_player

    result = state(ctx).write(lambda db: remove_player(db, player))
    if json:
        print_json(player_json(result))
    message(f"removed {_describe(result)}")


# ``tracker player import-fide-list`` lives in its own module.
app.command("import-fide-list")(fide_list.import_fide_list)
