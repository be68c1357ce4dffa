"""How GobbleStones reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

import re
from typing import Any

from parlour.core.game import State
from parlour.core.presentation import LobbyOption, Presentation, Turn, register_presentation
from parlour.i18n import N_, Message, message_n

_SQUARE = re.compile(r"^([a-z])(\d+)(?::([a-z?]))?$")
_CLOSING = frozenset({"end", "pass", "challenge", "trust"})
_DECISIONS = {"pass": Message("passed"), "challenge": Message("challenged the play"),
              "trust": Message("trusted the play")}


@register_presentation("gobblestones")
class GobbleStonesPresentation(Presentation):
    how_to_move = N_(
        "type the squares your tiles cover, in one straight line (h8-h11 or h8 h9 h10); `pass` "
        "lays none; bluffing: add the tile's colour (h8:r)"
    )
    blurb = N_("Lay coloured tiles in straight lines on a patchwork board and score the squares "
               "you cover.")
    length = N_("30–45 min")
    lobby_options = (
        LobbyOption("players", N_("Players"), "players"),
        LobbyOption("bluff", N_("Bluffing variant: tiles face down, plays may be challenged"),
                    "bool"),
    )
    parameters = {
        "players": (N_("Players"), N_("2 to 4 players")),
        "bluff": (N_("Bluffing variant"),
                  N_("Tiles face down, and plays may be challenged")),
        "board": (N_("Board"), N_("A board of 15 rows of coloured squares with their values, "
                                  "instead of one drawn by chance")),
        "max_turns": (N_("Most turns"),
                      N_("The game ends, scored as usual, after this many turns; a normal game "
                         "never reaches 500")),
        "position": (N_("Start from a position"),
                     N_("A game in GobbleStones' notation, as the rules page writes it")),
    }
    points_label = "mean points"

    def ends_turn(self, text: str | None) -> bool:
        return text in _CLOSING

    def turn_text(self, turn: Turn) -> str:
        """A play reads as the squares it covered (``h8-h11``) and the points it won, a
        face-down play as its number of tiles; a pass or a bluff decision in words."""
        text = self._play_text([t or "?" for t in turn.texts])
        if turn.gained and not isinstance(text, Message):
            text += f" {turn.gained:+g}"
        return text

    @staticmethod
    def _play_text(texts: list[str]) -> str:
        if len(texts) == 1 and texts[0] in _DECISIONS:
            return _DECISIONS[texts[0]]
        tiles = [m for t in texts if (m := _SQUARE.match(t))]
        if not tiles:
            return ", ".join(texts)
        if any(m.group(3) == "?" for m in tiles):
            return message_n("{n} tile, face down", "{n} tiles, face down", len(tiles))
        squares = [m.group(1) + m.group(2) for m in tiles]
        return squares[0] if len(squares) == 1 else f"{squares[0]}-{squares[-1]}"

    def timeout_decision(self, state: State[Any]) -> int | None:
        """A bluff decision (B9) left to the clock trusts the play."""
        game: Any = self.game
        trust = int(game.TRUST)
        if state.current_player() >= 0 and trust in state.legal_actions():
            return trust
        return None
