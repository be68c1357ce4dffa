"""GobbleStones' board for the terminal: the coloured 15 x 15 board with its values, the tiles on
it, the viewer's rack, and the scores.

Drawn from a player's view only (``GobbleStonesState.view``): another player's rack or the colour
of their face-down tile is not in the view, so it cannot be drawn here. Once the game is over
the view turns every rack and face-down tile up (G-5), and so does the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.i18n import _, ngettext

FILES = "abcdefghijklmno"
SIZE = 15
COLOURS = "RYGBP"
NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}
SQUARE = {  # colour letter -> (value style on the square, tile glyph colour)
    "R": ("bold bright_white on red3", "red1"),
    "Y": ("bold black on yellow3", "yellow1"),
    "G": ("bold black on green3", "green1"),
    "B": ("bold bright_white on dodger_blue3", "dodger_blue1"),
    "P": ("bold bright_white on purple3", "magenta1"),
}
TILE_BG = "grey19"
DOWN_BG = "grey42"
PENDING_BG = "grey70"
CENTRES = {(r, c) for r in (2, 7, 12) for c in (2, 7, 12)}


def _cell(view: dict, row: int, col: int, pending: dict[str, str]) -> Text:
    """One square: its colour and value, a tile on it, or a face-down tile marked with the
    number of its player (counted from 1, as players count)."""
    cell = view["board"][row][2 * col:2 * col + 2]
    letter, value = cell[0], cell[1]
    name = f"{FILES[col]}{SIZE - row}"
    mark = view["tiles"][row][col]
    if name in pending:
        tile = pending[name]
        glyph = SQUARE[tile][1] if tile in SQUARE else "black"
        return Text(f"[{tile}]", style=f"bold {glyph} on {PENDING_BG}")
    if mark == ".":
        if letter not in SQUARE:
            return Text(" · ", style="grey50 on grey11")
        style = SQUARE[letter][0]
        centre = "*" if (row, col) in CENTRES else " "
        return Text(f"{letter}{value}{centre}", style=style)
    if mark == "?":
        owner = view["owners"].get(name)
        mark = "?" if owner is None else str(int(owner) + 1)
        return Text(f" {mark} ", style=f"bold bright_white on {DOWN_BG}")
    if mark.islower():  # the viewer's own face-down tile, or any once the game is over (G-5)
        return Text(f" {mark} ", style=f"bold {SQUARE[mark.upper()][1]} on {DOWN_BG}")
    return Text(" ● ", style=f"bold {SQUARE[mark][1]} on {TILE_BG}")


def _board(view: dict) -> Text:
    pending = {name: colour for name, colour in view["play"]}
    text = Text()
    for row in range(SIZE):
        text.append(f"{SIZE - row:>2} ", style="bold")
        for col in range(SIZE):
            text.append_text(_cell(view, row, col, pending))
        text.append("\n")
    text.append("   " + "".join(f"{f}  " for f in FILES), style="bold")
    return text


def _rack(view: dict) -> Text:
    text = Text(_("Your rack: "), style="bold")
    rack = view["rack"] or ""
    if not rack:
        text.append(_("empty"), style="dim")
    for letter in rack:
        text.append(f" {letter} ", style=SQUARE[letter][0])
        text.append(" ")
    return text


def _turned_up(view: dict, names: Sequence[str]) -> Text:
    """Every rack, once the game is over (G-5)."""
    text = Text(_("Racks turned up:"), style="bold")
    for seat, rack in enumerate(view["racks"]):
        text.append(f"  {names[seat]}: ")
        if not rack:
            text.append(_("empty"), style="dim")
        for letter in rack:
            text.append(f" {letter} ", style=SQUARE[letter][0])
    return text


def _status(view: dict, names: Sequence[str]) -> Text:
    phase = view["phase"]
    if phase == "board":
        return Text(_("Laying out the board..."), style="bold")
    if phase == "deal":
        return Text(_("Dealing tiles: {name} draws").format(name=names[view["drawer"]]),
                    style="bold")
    if phase == "draw":
        count = view["to_draw"]
        return Text(ngettext("{name} draws {n} tile", "{name} draws {n} tiles", count).format(
            name=names[view["drawer"]], n=count), style="bold")
    if phase == "end":
        won = _(" and ").join(names[p] for p, r in enumerate(view["returns"]) if r > 0)
        return Text(_("Game over: {names} won.").format(names=won), style="bold green")
    if phase == "challenge":
        return Text(
            _("{decider}: challenge or trust {mover}'s play?").format(
                decider=names[view["decider"]], mover=names[view["turn"]]),
            style="bold yellow",
        )
    return Text(_("{name} to play").format(name=names[view["turn"]]), style="bold")


def _scores(view: dict, names: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column(_("player"))
    table.add_column(_("points"), justify="right")
    table.add_column(_("tiles in rack"), justify="right")
    for seat, (score, size) in enumerate(zip(view["scores"], view["rack_sizes"], strict=True)):
        label = names[seat] + (_(" (you)") if seat == view["player"] else "")
        if seat == view["to_act"]:
            label = "▶ " + label
        table.add_row(label, str(score), str(size))
    return table


def _last_challenge(view: dict, names: Sequence[str]) -> Text | None:
    last = view["last_challenge"]
    if last is None:
        return None
    template = (_("Last challenge: {challenger} challenged {mover}, the play was right: ")
                if last["correct"] else
                _("Last challenge: {challenger} challenged {mover}, the play was wrong: "))
    text = Text(template.format(challenger=names[last["challenger"]],
                                mover=names[last["player"]]), style="dim")
    for name, colour in last["tiles"]:
        text.append(f"{name}=")
        text.append(colour, style=SQUARE[colour][0])
        text.append(" ")
    return text


def _legend(view: dict) -> Text:
    """What the board's marks mean, in players' words."""
    parts: list[tuple[str, str] | str] = [
        ("Y4", SQUARE["Y"][0]), (_(" a yellow square worth 4   "), "dim"),
        ("*", "bold"), (_(" a centre square (the first play covers one)   "), "dim"),
        (" ● ", f"bold white on {TILE_BG}"), (_(" a tile   "), "dim"),
    ]
    if view["bluff"]:
        parts += [(" 2 ", f"bold white on {DOWN_BG}"),
                  (_(" a face-down tile of player 2   "), "dim")]
    parts += [("[Y]", f"bold on {PENDING_BG}"), (_(" your play so far"), "dim")]
    return Text.assemble(*parts)


def render(view: dict, names: Sequence[str] | None = None) -> RenderableType:
    """The board, the scores, the viewer's rack and whose turn it is; ``names`` are the seats'
    names as the players call them (by default "Player 1", "Player 2"...)."""
    names = list(names or [_("Player {n}").format(n=i + 1) for i in range(len(view["scores"]))])
    bag = view["bag"]
    title = Text.assemble(("GobbleStones", "bold"),
                          _(" (bluffing)") if view["bluff"] else "",
                          _(" · turn {n} · ").format(n=view["turns"] + 1),
                          ngettext("{n} tile left in the bag", "{n} tiles left in the bag",
                                   bag).format(n=bag))
    parts: list[RenderableType] = [title, _board(view), _legend(view), _scores(view, names)]
    if view.get("racks") is not None:
        parts.append(_turned_up(view, names))
    elif view["player"] is not None:
        parts.append(_rack(view))
    if (last := _last_challenge(view, names)) is not None:
        parts.append(last)
    parts.append(_status(view, names))
    return Group(*parts)
