"""``tracker demo``: a sample season in a fresh database, and what the tracker makes of it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tracker.cli.context import AppState
from tracker.cli.render import message, print_table


def demo(
    file: Annotated[
        Path,
        typer.Option(
            "--file",
            help="The demo database to (re)create. It is rebuilt from scratch on every run.",
        ),
    ] = Path("tracker-demo.db"),
) -> None:
    """Load a small sample season into a fresh database and show what the tracker holds."""
    from tracker.cli import game as game_cli
    from tracker.cli import player as player_cli
    from tracker.services.demo import load_demo
    from tracker.services.games import list_games
    from tracker.services.players import list_players

    path = file.expanduser().absolute()
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    app_state = AppState(db_option=str(path))
    summary = app_state.run(load_demo, write=True)
    message(f"{summary.description}")
    message(
        f"loaded {summary.players} players ({summary.tracked} tracked) and {summary.games} "
        f"games into {path}"
    )
    typer.echo("\nGames per month")
    print_table(["month", "games"], summary.games_by_month, right=("games",))
    typer.echo("\nPlayers")
    players = app_state.run(list_players, write=False)
    player_cli.print_players(players)
    typer.echo("\nLast games")
    games = app_state.run(list_games, write=False)
    game_cli.print_games(games[-8:])
    message(f"\nexplore it yourself: tracker --db {path} game list --player 'Sato, Yuki'")
