"""How Clobber reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

from typing import Any

from parlour.core.game import State
from parlour.core.presentation import Presentation, register_presentation
from parlour.i18n import N_


@register_presentation("clobber")
class ClobberPresentation(Presentation):
    how_to_move = N_(
        "type the square of your stone, then the square of the enemy stone next to it that it "
        "captures"
    )
    colour_names_seat = True

    def seat_colour(self, state: State[Any], player: int) -> str | None:
        return ("White", "Black")[player] if player in (0, 1) else None

    def ends_turn(self, text: str | None) -> bool:
        return True  # every move is a whole turn
