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

from parlour.i18n import _, gettext, ngettext

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
    names = list(names or [_("Player {n}").format(n=i + 1) for i in range(len(view["planks"]))])
    return Group(_title(view, names), _pontoon(view), _planks(view, names), _piles(view))


def _title(view: dict[str, Any], names: Sequence[str]) -> Text:
    text = Text(_("Stomp the Plank · turn {n} · ").format(n=view["turn"]), style="bold")
    if view["terminal"]:
        text.append(_ending(view, names), style="bold red")
    else:
        who = f"{names[view['active']]}:"
        doing = {
            "start": _("must draw"),
            "choose": _("draw or stop"),
            "card": _("reveals a card"),
        }[view["phase"]]
        text.append(f"{who} {doing}", style="bold cyan")
    return text


def _ending(view: dict[str, Any], names: Sequence[str]) -> str:
    end = view["end"]
    if end == "turn-limit":
        return _("turn limit reached: no one lost")
    if end == "last-spot":
        return _("{name} filled the pontoon and wins!").format(name=names[view["active"]])
    lost = _(" and ").join(names[p] for p in view["losers"])
    if end == "tip-stop":
        return _("{names} tipped under the crates: overboard!").format(names=lost)
    return _("{names} stepped into the water: overboard!").format(names=lost)


def _pontoon(view: dict[str, Any]) -> Panel:
    table = Table(box=box.ROUNDED, show_header=True, header_style="bold")
    crates, pontoon = view["crates"], view["pontoon"]
    cards = []
    for i in range(view["spots"]):
        prize = (_("WIN") if i >= len(crates)
                 else ngettext("{n} crate", "{n} crates", crates[i]).format(n=crates[i]))
        table.add_column(_("spot {n}").format(n=i + 1) + f"\n{prize}", justify="center",
                         min_width=9)
        if i < len(pontoon):
            cards.append(Text(_card(pontoon[i]), style=TREASURE_STYLE.get(pontoon[i], "")))
        else:
            cards.append(Text("·", style="dim"))
    table.add_row(*cards)
    return Panel(table, title=_("pontoon"), expand=False)


def _card(name: str) -> str:
    """A treasure as the reader names it ("coins": "Coins", "Pièces" in French)."""
    return gettext(name.capitalize()).lower()


def _planks(view: dict[str, Any], names: Sequence[str]) -> Panel:
    table = Table(box=box.SIMPLE, show_header=True, header_style="bold")
    for column in ("", _("player"), _("crates"), _("step"), _("balance"),
                   _("plank: █ load ░ room")):
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
        name = names[seat] + (_(" (you)") if seat == view["player"] else "")
        table.add_row(
            mark, name, str(plank["crates"]), str(plank["step"]),
            Text(str(plank["balance"]), style="bold red" if plank["balance"] <= weight else ""),
            bar,
        )
    return Panel(table, title=_("planks (tip at {tip}, a step weighs {weight})").format(
        tip=tip_at, weight=weight), expand=False)


def _piles(view: dict[str, Any]) -> Text:
    text = Text(_("supply {n}/{total} crates · ").format(n=view["supply"],
                                                        total=view["supply_total"]))
    text.append(_("draw pile {n} cards, unseen: ").format(n=view["draw_pile"]))
    text.append("  ".join(f"{_card(name)} {count}" for name, count in view["unseen"].items()))
    text.append(_("\ndiscards: "))
    text.append("  ".join(f"{_card(name)} {count}" for name, count in view["discards"].items()))
    return text
