"""``parlour replay FILE``: a saved game, move by move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from parlour.cli.boards import render_board
from parlour.cli.common import console, err_console
from parlour.core import GameRecord, ParlourError, presentation
from parlour.core.presentation import Entry, group_turns


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
    names = list(record.players) or [f"Player {i + 1}" for i in range(game.num_players())]
    words = presentation(game)
    entries = [Entry(state.current_player(), state.public_action_string(action),
                     tuple(state.scores()))
               for state, action in steps if action is not None]
    final = steps[-1][0]
    turns = group_turns(words, entries, tuple(final.scores()) if final.is_terminal() else None)
    starts = [index for index, _turn in turns] + [len(entries)]
    shown = -1
    for number, (_index, turn) in enumerate(turns, 1):
        console.print(f"[bold]{number}.[/] {escape(names[turn.player])}: "
                      f"{escape(words.turn_text(turn))}")
        if boards:
            # the board once the turn is over: before the next turn's first action
            after = steps[starts[number]][0]
            console.print(render_board(after, None, names))
            shown = after.move_number()
    if boards and final.is_terminal() and shown != final.move_number():
        # chance ended the game (a last draw): show the final board, where everything hidden
        # is turned up (G-5)
        console.print(render_board(final, None, names))
    if final.is_terminal():
        winners = [names[i] for i, r in enumerate(final.returns()) if r > 0]
        console.print(f"[green]winner(s): {escape(', '.join(winners))}[/]")
    else:
        console.print("[yellow]the record stops before the end of the game[/]")


def register(app: typer.Typer) -> None:
    app.command()(replay)
