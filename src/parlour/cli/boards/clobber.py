"""Clobber's board for the terminal: a grid with coordinates and coloured stones."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from parlour.i18n import _

FILES = "abcdefghijklmnopqrstuvwxyz"
STONE = {"o": ("○", "bold white"), "x": ("●", "bold red"), ".": ("·", "dim")}


def render(view: dict, names: Sequence[str] | None = None) -> RenderableType:
    board, side = view["position"].split()
    to_move = _("White (o)") if side == "o" else _("Black (x)")
    status = _("game over") if view.get("terminal") else _("{player} to move").format(
        player=to_move)
    if "rows" not in view:  # the graph variant (C7)
        marks = dict(zip(view["nodes"], board, strict=True))
        text = Text()
        for node in view["nodes"]:
            glyph, style = STONE[marks[node]]
            text.append(f"{node}:", style="cyan").append(glyph + "  ", style=style)
        edges = Text(_("edges: ") + " ".join(f"{a}-{b}" for a, b in view["edges"]), style="dim")
        return Group(text, edges, Text(status, style="bold"))
    ranks = board.split("/")
    width = len(str(len(ranks)))
    lines = []
    for r, rank in enumerate(ranks):
        line = Text(f"{len(ranks) - r:>{width}} ", style="cyan")
        for c, mark in enumerate(rank):
            glyph, style = STONE[mark]
            shade = "on grey23" if (len(ranks) - 1 - r + c) % 2 == 0 else "on grey11"
            line.append(f" {glyph} ", style=f"{style} {shade}")
        lines.append(line)
    files = Text(
        " " * (width + 1) + "".join(f" {f} " for f in FILES[: len(ranks[0])]), style="cyan"
    )
    return Group(*lines, files, Text(status, style="bold"))
