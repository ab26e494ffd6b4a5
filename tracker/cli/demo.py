"""``tracker demo``: a sample season in a fresh database, and what the tracker makes of it."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from tracker.cli import compare as compare_cli
from tracker.cli import history as history_cli
from tracker.cli import online as online_cli
from tracker.cli import period as period_cli
from tracker.cli import player as player_cli
from tracker.cli.context import AppState
from tracker.cli.options import option
from tracker.cli.plot import draw_comparison, draw_players, write_plot
from tracker.cli.render import message
from tracker.errors import ConflictError, InvalidInputError
from tracker.months import month_label, next_month
from tracker.user_input import exists, is_dir
from tracker.vocabulary import LICHESS, plural


def _heading(text: str) -> None:
    typer.echo(f"\n== {text} ==")


def demo(
    file: Annotated[
        Path,
        option(
            "--file",
            "FILE",
            "The demo database to (re)create. It is rebuilt from scratch on every run; "
            "a file that is not a demo database is never overwritten.",
        ),
    ] = Path("tracker-demo.db"),
) -> None:
    """Load a sample season and show what tracker makes of it.

    A small fictional club season in a fresh database: players and games loaded, months
    closed, then the rating periods, the latest list, two histories and Elo beside the
    Glicko shadow, printed and drawn to a PNG beside the database.

    \b
    Example: tracker demo --file /tmp/tracker-demo.db
    """
    from tracker.services.compare import compare
    from tracker.services.compare.everyone import compare_all
    from tracker.services.demo import is_demo_database, load_demo
    from tracker.services.online.fit import online_fit
    from tracker.services.periods.closing import close, list_periods
    from tracker.services.periods.history import history
    from tracker.services.players.roster import list_players

    path = file.expanduser().absolute()
    if is_dir(path):
        raise InvalidInputError(f"{path} is a folder: give --file a database file name")
    if exists(path) and not is_demo_database(path):
        raise ConflictError(
            f"{path} exists and is not a demo database: tracker demo rebuilds its file from "
            "scratch, so give --file a new name (or remove that file yourself)"
        )
    from tracker.cli.site import check_site_folder

    picture, chart = path.with_suffix(".png"), path.with_name(f"{path.stem}-club.png")
    folder = path.with_name(f"{path.stem}-site")
    if not exists(path):  # a first demo here: the files it writes beside it must be new
        for taken in (picture, chart):
            if exists(taken):
                raise ConflictError(
                    f"{taken} exists: tracker demo draws its picture there; give --file a new "
                    "name (or remove that file yourself)"
                )
    try:
        check_site_folder(folder, force=False)
    except InvalidInputError as exc:
        raise ConflictError(
            f"tracker demo writes its site to {folder}, which it cannot use ({exc}); give "
            "--file a new name"
        ) from None
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    app_state = AppState(db_option=str(path))
    summary = app_state.write(load_demo)
    message(summary.description)
    message(
        f"loaded {summary.players} players ({summary.tracked} tracked) and {summary.games} "
        f"games into {path}"
    )
    if summary.linked:
        message(
            f"linked {len(summary.linked)} players to (fictional) Lichess accounts and imported "
            "their recorded rating histories"
        )
    _heading("Players")
    player_cli.print_players(app_state.read(list_players))

    last = summary.months[-1]
    after = next_month(last)
    for tc in ("standard", "rapid"):
        report = app_state.write(partial(close, tc=tc, month=last, today=after))
        for p in report.closed:
            new = (
                f"; first rating for {period_cli.name_list(p.new_players)}" if p.new_players else ""
            )
            message(f"closed {month_label(p.month)} ({tc}): {plural(p.games, 'game')}{new}")
    _heading("Rating periods")
    period_cli.print_periods(app_state.read(partial(list_periods, tc=None)))
    typer.echo("")
    app_state.read(partial(history_cli.show_rating_list, tc="standard", list_month=None))
    for name, why in (
        ("Sato, Yuki", "a newcomer earns a first rating"),
        ("Patel, Arjun", "a junior with K 40"),
    ):
        h = app_state.read(partial(history, ref=name, tc="standard"))
        _heading(f"History of {name}: {why}")
        history_cli.print_history(h)
    master = "Hart, Daniel"
    c = app_state.read(partial(compare, ref=master, tc="standard", preset_name=None))
    _heading("FIDE Elo, the Glicko shadow (Lichess's rules) and the real Lichess rating")
    compare_cli.print_comparison(c)
    write_plot(draw_comparison(c), picture)
    message(f"plot of {master}'s ratings written to {picture}")
    fit = app_state.read(partial(online_fit, tc="standard", platform=LICHESS.key))
    _heading("FIDE beside Lichess classical across the club")
    online_cli.print_online_fit(fit)
    club = app_state.read(
        lambda db: [
            compare(db, f"#{r.player_id}", "standard", None)
            for r in compare_all(db, "standard").rows
            if r.elo is not None
        ]
    )
    write_plot(draw_players(club), chart)
    message(f"plot of the club's ratings written to {chart}")
    from tracker.cli.site import build_site

    build_site(app_state, folder, None, after)
    message(f"the club's site written to {folder}: open {folder / 'index.html'} in a browser")
    message(
        f"\nexplore it yourself: tracker --db {path} compare --all, or tracker --db {path} evaluate"
    )
