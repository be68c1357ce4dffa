"""What an agent may look at: one player's view of a state, never the state itself.

An agent that held a :class:`~parlour.core.State` could read the draw pile or another player's
rack by accident. A :class:`PlayerView` keeps the state out of reach and offers only what that
player may know (ruling G-3):

- the player's own view (:meth:`view`, from ``State.view``, the one cut for hidden information),
  with its text and tensor forms;
- whose turn it is and the acting player's legal actions (a player always knows their own moves);
- notation, for logs;
- :meth:`sample_world`: a full state drawn from the worlds consistent with the view
  (``State.sample_world``). In a game of perfect information that is simply a copy. Searching
  sampled worlds is how information-set MCTS reasons about what it cannot see.

Deliberately absent: ``history()`` (chance actions there are other players' hidden draws),
``position()``, ``scores()`` and ``returns()`` of the real state.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from parlour.core import CHANCE_PLAYER, TERMINAL_PLAYER, Game, Information, State


class PlayerView:
    """One player's window onto a state. ``player`` defaults to the player to act."""

    __slots__ = ("__state", "game", "player")

    def __init__(self, state: State, player: int | None = None) -> None:
        self.__state = state  # name-mangled: not part of the interface
        self.game: Game = state.get_game()
        self.player: int = state.current_player() if player is None else player

    # -- whose turn -----------------------------------------------------------------------
    def current_player(self) -> int:
        return self.__state.current_player()

    def is_terminal(self) -> bool:
        return self.__state.current_player() == TERMINAL_PLAYER

    def is_chance_node(self) -> bool:
        return self.__state.current_player() == CHANCE_PLAYER

    def legal_actions(self) -> list[int]:
        """The player's own legal actions (empty when it is not their turn)."""
        if self.__state.current_player() != self.player:
            return []
        return self.__state.legal_actions()

    # -- what the player sees -------------------------------------------------------------
    def view(self, player: int | None = None) -> dict[str, Any]:
        """The player's view. ``player``, if given, must be this view's player (so that code
        written against ``State.view(player)`` runs unchanged on a view)."""
        if player is not None and player != self.player:
            raise PermissionError(
                f"player {self.player}'s agent cannot look at player {player}'s view"
            )
        return self.__state.view(self.player)

    def observation_string(self) -> str:
        return self.__state.observation_string(self.player)

    def observation_tensor(self) -> np.ndarray:
        return self.__state.observation_tensor(self.player)

    def information_state_string(self) -> str:
        return self.__state.information_state_string(self.player)

    def action_to_string(self, action: int) -> str:
        return self.__state.action_to_string(action, self.player)

    @property
    def perfect_information(self) -> bool:
        return self.game.get_type().information == Information.PERFECT

    # -- worlds ---------------------------------------------------------------------------
    def sample_world(self, rng: random.Random) -> State:
        """A full state consistent with this view: the agent's to search, change and discard."""
        return self.__state.sample_world(self.player, rng)

    def __repr__(self) -> str:
        return f"<PlayerView of player {self.player} in {self.game}>"
