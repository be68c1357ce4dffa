"""``parlour games``: every game, its players and its parameters with their defaults."""

from __future__ import annotations

import typer
from rich.table import Table

from parlour.cli.common import console
from parlour.core import game_class, list_games


def games() -> None:
    """List the games and the parameters each one takes."""
    for name in list_games():
        cls = game_class(name)
        kind = cls.game_type
        players = (
            f"{kind.min_num_players}"
            if kind.min_num_players == kind.max_num_players
            else f"{kind.min_num_players}-{kind.max_num_players}"
        )
        table = Table(title=f"{kind.long_name} ({name}): {players} players, "
                      f"{kind.information.value} information", title_justify="left")
        table.add_column("parameter", style="cyan")
        table.add_column("default")
        table.add_column("meaning")
        for key, spec in cls.parameters.items():
            table.add_row(key, repr(spec.default), spec.doc)
        console.print(table)


def register(app: typer.Typer) -> None:
    app.command()(games)
