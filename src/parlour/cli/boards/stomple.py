"""Stomple's board for the terminal: coloured marbles, stompers, coordinates and the scores.

Drawn from a player's view only (``StompleState.view``), like every board in this package.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.games.stomple.board import KIND_NAMES, MARBLE_COLOURS
from parlour.i18n import N_, _, gettext

BOARD_BG = "grey23"
MARBLE = {  # letter -> (glyph, style)
    "w": ("●", f"bold bright_white on {BOARD_BG}"),
    "y": ("●", f"bold yellow1 on {BOARD_BG}"),
    "r": ("●", f"bold red1 on {BOARD_BG}"),
    "b": ("●", f"bold dodger_blue1 on {BOARD_BG}"),
    "g": ("●", f"bold green1 on {BOARD_BG}"),
    "k": ("●", f"bold grey3 on {BOARD_BG}"),
    "c": ("◉", f"bold bright_magenta on {BOARD_BG}"),
}
STOMPER = {  # stomper colour -> style of the seat number drawn in its hole
    "white": "bold black on bright_white",
    "yellow": "bold black on yellow1",
    "red": "bold bright_white on red3",
    "blue": "bold bright_white on dodger_blue2",
    "green": "bold black on green1",
    "black": "bold bright_white on grey3",
}
SWATCH = {name: MARBLE[letter][1].split(" on ")[0] for name, letter in (
    ("white", "w"), ("yellow", "y"), ("red", "r"), ("blue", "b"), ("green", "g"), ("black", "k"),
    ("cat's eye", "c"),
)}
STATUS = {"first": N_("first turn to come"), "on": N_("on the board"), "out": N_("out")}
FILES = "abcdefg"


def _cell(ch: str, view: dict, name: str) -> Text:
    legal = name in view["legal"]
    left, right = ("(", ")") if legal else (" ", " ")
    edge = f"bold bright_white on {BOARD_BG}"
    if ch in MARBLE:
        glyph, style = MARBLE[ch]
        return Text.assemble((left, edge), (glyph, style), (right, edge))
    if ch.isdigit():  # a stomper, marked with its player's number counted from 1
        colour = view["colours"][int(ch)]
        return Text(f" {int(ch) + 1} ", style=STOMPER.get(colour or "", "bold reverse"))
    glyph = "?" if ch == "?" else "·"
    return Text(f" {glyph} ", style=f"grey50 on {BOARD_BG}")


def _board(view: dict) -> Text:
    text = Text()
    for row, rank in enumerate(view["board"]):
        number = 7 - row
        text.append(f"{number} ", style="bold")
        for col, ch in enumerate(rank):
            text.append_text(_cell(ch, view, f"{FILES[col]}{number}"))
        text.append("\n")
    text.append("  " + "".join(f" {f} " for f in FILES), style="bold")
    return text


def _heading(view: dict, names: Sequence[str]) -> Text:
    goal = (_("a single round") if view["single_round"]
            else _("first to {n} points").format(n=view["target"]))
    text = Text.assemble(("Stomple", "bold"),
                         _(" · round {n} · {goal}").format(n=view["round"], goal=goal) + "\n")
    phase = view["phase"]
    if phase == "deal":
        text.append(_("Dealing the marbles..."))
    elif phase == "draw":
        text.append(_("Drawing stompers..."))
    elif phase == "over":
        won = _(" and ").join(names[p] for p in view["winners"])
        text.append(_("Game over: {names} won.").format(names=won), style="bold green")
    else:
        text.append(_("{name} to stomp").format(name=names[view["to_move"]]), style="bold")
        if view["string"] is not None:
            text.append(_(" — keep stomping the string of colour "))
            text.append(_marble_colour(view["string"]), style=SWATCH[view["string"]])
        text.append(_("   (the round is worth {n} points now)").format(n=view["round_points"]),
                    style="dim")
    return text


def _marble_colour(colour: str) -> str:
    """A marble's colour as the reader says it of marbles (it agrees with its noun in French:
    "billes de couleur verte"; the bare word, a stomper's colour, is "vert")."""
    return MARBLE_COLOURS[KIND_NAMES.index(colour)].translated()


def _players(view: dict, names: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    for column, words in (("", ""), ("player", _("player")), ("stomper", _("stomper")),
                          ("status", _("status")), ("points", _("points"))):
        table.add_column(words, justify="right" if column == "points" else "left")
    for p in range(view["players"]):
        colour = view["colours"][p]
        marker = "▶" if view["to_move"] == p else ""
        who = f"{p + 1} {names[p]}" + (_(" (you)") if view["player"] == p else "")
        stomper = Text(gettext(colour), style=SWATCH[colour]) if colour else Text("—", style="dim")
        out = view["status"][p] == "out"
        status = gettext(STATUS[view["status"][p]])
        table.add_row(
            marker, who, stomper, Text(status, style="dim" if out else ""),
            str(view["scores"][p]),
        )
    return table


def render(view: dict, names: Sequence[str] | None = None) -> RenderableType:
    """The board, whose turn it is and the score table, for one player's view; ``names`` are
    the seats' names as the players call them (by default "Player 1", "Player 2"...). A
    stomper on the board shows its player's number."""
    names = list(names or [_("Player {n}").format(n=i + 1) for i in range(view["players"])])
    parts: list[RenderableType] = [_heading(view, names), _board(view), _players(view, names)]
    me, colour = view["player"], view["your_colour"]
    if me is not None and colour and view["status"][me] == "on":
        parts.append(Text.assemble(_("You hop to the marbles of colour "),
                                   (_marble_colour(colour), SWATCH[colour]), "."))
    elif me is not None and view["status"][me] == "first":
        parts.append(Text(_("Your first turn this round: stomp any marble of the outer row.")))
    if view["legal"]:
        parts.append(Text(_("Legal holes are shown in ( )."), style="dim"))
    return Group(*parts)
