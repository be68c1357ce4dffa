"""How Stomp the Plank reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

from typing import Any

from parlour.core.presentation import Presentation, Turn, register_presentation


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@register_presentation("stomp-the-plank")
class StompThePlankPresentation(Presentation):
    how_to_move = (
        "type `draw` (or d) to turn over a card, `stop` (or s) to end your turn and load the "
        "others' planks"
    )

    def ends_turn(self, text: str | None) -> bool:
        return text == "stop"

    def turn_text(self, turn: Turn) -> str:
        """The cards a turn turned up (public), and how it ended: a stop and the crates it
        gave, a match (caught), or the last spot filled."""
        cards = [c.capitalize() for c in turn.chance if c]
        drew = f"drew {', '.join(cards)}" if cards else "drew"
        if turn.texts and turn.texts[-1] == "stop":
            crates: tuple[int, ...] = tuple(self._game.crates)
            spot = len(cards)
            given = crates[spot - 1] if 0 < spot <= len(crates) else 0
            if not given:
                return f"{drew}, stopped: no crates"
            two = self.game.num_players() == 2
            whom = "to the other player" if two else "to each other player"
            return f"{drew}, stopped: {_plural(given, 'crate')} {whom}"
        if len(cards) != len(set(cards)):
            return f"{drew}: caught, the elephant steps on"
        if cards and len(cards) == self._game.spots:
            return f"{drew}: filled the last spot"
        return drew

    @property
    def _game(self) -> Any:
        """The configured game, read for its crates and spots (P2)."""
        return self.game
