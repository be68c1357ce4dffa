"""``parlour replay FILE``: a saved game, move by move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from parlour.cli.boards import render_board
from parlour.cli.common import console, err_console
from parlour.core import GameRecord, ParlourError


def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)", exists=True, dir_okay=False)],
    boards: Annotated[bool, typer.Option(help="draw the board after every move")] = True,
) -> None:
    """Replay a game record move by move, as a spectator sees it."""
    try:
        record = GameRecord.load(file)
        steps = list(record.replay())
    except ParlourError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    game = record.load_game()
    console.print(f"[bold]{game.get_type().long_name}[/] — {game}")
    if record.metadata:
        console.print(", ".join(f"{k}: {v}" for k, v in record.metadata.items()), style="dim")
    number, shown = 0, -1
    for state, action in steps:
        if action is None:
            break
        if state.is_chance_node():
            continue
        number += 1
        who = state.current_player()
        console.print(f"[bold]{number}.[/] player {who}: {state.public_action_string(action)}")
        if boards:
            console.print(render_board(state.child(action), None))
            shown = state.move_number() + 1
    final = steps[-1][0]
    if boards and final.is_terminal() and shown != final.move_number():
        # chance ended the game (a last draw): show the final board, where everything hidden
        # is turned up (G-5)
        console.print(render_board(final, None))
    if final.is_terminal():
        winners = [i for i, r in enumerate(final.returns()) if r > 0]
        console.print(f"[green]winner(s): {', '.join(f'player {w}' for w in winners)}[/]")
    else:
        console.print("[yellow]the record stops before the end of the game[/]")


def register(app: typer.Typer) -> None:
    app.command()(replay)
