"""How Stomp the Plank reads to people (see :mod:`parlour.core.presentation`)."""

from __future__ import annotations

from typing import Any

from parlour.core.presentation import LobbyOption, Presentation, Turn, register_presentation
from parlour.i18n import N_, Lazy, Message, message_n, translate


@register_presentation("stomp-the-plank")
class StompThePlankPresentation(Presentation):
    how_to_move = N_(
        "type `draw` (or d) to turn over a card, `stop` (or s) to end your turn and load the "
        "others' planks"
    )
    blurb = N_("Push your luck turning treasure cards; stop in time, or your plank tips into the "
               "sea.")
    length = N_("10–15 min")
    lobby_options = (LobbyOption("players", N_("Players"), "players"),)
    parameters = {
        "players": (N_("Players"), N_("2 to 4 players")),
        "crates": (N_("Crates for each spot"),
                   N_("Crates given for stopping on spots 1, 2, and so on, joined by commas; a "
                      "card on the spot after the last wins")),
        "tip_at": (N_("Weight that tips a plank"),
                   N_("A plank tips when its crates and the elephant's steps weigh this much")),
        "step_weight": (N_("Weight of a step"),
                        N_("How many crates one step of the elephant weighs")),
        "supply": (N_("Crates in the supply"), N_("None are given once it is empty")),
        "max_turns": (N_("Most turns"),
                      N_("The game ends with no loser after this many turns")),
        "position": (N_("Start from a position"),
                     N_("A game in Stomp the Plank's notation, as the rules page writes it; it "
                        "sets the number of players")),
    }

    def ends_turn(self, text: str | None) -> bool:
        return text == "stop"

    def turn_text(self, turn: Turn) -> str:
        """The cards a turn turned up (public), and how it ended: a stop and the crates it
        gave, a match (caught), or the last spot filled."""
        cards = [c.capitalize() for c in turn.chance if c]
        names = Lazy(lambda _language: ", ".join(translate(Message(c)) for c in cards))
        drew = Message("drew {cards}", cards=names) if cards else Message("drew")
        if turn.texts and turn.texts[-1] == "stop":
            crates: tuple[int, ...] = tuple(self._game.crates)
            spot = len(cards)
            given = crates[spot - 1] if 0 < spot <= len(crates) else 0
            if not given:
                return Message("{drew}, stopped: no crates", drew=drew)
            if self.game.num_players() == 2:
                return message_n("{drew}, stopped: {n} crate to the other player",
                                 "{drew}, stopped: {n} crates to the other player", given,
                                 drew=drew)
            return message_n("{drew}, stopped: {n} crate to each other player",
                             "{drew}, stopped: {n} crates to each other player", given, drew=drew)
        if len(cards) != len(set(cards)):
            return Message("{drew}: caught, the elephant steps on", drew=drew)
        if cards and len(cards) == self._game.spots:
            return Message("{drew}: filled the last spot", drew=drew)
        return drew

    @property
    def _game(self) -> Any:
        """The configured game, read for its crates and spots (P2)."""
        return self.game
