"""The Stomp the Plank table in the terminal: the pontoon, the planks, the piles and supply.

Built from a player's view only (``state.view(player)``); in this game every view shows the
whole table, since nothing is hidden (P1: the pile is counts, never an order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

TREASURE_STYLE = {
    "coins": "bold yellow",
    "ruby": "bold red",
    "map": "bold tan",
    "compass": "bold cyan",
    "sword": "bold white",
    "hook": "bold magenta",
    "spyglass": "bold green",
}
BAR = 20
"""Width of a drawn plank, in characters."""


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The whole table as a Rich renderable; ``names`` are the seats' names as the players
    call them (by default "Player 1", "Player 2"...)."""
    names = list(names or [f"Player {i + 1}" for i in range(len(view["planks"]))])
    return Group(_title(view, names), _pontoon(view), _planks(view, names), _piles(view))


def _title(view: dict[str, Any], names: Sequence[str]) -> Text:
    text = Text(f"Stomp the Plank · turn {view['turn']} · ", style="bold")
    if view["terminal"]:
        text.append(_ending(view, names), style="bold red")
    else:
        who = f"{names[view['active']]}:"
        doing = {
            "start": "must draw",
            "choose": "draw or stop",
            "card": "reveals a card",
        }[view["phase"]]
        text.append(f"{who} {doing}", style="bold cyan")
    return text


def _ending(view: dict[str, Any], names: Sequence[str]) -> str:
    end = view["end"]
    if end == "turn-limit":
        return "turn limit reached: no one lost"
    if end == "last-spot":
        return f"{names[view['active']]} filled the pontoon and wins!"
    lost = " and ".join(names[p] for p in view["losers"])
    how = "tipped under the crates" if end == "tip-stop" else "stepped into the water"
    return f"{lost} {how}: overboard!"


def _pontoon(view: dict[str, Any]) -> Panel:
    table = Table(box=box.ROUNDED, show_header=True, header_style="bold")
    crates, pontoon = view["crates"], view["pontoon"]
    cards = []
    for i in range(view["spots"]):
        prize = "WIN" if i >= len(crates) else f"{crates[i]} crate{'' if crates[i] == 1 else 's'}"
        table.add_column(f"spot {i + 1}\n{prize}", justify="center", min_width=9)
        if i < len(pontoon):
            cards.append(Text(pontoon[i], style=TREASURE_STYLE.get(pontoon[i], "")))
        else:
            cards.append(Text("·", style="dim"))
    table.add_row(*cards)
    return Panel(table, title="pontoon", expand=False)


def _planks(view: dict[str, Any], names: Sequence[str]) -> Panel:
    table = Table(box=box.SIMPLE, show_header=True, header_style="bold")
    for column in ("", "player", "crates", "step", "balance", "plank: █ load ░ room"):
        table.add_column(column)
    tip_at, weight = view["tip_at"], view["step_weight"]
    losers = set(view["losers"])
    for plank in view["planks"]:
        seat = plank["player"]
        mark = "▶" if seat == view["active"] and not view["terminal"] else ""
        load = plank["crates"] + weight * plank["step"]
        filled = min(BAR, round(BAR * load / tip_at)) if tip_at else BAR
        bar = Text("█" * filled, style="red" if seat in losers else "yellow")
        bar.append("░" * (BAR - filled), style="green")
        name = names[seat] + (" (you)" if seat == view["player"] else "")
        table.add_row(
            mark, name, str(plank["crates"]), str(plank["step"]),
            Text(str(plank["balance"]), style="bold red" if plank["balance"] <= weight else ""),
            bar,
        )
    return Panel(table, title=f"planks (tip at {tip_at}, a step weighs {weight})", expand=False)


def _piles(view: dict[str, Any]) -> Text:
    text = Text(f"supply {view['supply']}/{view['supply_total']} crates · ")
    text.append(f"draw pile {view['draw_pile']} cards, unseen: ")
    text.append("  ".join(f"{name} {count}" for name, count in view["unseen"].items()))
    text.append("\ndiscards: ")
    text.append("  ".join(f"{name} {count}" for name, count in view["discards"].items()))
    return text
