"""How Clobber reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

from typing import Any

from parlour.core.game import State
from parlour.core.presentation import LobbyOption, Presentation, register_presentation
from parlour.i18n import N_


@register_presentation("clobber")
class ClobberPresentation(Presentation):
    how_to_move = N_(
        "type the square of your stone, then the square of the enemy stone next to it that it "
        "captures"
    )
    colour_names_seat = True
    blurb = N_("Move onto a neighbouring enemy stone to capture it; whoever makes the last move "
               "wins.")
    length = N_("5–10 min")
    lobby_options = (
        LobbyOption("size", N_("Board"), choices=(
            ("", "5 x 6"), ("6x7", "6 x 7"), ("8x8", "8 x 8"), ("10x10", "10 x 10"))),
        LobbyOption("first", N_("Who starts"), choices=(
            ("white", N_("White")), ("black", N_("Black")))),
        LobbyOption("cannibal", N_("Cannibal Clobber: stones may also capture their own colour"),
                    "bool"),
    )
    parameters = {
        "rows": (N_("Board rows"), N_("1 to 99 rows")),
        "columns": (N_("Board columns"), N_("1 to 26 columns")),
        "size": (N_("Board size"), N_("Rows x columns, such as 5x6, 6x7 or 10x10")),
        "first": (N_("Who starts"), N_("The colour that moves first")),
        "position": (N_("Start from a position"),
                     N_("A board in Clobber's notation, as the rules page writes it")),
        "graph": (N_("Board drawn as a network"),
                  N_("Points joined by lines instead of a grid: pairs such as a-b b-c")),
        "cannibal": (N_("Cannibal Clobber"), N_("A stone may also capture one of its own colour")),
    }

    def seat_colour(self, state: State[Any], player: int) -> str | None:
        return ("White", "Black")[player] if player in (0, 1) else None

    def ends_turn(self, text: str | None) -> bool:
        return True  # every move is a whole turn
