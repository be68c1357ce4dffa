"""``parlour rules GAME``: the rules in the project's own words, with ruling ids."""

from __future__ import annotations

from importlib import resources
from typing import Annotated

import typer
from rich.markdown import Markdown
from rich.markup import escape

from parlour.cli.common import console, err_console
from parlour.core import UnknownGameError, game_class


def rules_text(name: str) -> str:
    """The Markdown rules page shipped with the package for ``name``."""
    short = game_class(name).game_type.short_name
    return resources.files("parlour.rules").joinpath(f"{short}.md").read_text(encoding="utf-8")


def rules(game: Annotated[str, typer.Argument(help="the game")]) -> None:
    """Print the rules of a game."""
    try:
        text = rules_text(game)
    except UnknownGameError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    console.print(Markdown(text))


def register(app: typer.Typer) -> None:
    app.command()(rules)
