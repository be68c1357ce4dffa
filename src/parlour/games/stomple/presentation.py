"""How Stomple reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

from typing import Any

from parlour.core.game import State
from parlour.core.presentation import (
    LobbyOption,
    Presentation,
    Turn,
    joined,
    register_presentation,
)
from parlour.i18n import N_


@register_presentation("stomple")
class StomplePresentation(Presentation):
    how_to_move = N_(
        "type the hole of the marble to stomp; a string is several holes in order (d4 e5 f6)"
    )
    points_label = "mean game points"
    blurb = N_("Hop your stomper over a tray of marbles, stomping strings of one colour; outlast "
               "the others.")
    length = N_("15–30 min")
    lobby_options = (
        LobbyOption("players", N_("Players"), "players"),
        LobbyOption("rounds", N_("Length"), choices=(
            ("0", N_("Play to the target")), ("1", N_("One round")))),
        LobbyOption("target", N_("Target points"), "int", placeholder=N_("as usual")),
    )
    parameters = {
        "players": (N_("Players"), N_("2 to 6 players")),
        "target": (N_("Target points"),
                   N_("Points that end the game; as usual 40, 20, 15, 10 and 10 for 2 to 6 "
                      "players")),
        "rounds": (N_("Rounds"), N_("0: play rounds until someone reaches the target; 1: one "
                                    "round")),
        "position": (N_("Start from a position"),
                     N_("A tray in Stomple's notation, as the rules page writes it")),
    }

    def seat_colour(self, state: State[Any], player: int) -> str | None:
        """The stomper colour the seat drew this round, once drawn."""
        colours = state.view(None).get("colours") or []
        colour = colours[player] if player < len(colours) else None
        return str(colour) if colour else None

    def turn_text(self, turn: Turn) -> str:
        """A string reads as the holes stomped in order: ``c4 > d4 > e5``."""
        return joined(" > ", turn.texts)
