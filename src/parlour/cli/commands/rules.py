"""``parlour rules GAME``: the rules for players in the reader's language, each picture of
the text drawn as a board in the terminal; ``--reference`` prints the reference rules with
ruling ids (the documentation site's ``docs/rules/``, in English)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from typing import Annotated

import typer
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.text import Text

from parlour.cli.boards import render_board
from parlour.cli.common import console, err_console, error_text
from parlour.core import UnknownGameError, game_class
from parlour.games.rulebook import FENCE, figure, rules_markdown
from parlour.i18n import N_
from parlour.i18n.text import FENCE as MARKS
from parlour.i18n.text import translate_markdown


def rules_text(name: str) -> str:
    """The reference rules (Markdown, with ruling ids) shipped with the package for ``name``."""
    short = game_class(name).game_type.short_name
    return resources.files("parlour.rules").joinpath(f"{short}.md").read_text(encoding="utf-8")


def _parts(game: str, text: str) -> Iterator[RenderableType]:
    """The rules' Markdown between its pictures, and each ``board`` block drawn: the position
    after its moves, as its viewer sees it, with its caption."""
    lines: list[str] = []
    block: list[str] | None = None
    for line in text.split("\n"):
        if block is None and line.strip() == MARKS + FENCE:
            if lines:
                yield Markdown("\n".join(lines))
            lines, block = [], []
        elif block is not None and line.strip() == MARKS:
            drawn = figure(game, "\n".join(block))
            yield Padding(Group(render_board(drawn.state, drawn.viewer),
                                Text(drawn.caption, style="italic")), (1, 0, 1, 2))
            block = None
        elif block is not None:
            block.append(line)
        else:
            lines.append(line)
    if lines:
        yield Markdown("\n".join(lines))


def rules(
    game: Annotated[str, typer.Argument(help=N_("the game"))],
    reference: Annotated[bool, typer.Option(
        "--reference", help=N_("the reference rules with ruling ids, in English (as the "
                               "documentation site has them)"))] = False,
) -> None:
    """Print the rules of a game (for players; ``--reference``: the reference rules)."""
    try:
        name = game_class(game).game_type.short_name
    except UnknownGameError as exc:
        err_console.print(error_text(exc))
        raise typer.Exit(2) from None
    text = None if reference else rules_markdown(name)
    if text is None:
        console.print(Markdown(rules_text(name)))
        return
    console.print(Group(*_parts(name, translate_markdown(text))))


def register(app: typer.Typer) -> None:
    app.command(help=N_("Print the rules of a game, in your language, with pictures of the "
                        "board. --reference prints the reference rules with ruling ids."))(rules)
